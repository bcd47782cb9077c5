#include "card_plays.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace cardroom {

namespace {

constexpr int heart(int rank) { return natural_index(rank, HEARTS); }

// A play under construction: cards, then stand-ins appended in order.
struct Builder {
    PackedPlay play;
    int stands = 0;
    Builder(int kind, int rank, Cards cards, int key) : play(make_play(kind, rank, cards, uint32_t(key))) {}
    Builder& stand(int card, int times = 1) {
        for (int i = 0; i < times; ++i) play.stands[stands++] = uint8_t(card);
        return *this;
    }
};

inline Cards wild_cards(const HandView& view, int used) { return Cards(used) << (2 * view.wild); }

// A sequence's ranks in print order (an ace-low ace prints last).
struct SequenceRanks {
    std::array<int, 13> rank{};
    int length = 0;
    SequenceRanks(int low, int count) : length(count) {
        for (int i = 0; i < count; ++i) rank[i] = rank_at_position(low + i);
        std::sort(rank.begin(), rank.begin() + count);
    }
};

// Every way to spread at most ``wilds`` wild cards over ``length`` ranks, at most min(width, 2) per
// rank, in itertools.product order.
struct Usages {
    std::vector<std::array<uint8_t, 5>> list;
    Usages(int length, int width, int wilds) {
        int per = std::min(width, 2) + 1;
        int total = 1;
        for (int i = 0; i < length; ++i) total *= per;
        for (int code = 0; code < total; ++code) {
            std::array<uint8_t, 5> usage{};
            int rest = code, sum = 0;
            for (int i = length - 1; i >= 0; --i) {
                usage[i] = uint8_t(rest % per);
                rest /= per;
                sum += usage[i];
            }
            if (sum <= wilds) list.push_back(usage);
        }
    }
};

const Usages& usages(int width, int wilds) {
    static const std::array<std::array<Usages, 3>, 3> table = {{
        {{Usages(5, 1, 0), Usages(5, 1, 1), Usages(5, 1, 2)}},
        {{Usages(3, 2, 0), Usages(3, 2, 1), Usages(3, 2, 2)}},
        {{Usages(2, 3, 0), Usages(2, 3, 1), Usages(2, 3, 2)}},
    }};
    return table[width - 1][wilds];
}

// One way to lay wild cards over a sequence (combinations._Frame).
struct Frame {
    int top;
    int lowest;
    std::array<int, 5> wild_ranks{};
    int wild_count = 0;
    std::array<int, 5> ranks{};  // natural ranks, in print order
    std::array<int, 5> taken{};  // natural cards wanted of each
    int natural_count = 0;
};

template <typename Visit>
void frames(const HandView& view, int length, int width, int above, Visit&& visit) {
    const Usages& spreads = usages(width, view.wilds);
    for (int top = std::max(length, above + 1); top < 15; ++top) {
        int low = top - length + 1;
        SequenceRanks ranks(low, length);
        std::array<int, 5> shortfall{};
        int missing = 0;
        for (int i = 0; i < length; ++i) {
            shortfall[i] = std::max(0, width - view.totals[ranks.rank[i]]);
            missing += shortfall[i];
        }
        if (missing > view.wilds) continue;
        for (const auto& usage : spreads.list) {
            Frame frame{top, rank_at_position(low)};
            bool fits = true;
            for (int i = 0; i < length; ++i) {
                int used = usage[i];
                if (used < shortfall[i]) { fits = false; break; }
                for (int u = 0; u < used; ++u) frame.wild_ranks[frame.wild_count++] = ranks.rank[i];
                if (used < width) {
                    frame.ranks[frame.natural_count] = ranks.rank[i];
                    frame.taken[frame.natural_count++] = width - used;
                }
            }
            if (fits) visit(frame);
        }
    }
}

// itertools.product over per-rank choices, the first slowest; each choice a multiset of one rank.
template <typename Visit>
void product(const std::array<const uint8_t*, 5>& options, const std::array<int, 5>& sizes,
             const std::array<int, 5>& ranks, int count, Visit&& visit) {
    std::array<int, 5> at{};
    for (int i = 0; i < count; ++i)
        if (sizes[i] == 0) return;
    for (;;) {
        Cards cards = 0;
        for (int i = 0; i < count; ++i) cards |= of_rank(ranks[i], options[i][at[i]]);
        visit(cards, at);
        int i = count - 1;
        while (i >= 0 && ++at[i] == sizes[i]) at[i--] = 0;
        if (i < 0) return;
    }
}

// The distinct single cards of a rank held, in suit order (HandView.distinct).
struct Distinct {
    std::array<uint8_t, 4> pattern{};
    int count = 0;
};

Distinct distinct(const HandView& view, int rank) {
    Distinct result;
    for (int suit = 0; suit < 4; ++suit)
        if (view.suit_mask[rank] >> suit & 1) result.pattern[result.count++] = uint8_t(1u << (2 * suit));
    return result;
}

void singles(const HandView& view, int above, PlayList& out) {
    for (int rank = 2; rank <= 14; ++rank) {
        int key = view.orders[rank];
        if (key > above)
            for (uint8_t subset : view.subsets(rank, 1)) out.push_back(make_play(SINGLE, rank, of_rank(rank, subset), key));
    }
    if (view.wilds && view.orders[view.level] > above)
        out.push_back(Builder(SINGLE, view.level, one_card(view.wild), view.orders[view.level]).stand(view.wild).play);
    int held[2] = {view.small_jokers, view.big_jokers};
    for (int joker = 0; joker < 2; ++joker) {
        int key = view.orders[RANK_SMALL_JOKER + joker];
        if (held[joker] && key > above) out.push_back(make_play(SINGLE, RANK_SMALL_JOKER + joker, one_card(joker), key));
    }
}

void pairs(const HandView& view, int above, PlayList& out) {
    for (int rank = 2; rank <= 14; ++rank) {
        int key = view.orders[rank];
        if (key <= above) continue;
        for (uint8_t subset : view.subsets(rank, 2)) out.push_back(make_play(PAIR, rank, of_rank(rank, subset), key));
        if (view.wilds)
            for (uint8_t subset : view.subsets(rank, 1))
                out.push_back(Builder(PAIR, rank, of_rank(rank, subset) + wild_cards(view, 1), key).stand(heart(rank)).play);
    }
    int key = view.orders[view.level];
    if (view.wilds == 2 && key > above)
        out.push_back(Builder(PAIR, view.level, wild_cards(view, 2), key).stand(view.wild, 2).play);
    int held[2] = {view.small_jokers, view.big_jokers};
    for (int joker = 0; joker < 2; ++joker) {
        key = view.orders[RANK_SMALL_JOKER + joker];
        if (held[joker] == 2 && key > above) out.push_back(make_play(PAIR, RANK_SMALL_JOKER + joker, 2 * one_card(joker), key));
    }
}

void triples(const HandView& view, int above, PlayList& out) {
    for (int rank = 2; rank <= 14; ++rank) {
        int key = view.orders[rank];
        if (key <= above) continue;
        for (int used = 0; used <= std::min(view.wilds, 2); ++used)
            for (uint8_t subset : view.subsets(rank, 3 - used))
                out.push_back(Builder(TRIPLE, rank, of_rank(rank, subset) + wild_cards(view, used), key).stand(heart(rank), used).play);
    }
}

struct PairPart {
    int rank;  // 0: two wild cards
    Cards cards;
    int used;
    int stand;
};

void full_houses(const HandView& view, int above, PlayList& out) {
    std::vector<PairPart> parts;
    parts.reserve(64);
    if (view.small_jokers == 2) parts.push_back({RANK_SMALL_JOKER, 2 * one_card(SMALL_JOKER), 0, -1});
    if (view.big_jokers == 2) parts.push_back({RANK_BIG_JOKER, 2 * one_card(BIG_JOKER), 0, -1});
    for (int rank = 2; rank <= 14; ++rank) {
        for (uint8_t subset : view.subsets(rank, 2)) parts.push_back({rank, of_rank(rank, subset), 0, -1});
        if (view.wilds)
            for (uint8_t subset : view.subsets(rank, 1)) parts.push_back({rank, of_rank(rank, subset), 1, heart(rank)});
    }
    if (view.wilds == 2) parts.push_back({0, 0, 2, -1});
    for (int rank = 2; rank <= 14; ++rank) {
        int key = view.orders[rank];
        if (key <= above) continue;
        int triple_heart = heart(rank);
        int wild_pair = heart(rank != view.level ? view.level : (view.level == 2 ? 3 : 2));
        for (int used = 0; used <= std::min(view.wilds, 2); ++used) {
            for (uint8_t subset : view.subsets(rank, 3 - used)) {
                Cards triple = of_rank(rank, subset);
                for (const PairPart& part : parts) {
                    if (part.used > view.wilds - used || part.rank == rank) continue;
                    Builder play(FULL_HOUSE, rank, triple + part.cards + wild_cards(view, used + part.used), key);
                    int pair_card = part.rank == 0 ? wild_pair : part.stand;
                    int pair_times = part.rank == 0 ? 2 : part.used;
                    if (pair_times && pair_card < triple_heart) play.stand(pair_card, pair_times).stand(triple_heart, used);
                    else play.stand(triple_heart, used).stand(pair_card, pair_times);
                    out.push_back(play.play);
                }
            }
        }
    }
}

void straights(const HandView& view, const PlayRules& rules, int above, PlayList& out) {
    frames(view, 5, 1, above, [&](const Frame& frame) {
        std::array<Distinct, 5> choices;
        std::array<const uint8_t*, 5> options{};
        std::array<int, 5> sizes{};
        int common = 15;
        for (int i = 0; i < frame.natural_count; ++i) {
            choices[i] = distinct(view, frame.ranks[i]);
            options[i] = choices[i].pattern.data();
            sizes[i] = choices[i].count;
            common &= view.suit_mask[frame.ranks[i]];
        }
        int used = frame.wild_count;
        Cards wild = wild_cards(view, used);
        auto one_suit = [&](Cards naturals) {
            for (int suit = 0; suit < 4; ++suit) {
                if (!(common >> suit & 1)) continue;
                Cards flush = 0;
                for (int i = 0; i < frame.natural_count; ++i) flush |= one_card(natural_index(frame.ranks[i], suit));
                if (flush == naturals) return suit;
            }
            return -1;
        };
        product(options, sizes, frame.ranks, frame.natural_count, [&](Cards naturals, const std::array<int, 5>&) {
            if (used) {
                Builder play(STRAIGHT, frame.lowest, naturals + wild, frame.top);
                int stand_suit = (common >> HEARTS & 1) && one_suit(naturals) == HEARTS ? SPADES : HEARTS;
                for (int i = 0; i < used; ++i) play.stand(natural_index(frame.wild_ranks[i], stand_suit));
                out.push_back(play.play);
            } else if (common && !rules.natural_straight_flush_is_straight) {
                if (one_suit(naturals) < 0) out.push_back(make_play(STRAIGHT, frame.lowest, naturals, frame.top));
            } else {
                out.push_back(make_play(STRAIGHT, frame.lowest, naturals, frame.top));
            }
        });
    });
}

void sequences(const HandView& view, int kind, int length, int width, int above, PlayList& out) {
    frames(view, length, width, above, [&](const Frame& frame) {
        std::array<const uint8_t*, 5> options{};
        std::array<int, 5> sizes{};
        for (int i = 0; i < frame.natural_count; ++i) {
            const auto& subsets = view.subsets(frame.ranks[i], frame.taken[i]);
            options[i] = subsets.data();
            sizes[i] = int(subsets.size());
        }
        Cards wild = wild_cards(view, frame.wild_count);
        product(options, sizes, frame.ranks, frame.natural_count, [&](Cards naturals, const std::array<int, 5>&) {
            Builder play(kind, frame.lowest, naturals + wild, frame.top);
            for (int i = 0; i < frame.wild_count; ++i) play.stand(heart(frame.wild_ranks[i]));
            out.push_back(play.play);
        });
    });
}

void straight_flushes(const HandView& view, int above, PlayList& out) {
    constexpr int base = STRAIGHT_FLUSH_TIER * BOMB_TIER_STEP;
    std::array<int, 4> runs{};
    for (int position = 1; position < 15; ++position) {
        int mask = view.suit_mask[rank_at_position(position)];
        for (int suit = 0; suit < 4; ++suit)
            if (mask >> suit & 1) runs[suit] |= 1 << position;
    }
    for (int top = std::max(5, above - base + 1); top < 15; ++top) {
        int low = top - 4;
        int window = 0b11111 << low;
        SequenceRanks ranks(low, 5);
        int lowest = rank_at_position(low);
        for (int suit = 0; suit < 4; ++suit) {
            if (__builtin_popcount(unsigned(runs[suit] & window)) + view.wilds < 5) continue;
            std::array<int, 5> held{};
            int held_count = 0;
            for (int i = 0; i < 5; ++i)
                if (view.suit_mask[ranks.rank[i]] >> suit & 1) held[held_count++] = ranks.rank[i];
            int missing = 5 - held_count;
            if (missing > view.wilds) continue;
            auto emit = [&](int first, int second) {  // indices into held replaced by wild cards (-1: none)
                Cards naturals = 0;
                int kept_mask = 0;
                for (int i = 0; i < held_count; ++i) {
                    if (i == first || i == second) continue;
                    naturals |= one_card(natural_index(held[i], suit));
                    kept_mask |= 1 << held[i];
                }
                int wild_count = 5 - (held_count - (first >= 0) - (second >= 0));
                Builder play(STRAIGHT_FLUSH, lowest, naturals + wild_cards(view, wild_count), base + top);
                for (int i = 0; i < 5; ++i)
                    if (!(kept_mask >> ranks.rank[i] & 1)) play.stand(natural_index(ranks.rank[i], suit));
                out.push_back(play.play);
            };
            for (int extra = 0; extra <= view.wilds - missing; ++extra) {
                if (extra == 0) emit(-1, -1);
                else if (extra == 1)
                    for (int i = 0; i < held_count; ++i) emit(i, -1);
                else
                    for (int i = 0; i < held_count; ++i)
                        for (int j = i + 1; j < held_count; ++j) emit(i, j);
            }
        }
    }
}

void bombs(const HandView& view, int above, PlayList& out) {
    for (int rank = 2; rank <= 14; ++rank) {
        int held = view.totals[rank];
        if (held + view.wilds < 4) continue;
        int order = view.orders[rank];
        for (int size = 4; size <= std::min(held + view.wilds, 10); ++size) {
            int key = bomb_tier(size) * BOMB_TIER_STEP + order;
            if (key <= above) continue;
            for (int used = std::max(0, size - held); used <= std::min(view.wilds, size); ++used)
                for (uint8_t subset : view.subsets(rank, size - used))
                    out.push_back(Builder(BOMB, rank, of_rank(rank, subset) + wild_cards(view, used), key).stand(heart(rank), used).play);
        }
    }
}

void four_jokers(const HandView& view, int above, PlayList& out) {
    constexpr int key = FOUR_JOKERS_TIER * BOMB_TIER_STEP;
    if (view.small_jokers == 2 && view.big_jokers == 2 && key > above)
        out.push_back(make_play(FOUR_JOKERS, RANK_SMALL_JOKER, 2 * one_card(SMALL_JOKER) + 2 * one_card(BIG_JOKER), key));
}

}  // namespace

