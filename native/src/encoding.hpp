// The observation vector of cardroom.rl.encoding (docs/rl.md, "The observation vector"), from one
// seat's view: its hand, the deal's log as it may see it, and the public state. The layout (where each
// part starts) is given by cardroom.rl.encoding; this file knows what each part holds.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "cards.hpp"

namespace cardroom {

enum class LogKind : int8_t { OTHER, PLAY, PASS, TRICK, GIVE };

// One entry of the log: a play (its cards), a pass, a trick's end, or a tribute or return card given
// (``card`` from ``seat`` to ``to``; ``seat`` -1 when unknown).
struct LogEntry {
    LogKind kind = LogKind::OTHER;
    int8_t seat = -1;
    int8_t card = -1;
    int8_t to = -1;
    Cards cards = 0;
};

struct SeatView {
    int seat = 0;
    std::array<uint8_t, CARD_COUNT> hand{};
    int level = 2;
    std::array<int, 2> levels{2, 2};
    int level_team = -1;      // -1: none
    int phase = 3;            // 0 tribute, 1 return, 2 play, 3 anything else
    int current = -1;         // -1: nobody
    std::array<int, 4> card_counts{};
    std::array<int, 4> place{};  // 1-based finishing place, 0 while in
    int previous_seat = -1;
    int previous_kind = 0;    // 0: nothing to beat
    int previous_rank = 0;
    Cards previous_cards = 0;
    std::vector<LogEntry> history;
};

// Part starts of the vector, in cardroom.rl.encoding's order of parts.
enum Part {
    HAND, HAND_WILDS, UNSEEN, PLAYED, KNOWN, CARD_COUNTS, PLACES, OWN_LEVEL, OTHER_LEVEL, LEVEL_RANK, LEVEL_TEAM,
    PHASE, TO_ACT, TRICK_LEADER, TO_BEAT_SEAT, TO_BEAT_CARDS, TO_BEAT_KIND, TO_BEAT_RANK, RECENT, PART_COUNT
};

struct Layout {
    std::array<int, PART_COUNT> start{};
    int size = 0;
    int max_count = 28;
    int history_depth = 2;
};

// Set the view's ones in ``out`` (``layout.size`` floats, zeroed).
void encode(const SeatView& view, const Layout& layout, float* out);

// One candidate action (cardroom.rl.encoding.action_features): a play (``kind`` PASS for passing) or a
// card given in the tribute or the return.
struct CandidateAction {
    enum Move : int8_t { PLAY, TRIBUTE, RETURN } move = PLAY;
    int kind = 0;  // a play's; PASS for passing
    int rank = 0;
    Cards cards = 0;  // a play's cards
    int card = -1;    // a tribute or return card
};

enum FeaturePart { F_CARDS, F_TYPE, F_RANK, F_WILDS, F_SIZE, F_GOES_OUT, F_BOMB, FEATURE_PART_COUNT };

struct FeatureLayout {
    std::array<int, FEATURE_PART_COUNT> start{};
    int size = 0;
    int max_play_size = 10;
    int tribute_type = 11, return_type = 12;  // where the type one-hot names them
};

// Set the action's ones in ``out`` (``layout.size`` floats, zeroed); ``hand_size`` is the actor's.
void encode_action(const CandidateAction& action, const FeatureLayout& layout, int level, int hand_size, float* out);

}  // namespace cardroom
