// Card-level plays for rule sets whose play parameters differ from the competition's
// (cardroom.guandan.extended, huopin, docs/rules/huopin.md): long sequences, airplanes, bombs up to twelve cards,
// chained and three-joker bombs by stars, the big joker as a second wild card. Ported function by
// function, in the same order, so that both engines list the same plays the same way; the module
// docstring of extended.py explains the readings (选择大的牌型为优先 among them).
#include <algorithm>
#include <array>
#include <stdexcept>

#include "card_plays.hpp"
#include "windows.hpp"

namespace cardroom {

namespace {

constexpr int heart(int rank) { return natural_index(rank, HEARTS); }

inline Cards assemble(Cards naturals, int big, int hearts, const HandView& view) {
    return naturals + Cards(big) * one_card(BIG_JOKER) + Cards(hearts) * one_card(view.wild);
}

struct Splits {
    int first, last;  // inclusive; empty when first > last
};
inline Splits splits(const HandView& view, int used, int jokers = 0) {
    return {std::max(jokers, used - view.wilds), std::min(used, view.big_wilds)};
}

struct Stands {
    std::array<uint8_t, 4> card{NO_CARD, NO_CARD, NO_CARD, NO_CARD};
    int count = 0;
    void add(int index, int times = 1) {
        for (int i = 0; i < times; ++i) card[count++] = uint8_t(index);
    }
};

inline void emit(PlayList& out, int kind, int rank, Cards cards, int key, const Stands& stands) {
    PackedPlay play = make_play(kind, rank, cards, uint32_t(key));
    play.stands = stands.card;
    out.push_back(play);
}

// itertools.product over per-rank choices of multisets (first slowest).
template <typename Visit>
void product(const std::array<const uint8_t*, 13>& options, const std::array<int, 13>& sizes,
             const std::array<int, 13>& ranks, int count, Visit&& visit) {
    std::array<int, 13> at{};
    for (int i = 0; i < count; ++i)
        if (sizes[i] == 0) return;
    for (;;) {
        Cards cards = 0;
        for (int i = 0; i < count; ++i) cards |= of_rank(ranks[i], options[i][at[i]]);
        visit(cards);
        int i = count - 1;
        while (i >= 0 && ++at[i] == sizes[i]) at[i--] = 0;
        if (i < 0) return;
    }
}

// extended._usages: every way to lay at most ``budget`` wild cards, each rank taking what it lacks
// and possibly more in place of held cards, in the pure engine's order.
template <typename Visit>
void usages(const HandView& view, const int* ranks, const int* widths, int count, int budget, Visit&& visit) {
    std::array<int, 13> lacking{};
    int spare = budget;
    for (int i = 0; i < count; ++i) {
        lacking[i] = std::max(0, widths[i] - view.totals[ranks[i]]);
        spare -= lacking[i];
    }
    if (spare < 0) return;
    std::array<int, 13> usage{};
    auto walk = [&](auto&& self, int i, int left) -> void {
        if (i == count) {
            visit(usage);
            return;
        }
        for (int extra = 0; extra <= std::min(widths[i] - lacking[i], left); ++extra) {
            usage[i] = lacking[i] + extra;
            self(self, i + 1, left - extra);
        }
    };
    walk(walk, 0, spare);
}

bool one_suit(Cards naturals) {
    int suit = -1;
    for (int index = 2; index < CARD_COUNT; ++index) {
        if (!count_of(naturals, index)) continue;
        if (suit < 0) suit = suit_of(index);
        else if (suit_of(index) != suit) return false;
    }
    if (count_of(naturals, SMALL_JOKER) || count_of(naturals, BIG_JOKER)) return false;
    return suit >= 0;
}

void singles(const HandView& view, int above, int size, PlayList& out) {
    if (size > 1) return;
    for (int rank = 2; rank <= 14; ++rank) {
        int key = view.orders[rank];
        if (key > above)
            for (uint8_t subset : view.subsets(rank, 1)) out.push_back(make_play(SINGLE, rank, of_rank(rank, subset), uint32_t(key)));
    }
    if (view.wilds && view.orders[view.level] > above) {
        Stands stands;
        stands.add(view.wild);
        emit(out, SINGLE, view.level, one_card(view.wild), view.orders[view.level], stands);
    }
    int held[2] = {view.small_jokers, view.big_jokers};
    for (int joker = 0; joker < 2; ++joker) {
        int key = view.orders[RANK_SMALL_JOKER + joker];
        if (held[joker] && key > above) out.push_back(make_play(SINGLE, RANK_SMALL_JOKER + joker, one_card(joker), uint32_t(key)));
    }
}

void pairs(const HandView& view, int above, int size, PlayList& out) {
    if (size && size != 2) return;
    int wilds = view.wilds, bigs = view.big_wilds;
    for (int rank = 2; rank <= 14; ++rank) {
        int key = view.orders[rank];
        if (key <= above) continue;
        for (uint8_t subset : view.subsets(rank, 2)) out.push_back(make_play(PAIR, rank, of_rank(rank, subset), uint32_t(key)));
        if (!(wilds || bigs)) continue;
        Stands stands;
        stands.add(heart(rank));
        for (uint8_t subset : view.subsets(rank, 1)) {
            if (wilds) emit(out, PAIR, rank, assemble(of_rank(rank, subset), 0, 1, view), key, stands);
            if (bigs) emit(out, PAIR, rank, assemble(of_rank(rank, subset), 1, 0, view), key, stands);
        }
    }
    int key = view.orders[view.level];
    if (key > above) {
        Stands stands;
        stands.add(view.wild, 2);
        if (wilds == 2) emit(out, PAIR, view.level, assemble(0, 0, 2, view), key, stands);
        if (wilds && bigs) emit(out, PAIR, view.level, assemble(0, 1, 1, view), key, stands);
    }
    key = view.orders[RANK_SMALL_JOKER];
    if (key > above) {
        if (view.small_jokers == 2) out.push_back(make_play(PAIR, RANK_SMALL_JOKER, 2 * one_card(SMALL_JOKER), uint32_t(key)));
        if (view.small_jokers && bigs) {
            Stands stands;
            stands.add(SMALL_JOKER);
            emit(out, PAIR, RANK_SMALL_JOKER, one_card(SMALL_JOKER) + one_card(BIG_JOKER), key, stands);
        }
    }
    key = view.orders[RANK_BIG_JOKER];
    if (view.big_jokers == 2 && key > above) out.push_back(make_play(PAIR, RANK_BIG_JOKER, 2 * one_card(BIG_JOKER), uint32_t(key)));
}

// ``size`` cards of one natural rank: natural cards (at least one) and wild cards of both kinds.
template <typename Key>
void of_a_rank(const HandView& view, int kind, int size, int above, Key&& key_of, PlayList& out) {
    int budget = view.wilds + view.big_wilds;
    for (int rank = 2; rank <= 14; ++rank) {
        int key = key_of(rank);
        if (key <= above) continue;
        for (int held = std::min(view.totals[rank], size); held >= std::max(1, size - budget); --held) {
            int used = size - held;
            Stands rank_stands;
            rank_stands.add(heart(rank), used);
            Splits range = splits(view, used);
            for (int big = range.first; big <= range.last; ++big) {
                if (big && size == 5 && held == 1 && kind == BOMB) continue;
                for (uint8_t subset : view.subsets(rank, held))
                    emit(out, kind, rank, assemble(of_rank(rank, subset), big, used - big, view), key, rank_stands);
            }
        }
    }
}

void all_wild(const HandView& view, int kind, int size, int above, int key, PlayList& out) {
    if (key <= above || !view.big_wilds) return;
    for (int hearts = 1; hearts <= view.wilds; ++hearts) {
        int big = size - hearts;
        if (1 <= big && big <= view.big_wilds) {
            Stands stands;
            stands.add(view.wild, size);
            emit(out, kind, view.level, assemble(0, big, hearts, view), key, stands);
        }
    }
}

void triples(const HandView& view, int above, int size, PlayList& out) {
    if (size && size != 3) return;
    of_a_rank(view, TRIPLE, 3, above, [&](int rank) { return view.orders[rank]; }, out);
    all_wild(view, TRIPLE, 3, above, view.orders[view.level], out);
}

void bombs(const HandView& view, const PlayRules& rules, int above, int size, PlayList& out) {
    int most = 0;
    for (int rank = 2; rank <= 14; ++rank) most = std::max(most, view.totals[rank]);
    int largest = std::min(most + view.wilds + view.big_wilds, rules.max_bomb_size);
    for (int count = 4; count <= std::max(largest, 4); ++count) {
        if (size && count != size) continue;
        of_a_rank(view, BOMB, count, above, [&](int rank) { return play_key(BOMB, rank, count, view.level, rules); }, out);
        if (count == 4) all_wild(view, BOMB, 4, above, play_key(BOMB, view.level, 4, view.level, rules), out);
    }
}

struct PairPart {
    int rank;  // 0: two ♥ level cards
    Cards cards;
    int used;
    int jokers;  // wild cards that must stand for a joker
    int single_card;  // the one natural card of a one-natural pair (-1 otherwise)
};

bool full_house_dominated(int rank, int held, int pair_rank, bool natural_pair, const Orders& orders, int top_rank) {
    if (pair_rank == 0) return true;
    if (natural_pair) {
        if (held == 0) return true;
        return held <= 2 && orders[pair_rank] > orders[rank];
    }
    return held == 0 && rank != top_rank;
}

void full_houses(const HandView& view, const PlayRules& rules, int above, int size, PlayList& out) {
    if (size && size != 5) return;
    int budget = view.wilds + view.big_wilds;
    std::vector<PairPart> parts;
    parts.reserve(48);
    for (int rank = 2; rank <= 14; ++rank) {
        for (uint8_t subset : view.subsets(rank, 2)) parts.push_back({rank, of_rank(rank, subset), 0, 0, -1});
        if (budget)
            for (uint8_t subset : view.subsets(rank, 1)) {
                int suit = __builtin_ctz(subset) / 2;
                parts.push_back({rank, of_rank(rank, subset), 1, 0, natural_index(rank, suit)});
            }
    }
    if (view.small_jokers == 2) parts.push_back({RANK_SMALL_JOKER, 2 * one_card(SMALL_JOKER), 0, 0, -1});
    if (view.small_jokers && view.big_wilds) parts.push_back({RANK_SMALL_JOKER, one_card(SMALL_JOKER), 1, 1, -1});
    if (view.big_jokers == 2 && !rules.big_joker_wild)
        parts.push_back({RANK_BIG_JOKER, 2 * one_card(BIG_JOKER), 0, 0, -1});
    if (view.wilds == 2) parts.push_back({0, 0, 2, 0, -1});
    int top_rank = 2;
    for (int rank = 2; rank <= 14; ++rank)
        if (view.orders[rank] > view.orders[top_rank]) top_rank = rank;
    for (int rank = 2; rank <= 14; ++rank) {
        int key = view.orders[rank];
        if (key <= above) continue;
        int triple_heart = heart(rank);
        for (int held = std::min(view.totals[rank], 3); held >= 0; --held) {
            int triple_used = 3 - held;
            if (triple_used > budget) break;
            for (const PairPart& part : parts) {
                int used = triple_used + part.used;
                if (part.rank == rank || used > budget) continue;
                bool natural_pair = part.rank >= 2 && part.rank <= 14;
                int pair_card, pair_times;
                if (part.rank == 0) {
                    pair_card = heart(rank != view.level ? view.level : (view.level == 2 ? 3 : 2));
                    pair_times = 2;
                } else if (!natural_pair) {
                    pair_card = SMALL_JOKER;
                    pair_times = part.used;
                } else {
                    pair_card = heart(part.rank);
                    pair_times = part.used;
                }
                Stands stands;  // sorted by card index
                if (pair_times && pair_card < triple_heart) {
                    stands.add(pair_card, pair_times);
                    stands.add(triple_heart, triple_used);
                } else {
                    stands.add(triple_heart, triple_used);
                    stands.add(pair_card, pair_times);
                }
                Splits range = splits(view, used, part.jokers);
                for (int big = range.first; big <= range.last; ++big) {
                    if (big && full_house_dominated(rank, held, part.rank, natural_pair, view.orders, top_rank)) continue;
                    auto each_triple = [&](Cards triple, int first_card) {
                        if (big && held == 1 && natural_pair && part.single_card >= 0 &&
                            suit_of(first_card) == suit_of(part.single_card) &&
                            highest_top((1 << rank) | (1 << part.rank), 5))
                            return;
                        emit(out, FULL_HOUSE, rank, assemble(triple + part.cards, big, used - big, view), key, stands);
                    };
                    if (held == 0) {
                        each_triple(0, -1);
                    } else {
                        for (uint8_t subset : view.subsets(rank, held)) {
                            int suit = __builtin_ctz(subset) / 2;
                            each_triple(of_rank(rank, subset), natural_index(rank, suit));
                        }
                    }
                }
            }
        }
    }
}

void sequences(const HandView& view, const PlayRules& rules, int kind, int width, const int* lengths, int above,
               int size, PlayList& out) {
    int budget = view.wilds + view.big_wilds;
    bool straight = kind == STRAIGHT;
    for (int length = lengths[0]; length <= lengths[1]; ++length) {
        int count = length * width;
        if (size && count != size) continue;
        std::array<int, 13> widths;
        widths.fill(width);
        for (const Window& window : windows(length)) {
            int top = window.top;
            if (top <= above) break;
            int lowest = rank_at_position(window.low);
            usages(view, window.ranks.data(), widths.data(), length, budget, [&](const std::array<int, 13>& usage) {
                Stands stand_ins;
                std::array<const uint8_t*, 13> options{};
                std::array<int, 13> sizes{}, ranks{};
                std::array<uint8_t, 4> singles[13];
                int choices = 0, naturals_mask = 0, rank_count = 0;
                for (int i = 0; i < length; ++i) {
                    int rank = window.ranks[i], used = usage[i];
                    if (used) stand_ins.add(heart(rank), used);
                    if (used < width) {
                        if (width == 1) {
                            int n = 0;
                            for (int suit = 0; suit < 4; ++suit)
                                if (view.suit_mask[rank] >> suit & 1) singles[choices][n++] = uint8_t(1u << (2 * suit));
                            options[choices] = singles[choices].data();
                            sizes[choices] = n;
                        } else {
                            const auto& subsets = view.subsets(rank, width - used);
                            options[choices] = subsets.data();
                            sizes[choices] = int(subsets.size());
                        }
                        ranks[choices++] = rank;
                        naturals_mask |= 1 << rank;
                        ++rank_count;
                    }
                }
                int used = stand_ins.count;
                Splits range = splits(view, used);
                for (int big = range.first; big <= range.last; ++big) {
                    if (big && (highest_top(naturals_mask, length) != top ||
                                (!straight && bomb_reading_exists(rules, naturals_mask, rank_count, width, count))))
                        continue;
                    int hearts = used - big;
                    product(options, sizes, ranks, choices, [&](Cards naturals) {
                        Stands stands = stand_ins;
                        if (straight && length == 5 && one_suit(naturals)) {
                            if (big || (!used && !rules.natural_straight_flush_is_straight)) return;
                            if (used && count_of(naturals, natural_index(ranks[0], HEARTS))) {
                                for (int i = 0; i < stands.count; ++i)
                                    stands.card[i] = uint8_t(natural_index(rank_of(stands.card[i]), SPADES));
                            }
                        }
                        emit(out, kind, lowest, assemble(naturals, big, hearts, view), top, stands);
                    });
                }
            });
        }
    }
}

void airplanes(const HandView& view, const PlayRules& rules, int above, int size, PlayList& out) {
    if (!rules.airplanes) return;
    int budget = view.wilds + view.big_wilds;
    for (int length = std::max(2, rules.plate_lengths[0]); length <= std::min(rules.plate_lengths[1], 6); ++length) {
        if (size && 5 * length != size) continue;
        for (const Window& triples : windows(length)) {
            int top = triples.top;
            if (top <= above) break;
            int lowest = rank_at_position(triples.low);
            int taken = triples.mask;
            for (const Window& wings : windows(length)) {
                if (wings.mask & taken) continue;
                std::array<int, 13> ranks{}, widths{};
                int slots = 0;
                for (int i = 0; i < length; ++i) ranks[slots] = triples.ranks[i], widths[slots++] = 3;
                for (int i = 0; i < length; ++i) ranks[slots] = wings.ranks[i], widths[slots++] = 2;
                // sorted by rank (the two windows share no rank)
                for (int i = 1; i < slots; ++i)
                    for (int j = i; j > 0 && ranks[j - 1] > ranks[j]; --j) {
                        std::swap(ranks[j - 1], ranks[j]);
                        std::swap(widths[j - 1], widths[j]);
                    }
                usages(view, ranks.data(), widths.data(), slots, budget, [&](const std::array<int, 13>& usage) {
                    Stands stand_ins;
                    std::array<const uint8_t*, 13> options{};
                    std::array<int, 13> sizes{}, choice_ranks{};
                    int choices = 0, naturals_mask = 0, wing_mask = 0, three_mask = 0;
                    for (int i = 0; i < slots; ++i) {
                        int rank = ranks[i], width = widths[i], used = usage[i];
                        if (used) stand_ins.add(heart(rank), used);
                        if (used < width) {
                            const auto& subsets = view.subsets(rank, width - used);
                            options[choices] = subsets.data();
                            sizes[choices] = int(subsets.size());
                            choice_ranks[choices++] = rank;
                            naturals_mask |= 1 << rank;
                            if (width == 2) wing_mask |= 1 << rank;
                            else if (used == 0) three_mask |= 1 << rank;
                        }
                    }
                    if (lowest_wing(wing_mask, length, taken) != wings.top) return;
                    int used = stand_ins.count;
                    Splits range = splits(view, used);
                    for (int big = range.first; big <= range.last; ++big) {
                        if (big && best_airplane_top(naturals_mask, three_mask, length) != top) continue;
                        product(options, sizes, choice_ranks, choices, [&](Cards naturals) {
                            emit(out, AIRPLANE, lowest, assemble(naturals, big, used - big, view), top, stand_ins);
                        });
                    }
                });
            }
        }
    }
}

void straight_flushes(const HandView& view, const PlayRules& rules, int above, int size, PlayList& out) {
    if (size && size != 5) return;
    int budget = view.wilds + view.big_wilds;
    std::array<int, 4> runs{};
    for (int position = 1; position < 15; ++position) {
        int mask = view.suit_mask[rank_at_position(position)];
        for (int suit = 0; suit < 4; ++suit)
            if (mask >> suit & 1) runs[suit] |= 1 << position;
    }
    for (const Window& window : windows(5)) {
        int top = window.top, low = window.low;
        int lowest = rank_at_position(low);
        int key = play_key(STRAIGHT_FLUSH, lowest, 5, view.level, rules);
        if (key <= above) continue;
        int span = 0b11111 << low;
        for (int suit = 0; suit < 4; ++suit) {
            if (__builtin_popcount(unsigned(runs[suit] & span)) + budget < 5) continue;
            std::array<int, 5> held{};
            int held_count = 0;
            for (int i = 0; i < 5; ++i)
                if (view.suit_mask[window.ranks[i]] >> suit & 1) held[held_count++] = window.ranks[i];
            int missing = 5 - held_count;
            for (int extra = 0; extra <= budget - missing; ++extra) {
                // itertools.combinations(held, extra), lexicographic
                std::array<int, 5> pick{};
                for (int i = 0; i < extra; ++i) pick[i] = i;
                if (extra > held_count) break;
                for (;;) {
                    int replaced = 0;
                    for (int i = 0; i < extra; ++i) replaced |= 1 << held[pick[i]];
                    Cards naturals = 0;
                    int kept = 0;
                    for (int i = 0; i < held_count; ++i)
                        if (!(replaced >> held[i] & 1)) {
                            naturals |= one_card(natural_index(held[i], suit));
                            kept |= 1 << held[i];
                        }
                    Stands stands;
                    for (int i = 0; i < 5; ++i)
                        if (!(kept >> window.ranks[i] & 1)) stands.add(natural_index(window.ranks[i], suit));
                    int used = stands.count;
                    Splits range = splits(view, used);
                    for (int big = range.first; big <= range.last; ++big) {
                        if (big && highest_top(kept, 5) != top) continue;
                        emit(out, STRAIGHT_FLUSH, lowest, assemble(naturals, big, used - big, view), key, stands);
                    }
                    int i = extra - 1;
                    while (i >= 0 && pick[i] == held_count - extra + i) --i;
                    if (i < 0) break;
                    ++pick[i];
                    for (int j = i + 1; j < extra; ++j) pick[j] = pick[j - 1] + 1;
                }
            }
        }
    }
}

void chain_bombs(const HandView& view, const PlayRules& rules, int above, int size, PlayList& out) {
    int fewest = rules.chain_bomb_lengths[0], longest = rules.chain_bomb_lengths[1];
    if (!longest) return;
    int budget = view.wilds + view.big_wilds;
    for (int width = 4; width <= rules.max_bomb_size; ++width) {
        int strong = 0;
        for (int rank = 2; rank <= 14; ++rank)
            if (view.totals[rank] + budget >= width) strong |= 1 << rank;
        if (__builtin_popcount(unsigned(strong)) < fewest) break;
        for (int length = fewest; length <= longest; ++length) {
            int count = width * length;
            if (size && count != size) continue;
            std::array<int, 13> widths;
            widths.fill(width);
            for (const Window& window : windows(length)) {
                int key = star_key(2 * (width + length), count, window.top);
                if (key <= above) break;
                if (window.mask & ~strong) continue;
                int lowest = rank_at_position(window.low);
                usages(view, window.ranks.data(), widths.data(), length, budget, [&](const std::array<int, 13>& usage) {
                    Stands stand_ins;
                    std::array<const uint8_t*, 13> options{};
                    std::array<int, 13> sizes{}, ranks{};
                    int choices = 0, naturals_mask = 0, most = 0;
                    for (int i = 0; i < length; ++i) {
                        int rank = window.ranks[i], used = usage[i];
                        if (used) stand_ins.add(heart(rank), used);
                        if (used < width) {
                            const auto& subsets = view.subsets(rank, width - used);
                            options[choices] = subsets.data();
                            sizes[choices] = int(subsets.size());
                            ranks[choices++] = rank;
                            naturals_mask |= 1 << rank;
                            most = std::max(most, width - used);
                        }
                    }
                    int used = stand_ins.count;
                    Splits range = splits(view, used);
                    for (int big = range.first; big <= range.last; ++big) {
                        if (big && best_chain_key(rules, naturals_mask, most, count) != key) continue;
                        product(options, sizes, ranks, choices, [&](Cards naturals) {
                            emit(out, CHAIN_BOMB, lowest, assemble(naturals, big, used - big, view), key, stand_ins);
                        });
                    }
                });
            }
        }
    }
}

void three_jokers(const HandView& view, const PlayRules& rules, int above, int size, PlayList& out) {
    if (!rules.three_jokers_bomb || (size && size != 3)) return;
    int key = play_key(THREE_JOKERS, RANK_SMALL_JOKER, 3, view.level, rules);
    if (key <= above) return;
    for (int big = 1; big <= 2; ++big) {
        int small = 3 - big;
        if (small <= view.small_jokers && big <= view.big_jokers)
            out.push_back(make_play(THREE_JOKERS, RANK_SMALL_JOKER, Cards(small) * one_card(SMALL_JOKER) + Cards(big) * one_card(BIG_JOKER), uint32_t(key)));
    }
}

void four_jokers(const HandView& view, const PlayRules& rules, int above, int size, PlayList& out) {
    if (size && size != 4) return;
    int key = play_key(FOUR_JOKERS, RANK_SMALL_JOKER, 4, view.level, rules);
    if (view.small_jokers == 2 && view.big_jokers == 2 && key > above)
        out.push_back(make_play(FOUR_JOKERS, RANK_SMALL_JOKER, 2 * one_card(SMALL_JOKER) + 2 * one_card(BIG_JOKER), uint32_t(key)));
}

}  // namespace

void extended_plays_of_kind(const HandView& view, const PlayRules& rules, int kind, int above, int size, PlayList& out) {
    switch (kind) {
        case SINGLE: singles(view, above, size, out); break;
        case PAIR: pairs(view, above, size, out); break;
        case TRIPLE: triples(view, above, size, out); break;
        case FULL_HOUSE: full_houses(view, rules, above, size, out); break;
        case STRAIGHT: sequences(view, rules, STRAIGHT, 1, rules.straight_lengths, above, size, out); break;
        case TUBE: sequences(view, rules, TUBE, 2, rules.tube_lengths, above, size, out); break;
        case PLATE: sequences(view, rules, PLATE, 3, rules.plate_lengths, above, size, out); break;
        case AIRPLANE: airplanes(view, rules, above, size, out); break;
        case BOMB: bombs(view, rules, above, size, out); break;
        case STRAIGHT_FLUSH: straight_flushes(view, rules, above, size, out); break;
        case CHAIN_BOMB: chain_bombs(view, rules, above, size, out); break;
        case THREE_JOKERS: three_jokers(view, rules, above, size, out); break;
        case FOUR_JOKERS: four_jokers(view, rules, above, size, out); break;
        default: throw std::invalid_argument("no plays of this kind");
    }
}

}  // namespace cardroom
