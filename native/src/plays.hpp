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

// The play parameters of a rule set (cardroom.guandan.ruleset.RuleSet), passed as data.
struct PlayRules {
    bool natural_straight_flush_is_straight = false;
    bool level_rank_high = true;
    bool two_high = false;
    int straight_lengths[2] = {5, 5};
    int tube_lengths[2] = {3, 3};
    int plate_lengths[2] = {2, 2};
    bool airplanes = false;
    int max_bomb_size = 10;
    bool three_jokers_bomb = false;
    int chain_bomb_lengths[2] = {0, 0};
    bool big_joker_wild = false;
    bool bombs_by_stars = false;

    // RuleSet.extended_plays: any play parameter other than the competition's
    bool extended() const {
        return two_high || !level_rank_high || big_joker_wild || bombs_by_stars || airplanes || three_jokers_bomb ||
               max_bomb_size != 10 || straight_lengths[0] != 5 || straight_lengths[1] != 5 || tube_lengths[0] != 3 ||
               tube_lengths[1] != 3 || plate_lengths[0] != 2 || plate_lengths[1] != 2 || chain_bomb_lengths[0] != 0 ||
               chain_bomb_lengths[1] != 0;
    }
};

// Order of ranks for singles, pairs, triples, full houses and bombs (plays.rank_orders): the line of
// ranks 2 (unless two_high) … A, then 2 (two_high), the level rank (level_rank_high), the jokers.
struct Orders {
    std::array<int, 17> value{};
    explicit Orders(int level, bool level_high = true, bool two_high = false) {
        if (level_high && !two_high) {  // the competition's: face values, the level rank 15, jokers 16 and 17
            for (int rank = 0; rank < 17; ++rank)
                value[rank] = rank == level ? LEVEL_ORDER : rank + (rank >= RANK_SMALL_JOKER ? 1 : 0);
            return;
        }
        std::array<int, 17> line{};
        int count = 0;
        for (int rank = 2; rank <= 14; ++rank)
            if (!(two_high && rank == 2) && !(level_high && rank == level)) line[count++] = rank;
        if (two_high && !(level_high && level == 2)) line[count++] = 2;
        if (level_high) line[count++] = level;
        line[count++] = RANK_SMALL_JOKER;
        line[count++] = RANK_BIG_JOKER;
        for (int place = 0; place < count; ++place) value[line[count - 1 - place]] = 17 - place;
    }
    Orders(int level, const PlayRules& rules) : Orders(level, rules.level_rank_high, rules.two_high) {}
    int operator[](int rank) const { return value[rank]; }
};

constexpr int STAR_STEP = 4096;
constexpr int HALF_STARS_OF_STRAIGHT_FLUSH = 11;
constexpr int THREE_JOKERS_STAR_KEY = 12 * STAR_STEP;
constexpr int FOUR_JOKERS_STAR_KEY = 15 * STAR_STEP - 1;

constexpr int star_key(int half_stars, int size, int value) { return half_stars * STAR_STEP + (128 - size) * 32 + value; }
constexpr int sequence_position(int lowest) { return lowest == 14 ? 1 : lowest; }

// plays.play_key: the comparison key of a play; ``length`` is a chained bomb's number of bombs;
// ``orders`` those of the level.
inline int play_key(int kind, int rank, int size, const Orders& orders, const PlayRules& rules, int length = 0) {
    int width = kind == STRAIGHT || kind == STRAIGHT_FLUSH ? 1 : kind == TUBE ? 2 : kind == PLATE ? 3 : kind == AIRPLANE ? 5 : 0;
    bool stars = rules.bombs_by_stars;
    if (width) {
        int top = sequence_position(rank) + size / width - 1;
        if (kind != STRAIGHT_FLUSH) return top;
        return stars ? star_key(HALF_STARS_OF_STRAIGHT_FLUSH, size, top) : STRAIGHT_FLUSH_TIER * BOMB_TIER_STEP + top;
    }
    if (kind == BOMB) return stars ? star_key(2 * size, size, orders[rank]) : bomb_tier(size) * BOMB_TIER_STEP + orders[rank];
    if (kind == FOUR_JOKERS) return stars ? FOUR_JOKERS_STAR_KEY : FOUR_JOKERS_TIER * BOMB_TIER_STEP;
    if (kind == THREE_JOKERS) return THREE_JOKERS_STAR_KEY;
    if (kind == CHAIN_BOMB) {
        int top = sequence_position(rank) + length - 1;
        return star_key(2 * (size / length + length), size, top);
    }
    return orders[rank];
}

inline int play_key(int kind, int rank, int size, int level, const PlayRules& rules, int length = 0) {
    return play_key(kind, rank, size, Orders(level, rules), rules, length);
}

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
