#include "evaluation.hpp"

#include <algorithm>
#include <cmath>

namespace cardroom::evaluation {

namespace {
int team_of(int seat) { return seat % 2; }
int partner(int seat) { return (seat + 2) % 4; }
}  // namespace

int places_value(const std::array<int8_t, 4>& places, int seat, const Model& model) {
    int first = places[0];
    int partner_place = 0;
    for (int i = 0; i < 4; ++i)
        if (places[size_t(i)] == partner(first)) partner_place = i + 1;
    int value = 1 + model.partner_rises[size_t(partner_place - 2)];
    return team_of(first) == team_of(seat) ? value : -value;
}

double position_value(const DealState& deal, int seat, heuristic::PlanCache& plans, const Model& model) {
    if (deal.over()) return places_value(deal.places, seat, model);
    std::array<int, 4> active{};
    int count = 0;
    for (int other = 0; other < 4; ++other)
        if (!deal.is_finished(other)) active[size_t(count++)] = other;
    std::array<int, 4> plain{}, bombs{};
    std::array<double, 4> cost{};
    for (int i = 0; i < count; ++i) {
        const planning::HandPlan& plan = plans.plan(deal.hands[size_t(active[size_t(i)])]);
        for (const planning::PlanUnit& unit : plan.units) ++(is_bomb(unit.kind) ? bombs : plain)[size_t(i)];
        cost[size_t(i)] = plan.cost;
    }
    std::array<double, 4> strengths{};
    for (int i = 0; i < count; ++i) {
        int other = active[size_t(i)];
        int opponents_bombs = 0;
        for (int j = 0; j < count; ++j)
            if (team_of(active[size_t(j)]) != team_of(other)) opponents_bombs += bombs[size_t(j)];
        double lead = other == deal.current ? 1.0 : 0.0;
        double partner_lead = partner(other) == deal.current ? 1.0 : 0.0;
        int own_plain = plain[size_t(i)], own_bombs = bombs[size_t(i)];
        const std::array<double, FEATURE_COUNT> features{
            double(own_plain),
            double(own_bombs),
            double(deal.hands[size_t(other)].size),
            cost[size_t(i)],
            lead,
            partner_lead,
            double(opponents_bombs),
            own_plain <= 1 ? 1.0 : 0.0,
            own_plain <= 2 ? 1.0 : 0.0,
            own_plain * lead,
            own_bombs * lead,
            lead * (own_plain + own_bombs <= 1 ? 1.0 : 0.0),
        };
        planning::Sum strength(model.compensated);
        for (int f = 0; f < FEATURE_COUNT; ++f) strength.add(model.weights[size_t(f)] * features[size_t(f)]);
        strengths[size_t(i)] = strength.value();
    }
    double top = *std::max_element(strengths.begin(), strengths.begin() + count);
    std::array<double, 4> weight{};
    planning::Sum total(model.compensated);
    for (int i = 0; i < count; ++i) {
        weight[size_t(i)] = std::exp(strengths[size_t(i)] - top);
        total.add(weight[size_t(i)]);
    }
    double all = total.value();
    std::array<int, 4> order{0, 1, 2, 3};
    std::array<int8_t, 4> places{};
    for (int i = 0; i < deal.finished_count; ++i) places[size_t(i)] = deal.finished[size_t(i)];
    planning::Sum value(model.compensated);
    do {  // itertools.permutations' order
        double probability = 1.0, rest = all;
        for (int i = 0; i + 1 < count; ++i) {
            double w = weight[size_t(order[size_t(i)])];
            probability *= w / rest;
            rest -= w;
        }
        for (int i = 0; i < count; ++i) places[size_t(deal.finished_count + i)] = int8_t(active[size_t(order[size_t(i)])]);
        value.add(probability * places_value(places, seat, model));
    } while (std::next_permutation(order.begin(), order.begin() + count));
    return value.value();
}

}  // namespace cardroom::evaluation
