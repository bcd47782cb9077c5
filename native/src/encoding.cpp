#include "encoding.hpp"

#include "plays.hpp"

#include <algorithm>

namespace cardroom {

namespace {

constexpr int PLANES = 2 * CARD_COUNT;

// A card multiset as two planes from ``at``: held at least once, then twice.
void set_cards(float* out, int at, Cards cards) {
    for (int index = 0; index < CARD_COUNT; ++index) {
        int count = count_of(cards, index);
        if (count >= 1) out[at + index] = 1.0f;
        if (count >= 2) out[at + CARD_COUNT + index] = 1.0f;
    }
}

void set_counts(float* out, int at, const std::array<int, CARD_COUNT>& counts) {
    for (int index = 0; index < CARD_COUNT; ++index) {
        if (counts[size_t(index)] >= 1) out[at + index] = 1.0f;
        if (counts[size_t(index)] >= 2) out[at + CARD_COUNT + index] = 1.0f;
    }
}

}  // namespace

void encode(const SeatView& view, const Layout& layout, float* out) {
    const auto& at = layout.start;
    int me = view.seat;
    auto relative = [me](int seat) { return seat < 0 ? 4 : ((seat - me) % 4 + 4) % 4; };
    int wild = natural_index(view.level, HEARTS);

    std::array<int, CARD_COUNT> hand{};
    for (int index = 0; index < CARD_COUNT; ++index) hand[size_t(index)] = view.hand[size_t(index)];
    set_counts(out, at[HAND], hand);
    out[at[HAND_WILDS] + std::min(2, hand[size_t(wild)])] = 1.0f;

    std::array<std::array<int, CARD_COUNT>, 4> played{}, known{};
    std::array<std::array<const LogEntry*, 2>, 4> recent{};  // the latest first; a pass is its entry
    std::array<int, 4> recent_count{};
    int trick_leader = -1;
    bool trick_open = false;
    auto remember = [&](int seat, const LogEntry* entry) {
        auto& latest = recent[size_t(seat)];
        latest[1] = latest[0];
        latest[0] = entry;
        ++recent_count[size_t(seat)];
    };
    for (const LogEntry& entry : view.history) {
        switch (entry.kind) {
            case LogKind::PLAY: {
                if (entry.seat < 0) break;
                int seat = relative(entry.seat);
                for (int index = 0; index < CARD_COUNT; ++index)
                    for (int times = count_of(entry.cards, index); times > 0; --times) {
                        ++played[size_t(seat)][size_t(index)];
                        if (known[size_t(seat)][size_t(index)]) --known[size_t(seat)][size_t(index)];
                    }
                remember(seat, &entry);
                if (!trick_open) trick_open = true, trick_leader = entry.seat;
                break;
            }
            case LogKind::PASS:
                if (entry.seat >= 0) remember(relative(entry.seat), &entry);
                break;
            case LogKind::TRICK:
                trick_open = false, trick_leader = -1;
                break;
            case LogKind::GIVE: {
                int giver = relative(entry.seat);
                if (giver < 4 && known[size_t(giver)][size_t(entry.card)]) --known[size_t(giver)][size_t(entry.card)];
                ++known[size_t(relative(entry.to))][size_t(entry.card)];
                break;
            }
            case LogKind::OTHER:
                break;
        }
    }

    std::array<int, CARD_COUNT> unseen{};
    for (int index = 0; index < CARD_COUNT; ++index) {
        int seen = hand[size_t(index)];
        for (int seat = 0; seat < 4; ++seat) seen += played[size_t(seat)][size_t(index)];
        unseen[size_t(index)] = std::max(0, 2 - seen);
    }
    for (int seat = 0; seat < 4; ++seat) {
        set_counts(out, at[PLAYED] + seat * PLANES, played[size_t(seat)]);
        if (seat)
            for (int index = 0; index < CARD_COUNT; ++index)
                if (known[size_t(seat)][size_t(index)]) out[at[KNOWN] + (seat - 1) * CARD_COUNT + index] = 1.0f;
    }
    set_counts(out, at[UNSEEN], unseen);

    for (int seat = 0; seat < 4; ++seat) {
        int other = relative(seat);
        out[at[CARD_COUNTS] + other * (layout.max_count + 1) + std::min(view.card_counts[size_t(seat)], layout.max_count)] = 1.0f;
        out[at[PLACES] + other * 4 + std::min(view.place[size_t(seat)], 3)] = 1.0f;
    }
    int team = me % 2;
    out[at[OWN_LEVEL] + view.levels[size_t(team)] - 2] = 1.0f;
    out[at[OTHER_LEVEL] + view.levels[size_t(1 - team)] - 2] = 1.0f;
    out[at[LEVEL_RANK] + view.level - 2] = 1.0f;
    out[at[LEVEL_TEAM] + (view.level_team < 0 ? 2 : int(view.level_team != team))] = 1.0f;
    out[at[PHASE] + view.phase] = 1.0f;
    out[at[TO_ACT] + relative(view.current)] = 1.0f;
    out[at[TRICK_LEADER] + relative(trick_leader)] = 1.0f;
    out[at[TO_BEAT_SEAT] + relative(view.previous_seat)] = 1.0f;
    if (view.previous_kind) {
        set_cards(out, at[TO_BEAT_CARDS], view.previous_cards);
        out[at[TO_BEAT_KIND] + view.previous_kind - 1] = 1.0f;
        out[at[TO_BEAT_RANK] + view.previous_rank - 2] = 1.0f;
    }
    int step = PLANES + 1;
    for (int seat = 0; seat < 4; ++seat)
        for (int depth = 0; depth < std::min(recent_count[size_t(seat)], layout.history_depth); ++depth) {
            const LogEntry* entry = recent[size_t(seat)][size_t(depth)];
            int base = at[RECENT] + (seat * layout.history_depth + depth) * step;
            if (entry->kind == LogKind::PASS) out[base + PLANES] = 1.0f;
            else set_cards(out, base, entry->cards);
        }
}

void encode_action(const CandidateAction& action, const FeatureLayout& layout, int level, int hand_size, float* out) {
    const auto& at = layout.start;
    if (action.move != CandidateAction::PLAY) {
        out[at[F_CARDS] + action.card] = 1.0f;
        out[at[F_TYPE] + (action.move == CandidateAction::TRIBUTE ? layout.tribute_type : layout.return_type)] = 1.0f;
        out[at[F_RANK] + rank_of(action.card) - 2] = 1.0f;
        out[at[F_WILDS]] = 1.0f;
        out[at[F_SIZE] + 1] = 1.0f;
        return;
    }
    if (action.kind == PASS || !action.rank) {
        out[at[F_TYPE]] = 1.0f;
        out[at[F_WILDS]] = 1.0f;
        out[at[F_SIZE]] = 1.0f;
        return;
    }
    set_cards(out, at[F_CARDS], action.cards);
    out[at[F_TYPE] + action.kind] = 1.0f;
    out[at[F_RANK] + action.rank - 2] = 1.0f;
    out[at[F_WILDS] + std::min(2, count_of(action.cards, natural_index(level, HEARTS)))] = 1.0f;
    int size = card_total(action.cards);
    out[at[F_SIZE] + std::min(layout.max_play_size, size)] = 1.0f;
    if (size == hand_size) out[at[F_GOES_OUT]] = 1.0f;
    if (is_bomb(action.kind)) out[at[F_BOMB]] = 1.0f;
}

}  // namespace cardroom
