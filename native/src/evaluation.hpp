// The search's evaluation (cardroom.bots.evaluation, its reference): a position's expected outcome for a
// seat's team over the finishing orders a Plackett-Luce model of the four plans gives, to the bit.
#pragma once
#include <array>

#include "deal.hpp"
#include "heuristic.hpp"

namespace cardroom::evaluation {

constexpr int FEATURE_COUNT = 12;
using Weights = std::array<double, FEATURE_COUNT>;

// What the value needs beyond the deal: the fitted weights (evaluation.WEIGHTS), the rule set's level
// rises by the 上游's partner's place (RuleSet.partner_rises) and Python's kind of float sum.
struct Model {
    Weights weights{};
    std::array<int, 3> partner_rises{3, 2, 1};
    bool compensated = false;
};

// places_value: 1 + the rise for the team that took 上游, its negative for the other.
int places_value(const std::array<int8_t, 4>& places, int seat, const Model& model);

// position_value: exact once the deal is over, else the expected places_value over the orders.
double position_value(const DealState& deal, int seat, heuristic::PlanCache& plans, const Model& model);

}  // namespace cardroom::evaluation
