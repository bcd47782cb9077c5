// Packed plays (24 bytes) and the competition's order of ranks and keys (cardroom.guandan.plays).
#pragma once
#include <array>
#include <cstdint>

#include "cards.hpp"

namespace cardroom {

enum Kind : uint8_t {
    PASS = 0, SINGLE = 1, PAIR = 2, TRIPLE = 3, FULL_HOUSE = 4, STRAIGHT = 5, TUBE = 6, PLATE = 7,
    BOMB = 8, STRAIGHT_FLUSH = 9, FOUR_JOKERS = 10, AIRPLANE = 11, THREE_JOKERS = 12, CHAIN_BOMB = 13,
};
constexpr int KIND_COUNT = 14;

constexpr bool is_bomb(int kind) {
    return kind == BOMB || kind == STRAIGHT_FLUSH || kind == FOUR_JOKERS || kind == THREE_JOKERS ||
           kind == CHAIN_BOMB;
}

constexpr int LEVEL_ORDER = 15;
constexpr int BOMB_TIER_STEP = 32;
constexpr int STRAIGHT_FLUSH_TIER = 3;
constexpr int FOUR_JOKERS_TIER = 100;
constexpr uint8_t NO_CARD = 0xFF;

constexpr int bomb_tier(int size) { return size <= 5 ? size - 3 : size - 2; }

// Order of ranks for singles, pairs, triples, full houses and bombs (the level rank above the ace).
struct Orders {
    std::array<int, 17> value{};
    explicit Orders(int level) {
        for (int rank = 0; rank < 17; ++rank)
            value[rank] = rank == level ? LEVEL_ORDER : rank + (rank >= RANK_SMALL_JOKER ? 1 : 0);
    }
    int operator[](int rank) const { return value[rank]; }
};

// One play in 24 bytes: the cards as a multiset (108 bits), kind and key rank in the spare bits, the
// key, and what each wild card stands for (at most four, NO_CARD where unused), in order.
struct PackedPlay {
    uint64_t lo = 0;
    uint64_t hi = 0;  // bits 0-43: cards 32-53; 44-47 kind; 48-52 rank
    uint32_t key = 0;
    std::array<uint8_t, 4> stands{NO_CARD, NO_CARD, NO_CARD, NO_CARD};

    static constexpr uint64_t CARD_BITS_HI = (uint64_t(1) << 44) - 1;

    Cards cards() const { return (Cards(hi & CARD_BITS_HI) << 64) | lo; }
    int kind() const { return int(hi >> 44) & 0xF; }
    int rank() const { return int(hi >> 48) & 0x1F; }
    int size() const { return card_total(cards()); }
    int wild_count() const {
        int count = 0;
        while (count < 4 && stands[count] != NO_CARD) ++count;
        return count;
    }
    bool beats(const PackedPlay& previous) const {
        int own = kind(), other = previous.kind();
        if (own == PASS || other == PASS) return false;
        if (is_bomb(own)) return !is_bomb(other) || key > previous.key;
        return own == other && size() == previous.size() && key > previous.key;
    }
};
static_assert(sizeof(PackedPlay) == 24);

inline PackedPlay make_play(int kind, int rank, Cards cards, uint32_t key) {
    PackedPlay play;
    play.lo = uint64_t(cards);
    play.hi = (uint64_t(cards >> 64) & PackedPlay::CARD_BITS_HI) | (uint64_t(kind) << 44) |
              (uint64_t(rank) << 48);
    play.key = key;
    return play;
}

}  // namespace cardroom
