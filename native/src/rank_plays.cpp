#include "rank_plays.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace cardroom {

RankCounts::RankCounts(const Hand& hand, int level_rank, const PlayRules& rules)
    : level(level_rank),
      wilds(hand.counts[natural_index(level_rank, HEARTS)]),
      small_jokers(hand.counts[SMALL_JOKER]),
      big_jokers(hand.counts[BIG_JOKER]),
      big_wilds(rules.extended() && rules.big_joker_wild ? hand.counts[BIG_JOKER] : 0) {
    int wild = natural_index(level_rank, HEARTS);
    for (int rank = 2; rank <= 14; ++rank) {
        for (int suit = 0; suit < 4; ++suit) {
            int index = natural_index(rank, suit);
            int count = index == wild ? 0 : hand.counts[index];
            natural[rank] += count;
            if (count) {
                runs[suit] |= 1 << rank;
                if (rank == 14) runs[suit] |= 2;
            }
        }
    }
    present = runs[0] | runs[1] | runs[2] | runs[3];
}

namespace {

void of_a_rank(const RankCounts& view, int kind, int size, int above, RankList& out) {
    Orders orders(view.level);
    for (int rank = 2; rank <= 14; ++rank) {
        int key = orders[rank];
        int held = view.natural[rank];
        if (key <= above || !(held || (rank == view.level && size < 3))) continue;
        int need = held < size ? size - held : 0;
        if (need <= view.wilds) out.push_back(rank_play(kind, rank, size, need, key));
    }
    int held[2] = {view.small_jokers, view.big_jokers};
    for (int joker = 0; joker < 2; ++joker) {
        int key = orders[RANK_SMALL_JOKER + joker];
        if (held[joker] >= size && key > above) out.push_back(rank_play(kind, RANK_SMALL_JOKER + joker, size, 0, key));
    }
}

void full_houses(const RankCounts& view, int above, RankList& out) {
    Orders orders(view.level);
    std::array<std::pair<int, int>, 16> options{};  // (pair rank or 0 for two wild cards, wild cards needed)
    int count = 0;
    for (int rank = 2; rank <= 14; ++rank)
        if (view.natural[rank]) options[count++] = {rank, std::max(0, 2 - view.natural[rank])};
    if (view.small_jokers >= 2) options[count++] = {RANK_SMALL_JOKER, 0};
    if (view.big_jokers >= 2) options[count++] = {RANK_BIG_JOKER, 0};
    if (view.wilds == 2) options[count++] = {0, 2};
    for (int rank = 2; rank <= 14; ++rank) {
        int held = view.natural[rank];
        int key = orders[rank];
        if (!held || key <= above) continue;
        int need = std::max(0, 3 - held);
        for (int i = 0; i < count; ++i) {
            auto [pair_rank, pair_need] = options[i];
            if (pair_rank != rank && need + pair_need <= view.wilds)
                out.push_back(rank_play(FULL_HOUSE, rank, 5, need + pair_need, key, 0xFF, pair_rank ? pair_rank : 0xFF));
        }
    }
}

void straights(const RankCounts& view, const PlayRules& rules, int above, RankList& out) {
    for (int low = std::max(1, above - 3); low < 11; ++low) {
        int window = 0b11111 << low;
        int need = 5 - __builtin_popcount(unsigned(view.present & window));
        if (!need && !rules.natural_straight_flush_is_straight) {
            int suits = 0;
            for (int run : view.runs) suits += (run & window) != 0;
            if (suits == 1) need = 1;
        }
        if (need <= view.wilds) out.push_back(rank_play(STRAIGHT, rank_at_position(low), 5, need, low + 4));
    }
}

void in_a_row(const RankCounts& view, int kind, int length, int width, int above, RankList& out) {
    for (int low = std::max(1, above - length + 2); low < 16 - length; ++low) {
        int need = 0;
        for (int position = low; position < low + length; ++position) {
            int held = view.natural[rank_at_position(position)];
            if (held < width) {
                if (!held && width == 3) { need = 3; break; }
                need += width - held;
            }
        }
        if (need <= view.wilds)
            out.push_back(rank_play(kind, rank_at_position(low), length * width, need, low + length - 1));
    }
}

void straight_flushes(const RankCounts& view, int above, RankList& out) {
    constexpr int base = STRAIGHT_FLUSH_TIER * BOMB_TIER_STEP;
    for (int suit = 0; suit < 4; ++suit) {
        int run = view.runs[suit];
        if (__builtin_popcount(unsigned(run)) + view.wilds < 5) continue;
        for (int low = std::max(1, above - base - 3); low < 11; ++low) {
            int need = 5 - __builtin_popcount(unsigned(run & (0b11111 << low)));
            if (need <= view.wilds) out.push_back(rank_play(STRAIGHT_FLUSH, rank_at_position(low), 5, need, base + low + 4, suit));
        }
    }
}

void bombs(const RankCounts& view, int above, RankList& out) {
    Orders orders(view.level);
    for (int rank = 2; rank <= 14; ++rank) {
        int held = view.natural[rank];
        if (held + view.wilds < 4) continue;
        for (int size = 4; size <= std::min(held + view.wilds, 10); ++size) {
            int key = bomb_tier(size) * BOMB_TIER_STEP + orders[rank];
            if (key > above) out.push_back(rank_play(BOMB, rank, size, std::max(0, size - held), key));
        }
    }
}

void four_jokers(const RankCounts& view, int above, RankList& out) {
    constexpr int key = FOUR_JOKERS_TIER * BOMB_TIER_STEP;
    if (view.small_jokers == 2 && view.big_jokers == 2 && key > above)
        out.push_back(rank_play(FOUR_JOKERS, RANK_SMALL_JOKER, 4, 0, key));
}

void of_kind(const RankCounts& view, const PlayRules& rules, int kind, int above, RankList& out) {
    if (rules.extended()) {
        extended_rank_plays(view, rules, kind, above, out);
        return;
    }
    switch (kind) {
        case SINGLE: of_a_rank(view, SINGLE, 1, above, out); break;
        case PAIR: of_a_rank(view, PAIR, 2, above, out); break;
        case TRIPLE: of_a_rank(view, TRIPLE, 3, above, out); break;
        case FULL_HOUSE: full_houses(view, above, out); break;
        case STRAIGHT: straights(view, rules, above, out); break;
        case TUBE: in_a_row(view, TUBE, 3, 2, above, out); break;
        case PLATE: in_a_row(view, PLATE, 2, 3, above, out); break;
        case BOMB: bombs(view, above, out); break;
        case STRAIGHT_FLUSH: straight_flushes(view, above, out); break;
        case FOUR_JOKERS: four_jokers(view, above, out); break;
        default: throw std::invalid_argument("the compiled core has no rank-level enumerator for this kind");
    }
}

constexpr std::array<int, 13> EXTENDED_KINDS = {SINGLE, PAIR, TRIPLE, FULL_HOUSE, STRAIGHT, TUBE, PLATE, AIRPLANE,
                                                BOMB, STRAIGHT_FLUSH, CHAIN_BOMB, THREE_JOKERS, FOUR_JOKERS};

template <typename Visit>
void each_bomb_kind(const PlayRules& rules, Visit&& visit) {
    if (rules.extended())
        for (int kind : {BOMB, STRAIGHT_FLUSH, CHAIN_BOMB, THREE_JOKERS, FOUR_JOKERS}) visit(kind);
    else
        for (int kind : {BOMB, STRAIGHT_FLUSH, FOUR_JOKERS}) visit(kind);
}

}  // namespace

void rank_leads(const RankCounts& view, const PlayRules& rules, RankList& out) {
    if (rules.extended())
        for (int kind : EXTENDED_KINDS) of_kind(view, rules, kind, 0, out);
    else
        for (int kind = SINGLE; kind <= FOUR_JOKERS; ++kind) of_kind(view, rules, kind, 0, out);
}

void rank_follows(const RankCounts& view, const PlayRules& rules, const RankPlay& previous, RankList& out) {
    if (is_bomb(previous.kind)) {
        each_bomb_kind(rules, [&](int kind) { of_kind(view, rules, kind, int(previous.key), out); });
        return;
    }
    size_t start = out.size();
    of_kind(view, rules, previous.kind, int(previous.key), out);
    out.erase(std::remove_if(out.begin() + long(start), out.end(),
                             [&](const RankPlay& play) { return play.size != previous.size; }),
              out.end());
    each_bomb_kind(rules, [&](int kind) { of_kind(view, rules, kind, 0, out); });
}

}  // namespace cardroom