bool known_kind(int kind, const PlayRules& rules) {
    return rules.extended() ? kind >= SINGLE && kind <= CHAIN_BOMB : kind >= SINGLE && kind <= FOUR_JOKERS;
}

void plays_of_kind(const HandView& view, const PlayRules& rules, int kind, int above, int size, PlayList& out) {
    if (rules.extended()) {
        extended_plays_of_kind(view, rules, kind, above, size, out);
        return;
    }
    size_t start = out.size();
    switch (kind) {
        case SINGLE: singles(view, above, out); break;
        case PAIR: pairs(view, above, out); break;
        case TRIPLE: triples(view, above, out); break;
        case FULL_HOUSE: full_houses(view, above, out); break;
        case STRAIGHT: straights(view, rules, above, out); break;
        case TUBE: sequences(view, TUBE, 3, 2, above, out); break;
        case PLATE: sequences(view, PLATE, 2, 3, above, out); break;
        case BOMB: bombs(view, above, out); break;
        case STRAIGHT_FLUSH: straight_flushes(view, above, out); break;
        case FOUR_JOKERS: four_jokers(view, above, out); break;
        default: throw std::invalid_argument("the compiled core has no enumerator for this kind");
    }
    if (size)
        out.erase(std::remove_if(out.begin() + long(start), out.end(),
                                 [size](const PackedPlay& play) { return play.size() != size; }),
                  out.end());
}

