// The heuristic bot's play-phase decision (cardroom.bots.heuristic.HeuristicBot.play, its reference):
// the same plan, the same special cases and the same card choices, so the play chosen is identical.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <unordered_map>

#include "deal.hpp"
#include "planner.hpp"
#include "plays.hpp"

namespace cardroom::heuristic {

// The plans of hands at one level, remembered (a playout asks again and again for the same hands).
class PlanCache {
  public:
    PlanCache(int level, bool compensated) : level_(level), compensated_(compensated) {}
    const planning::HandPlan& plan(const Hand& hand);
    int level() const { return level_; }

  private:
    struct CardsHash {
        size_t operator()(Cards cards) const {
            auto lo = uint64_t(cards), hi = uint64_t(cards >> 64);
            return size_t(lo * 0x9E3779B97F4A7C15ull ^ (hi + 0x632BE59BD9B4E019ull + (lo << 6) + (lo >> 2)));
        }
    };
    int level_;
    bool compensated_;
    std::unordered_map<Cards, planning::HandPlan, CardsHash> plans_;
};

// What the seat to play sees that the heuristic reads (its _Table): its hand, every seat's card count,
// the cards it cannot see by rank (index 0: the unseen wild cards, ♥ of the level; 2…14 the other
// natural cards of each rank; 15 and 16 the jokers), the play to beat and who made it.
struct Seen {
    Hand hand;
    std::array<int, 4> counts{};
    std::array<int, 17> unseen{};
    int seat = 0;
    int previous_seat = -1;  // -1: the seat leads
    PackedPlay previous;     // kind PASS when leading
    int level = 2;
    PlayRules rules;
};

// The view of the player to act in a deal (the unseen cards are the other seats' hands).
Seen seen_of(const DealState& deal);

// HeuristicBot's tunable thresholds (its class attributes), at their defaults.
struct Parameters {
    int bomb_threat = 10;              // BOMB_THREAT
    int block_threat = 3;              // BLOCK_THREAT
    double break_gain = 0.5;           // BREAK_GAIN
    double break_gain_threatened = -1.5;  // BREAK_GAIN_THREATENED
    int break_candidates = 4;          // BREAK_CANDIDATES
    int feed_partner_at = 2;           // FEED_PARTNER_AT
};

// HeuristicBot.play: the play the heuristic chooses (PASS, kind 0, to pass). Every rule set: the
// heuristic reads the competition's plays, and checks its choice against ``seen.rules``.
PackedPlay play(const Seen& seen, PlanCache& plans);
PackedPlay play(const Seen& seen, PlanCache& plans, const Parameters& parameters);

}  // namespace cardroom::heuristic
