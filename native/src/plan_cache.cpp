// PlanCache (heuristic.hpp): the plans of hands at one level, remembered.
#include "heuristic.hpp"

namespace cardroom::heuristic {

namespace {
constexpr size_t PLAN_CACHE_LIMIT = 1 << 14;  // a few MB of plans

Cards cards_of(const Hand& hand) {
    Cards cards = 0;
    for (int index = 0; index < CARD_COUNT; ++index) cards |= Cards(hand.counts[index]) << (2 * index);
    return cards;
}
}  // namespace

const planning::HandPlan& PlanCache::plan(const Hand& hand) {
    Cards key = cards_of(hand);
    auto found = plans_.find(key);
    if (found != plans_.end()) return found->second;
    if (plans_.size() >= PLAN_CACHE_LIMIT) plans_.clear();
    return plans_.emplace(key, planning::plan_hand(hand.counts, level_, compensated_)).first->second;
}

}  // namespace cardroom::heuristic