namespace {
// The kinds in the pure engines' order (combinations.ENUMERATORS, extended.EXTENDED_ENUMERATORS).
constexpr std::array<int, 10> COMPETITION_KINDS = {SINGLE, PAIR, TRIPLE, FULL_HOUSE, STRAIGHT, TUBE, PLATE, BOMB, STRAIGHT_FLUSH, FOUR_JOKERS};
constexpr std::array<int, 13> EXTENDED_KINDS = {SINGLE, PAIR, TRIPLE, FULL_HOUSE, STRAIGHT, TUBE, PLATE, AIRPLANE,
                                                BOMB, STRAIGHT_FLUSH, CHAIN_BOMB, THREE_JOKERS, FOUR_JOKERS};
constexpr std::array<int, 3> COMPETITION_BOMBS = {BOMB, STRAIGHT_FLUSH, FOUR_JOKERS};
constexpr std::array<int, 5> EXTENDED_BOMBS = {BOMB, STRAIGHT_FLUSH, CHAIN_BOMB, THREE_JOKERS, FOUR_JOKERS};

template <typename Visit>
void each_bomb_kind(const PlayRules& rules, Visit&& visit) {
    if (rules.extended())
        for (int kind : EXTENDED_BOMBS) visit(kind);
    else
        for (int kind : COMPETITION_BOMBS) visit(kind);
}
}  // namespace

void card_leads(const HandView& view, const PlayRules& rules, PlayList& out) {
    if (rules.extended())
        for (int kind : EXTENDED_KINDS) plays_of_kind(view, rules, kind, 0, 0, out);
    else
        for (int kind : COMPETITION_KINDS) plays_of_kind(view, rules, kind, 0, 0, out);
}

void card_follows(const HandView& view, const PlayRules& rules, int previous_kind, int previous_size,
                  int previous_key, PlayList& out) {
    if (!known_kind(previous_kind, rules)) throw std::invalid_argument("the play to beat is of a kind these rules lack");
    if (is_bomb(previous_kind)) {
        each_bomb_kind(rules, [&](int kind) { plays_of_kind(view, rules, kind, previous_key, 0, out); });
        return;
    }
    plays_of_kind(view, rules, previous_kind, previous_key, previous_size, out);
    each_bomb_kind(rules, [&](int kind) { plays_of_kind(view, rules, kind, 0, 0, out); });
}

}  // namespace cardroom
