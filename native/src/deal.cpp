#include "deal.hpp"

#include <algorithm>
#include <stdexcept>

namespace cardroom {

namespace {
uint64_t splitmix(uint64_t& x) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

Random::Random(uint64_t seed) {
    for (auto& word : state) word = splitmix(seed);
}

uint64_t Random::next() {
    uint64_t result = rotl(state[1] * 5, 7) * 9;
    uint64_t t = state[1] << 17;
    state[2] ^= state[0];
    state[3] ^= state[1];
    state[1] ^= state[2];
    state[0] ^= state[3];
    state[2] ^= t;
    state[3] = rotl(state[3], 45);
    return result;
}

uint64_t Random::below(uint64_t bound) {
    // Lemire's nearly divisionless method, unbiased
    unsigned __int128 product = (unsigned __int128)next() * bound;
    uint64_t low = uint64_t(product);
    if (low < bound) {
        uint64_t threshold = -bound % bound;
        while (low < threshold) {
            product = (unsigned __int128)next() * bound;
            low = uint64_t(product);
        }
    }
    return uint64_t(product >> 64);
}

DealState::DealState(const std::array<Hand, 4>& dealt, int level_rank, int first, const DealRules& deal_rules)
    : hands(dealt), rules(deal_rules), level(int8_t(level_rank)), current(int8_t(first)), leader(int8_t(first)) {
    if (level_rank < 2 || level_rank > 14) throw std::invalid_argument("the level must be a rank from 2 to A");
    if (first < 0 || first > 3) throw std::invalid_argument("the leader must be a seat 0-3");
}

namespace {
int partner(int seat) { return (seat + 2) % 4; }

int copies(const Hand& hand, int card) { return hand.counts[size_t(card)]; }
}  // namespace

DealState DealState::after(const std::array<Hand, 4>& dealt, int level_rank, const std::array<int8_t, 4>& previous,
                           const DealRules& deal_rules) {
    std::array<bool, 4> seen{};
    for (int8_t seat : previous) {
        if (seat < 0 || seat > 3 || seen[size_t(seat)]) throw std::invalid_argument("places must be the four seats in finishing order");
        seen[size_t(seat)] = true;
    }
    DealState deal(dealt, level_rank, previous[0], deal_rules);
    deal.leader = -1;
    deal.previous_places = previous;
    int first = previous[0], second = previous[1];
    if (second == partner(first)) {  // 双下: both opponents pay, in play order from 上游's 下家
        for (int step = 1; step < 4; ++step) {
            int seat = (first + step) % 4;
            if (seat == previous[2] || seat == previous[3]) deal.payers[size_t(deal.payer_count++)] = int8_t(seat);
        }
        deal.receivers = {int8_t(first), int8_t(second)};
        deal.receiver_count = 2;
    } else {
        deal.payers[0] = previous[3];
        deal.payer_count = 1;
        deal.receivers[0] = int8_t(first);
        deal.receiver_count = 1;
    }
    int big_jokers = 0;
    for (int i = 0; i < deal.payer_count; ++i) big_jokers += copies(deal.hands[size_t(deal.payers[size_t(i)])], BIG_JOKER);
    if (big_jokers >= deal.rules.anti_tribute_big_jokers) {
        deal.anti_tribute = true;
        deal.payer_count = 0;
        deal.start_play(first);
        return deal;
    }
    if (deal.rules.small_jokers_exempt_payer) {
        int kept = 0;
        for (int i = 0; i < deal.payer_count; ++i) {
            int payer = deal.payers[size_t(i)];
            if (copies(deal.hands[size_t(payer)], SMALL_JOKER) >= 2) deal.exempt[size_t(payer)] = true;
            else deal.payers[size_t(kept++)] = int8_t(payer);
        }
        deal.payer_count = int8_t(kept);
    }
    if (!deal.payer_count) {
        deal.start_play(first);
        return deal;
    }
    deal.phase = DealPhase::TRIBUTE;
    deal.current = deal.payers[0];
    return deal;
}

void DealState::start_play(int seat) {
    phase = DealPhase::PLAY;
    current = int8_t(seat);
    leader = int8_t(seat);
}

bool DealState::is_finished(int seat) const {
    for (int i = 0; i < finished_count; ++i)
        if (finished[size_t(i)] == seat) return true;
    return false;
}

int DealState::next_active(int seat) const {
    for (int step = 1; step <= 4; ++step) {
        int candidate = (seat + step) % 4;
        if (!is_finished(candidate)) return candidate;
    }
    throw std::logic_error("no player is left");
}

int DealState::payer_to(int receiver) const {
    for (int i = 0; i < payer_count; ++i) {
        int payer = payers[size_t(i)];
        if (receiver_of[size_t(payer)] == receiver) return payer;
    }
    throw std::logic_error("no tribute went to this seat");
}

void DealState::legal(PlayList& out) const {
    if (phase != DealPhase::PLAY) return;
    HandView view(hands[size_t(current)], level, rules.plays);
    if (last_seat < 0) {
        card_leads(view, rules.plays, out);
        return;
    }
    out.push_back(PackedPlay{});
    card_follows(view, rules.plays, last_play.kind(), last_play.size(), int(last_play.key), out);
}

void DealState::legal_cards(std::vector<int>& out) const {
    const Hand& hand = hands[size_t(current)];
    Orders orders(level, rules.plays);
    if (phase == DealPhase::TRIBUTE) {  // the highest cards by the order of ranks, ♥ level cards excepted
        int wild = natural_index(level, HEARTS), best = -1;
        for (int card = 0; card < CARD_COUNT; ++card)
            if (hand.counts[size_t(card)] && card != wild) best = std::max(best, orders[rank_of(card)]);
        for (int card = 0; card < CARD_COUNT; ++card)
            if (hand.counts[size_t(card)] && card != wild && orders[rank_of(card)] == best) out.push_back(card);
        return;
    }
    if (phase != DealPhase::RETURN) return;
    bool to_partner = payer_to(current) == partner(current);
    bool any = rules.return_limit == RETURN_LIMIT_NEVER || (rules.return_limit == RETURN_LIMIT_TO_PARTNER && !to_partner);
    auto value = [&](int card) {
        int rank = rank_of(card);
        return rules.return_limit_by_face_value && rank < RANK_SMALL_JOKER ? rank : orders[rank];
    };
    int lowest = 1 << 30;
    for (int card = 0; card < CARD_COUNT; ++card) {
        if (!hand.counts[size_t(card)]) continue;
        if (any || value(card) <= rules.return_limit_rank) out.push_back(card);
        lowest = std::min(lowest, value(card));
    }
    if (!out.empty() || !hand.size) return;
    for (int card = 0; card < CARD_COUNT; ++card)
        if (hand.counts[size_t(card)] && value(card) == lowest) out.push_back(card);
}

void DealState::apply_card(int card) {
    int seat = current;
    Hand& hand = hands[size_t(seat)];
    --hand.counts[size_t(card)];
    --hand.size;
    if (phase == DealPhase::TRIBUTE) {
        paid[size_t(seat)] = int8_t(card);
        for (int i = 0; i < payer_count; ++i)
            if (paid[size_t(payers[size_t(i)])] < 0) {
                current = payers[size_t(i)];
                return;
            }
        tributes_paid();
        return;
    }
    int payer = payer_to(seat);
    Hand& back = hands[size_t(payer)];
    ++back.counts[size_t(card)];
    ++back.size;
    for (int i = 0; i < returns_left; ++i)
        if (returns_due[size_t(i)] == seat) {
            for (int j = i; j + 1 < returns_left; ++j) returns_due[size_t(j)] = returns_due[size_t(j + 1)];
            --returns_left;
            break;
        }
    if (returns_left) {
        current = returns_due[0];
        return;
    }
    int first = receivers[0];
    if (receiver_count == 2 && rules.double_tribute_lead_last_place) {
        start_play(previous_places[3]);
        return;
    }
    for (int i = 0; i < payer_count; ++i)
        if (receiver_of[size_t(payers[size_t(i)])] == first) {
            start_play(payers[size_t(i)]);
            return;
        }
    start_play(first);
}

// TributePlan.assign: by place, or the larger card to 上游 (equal cards: the first payer in play order).
void DealState::tributes_paid() {
    if (receiver_count == 1) {
        receiver_of[size_t(payers[0])] = receivers[0];
    } else if (rules.double_tribute_by_place || payer_count == 1) {
        for (int i = 0; i < payer_count; ++i) {
            int payer = payers[size_t(i)];
            receiver_of[size_t(payer)] = payer == previous_places[3] ? receivers[0] : receivers[1];
        }
    } else {
        Orders orders(level, rules.plays);
        int first = payers[0], second = payers[1];
        if (orders[rank_of(paid[size_t(second)])] > orders[rank_of(paid[size_t(first)])]) std::swap(first, second);
        receiver_of[size_t(first)] = receivers[0];
        receiver_of[size_t(second)] = receivers[1];
    }
    for (int i = 0; i < payer_count; ++i) {
        int payer = payers[size_t(i)];
        Hand& hand = hands[size_t(receiver_of[size_t(payer)])];
        ++hand.counts[size_t(paid[size_t(payer)])];
        ++hand.size;
    }
    returns_left = 0;
    for (int i = 0; i < receiver_count; ++i)
        for (int j = 0; j < payer_count; ++j)
            if (receiver_of[size_t(payers[size_t(j)])] == receivers[size_t(i)]) {
                returns_due[size_t(returns_left++)] = receivers[size_t(i)];
                break;
            }
    phase = DealPhase::RETURN;
    current = returns_due[0];
}

void DealState::end_trick(int winner) {
    int next = winner;
    if (is_finished(winner)) next = rules.lead_passes_to_partner ? partner(winner) : next_active(winner);
    last_seat = -1;
    passes = 0;
    current = int8_t(next);
}

void DealState::apply(const PackedPlay& play) {
    int seat = current;
    if (play.kind() == PASS) {
        ++passes;
        int winner = last_seat;
        int others = 0;
        for (int s = 0; s < 4; ++s)
            if (s != winner && !is_finished(s)) ++others;
        if (passes >= others) end_trick(winner);
        else current = int8_t(next_active(seat));
        return;
    }
    Hand& hand = hands[size_t(seat)];
    Cards cards = play.cards();
    for (int index = 0; index < CARD_COUNT; ++index) {
        int count = count_of(cards, index);
        hand.counts[size_t(index)] = uint8_t(hand.counts[size_t(index)] - count);
        hand.size -= count;
    }
    last_seat = int8_t(seat);
    last_play = play;
    passes = 0;
    if (hand.size == 0) {
        finished[size_t(finished_count++)] = int8_t(seat);
        if (is_finished(partner(seat))) {
            int count = 0;
            for (int i = 0; i < finished_count; ++i) places[size_t(count++)] = finished[size_t(i)];
            for (int step = 1; step < 4; ++step) {
                int other = (seat + step) % 4;
                if (!is_finished(other)) places[size_t(count++)] = int8_t(other);
            }
            phase = DealPhase::OVER;
            current = -1;
            return;
        }
    }
    current = int8_t(next_active(seat));
}

std::array<Hand, 4> shuffled_hands(Random& random, int& leader) {
    std::array<uint8_t, 108> deck{};
    for (int i = 0; i < 108; ++i) deck[i] = uint8_t(i / 2);
    for (int i = 107; i > 0; --i) std::swap(deck[i], deck[random.below(uint64_t(i) + 1)]);
    std::array<Hand, 4> hands{};
    for (int i = 0; i < 108; ++i) {
        ++hands[i % 4].counts[deck[i]];
        ++hands[i % 4].size;
    }
    leader = int(random.below(108) % 4);
    return hands;
}

int random_playout(DealState& deal, Random& random, std::vector<Action>* log, bool trick_only) {
    PlayList options;
    options.reserve(4096);
    std::vector<int> cards;
    int actions = 0;
    while (!deal.over() && !(trick_only && actions && deal.last_seat < 0)) {
        int seat = deal.current;
        if (deal.phase == DealPhase::PLAY) {
            options.clear();
            deal.legal(options);
            const PackedPlay& choice = options[random.below(options.size())];
            if (log) log->push_back({int8_t(seat), DealPhase::PLAY, -1, choice});
            deal.apply(choice);
        } else {
            cards.clear();
            deal.legal_cards(cards);
            int card = cards[random.below(cards.size())];
            if (log) log->push_back({int8_t(seat), deal.phase, int8_t(card), PackedPlay{}});
            deal.apply_card(card);
        }
        ++actions;
    }
    return actions;
}

}  // namespace cardroom
