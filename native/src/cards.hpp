// Cards, ranks and card multisets of the two-deck set, as cardroom.cards numbers them.
#pragma once
#include <cstdint>

namespace cardroom {

// Card indices follow cardroom.cards: 0 small joker, 1 big joker, then 2 + (rank - 2) * 4 + suit for the
// natural cards (suits spades, hearts, clubs, diamonds).
constexpr int CARD_COUNT = 54;
constexpr int SMALL_JOKER = 0;
constexpr int BIG_JOKER = 1;
constexpr int RANK_SMALL_JOKER = 15;
constexpr int RANK_BIG_JOKER = 16;
constexpr int SPADES = 0, HEARTS = 1, CLUBS = 2, DIAMONDS = 3;

constexpr int natural_index(int rank, int suit) { return 2 + (rank - 2) * 4 + suit; }
constexpr int rank_of(int index) { return index == 0 ? RANK_SMALL_JOKER : index == 1 ? RANK_BIG_JOKER : 2 + (index - 2) / 4; }
constexpr int suit_of(int index) { return index < 2 ? -1 : (index - 2) % 4; }

// The rank at a sequence position: 1 and 14 are both the ace.
constexpr int rank_at_position(int position) { return position == 1 ? 14 : position; }

// A multiset of cards: two bits of count per card index (two decks hold each card twice), index i at
// bits 2i and 2i + 1. The print order of cardroom is the index order, so a multiset is a play's cards.
using Cards = unsigned __int128;

constexpr Cards one_card(int index) { return Cards(1) << (2 * index); }
constexpr int count_of(Cards cards, int index) { return int(cards >> (2 * index)) & 3; }

inline int card_total(Cards cards) {
    auto lo = uint64_t(cards), hi = uint64_t(cards >> 64);
    constexpr uint64_t high_bits = 0xAAAAAAAAAAAAAAAAull;
    return __builtin_popcountll(lo) + __builtin_popcountll(lo & high_bits) + __builtin_popcountll(hi) +
           __builtin_popcountll(hi & high_bits);
}

// The four suits of one natural rank held in a multiset, as an 8-bit pattern (two bits per suit).
constexpr int rank_shift(int rank) { return 2 * natural_index(rank, 0); }
constexpr Cards of_rank(int rank, unsigned pattern) { return Cards(pattern) << rank_shift(rank); }
constexpr unsigned pattern_of(Cards cards, int rank) { return unsigned(cards >> rank_shift(rank)) & 0xFF; }

}  // namespace cardroom
