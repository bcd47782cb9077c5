// The bots' hand planner (组牌) of cardroom.bots.planning, its reference: the least-cost split of a hand
// into plays, with the same search order, leaf budget and costs, summed in the same order as Python does
// (so the plans are identical, costs bit for bit).
#pragma once
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "cards.hpp"

namespace cardroom::planning {

// Python's sum() of floats from its int start: the first item added to 0, then plain or (Python 3.12
// and later) compensated addition; 0 when empty.
struct Sum {
    bool compensated;
    bool any = false;
    double total = 0.0;
    double carry = 0.0;

    explicit Sum(bool compensated_sum) : compensated(compensated_sum) {}

    void add(double x) {
        if (!any) {
            any = true;
            total = 0.0 + x;
            return;
        }
        if (!compensated) {
            total += x;
            return;
        }
        double t = total + x;
        if (std::fabs(total) >= std::fabs(x))
            carry += (total - t) + x;
        else
            carry += (x - t) + total;
        total = t;
    }

    double value() const {
        if (compensated && carry != 0.0 && std::isfinite(carry)) return total + carry;
        return total;
    }
};

// One play of a plan (planning.Unit): kind and key rank as PlayKind and Rank values, the natural cards'
// ranks (jokers as 15 and 16), the suit of a straight flush and the pair's rank in a full house (-1: none).
struct PlanUnit {
    int kind = 0;
    int rank = 0;
    int size = 0;
    int key = 0;
    double cost = 0.0;
    std::array<int8_t, 8> naturals{};
    int natural_count = 0;
    int wilds = 0;
    int suit = -1;
    int pair_rank = -1;
};

struct HandPlan {
    std::vector<PlanUnit> units;
    double cost = 0.0;
};

// The plan of a hand given as counts per card index at a level (2…14). ``compensated``: Python's sum()
// of floats is compensated (Neumaier, Python 3.12 and later), and the planner's sums must follow it.
HandPlan plan_hand(const std::array<uint8_t, CARD_COUNT>& by_card, int level, bool compensated);

}  // namespace cardroom::planning
