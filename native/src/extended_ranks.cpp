// The rank-level view for rule sets with extended plays (cardroom.guandan.extended_ranks): the kinds
// and lengths of the extended card level on per-rank counts, ♥ level cards before big jokers, a big
// joker named only where the largest-reading test lets it through. Ported function by function.
#include <algorithm>
#include <array>
#include <optional>

#include "rank_plays.hpp"
#include "windows.hpp"

namespace cardroom {

namespace {

// How many of ``need`` wild cards are big jokers (at least ``jokers``); none if the hand has too few.
std::optional<int> split(const RankCounts& view, int need, int jokers = 0) {
    int big = std::max(jokers, need - view.wilds);
    if (big <= view.big_wilds && need - big >= 0) return big;
    return std::nullopt;
}

int suits_of(const RankCounts& view, int rank) {
    int suits = 0;
    for (int suit = 0; suit < 4; ++suit)
        if (view.runs[suit] >> rank & 1) suits |= 1 << suit;
    return suits;
}

void of_a_rank(const RankCounts& view, const PlayRules& rules, int kind, int size, int above, RankList& out) {
    Orders orders(view.level, rules);
    int budget = view.wilds + view.big_wilds;
    bool bomb = kind == BOMB;
    int most = *std::max_element(view.natural.begin(), view.natural.end());
    int first = bomb ? 4 : size, last = bomb ? std::min(most + budget, rules.max_bomb_size) : size;
    for (int count = first; count <= last; ++count) {
        for (int rank = 2; rank <= 14; ++rank) {
            int key = bomb ? play_key(kind, rank, count, view.level, rules) : orders[rank];
            int held = view.natural[rank];
            if (key <= above) continue;
            if (!held) {
                // the ♥ level cards alone, or beside big jokers that copy them, are level cards
                if (rank != view.level || !view.wilds) continue;
                int hearts = std::min(view.wilds, count);
                int big = count - hearts;
                if (big <= view.big_wilds && (count < 3 || big) && (!bomb || count == 4))
                    out.push_back(rank_play(kind, rank, count, count, key, 0xFF, 0xFF, big));
                continue;
            }
            int need = std::max(0, count - held);
            auto big = split(view, need);
            if (!big || (*big && bomb && count == 5 && held == 1)) continue;
            out.push_back(rank_play(kind, rank, count, need, key, 0xFF, 0xFF, *big));
        }
    }
    if (bomb) return;
    int held[2] = {view.small_jokers, view.big_jokers};
    for (int joker = 0; joker < 2; ++joker) {
        int rank = RANK_SMALL_JOKER + joker;
        int key = orders[rank];
        if (key <= above || size > 2) continue;
        if (held[joker] >= size) out.push_back(rank_play(kind, rank, size, 0, key));
        else if (joker == 0 && held[joker] && size == 2 && view.big_wilds)
            out.push_back(rank_play(kind, rank, 2, 1, key, 0xFF, 0xFF, 1));
    }
}

bool full_house_dominated(int rank, int held, int pair_rank, bool natural_pair, const Orders& orders, int top_rank) {
    if (pair_rank == 0) return true;
    if (natural_pair) {
        if (held == 0) return true;
        return held <= 2 && orders[pair_rank] > orders[rank];
    }
    return held == 0 && rank != top_rank;
}

struct PairOption {
    int rank;  // 0: two ♥ level cards
    int kept, need, jokers;
};

void full_houses(const RankCounts& view, const PlayRules& rules, int above, RankList& out) {
    Orders orders(view.level, rules);
    int budget = view.wilds + view.big_wilds;
    int top_rank = 2;
    for (int rank = 2; rank <= 14; ++rank)
        if (orders[rank] > orders[top_rank]) top_rank = rank;
    std::array<PairOption, 18> options{};
    int count = 0;
    for (int rank = 2; rank <= 14; ++rank)
        if (view.natural[rank]) options[count++] = {rank, std::min(view.natural[rank], 2), std::max(0, 2 - view.natural[rank]), 0};
    if (view.small_jokers == 2) options[count++] = {RANK_SMALL_JOKER, 2, 0, 0};
    else if (view.small_jokers && view.big_wilds) options[count++] = {RANK_SMALL_JOKER, 1, 1, 1};
    if (view.big_jokers == 2 && !rules.big_joker_wild) options[count++] = {RANK_BIG_JOKER, 2, 0, 0};
    if (view.wilds == 2) options[count++] = {0, 0, 2, 0};
    for (int rank = 2; rank <= 14; ++rank) {
        int key = orders[rank];
        if (key <= above) continue;
        int kept = std::min(view.natural[rank], 3);
        for (int i = 0; i < count; ++i) {
            const PairOption& option = options[i];
            int need = 3 - kept + option.need;
            if (option.rank == rank || need > budget) continue;
            auto big = split(view, need, option.jokers);
            if (!big) continue;
            bool natural_pair = option.rank >= 2 && option.rank <= 14;
            if (*big) {
                if (full_house_dominated(rank, kept, option.rank, natural_pair, orders, top_rank)) continue;
                if (kept == 1 && natural_pair && option.kept == 1) {
                    int suits = suits_of(view, rank), pair_suits = suits_of(view, option.rank);
                    bool same_suit_only = suits == pair_suits && __builtin_popcount(unsigned(suits)) == 1;
                    if (same_suit_only && highest_top((1 << rank) | (1 << option.rank), 5)) continue;
                }
            }
            out.push_back(rank_play(FULL_HOUSE, rank, 5, need, key, 0xFF, option.rank ? option.rank : 0xFF, *big));
        }
    }
}

// Running totals over sequence positions 0…14 of the cards each rank lacks of ``width``.
std::array<int, 15> shortfalls(const RankCounts& view, int width) {
    std::array<int, 15> sums{};
    for (int position = 1; position < 15; ++position)
        sums[position] = sums[position - 1] + std::max(0, width - view.natural[rank_at_position(position)]);
    return sums;
}

void sequences(const RankCounts& view, const PlayRules& rules, int kind, int width, const int* lengths, int above,
               RankList& out) {
    int budget = view.wilds + view.big_wilds;
    bool straight = kind == STRAIGHT;
    auto sums = shortfalls(view, width);
    for (int length = lengths[0]; length <= lengths[1]; ++length) {
        for (const Window& window : windows(length)) {
            int top = window.top;
            if (top <= above) break;
            int need = sums[top] - sums[window.low - 1];
            if (need > budget) continue;
            int suits = 0;
            for (int run : view.runs) suits += (run & window.mask) != 0;
            bool one_suit = straight && length == 5 && suits == 1;
            bool forced = one_suit && !need && !rules.natural_straight_flush_is_straight;
            if (forced) need = 1;
            auto big = split(view, need);
            if (!big || (forced && *big)) continue;
            if (*big) {
                int naturals = view.present & window.mask;
                int rank_count = __builtin_popcount(unsigned(naturals));
                int most = 0;
                for (int i = 0; i < length; ++i) most = std::max(most, std::min(view.natural[window.ranks[i]], width));
                if (highest_top(naturals, length) != top || (straight && length == 5 && (one_suit || rank_count < 2)) ||
                    (!straight && bomb_reading_exists(rules, naturals, rank_count, most, length * width)))
                    continue;
            }
            out.push_back(rank_play(kind, rank_at_position(window.low), length * width, need, top, 0xFF, 0xFF, *big));
        }
    }
}

void airplanes(const RankCounts& view, const PlayRules& rules, int above, RankList& out) {
    if (!rules.airplanes) return;
    int budget = view.wilds + view.big_wilds;
    auto triple_sums = shortfalls(view, 3), wing_sums = shortfalls(view, 2);
    int threes_held = 0;
    for (int rank = 2; rank <= 14; ++rank)
        if (view.natural[rank] >= 3) threes_held |= 1 << rank;
    for (int length = std::max(2, rules.plate_lengths[0]); length <= std::min(rules.plate_lengths[1], 6); ++length) {
        for (const Window& triples : windows(length)) {
            int top = triples.top;
            if (top <= above) break;
            int taken = triples.mask;
            int triple_need = triple_sums[top] - triple_sums[triples.low - 1];
            if (triple_need > budget) continue;
            for (const Window& wings : windows(length)) {
                if (wings.mask & taken) continue;
                int need = triple_need + wing_sums[wings.top] - wing_sums[wings.low - 1];
                if (need > budget) continue;
                int wing_naturals = view.present & wings.mask;
                if (lowest_wing(wing_naturals, length, taken) != wings.top) continue;
                auto big = split(view, need);
                if (!big) continue;
                int naturals = (view.present & taken) | wing_naturals;
                if (*big && best_airplane_top(naturals, threes_held & taken, length) != top) continue;
                out.push_back(rank_play(AIRPLANE, rank_at_position(triples.low), 5 * length, need, top, 0xFF,
                                    rank_at_position(wings.low), *big));
            }
        }
    }
}

void straight_flushes(const RankCounts& view, const PlayRules& rules, int above, RankList& out) {
    int budget = view.wilds + view.big_wilds;
    for (const Window& window : windows(5)) {
        int lowest = rank_at_position(window.low);
        int key = play_key(STRAIGHT_FLUSH, lowest, 5, view.level, rules);
        if (key <= above) continue;
        int span = 0b11111 << window.low;
        for (int suit = 0; suit < 4; ++suit) {
            int need = 5 - __builtin_popcount(unsigned(view.runs[suit] & span));
            if (need > budget) continue;
            auto big = split(view, need);
            if (!big) continue;
            if (*big && highest_top(view.runs[suit] & window.mask, 5) != window.top) continue;
            out.push_back(rank_play(STRAIGHT_FLUSH, lowest, 5, need, key, suit, 0xFF, *big));
        }
    }
}

void chain_bombs(const RankCounts& view, const PlayRules& rules, int above, RankList& out) {
    int fewest = rules.chain_bomb_lengths[0], longest = rules.chain_bomb_lengths[1];
    if (!longest) return;
    int budget = view.wilds + view.big_wilds;
    for (int width = 4; width <= rules.max_bomb_size; ++width) {
        int strong = 0;
        for (int rank = 2; rank <= 14; ++rank)
            if (view.natural[rank] + budget >= width) strong |= 1 << rank;
        if (__builtin_popcount(unsigned(strong)) < fewest) break;
        for (int length = fewest; length <= longest; ++length) {
            int count = width * length;
            for (const Window& window : windows(length)) {
                int key = star_key(2 * (width + length), count, window.top);
                if (key <= above) break;
                if (window.mask & ~strong) continue;
                int need = 0, naturals = 0, most = 0;
                for (int i = 0; i < length; ++i) {
                    int rank = window.ranks[i];
                    need += std::max(0, width - view.natural[rank]);
                    if (view.natural[rank]) naturals |= 1 << rank;
                    most = std::max(most, std::min(view.natural[rank], width));
                }
                if (need > budget) continue;
                auto big = split(view, need);
                if (!big) continue;
                if (*big && best_chain_key(rules, naturals, most, count) != key) continue;
                out.push_back(rank_play(CHAIN_BOMB, rank_at_position(window.low), count, need, key, 0xFF, 0xFF, *big, length));
            }
        }
    }
}

}  // namespace

void extended_rank_plays(const RankCounts& view, const PlayRules& rules, int kind, int above, RankList& out) {
    switch (kind) {
        case SINGLE: of_a_rank(view, rules, SINGLE, 1, above, out); break;
        case PAIR: of_a_rank(view, rules, PAIR, 2, above, out); break;
        case TRIPLE: of_a_rank(view, rules, TRIPLE, 3, above, out); break;
        case FULL_HOUSE: full_houses(view, rules, above, out); break;
        case STRAIGHT: sequences(view, rules, STRAIGHT, 1, rules.straight_lengths, above, out); break;
        case TUBE: sequences(view, rules, TUBE, 2, rules.tube_lengths, above, out); break;
        case PLATE: sequences(view, rules, PLATE, 3, rules.plate_lengths, above, out); break;
        case AIRPLANE: airplanes(view, rules, above, out); break;
        case BOMB: of_a_rank(view, rules, BOMB, 4, above, out); break;
        case STRAIGHT_FLUSH: straight_flushes(view, rules, above, out); break;
        case CHAIN_BOMB: chain_bombs(view, rules, above, out); break;
        case THREE_JOKERS: {
            int key = play_key(THREE_JOKERS, RANK_SMALL_JOKER, 3, view.level, rules);
            if (rules.three_jokers_bomb && key > above && view.small_jokers && view.big_jokers &&
                view.small_jokers + view.big_jokers >= 3)
                out.push_back(rank_play(THREE_JOKERS, RANK_SMALL_JOKER, 3, 0, key));
            break;
        }
        case FOUR_JOKERS: {
            int key = play_key(FOUR_JOKERS, RANK_SMALL_JOKER, 4, view.level, rules);
            if (view.small_jokers == 2 && view.big_jokers == 2 && key > above)
                out.push_back(rank_play(FOUR_JOKERS, RANK_SMALL_JOKER, 4, 0, key));
            break;
        }
        default: break;
    }
}

}  // namespace cardroom
