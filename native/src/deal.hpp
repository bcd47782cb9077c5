// The play phase of a deal (cardroom.guandan.deal.Deal from its first lead): turns, passes, tricks,
// 接风, places; and random playouts inside the core.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "card_plays.hpp"
#include "hand.hpp"

namespace cardroom {

// xoshiro256** seeded through splitmix64: the core's injected randomness.
struct Random {
    std::array<uint64_t, 4> state{};
    explicit Random(uint64_t seed);
    uint64_t next();
    uint64_t below(uint64_t bound);  // uniform in [0, bound)
};

struct DealRules {
    PlayRules plays;
    bool lead_passes_to_partner = true;
};

// A deal in its play phase; about 300 bytes.
struct DealState {
    std::array<Hand, 4> hands;
    DealRules rules;
    int8_t level = 2;
    int8_t current = 0;
    int8_t last_seat = -1;  // -1: the player to act leads
    int8_t passes = 0;
    int8_t finished_count = 0;
    std::array<int8_t, 4> finished{};
    std::array<int8_t, 4> places{};  // filled once over
    bool over = false;
    PackedPlay last_play;

    DealState(const std::array<Hand, 4>& dealt, int level, int leader, const DealRules& rules);

    bool is_finished(int seat) const;
    // The legal plays of the player to act, PASS first when following (PASS has kind 0, no cards).
    void legal(PlayList& out) const;
    // Apply a play of the player to act, trusted to be legal (it came from legal()).
    void apply(const PackedPlay& play);

  private:
    int next_active(int seat) const;
    void end_trick(int winner);
};

struct Action {
    int8_t seat;
    PackedPlay play;
};

// Shuffle both decks and deal 27 each, seat 0 first; the turned card's holder leads.
std::array<Hand, 4> shuffled_hands(Random& random, int& leader);

// Play a deal out choosing uniformly among the legal plays at every turn (to the end of the current
// trick only, ``trick_only``); the actions go to ``log`` when given. Returns the number of actions.
int random_playout(DealState& deal, Random& random, std::vector<Action>* log, bool trick_only = false);

}  // namespace cardroom
