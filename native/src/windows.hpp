// Windows on the sequence line A(1) 2 … K A(14), and the tests of 选择大的牌型为优先 built on them
// (cardroom.guandan.extended: WINDOWS, highest_top, lowest_wing, best_airplane_top, best_chain_key).
#pragma once
#include <array>
#include <vector>

#include "plays.hpp"

namespace cardroom {

// ``length`` consecutive positions low…top: the ranks in print order and their bitmask (bit ``rank``;
// the ace is bit 14 at either end).
struct Window {
    int top;
    int low;
    int mask;
    std::array<int, 13> ranks;
};

// Every window of one length (1…13), highest top first.
const std::vector<Window>& windows(int length);

// The top of the highest window of ``length`` ranks holding every rank of ``mask``; 0 if none.
int highest_top(int mask, int length);
// The top of the lowest window holding ``mask`` and none of ``taken``; 0 if none.
int lowest_wing(int mask, int length, int taken);
// The highest triple top of an airplane over these natural cards (extended.best_airplane_top).
int best_airplane_top(int naturals, int triples, int length);
// The highest key of a chained bomb of ``size`` cards over these natural cards; 0 if none.
int best_chain_key(const PlayRules& rules, int naturals, int most, int size);
// Whether ``size`` cards whose natural cards are of the ranks in ``naturals`` (that many ranks, at most
// ``most`` of one), the rest wild, can be a bomb of one rank or a chained bomb.
bool bomb_reading_exists(const PlayRules& rules, int naturals, int rank_count, int most, int size);

}  // namespace cardroom
