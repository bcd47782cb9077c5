// A hand prepared for enumeration at one level (cardroom.guandan.combinations.HandView).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "cards.hpp"
#include "plays.hpp"

namespace cardroom {

// Every distinct multiset of each size taken from one rank's cards held in a given 8-bit suit pattern,
// in the order cardroom's HandView lists them (itertools.product over the suits held, first suit
// slowest, counts rising).
const std::vector<uint8_t>& rank_subsets(unsigned pattern, int size);

// Counts per card of a hand; raises std::invalid_argument naming the card held more than twice.
struct Hand {
    std::array<uint8_t, CARD_COUNT> counts{};
    int size = 0;

    static Hand from_cards(Cards cards);
    Cards cards() const;
};

struct HandView {
    int level;
    int wild;         // the index of the ♥ level card (逢人配)
    int wilds;        // how many the hand holds
    int small_jokers;
    int big_jokers;
    int big_wilds;    // big jokers that may be played as wild cards (big_joker_wild)
    Orders orders;
    std::array<unsigned, 15> pattern{};  // per natural rank, the suits held (wild cards apart)
    std::array<int, 15> totals{};
    std::array<int, 15> suit_mask{};

    HandView(const Hand& hand, int level, const PlayRules& rules);

    const std::vector<uint8_t>& subsets(int rank, int size) const { return rank_subsets(pattern[rank], size); }
};

}  // namespace cardroom
