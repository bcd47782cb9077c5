#include "vector_env.hpp"

#include <algorithm>
#include <stdexcept>

namespace cardroom {

namespace {

constexpr int PLANES = 2 * CARD_COUNT;

int partner(int seat) { return (seat + 2) % 4; }

// A card multiset as two planes from ``at`` (held at least once, then twice), one set bit at a time: a
// count of 1 is its low bit, 2 its high bit.
template <typename T>
void set_cards(T* out, int at, Cards cards) {
    for (int half = 0; half < 2; ++half) {
        uint64_t bits = half ? uint64_t(cards >> 64) : uint64_t(cards);
        while (bits) {
            int bit = __builtin_ctzll(bits) + 64 * half;
            bits &= bits - 1;
            int index = bit >> 1;
            out[at + index] = T(1);
            if (bit & 1) out[at + CARD_COUNT + index] = T(1);
        }
    }
}

Cards cards_of(const Hand& hand) {
    Cards cards = 0;
    for (int index = 0; index < CARD_COUNT; ++index) cards |= Cards(hand.counts[size_t(index)]) << (2 * index);
    return cards;
}

Cards both_decks() {
    Cards cards = 0;
    for (int index = 0; index < CARD_COUNT; ++index) cards |= Cards(2) << (2 * index);
    return cards;
}

const Cards BOTH_DECKS = both_decks();

void remember(DealTracker& seen, int seat, int8_t kind, Cards cards) {
    auto& latest = seen.recent[size_t(seat)];
    latest[1] = latest[0];
    latest[0] = {cards, kind};
}

}  // namespace

void TablePlayer::seed(TableState& state, uint64_t seed) const {
    state = TableState{};
    state.random = Random(seed);
    begin_match(state);
}

void TablePlayer::begin_match(TableState& state) const {
    state.levels = {2, 2};
    state.ace_failures = {0, 0};
    state.on_stage = {false, false};
    state.level_team = -1;
    state.deals = 0;
    ++state.matches;
    begin_deal(state, nullptr);
}

// Match.deal: the first deal's turned card names its leader (and, with first_deal_on_stage, the team on
// stage); later deals start with tribute from the previous deal's places, at the last 上游's level.
void TablePlayer::begin_deal(TableState& state, const std::array<int8_t, 4>* previous) const {
    int leader = 0;
    auto hands = shuffled_hands(state.random, leader);
    ++state.deals;
    state.seen = DealTracker{};
    int level = state.level_team < 0 ? 2 : state.levels[size_t(state.level_team)];
    if (!previous) {
        if (options_.match.first_deal_on_stage) {
            state.level_team = int8_t(leader % 2);
            state.on_stage[size_t(leader % 2)] = true;
        }
        state.deal = DealState(hands, level, leader, options_.deal);
        return;
    }
    state.deal = DealState::after(hands, level, *previous, options_.deal);
}

// Match._finish_deal: passing A, the rise (before the cap at A), failures at A, the match's end.
void TablePlayer::finish_deal(TableState& state, StepResult& result) const {
    const MatchRules& rules = options_.match;
    std::array<int8_t, 4> places = state.deal.places;
    int winner = places[0] % 2;
    int partner_place = 0;
    for (int place = 0; place < 4; ++place)
        if (places[size_t(place)] == partner(places[0])) partner_place = place + 1;
    int rise = rules.partner_rises[size_t(partner_place - 2)];
    int played = state.level_team;
    int deal_level = state.deal.level;
    bool passed = played == winner && state.levels[size_t(winner)] == 14 && partner_place <= rules.pass_ace_partner_place;
    bool over = passed;
    int match_winner = passed ? winner : -1;
    if (!passed) {
        if (!(rules.first_stage_without_rise && !state.on_stage[size_t(winner)]))
            state.levels[size_t(winner)] = int8_t(std::min(14, state.levels[size_t(winner)] + rise));
        bool overthrown = winner != played;
        if (played >= 0 && deal_level == 14 && (overthrown || !rules.ace_failure_overthrown)) {
            ++state.ace_failures[size_t(played)];
            if (rules.ace_failure_limit > 0 && state.ace_failures[size_t(played)] >= rules.ace_failure_limit) {
                state.levels[size_t(played)] = 2;
                state.ace_failures[size_t(played)] = 0;
            }
        }
    }
    state.level_team = int8_t(winner);
    state.on_stage[size_t(winner)] = true;
    if (!passed && options_.max_deals > 0 && state.deals >= options_.max_deals) {
        if (state.levels[0] != state.levels[1]) {
            over = true;
            match_winner = state.levels[0] > state.levels[1] ? 0 : 1;
        } else if (!rules.tie_extra_deal) {
            over = true;
        }
    }
    result.deal_over = true;
    result.match_over = over;
    if (options_.reward == RewardKind::DEAL) {
        result.team_reward[winner] = int8_t(rise);
        result.team_reward[1 - winner] = int8_t(-rise);
    } else if (over && match_winner >= 0) {
        result.team_reward[match_winner] = 1;
        result.team_reward[1 - match_winner] = -1;
    }
    if (over) begin_match(state);
    else begin_deal(state, &places);
}

bool TablePlayer::legal(const TableState& state, const uint8_t* mask, int64_t action) const {
    if (state.deal.over() || action < 0 || action >= int64_t(table_.entries.size())) return false;
    return mask[action] != 0;
}

StepResult TablePlayer::apply(TableState& state, int64_t action) const {
    StepResult result;
    DealState& deal = state.deal;
    DealTracker& seen = state.seen;
    int seat = deal.current;
    if (deal.phase == DealPhase::TRIBUTE) {
        deal.apply_card(int(action) - options_.tribute_base);
        if (deal.phase == DealPhase::RETURN)
            for (int i = 0; i < deal.payer_count; ++i) {
                int payer = deal.payers[size_t(i)];
                seen.given[size_t(seen.given_count++)] = {int8_t(payer), deal.receiver_of[size_t(payer)], deal.paid[size_t(payer)], false};
            }
    } else if (deal.phase == DealPhase::RETURN) {
        int card = int(action) - options_.return_base;
        int payer = deal.payer_to(seat);
        deal.apply_card(card);
        seen.given[size_t(seen.given_count++)] = {int8_t(seat), int8_t(payer), int8_t(card), true};
    } else if (action == table_.pass_index) {
        deal.apply(PackedPlay{});
        remember(seen, seat, 1, 0);
        if (deal.last_seat < 0) seen.trick_leader = -1;
    } else {
        PackedPlay play;
        if (!concrete_play(table_.entries[size_t(action)], deal.hands[size_t(seat)], deal.level, options_.deal.plays, play))
            throw std::logic_error("a legal table entry has no cards");
        Cards cards = play.cards();
        deal.apply(play);
        seen.played[size_t(seat)] += cards;
        remember(seen, seat, 2, cards);
        if (seen.trick_leader < 0) seen.trick_leader = int8_t(seat);
    }
    if (deal.over()) finish_deal(state, result);
    return result;
}

void TablePlayer::write_mask(const TableState& state, uint8_t* out) const {
    const DealState& deal = state.deal;
    if (deal.phase == DealPhase::TRIBUTE || deal.phase == DealPhase::RETURN) {
        thread_local std::vector<int> cards;
        cards.clear();
        deal.legal_cards(cards);
        int base = deal.phase == DealPhase::TRIBUTE ? options_.tribute_base : options_.return_base;
        for (int card : cards) out[base + card] = 1;
        return;
    }
    if (deal.phase != DealPhase::PLAY) return;
    const Hand& hand = deal.hands[size_t(deal.current)];
    if (deal.last_seat < 0) table_.mask(hand, deal.level, options_.deal.plays, PASS, 0, 0, out);
    else
        table_.mask(hand, deal.level, options_.deal.plays, deal.last_play.kind(), deal.last_play.size(),
                    int(deal.last_play.key), out);
}

// encoding.cpp's encode() for the seat to act, read from the tracker instead of a log.
template <typename T>
void TablePlayer::write_observation(const TableState& state, T* out) const {
    const DealState& deal = state.deal;
    const DealTracker& seen = state.seen;
    const auto& at = layout_.start;
    int me = deal.current;
    auto relative = [me](int seat) { return seat < 0 ? 4 : (seat - me + 4) % 4; };
    const Hand& hand = deal.hands[size_t(me)];
    Cards held = cards_of(hand);
    int wild = natural_index(deal.level, HEARTS);
    set_cards(out, at[HAND], held);
    out[at[HAND_WILDS] + std::min(2, int(hand.counts[size_t(wild)]))] = T(1);
    Cards seen_cards = held;
    for (int seat = 0; seat < 4; ++seat) seen_cards += seen.played[size_t(seat)];
    set_cards(out, at[UNSEEN], BOTH_DECKS - seen_cards);  // no field borrows: each holds at most 2

    std::array<std::array<int8_t, CARD_COUNT>, 4> known{};
    for (int i = 0; i < seen.given_count; ++i) {
        const DealTracker::Given& given = seen.given[size_t(i)];
        if (given.returned && me != given.from && me != given.to) continue;
        int8_t& from = known[size_t(given.from)][size_t(given.card)];
        if (from) --from;
        ++known[size_t(given.to)][size_t(given.card)];
    }
    for (int i = 0; i < seen.given_count; ++i) {
        int seat = seen.given[size_t(i)].to, card = seen.given[size_t(i)].card;
        int other = relative(seat);
        if (other && known[size_t(seat)][size_t(card)] > count_of(seen.played[size_t(seat)], card))
            out[at[KNOWN] + (other - 1) * CARD_COUNT + card] = T(1);
    }
    for (int seat = 0; seat < 4; ++seat) {
        int other = relative(seat);
        set_cards(out, at[PLAYED] + other * PLANES, seen.played[size_t(seat)]);
        int count = std::min(int(deal.hands[size_t(seat)].size), layout_.max_count);
        out[at[CARD_COUNTS] + other * (layout_.max_count + 1) + count] = T(1);
        int place = 0;
        for (int i = 0; i < deal.finished_count; ++i)
            if (deal.finished[size_t(i)] == seat) place = i + 1;
        out[at[PLACES] + other * 4 + std::min(place, 3)] = T(1);
    }
    int team = me % 2;
    out[at[OWN_LEVEL] + state.levels[size_t(team)] - 2] = T(1);
    out[at[OTHER_LEVEL] + state.levels[size_t(1 - team)] - 2] = T(1);
    out[at[LEVEL_RANK] + deal.level - 2] = T(1);
    out[at[LEVEL_TEAM] + (state.level_team < 0 ? 2 : int(state.level_team != team))] = T(1);
    out[at[PHASE] + std::min(int(deal.phase), 3)] = T(1);
    out[at[TO_ACT] + relative(me)] = T(1);
    out[at[TRICK_LEADER] + relative(seen.trick_leader)] = T(1);
    out[at[TO_BEAT_SEAT] + relative(deal.last_seat)] = T(1);
    if (deal.last_seat >= 0) {
        set_cards(out, at[TO_BEAT_CARDS], deal.last_play.cards());
        out[at[TO_BEAT_KIND] + deal.last_play.kind() - 1] = T(1);
        out[at[TO_BEAT_RANK] + deal.last_play.rank() - 2] = T(1);
    }
    int step = PLANES + 1;
    for (int seat = 0; seat < 4; ++seat) {
        int other = relative(seat);
        for (int depth = 0; depth < layout_.history_depth; ++depth) {
            const DealTracker::Recent& entry = seen.recent[size_t(seat)][size_t(depth)];
            if (!entry.kind) break;
            int base = at[RECENT] + (other * layout_.history_depth + depth) * step;
            if (entry.kind == 1) out[base + PLANES] = T(1);
            else set_cards(out, base, entry.cards);
        }
    }
}

template void TablePlayer::write_observation<float>(const TableState&, float*) const;
template void TablePlayer::write_observation<int8_t>(const TableState&, int8_t*) const;

}  // namespace cardroom
