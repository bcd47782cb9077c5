#include "deal.hpp"

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

DealState::DealState(const std::array<Hand, 4>& dealt, int level_rank, int leader, const DealRules& deal_rules)
    : hands(dealt), rules(deal_rules), level(int8_t(level_rank)), current(int8_t(leader)) {
    if (level_rank < 2 || level_rank > 14) throw std::invalid_argument("the level must be a rank from 2 to A");
    if (leader < 0 || leader > 3) throw std::invalid_argument("the leader must be a seat 0-3");
}

bool DealState::is_finished(int seat) const {
    for (int i = 0; i < finished_count; ++i)
        if (finished[i] == seat) return true;
    return false;
}

int DealState::next_active(int seat) const {
    for (int step = 1; step <= 4; ++step) {
        int candidate = (seat + step) % 4;
        if (!is_finished(candidate)) return candidate;
    }
    throw std::logic_error("no player is left");
}

void DealState::legal(PlayList& out) const {
    if (over) return;
    HandView view(hands[current], level, rules.plays);
    if (last_seat < 0) {
        card_leads(view, rules.plays, out);
        return;
    }
    out.push_back(PackedPlay{});
    card_follows(view, rules.plays, last_play.kind(), last_play.size(), int(last_play.key), out);
}

void DealState::end_trick(int winner) {
    int leader = winner;
    if (is_finished(winner)) leader = rules.lead_passes_to_partner ? (winner + 2) % 4 : next_active(winner);
    last_seat = -1;
    passes = 0;
    current = int8_t(leader);
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
    Hand& hand = hands[seat];
    Cards cards = play.cards();
    for (int index = 0; index < CARD_COUNT; ++index) {
        int count = count_of(cards, index);
        hand.counts[index] = uint8_t(hand.counts[index] - count);
        hand.size -= count;
    }
    last_seat = int8_t(seat);
    last_play = play;
    passes = 0;
    if (hand.size == 0) {
        finished[finished_count++] = int8_t(seat);
        if (is_finished((seat + 2) % 4)) {
            int count = 0;
            for (int i = 0; i < finished_count; ++i) places[count++] = finished[i];
            for (int step = 1; step < 4; ++step) {
                int other = (seat + step) % 4;
                if (!is_finished(other)) places[count++] = int8_t(other);
            }
            over = true;
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
    int actions = 0;
    while (!deal.over && !(trick_only && actions && deal.last_seat < 0)) {
        options.clear();
        deal.legal(options);
        const PackedPlay& choice = options[random.below(options.size())];
        if (log) log->push_back({deal.current, choice});
        deal.apply(choice);
        ++actions;
    }
    return actions;
}

}  // namespace cardroom
