// The rank-level view of legal moves under the competition's play parameters
// (cardroom.guandan.rankplays): plays named by kind and ranks with the wild cards they need.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "card_plays.hpp"
#include "hand.hpp"

namespace cardroom {

// One rank-level play in 12 bytes (RankPlay): 0xFF marks "None" for the suit and the pair's rank.
struct RankPlay {
    uint32_t key = 0;
    uint8_t kind = 0, rank = 0, size = 0, wilds = 0;
    uint8_t suit = 0xFF, pair_rank = 0xFF, big_jokers = 0, length = 0;

    bool beats(const RankPlay& previous) const {
        if (is_bomb(kind)) return !is_bomb(previous.kind) || key > previous.key;
        return kind == previous.kind && size == previous.size && key > previous.key;
    }
};
static_assert(sizeof(RankPlay) == 12);

inline RankPlay rank_play(int kind, int rank, int size, int wilds, int key, int suit = 0xFF, int pair_rank = 0xFF,
                          int big_jokers = 0, int length = 0) {
    RankPlay play;
    play.kind = uint8_t(kind);
    play.rank = uint8_t(rank);
    play.size = uint8_t(size);
    play.wilds = uint8_t(wilds);
    play.key = uint32_t(key);
    play.suit = uint8_t(suit);
    play.pair_rank = uint8_t(pair_rank);
    play.big_jokers = uint8_t(big_jokers);
    play.length = uint8_t(length);
    return play;
}

using RankList = std::vector<RankPlay>;

// Per-rank counts of a hand's natural cards, the ♥ level cards apart (RankCounts).
struct RankCounts {
    int level;
    int wilds;
    int small_jokers;
    int big_jokers;
    int big_wilds;  // big jokers that may be played as wild cards (big_joker_wild)
    std::array<int, 15> natural{};
    std::array<int, 4> runs{};  // per suit, bits over sequence positions 1..14
    int present = 0;

    RankCounts(const Hand& hand, int level, const PlayRules& rules);
};

// The extended rule sets' rank-level plays of one kind (cardroom.guandan.extended_ranks).
void extended_rank_plays(const RankCounts& view, const PlayRules& rules, int kind, int above, RankList& out);

void rank_leads(const RankCounts& view, const PlayRules& rules, RankList& out);
void rank_follows(const RankCounts& view, const PlayRules& rules, const RankPlay& previous, RankList& out);

}  // namespace cardroom
