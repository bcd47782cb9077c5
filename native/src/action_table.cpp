#include "action_table.hpp"

#include <algorithm>
#include <array>

namespace cardroom {

namespace {

// A hand's natural cards per rank (jokers at 15 and 16) and per suit, the ♥ level cards apart.
struct Counts {
    std::array<int, 17> natural{};
    std::array<std::array<int, 15>, 4> by_suit{};
    std::array<int, 15> suits{};  // per natural rank, a bit per suit held
    int wilds = 0;

    Counts(const Hand& hand, int level) {
        int wild = natural_index(level, HEARTS);
        wilds = hand.counts[size_t(wild)];
        natural[RANK_SMALL_JOKER] = hand.counts[SMALL_JOKER];
        natural[RANK_BIG_JOKER] = hand.counts[BIG_JOKER];
        for (int rank = 2; rank <= 14; ++rank)
            for (int suit = 0; suit < 4; ++suit) {
                int index = natural_index(rank, suit);
                int count = index == wild ? 0 : hand.counts[size_t(index)];
                by_suit[size_t(suit)][size_t(rank)] = count;
                natural[size_t(rank)] += count;
                if (count) suits[size_t(rank)] |= 1 << suit;
            }
    }
};

// The fewest wild cards that complete a sequence of ``length`` ranks from sequence position ``low``,
// ``width`` cards each; -1 when it cannot be made (a steel plate needs a natural card of every rank).
int sequence_need(const Counts& counts, int low, int length, int width, int suit) {
    int need = 0;
    for (int i = 0; i < length; ++i) {
        int rank = rank_at_position(low + i);
        int held = suit < 0 ? counts.natural[size_t(rank)] : counts.by_suit[size_t(suit)][size_t(rank)];
        if (width == 3 && !held) return -1;
        need += std::max(0, width - held);
    }
    return need;
}

// Five natural cards in sequence from ``low`` that only one suit can give: a straight flush, not a
// straight, where natural_straight_flush_is_straight is off.
bool only_one_suit(const Counts& counts, int low) {
    int first = counts.suits[size_t(rank_at_position(low))];
    if (__builtin_popcount(unsigned(first)) != 1) return false;
    for (int i = 1; i < 5; ++i)
        if (counts.suits[size_t(rank_at_position(low + i))] != first) return false;
    return true;
}

bool available(const TableEntry& entry, const Counts& counts, int level, const PlayRules& rules) {
    int wilds = entry.wilds;
    if (wilds > counts.wilds) return false;
    int rank = entry.rank;
    switch (entry.kind) {
        case SINGLE:
        case PAIR:
        case TRIPLE:
        case BOMB: {
            int naturals = entry.size - wilds;
            return counts.natural[size_t(rank)] >= naturals && (naturals > 0 || rank == level);
        }
        case FULL_HOUSE:
            for (int in_pair = 0; in_pair <= 2; ++in_pair) {
                int in_triple = wilds - in_pair;
                bool fits = entry.pair < 0 ? in_pair == 2 : entry.pair >= RANK_SMALL_JOKER ? in_pair == 0 : in_pair <= 1;
                if (!fits || in_triple < 0 || in_triple > 2) continue;
                int pair_need = entry.pair < 0 ? 0 : 2 - in_pair;
                if (counts.natural[size_t(rank)] >= 3 - in_triple &&
                    (entry.pair < 0 || counts.natural[size_t(entry.pair)] >= pair_need))
                    return true;
            }
            return false;
        case STRAIGHT: {
            int low = sequence_position(rank);
            int need = sequence_need(counts, low, 5, 1, -1);
            if (need < 0 || need > wilds) return false;
            return wilds || rules.natural_straight_flush_is_straight || !only_one_suit(counts, low);
        }
        case TUBE: {
            int need = sequence_need(counts, sequence_position(rank), 3, 2, -1);
            return need >= 0 && need <= wilds;
        }
        case PLATE: {
            int need = sequence_need(counts, sequence_position(rank), 2, 3, -1);
            return need >= 0 && need <= wilds;
        }
        case STRAIGHT_FLUSH: {
            int need = sequence_need(counts, sequence_position(rank), 5, 1, entry.suit);
            return need >= 0 && need <= wilds;
        }
        case FOUR_JOKERS:
            return counts.natural[RANK_SMALL_JOKER] == 2 && counts.natural[RANK_BIG_JOKER] == 2;
        default:
            return false;
    }
}

}  // namespace

void ActionTable::prepare() {
    PlayRules competition;
    for (int level = 2; level <= 14; ++level) {
        Orders orders(level, competition);
        auto& at = keys[size_t(level)];
        at.assign(entries.size(), 0);
        for (size_t i = 0; i < entries.size(); ++i) {
            const TableEntry& entry = entries[i];
            if (entry.kind >= 0) at[i] = play_key(entry.kind, entry.rank, entry.size, orders, competition);
        }
    }
    TableIndex made;
    auto clear = [](auto& table) {
        int16_t* first = reinterpret_cast<int16_t*>(&table);
        std::fill(first, first + sizeof(table) / sizeof(int16_t), int16_t(-1));
    };
    clear(made.of_rank), clear(made.full_house), clear(made.sequence), clear(made.flush);
    bool fits = entries.size() < 32768;
    auto put = [&](int16_t& slot, size_t i) {
        if (slot >= 0) fits = false;
        slot = int16_t(i);
    };
    for (size_t i = 0; i < entries.size() && fits; ++i) {
        const TableEntry& entry = entries[i];
        int rank = entry.rank, wilds = entry.wilds, size = entry.size;
        if (entry.kind < 0) continue;
        if (wilds < 0 || wilds > 2 || rank < 2 || rank > 16) {
            fits = false;
            continue;
        }
        int position = sequence_position(rank);
        switch (entry.kind) {
            case SINGLE:
            case PAIR:
            case TRIPLE:
            case BOMB: {
                int slot = entry.kind == BOMB ? 3 : entry.kind - SINGLE;
                int want = entry.kind == BOMB ? size : entry.kind - SINGLE + 1;
                if (size != want || size > 10) fits = false;
                else put(made.of_rank[size_t(slot)][size_t(rank)][size_t(size)][size_t(wilds)], i);
                break;
            }
            case FULL_HOUSE:
                if (size != 5 || rank > 14 || entry.pair == rank) fits = false;
                else put(made.full_house[size_t(rank)][size_t(entry.pair < 0 ? 17 : entry.pair)][size_t(wilds)], i);
                break;
            case STRAIGHT:
            case TUBE:
            case PLATE: {
                int want = entry.kind == STRAIGHT ? 5 : 6;
                if (size != want || rank > 14) fits = false;
                else put(made.sequence[size_t(entry.kind - STRAIGHT)][size_t(position)][size_t(wilds)], i);
                break;
            }
            case STRAIGHT_FLUSH:
                if (size != 5 || rank > 14 || entry.suit < 0) fits = false;
                else put(made.flush[size_t(entry.suit)][size_t(position)][size_t(wilds)], i);
                break;
            case FOUR_JOKERS:
                if (made.four_jokers >= 0) fits = false;
                made.four_jokers = int16_t(i);
                break;
            default:
                fits = false;
        }
    }
    made.ready = fits;
    index = made;
}

void ActionTable::mask_by_entries(const Hand& hand, int level, const PlayRules& rules, int previous_kind,
                                  int previous_size, int previous_key, uint8_t* out) const {
    Counts counts(hand, level);
    bool following = previous_kind != PASS;
    if (following) out[pass_index] = 1;
    Orders orders(level, rules);
    bool over_bomb = is_bomb(previous_kind);
    for (size_t i = 0; i < entries.size(); ++i) {
        const TableEntry& entry = entries[i];
        if (entry.kind < 0) continue;
        if (following) {
            bool bomb = is_bomb(entry.kind);
            if (!bomb && (over_bomb || entry.kind != previous_kind || entry.size != previous_size)) continue;
            if ((!bomb || over_bomb) && play_key(entry.kind, entry.rank, entry.size, orders, rules) <= previous_key)
                continue;
        }
        if (available(entry, counts, level, rules)) out[i] = 1;
    }
}

// The plays the hand's counts make, kind by kind through the table's index: the same entries as
// mask_by_entries() (available() read kind by kind), without trying the others.
void ActionTable::mask(const Hand& hand, int level, const PlayRules& rules, int previous_kind, int previous_size,
                       int previous_key, uint8_t* out) const {
    bool competition_order = rules.level_rank_high && !rules.two_high && !rules.bombs_by_stars;
    if (!index.ready || !competition_order || keys[size_t(level)].size() != entries.size()) {
        mask_by_entries(hand, level, rules, previous_kind, previous_size, previous_key, out);
        return;
    }
    Counts counts(hand, level);
    const std::vector<int32_t>& key = keys[size_t(level)];
    bool following = previous_kind != PASS, over_bomb = is_bomb(previous_kind);
    if (following) out[pass_index] = 1;
    int wilds = std::min(2, counts.wilds);
    auto mark = [&](int16_t at, bool bomb) {
        if (at < 0) return;
        if (following && (!bomb || over_bomb) && key[size_t(at)] <= previous_key) return;
        if (following && !bomb && entries[size_t(at)].size != previous_size) return;
        out[at] = 1;
    };
    auto wanted = [&](int kind) { return !following || (!over_bomb && kind == previous_kind); };
    for (int kind = SINGLE; kind <= TRIPLE; ++kind) {
        if (!wanted(kind)) continue;
        int size = kind - SINGLE + 1;
        const auto& slots = index.of_rank[size_t(kind - SINGLE)];
        for (int rank = 2; rank <= 16; ++rank) {
            int held = counts.natural[size_t(rank)];
            for (int w = 0; w <= (rank <= 14 ? wilds : 0); ++w) {
                int naturals = size - w;
                if (naturals < 0 || held < naturals || (naturals == 0 && rank != level)) continue;
                mark(slots[size_t(rank)][size_t(size)][size_t(w)], false);
            }
        }
    }
    if (wanted(FULL_HOUSE))
        for (int triple = 2; triple <= 14; ++triple) {
            int held = counts.natural[size_t(triple)];
            if (held + wilds < 3) continue;
            for (int pair = 2; pair <= 17; ++pair) {
                if (pair == triple) continue;
                const auto& slots = index.full_house[size_t(triple)][size_t(pair)];
                for (int w = 0; w <= wilds; ++w) {
                    for (int in_pair = 0; in_pair <= 2; ++in_pair) {
                        int in_triple = w - in_pair;
                        bool fits = pair == 17 ? in_pair == 2 : pair >= RANK_SMALL_JOKER ? in_pair == 0 : in_pair <= 1;
                        if (!fits || in_triple < 0 || in_triple > 2) continue;
                        if (held >= 3 - in_triple && (pair == 17 || counts.natural[size_t(pair)] >= 2 - in_pair)) {
                            mark(slots[size_t(w)], false);
                            break;
                        }
                    }
                }
            }
        }
    for (int kind = STRAIGHT; kind <= PLATE; ++kind) {
        if (!wanted(kind)) continue;
        int width = kind == STRAIGHT ? 1 : kind == TUBE ? 2 : 3, length = kind == STRAIGHT ? 5 : kind == TUBE ? 3 : 2;
        const auto& slots = index.sequence[size_t(kind - STRAIGHT)];
        for (int low = 1; low + length - 1 <= 14; ++low) {
            int need = sequence_need(counts, low, length, width, -1);
            if (need < 0 || need > wilds) continue;
            for (int w = need; w <= wilds; ++w) {
                if (kind == STRAIGHT && !w && !rules.natural_straight_flush_is_straight && only_one_suit(counts, low)) continue;
                mark(slots[size_t(low)][size_t(w)], false);
            }
        }
    }
    for (int rank = 2; rank <= 14; ++rank) {
        int held = counts.natural[size_t(rank)];
        if (held + wilds < 4) continue;
        const auto& slots = index.of_rank[3][size_t(rank)];
        for (int w = 0; w <= wilds; ++w)
            for (int size = 4; size <= std::min(10, held + w); ++size)
                if (size - w > 0) mark(slots[size_t(size)][size_t(w)], true);
    }
    for (int suit = 0; suit < 4; ++suit)
        for (int low = 1; low <= 10; ++low) {
            int need = sequence_need(counts, low, 5, 1, suit);
            if (need < 0 || need > wilds) continue;
            for (int w = need; w <= wilds; ++w) mark(index.flush[size_t(suit)][size_t(low)][size_t(w)], true);
        }
    if (counts.natural[RANK_SMALL_JOKER] == 2 && counts.natural[RANK_BIG_JOKER] == 2) mark(index.four_jokers, true);
}

namespace {

// Natural cards held per rank value (0-14) and suit, the ♥ level cards not counted.
using Grid = std::array<std::array<int, 4>, 15>;

struct Pick {
    int value, count, suit;  // suit -1: any
};
using Allocation = std::vector<Pick>;
using Taken = std::vector<std::pair<int, int>>;  // (rank value, suit)

// Sequence positions 1-14 (the ace at both ends) where the grid holds ``layer`` copies of the suit.
unsigned suit_bits(const Grid& grid, int suit, int layer) {
    unsigned bits = 0;
    for (int value = 2; value <= 14; ++value)
        if (grid[size_t(value)][size_t(suit)] >= layer) bits |= 1u << value;
    if (bits & (1u << 14)) bits |= 2;
    return bits;
}

constexpr unsigned window_mask(int low) { return 0b11111u << low; }

// Copies in straight-flush windows: five positions of one suit the hand holds or completes with its
// remaining wild cards (a second copy counts for a second window).
Grid reserved_copies(const Grid& grid, int wilds) {
    Grid reserved{};
    for (int suit = 0; suit < 4; ++suit)
        for (int layer = 1; layer <= 2; ++layer) {
            unsigned bits = suit_bits(grid, suit, layer), marked = 0;
            for (int low = 1; low <= 10; ++low) {
                unsigned inside = bits & window_mask(low);
                if (inside && 5 - __builtin_popcount(inside) <= wilds) marked |= inside;
            }
            if (marked & 2) marked |= 1u << 14;
            for (int value = 2; value <= 14; ++value)
                if (marked >> value & 1) ++reserved[size_t(value)][size_t(suit)];
        }
    return reserved;
}

// The ways the ranks may give natural cards, in the tie-breaking order: a full house's wild cards in
// the triple first; a sequence's extra wild cards at its highest positions first.
std::vector<Allocation> allocations(const TableEntry& entry, const Grid& grid) {
    std::vector<Allocation> options;
    int kind = entry.kind, rank = entry.rank, wilds = entry.wilds;
    if (kind == FULL_HOUSE) {
        for (int in_pair = 0; in_pair <= 2; ++in_pair) {
            int in_triple = wilds - in_pair;
            bool fits = entry.pair < 0 ? in_pair == 2 : entry.pair >= RANK_SMALL_JOKER ? in_pair == 0 : in_pair <= 1;
            if (!fits || in_triple < 0 || in_triple > 2) continue;
            Allocation allocation{{rank, 3 - in_triple, -1}};
            if (entry.pair >= 0 && entry.pair < RANK_SMALL_JOKER) allocation.push_back({entry.pair, 2 - in_pair, -1});
            options.push_back(allocation);
        }
        return options;
    }
    int width = kind == TUBE ? 2 : kind == PLATE ? 3 : 1;
    int length = kind == STRAIGHT || kind == STRAIGHT_FLUSH ? 5 : kind == TUBE ? 3 : kind == PLATE ? 2 : 0;
    if (!length) {
        int naturals = entry.size - wilds;
        options.push_back(naturals ? Allocation{{rank, naturals, -1}} : Allocation{});
        return options;
    }
    int low = sequence_position(rank), suit = entry.suit;
    std::array<int, 5> values{}, most{};
    int total = 0;
    for (int i = 0; i < length; ++i) {
        values[size_t(i)] = rank_at_position(low + i);
        const auto& row = grid[size_t(values[size_t(i)])];
        int held = suit >= 0 ? row[size_t(suit)] : row[0] + row[1] + row[2] + row[3];
        most[size_t(i)] = std::min(width, held);
        total += most[size_t(i)];
    }
    int excess = total - (entry.size - wilds);
    if (excess < 0) return options;
    // itertools.combinations_with_replacement(reversed(range(length)), excess), in its order
    std::array<int, 8> picks{};
    auto emit = [&](auto&& self, int depth, int from) -> void {
        if (depth == excess) {
            std::array<int, 5> counts = most;
            for (int d = 0; d < excess; ++d) --counts[size_t(length - 1 - picks[size_t(d)])];
            int fewest = kind == PLATE ? 1 : 0;
            for (int i = 0; i < length; ++i)
                if (counts[size_t(i)] < fewest) return;
            Allocation allocation;
            for (int i = 0; i < length; ++i)
                if (counts[size_t(i)]) allocation.push_back({values[size_t(i)], counts[size_t(i)], suit});
            options.push_back(allocation);
            return;
        }
        for (int i = from; i < length; ++i) {
            picks[size_t(depth)] = i;
            self(self, depth + 1, i);
        }
    };
    if (excess <= int(picks.size())) emit(emit, 0, 0);
    return options;
}

// Copies for an allocation: those outside straight-flush windows first, then ♠ ♥ ♣ ♦; a plain straight
// of five natural cards trades one card for another suit.
bool take(const Allocation& allocation, const Grid& grid, const Grid& reserved, bool unflush, Taken& taken) {
    taken.clear();
    for (const Pick& pick : allocation) {
        std::vector<std::pair<int, int>> copies;  // (in a window, suit)
        for (int each = pick.suit < 0 ? 0 : pick.suit; each < (pick.suit < 0 ? 4 : pick.suit + 1); ++each) {
            int have = grid[size_t(pick.value)][size_t(each)];
            int kept = std::min(reserved[size_t(pick.value)][size_t(each)], have);
            for (int i = 0; i < have - kept; ++i) copies.push_back({0, each});
            for (int i = 0; i < kept; ++i) copies.push_back({1, each});
        }
        if (int(copies.size()) < pick.count) return false;
        std::sort(copies.begin(), copies.end());
        for (int i = 0; i < pick.count; ++i) taken.push_back({pick.value, copies[size_t(i)].second});
    }
    if (!unflush || taken.empty()) return true;
    int only = taken[0].second;
    for (const auto& card : taken)
        if (card.second != only) return true;
    std::array<int, 3> best{2, 0, 0};  // (a reserved copy, position, suit): the least
    bool found = false;
    for (size_t position = 0; position < taken.size(); ++position) {
        int value = taken[position].first;
        for (int other = 0; other < 4; ++other) {
            if (other == only || !grid[size_t(value)][size_t(other)]) continue;
            std::array<int, 3> swap{reserved[size_t(value)][size_t(other)] >= grid[size_t(value)][size_t(other)] ? 1 : 0,
                                    int(position), other};
            if (!found || swap < best) best = swap;
            found = true;
        }
    }
    if (!found) return false;
    taken[size_t(best[1])].second = best[2];
    return true;
}

// What the rest of the hand keeps: straight-flush windows it can still make, bombs, cards in bombs.
std::array<int, 3> score(const Grid& grid, const Taken& taken, int wilds) {
    Grid rest = grid;
    for (const auto& [value, suit] : taken) --rest[size_t(value)][size_t(suit)];
    int windows = 0;
    for (int suit = 0; suit < 4; ++suit)
        for (int layer = 1; layer <= 2; ++layer) {
            unsigned bits = suit_bits(rest, suit, layer);
            for (int low = 1; low <= 10; ++low)
                if (5 - __builtin_popcount(bits & window_mask(low)) <= wilds) ++windows;
        }
    int bombs = 0, bomb_cards = 0;
    for (int value = 2; value <= 14; ++value) {
        const auto& row = rest[size_t(value)];
        int count = row[0] + row[1] + row[2] + row[3];
        if (count >= 4) ++bombs, bomb_cards += count;
    }
    return {windows, bombs, bomb_cards};
}

}  // namespace

bool concrete_play(const TableEntry& entry, const Hand& hand, int level, const PlayRules& rules, PackedPlay& out) {
    if (entry.kind < SINGLE) return false;
    int wild = natural_index(level, HEARTS);
    int wilds = hand.counts[size_t(wild)];
    if (entry.wilds > wilds) return false;
    Hand chosen;
    auto add = [&](int index, int times) {
        chosen.counts[size_t(index)] = uint8_t(chosen.counts[size_t(index)] + times);
        chosen.size += times;
    };
    if (entry.kind == FOUR_JOKERS || entry.rank >= RANK_SMALL_JOKER) {
        int small = entry.kind == FOUR_JOKERS ? 2 : entry.rank == RANK_SMALL_JOKER ? entry.size : 0;
        int big = entry.kind == FOUR_JOKERS ? 2 : entry.rank == RANK_BIG_JOKER ? entry.size : 0;
        if (hand.counts[SMALL_JOKER] < small || hand.counts[BIG_JOKER] < big) return false;
        add(SMALL_JOKER, small);
        add(BIG_JOKER, big);
    } else {
        if (entry.pair >= RANK_SMALL_JOKER) {
            int joker = entry.pair == RANK_SMALL_JOKER ? SMALL_JOKER : BIG_JOKER;
            if (hand.counts[size_t(joker)] < 2) return false;
            add(joker, 2);
        }
        Grid grid{};
        for (int value = 2; value <= 14; ++value)
            for (int suit = 0; suit < 4; ++suit) {
                int index = natural_index(value, suit);
                grid[size_t(value)][size_t(suit)] = index == wild ? 0 : hand.counts[size_t(index)];
            }
        int left = wilds - entry.wilds;
        Grid reserved = reserved_copies(grid, left);
        bool unflush = entry.kind == STRAIGHT && !entry.wilds && !rules.natural_straight_flush_is_straight;
        bool found = false;
        std::array<int, 3> best_score{};
        Taken taken, best;
        for (const Allocation& allocation : allocations(entry, grid)) {
            if (!take(allocation, grid, reserved, unflush, taken)) continue;
            std::array<int, 3> value = score(grid, taken, left);
            if (!found || value > best_score) {
                best_score = value;
                best = taken;
                found = true;
            }
        }
        if (!found) return false;
        for (const auto& [value, suit] : best) add(natural_index(value, suit), 1);
        add(wild, entry.wilds);
    }
    HandView view(chosen, level, rules);
    int key = play_key(entry.kind, entry.rank, chosen.size, level, rules);
    PlayList readings;
    plays_of_kind(view, rules, entry.kind, std::max(key - 1, 0), chosen.size, readings);
    for (const PackedPlay& play : readings)
        if (play.rank() == entry.rank && int(play.key) == key) {
            out = play;
            return true;
        }
    return false;
}

}  // namespace cardroom
