// The heuristic bot's play-phase decision (heuristic.hpp), line for line after its reference,
// cardroom.bots.heuristic (HeuristicBot.play and _Table): the same plan, the same tests in the same
// order, the same ties (min and max keep the first of equals, sorts are stable) and the same card
// choices (planning.units_cards, RankPlay.to_play), so that the play chosen is identical, its wild
// cards' readings included. Compiled with -ffp-contract=off: the plan costs it compares must round
// as Python's do.
#include "heuristic.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "card_plays.hpp"
#include "rank_plays.hpp"

namespace cardroom::heuristic {

namespace {

using planning::PlanUnit;

// The heuristic names its plans and rank-level plays by the competition's plays whatever the rules
// (its planner, rank_orders(level), rankplays.rank_follows and RankPlay.to_play at their defaults);
// only the checks against the rules (read_as, can_play_cards, the legal list) take the rule set's.
const PlayRules COMPETITION_RULES{};

constexpr double LEAD_SIZE_BONUS = 0.04;
constexpr double BREAK_EPSILON = 1e-9;

using Counts = std::array<int, CARD_COUNT>;
using CardList = std::vector<int>;  // card indices, in the order the reference lists the cards

Cards multiset(const CardList& cards) {
    Cards result = 0;
    for (int index : cards) result += one_card(index);
    return result;
}

bool joker_rank(int rank) { return rank >= RANK_SMALL_JOKER; }

// readings.read_as: these cards read as a play of this kind and key rank, the first such reading.
std::optional<PackedPlay> read_as(Cards cards, int kind, int rank, int level, const PlayRules& rules) {
    int size = card_total(cards);
    if (kind == PASS || !size || !known_kind(kind, rules)) return std::nullopt;
    bool chained = kind == CHAIN_BOMB;
    int key = chained ? 0 : play_key(kind, rank, size, level, rules);
    Hand hand = Hand::from_cards(cards);
    HandView view(hand, level, rules);
    PlayList found;
    plays_of_kind(view, rules, kind, std::max(key - 1, 0), size, found);
    for (const PackedPlay& play : found)
        if (play.rank() == rank && (chained || int(play.key) == key)) return play;
    return std::nullopt;
}

// The kinds readings.classify tries for a number of cards (the competition's rule sets).
bool kind_has_size(int kind, int size) {
    switch (size) {
        case 1: return kind == SINGLE;
        case 2: return kind == PAIR;
        case 3: return kind == TRIPLE;
        case 4: return kind == BOMB || kind == FOUR_JOKERS;
        case 5: return kind == FULL_HOUSE || kind == STRAIGHT || kind == STRAIGHT_FLUSH || kind == BOMB;
        case 6: return kind == TUBE || kind == PLATE || kind == BOMB;
        default: return size >= 7 && size <= 10 && kind == BOMB;
    }
}

// moves.can_play_cards: whether some reading of exactly these cards may be played now.
bool can_play_cards(Cards cards, const PackedPlay* previous, int level, const PlayRules& rules) {
    int size = card_total(cards);
    if (!size) return false;
    bool extended = rules.extended();
    Hand hand = Hand::from_cards(cards);
    HandView view(hand, level, rules);
    PlayList found;
    for (int kind = SINGLE; kind <= (extended ? CHAIN_BOMB : FOUR_JOKERS); ++kind) {
        if (!extended && !kind_has_size(kind, size)) continue;
        found.clear();
        plays_of_kind(view, rules, kind, 0, size, found);
        for (const PackedPlay& play : found)
            if (!previous || play.beats(*previous)) return true;
    }
    return false;
}

// rankview._take: up to ``number`` natural cards of a rank, ♠ ♥ ♣ ♦ first (or of one suit).
void take(Counts& counts, int rank, int number, int suit, CardList& out) {
    int taken = 0;
    for (int each = 0; each < 4; ++each) {
        if (suit >= 0 && each != suit) continue;
        int index = natural_index(rank, each);
        int available = std::min(counts[size_t(index)], number - taken);
        if (available <= 0) continue;
        for (int i = 0; i < available; ++i) out.push_back(index);
        taken += available;
        counts[size_t(index)] -= available;
    }
}

// rankview._unflush: a plain straight of five natural cards of one suit gets one card of another suit.
bool rank_unflush(CardList& chosen, const Counts& counts) {
    if (chosen.empty()) return false;
    int suit = suit_of(chosen[0]);
    for (int card : chosen)
        if (suit_of(card) != suit) return true;
    for (int& card : chosen)
        for (int other = 0; other < 4; ++other)
            if (other != suit && counts[size_t(natural_index(rank_of(card), other))]) {
                card = natural_index(rank_of(card), other);
                return true;
            }
    return false;
}

int sequence_width(int kind) {
    switch (kind) {
        case STRAIGHT: case STRAIGHT_FLUSH: return 1;
        case TUBE: return 2;
        case PLATE: return 3;
        default: return 0;
    }
}

// rankview._choose (the competition's): the natural cards of one concrete choice for a rank-level play.
bool choose(const RankPlay& play, Counts& counts, CardList& chosen) {
    int kind = play.kind, rank = play.rank, size = play.size, wilds = play.wilds;
    int suit = play.suit == 0xFF ? -1 : play.suit;
    if (kind == FOUR_JOKERS) {
        chosen = {SMALL_JOKER, SMALL_JOKER, BIG_JOKER, BIG_JOKER};
        return true;
    }
    if (joker_rank(rank)) {
        chosen.assign(size_t(size), rank == RANK_SMALL_JOKER ? SMALL_JOKER : BIG_JOKER);
        return true;
    }
    if (int per = sequence_width(kind)) {
        int low = rank == 14 ? 1 : rank;
        for (int position = low; position < low + size / per; ++position)
            take(counts, rank_at_position(position), per, suit, chosen);
        int excess = int(chosen.size()) + wilds - size;
        if (excess > 0) {
            chosen.erase(chosen.begin(), chosen.begin() + std::min<long>(excess, long(chosen.size())));
            return true;
        }
        if (kind == STRAIGHT && !wilds && !COMPETITION_RULES.natural_straight_flush_is_straight)
            return rank_unflush(chosen, counts);
        return true;
    }
    if (kind == FULL_HOUSE) {
        take(counts, rank, 3, -1, chosen);
        if (play.pair_rank == 0xFF) return true;
        if (joker_rank(play.pair_rank)) {
            chosen.insert(chosen.end(), 2, play.pair_rank == RANK_SMALL_JOKER ? SMALL_JOKER : BIG_JOKER);
            return true;
        }
        take(counts, play.pair_rank, 2, -1, chosen);
        return true;
    }
    take(counts, rank, size - wilds, -1, chosen);
    return true;
}

// RankPlay.to_play(hand, level) at its default (competition) rules: the cards, read as the play.
std::optional<PackedPlay> to_play(const RankPlay& play, const Counts& hand, int level) {
    Counts counts = hand;
    int wild = natural_index(level, HEARTS);
    int wilds = counts[size_t(wild)];
    counts[size_t(wild)] = 0;
    int hearts = play.wilds - play.big_jokers;
    counts[BIG_JOKER] -= play.big_jokers;
    if (hearts > wilds || counts[BIG_JOKER] < 0) return std::nullopt;
    CardList chosen;
    if (!choose(play, counts, chosen)) return std::nullopt;
    if (int(chosen.size()) + play.wilds != play.size) return std::nullopt;
    Cards cards = multiset(chosen) + Cards(hearts) * one_card(wild) + Cards(play.big_jokers) * one_card(BIG_JOKER);
    for (int index = 0; index < CARD_COUNT; ++index)
        if (count_of(cards, index) > 2) return std::nullopt;  // not a hand: no reading
    return read_as(cards, play.kind, play.rank, level, COMPETITION_RULES);
}

// planning._unflush: the first card (in the unit's order) that has another suit available swaps to it.
bool plan_unflush(CardList& cards, const Counts& available) {
    int suit = suit_of(cards[0]);
    for (int& card : cards)
        for (int other = 0; other < 4; ++other) {
            int index = natural_index(rank_of(card), other);
            if (other != suit && available[size_t(index)]) {
                card = index;
                return true;
            }
        }
    return false;
}

// planning.units_cards: concrete cards for a unit from the hand's counts, keeping the ``reserved``
// cards (a planned straight flush's) where another copy or suit will do.
bool units_cards(const PlanUnit& unit, const Counts& held, int level, const Counts* reserved, CardList& cards) {
    int wild = natural_index(level, HEARTS);
    Counts available = held;
    if (available[size_t(wild)] < unit.wilds) return false;
    available[size_t(wild)] -= unit.wilds;
    Counts free = available;
    if (reserved)
        for (int index = 0; index < CARD_COUNT; ++index)
            free[size_t(index)] = std::max(0, free[size_t(index)] - (*reserved)[size_t(index)]);
    free[size_t(wild)] = 0;
    std::array<int, 8> values{}, numbers{};
    int distinct = 0;
    for (int i = 0; i < unit.natural_count; ++i) {
        int value = unit.naturals[size_t(i)];
        int at = 0;
        while (at < distinct && values[size_t(at)] != value) ++at;
        if (at == distinct) values[size_t(distinct++)] = value;
        ++numbers[size_t(at)];
    }
    for (int i = 0; i < distinct; ++i) {
        int value = values[size_t(i)], number = numbers[size_t(i)];
        if (value >= RANK_SMALL_JOKER) {
            int joker = value == RANK_SMALL_JOKER ? SMALL_JOKER : BIG_JOKER;
            if (available[size_t(joker)] < number) return false;
            available[size_t(joker)] -= number;
            cards.insert(cards.end(), size_t(number), joker);
            continue;
        }
        for (Counts* pool : {&free, &available}) {
            for (int suit = 0; suit < 4; ++suit) {
                if (unit.suit >= 0 && suit != unit.suit) continue;
                int index = natural_index(value, suit);
                if (index == wild) continue;
                int taken = std::min({(*pool)[size_t(index)], available[size_t(index)], number});
                if (taken > 0) {
                    cards.insert(cards.end(), size_t(taken), index);
                    available[size_t(index)] -= taken;
                    free[size_t(index)] = std::max(0, free[size_t(index)] - taken);
                    number -= taken;
                }
            }
            if (!number) break;
        }
        if (number) return false;
    }
    if (unit.kind == STRAIGHT && !unit.wilds && !cards.empty()) {
        bool one_suit = true;
        for (int card : cards) one_suit = one_suit && suit_of(card) == suit_of(cards[0]);
        if (one_suit && !plan_unflush(cards, available)) return false;
    }
    cards.insert(cards.end(), size_t(unit.wilds), wild);
    return true;
}

bool unit_beats(const PlanUnit& unit, int kind, int size, int key) {
    if (is_bomb(unit.kind)) return !is_bomb(kind) || unit.key > key;
    return unit.kind == kind && unit.size == size && unit.key > key;
}

// _by_key: (key, wild cards), the order min() and max() weigh units by.
bool by_key_less(const PlanUnit& a, const PlanUnit& b) {
    return a.key != b.key ? a.key < b.key : a.wilds < b.wilds;
}

const PlanUnit* min_by_key(const std::vector<const PlanUnit*>& units) {
    const PlanUnit* best = nullptr;
    for (const PlanUnit* unit : units)
        if (!best || by_key_less(*unit, *best)) best = unit;
    return best;
}

const PlanUnit* max_by_key(const std::vector<const PlanUnit*>& units) {
    const PlanUnit* best = nullptr;
    for (const PlanUnit* unit : units)
        if (!best || by_key_less(*best, *unit)) best = unit;
    return best;
}

// _Table: one decision's view.
struct Table {
    const Seen& seen;
    const Parameters& parameters;
    PlanCache& plans;
    planning::HandPlan plan;  // a copy: re-planning other hands may clear the cache
    std::vector<const PlanUnit*> plain, bombs;
    int seat, partner, right, left, level, wild;
    Orders orders;
    const PackedPlay* previous;  // nullptr when leading
    Counts held{};
    std::array<int, 15> natural{};
    Counts reserved{};
    PlayList actions_;
    bool listed = false;

    Table(const Seen& seen_, const Parameters& parameters_, PlanCache& plans_)
        : seen(seen_),
          parameters(parameters_),
          plans(plans_),
          plan(plans_.plan(seen_.hand)),
          seat(seen_.seat),
          partner((seen_.seat + 2) % 4),
          right((seen_.seat + 1) % 4),
          left((seen_.seat + 3) % 4),
          level(seen_.level),
          wild(natural_index(seen_.level, HEARTS)),
          orders(seen_.level),
          previous(seen_.previous.kind() == PASS ? nullptr : &seen_.previous) {
        for (const PlanUnit& unit : plan.units) (is_bomb(unit.kind) ? bombs : plain).push_back(&unit);
        for (int index = 0; index < CARD_COUNT; ++index) held[size_t(index)] = seen.hand.counts[size_t(index)];
        for (int index = 2; index < CARD_COUNT; ++index) natural[size_t(rank_of(index))] += held[size_t(index)];
        natural[size_t(level)] -= held[size_t(wild)];
        for (const PlanUnit& unit : plan.units)
            if (unit.kind == STRAIGHT_FLUSH && unit.suit >= 0)
                for (int i = 0; i < unit.natural_count; ++i)
                    ++reserved[size_t(natural_index(unit.naturals[size_t(i)], unit.suit))];
    }

    // -- what others may hold --------------------------------------------------------------------

    bool can_be_beaten(int kind, int size, int key) const {
        if (is_bomb(kind)) return false;
        const auto& unseen = seen.unseen;
        int wilds = unseen[0];
        if (kind == SINGLE || kind == PAIR || kind == TRIPLE || kind == FULL_HOUSE) {
            int width = kind == FULL_HOUSE ? 3 : size;
            for (int value = 2; value < 17; ++value) {
                if (orders[value] <= key) continue;
                int count = unseen[size_t(value)];
                if (value >= RANK_SMALL_JOKER) {
                    if (count >= width && width <= 2) return true;
                } else if (count && count + wilds >= width) {
                    return true;
                }
            }
            return width <= 2 && wilds >= width && orders[level] > key;
        }
        int width, length;
        if (kind == STRAIGHT) width = 1, length = 5;
        else if (kind == TUBE) width = 2, length = 3;
        else if (kind == PLATE) width = 3, length = 2;
        else return true;
        for (int low = std::max(1, key - length + 2); low < 16 - length; ++low) {
            int need = 0;
            for (int position = low; position < low + length; ++position) {
                int count = unseen[size_t(position == 1 ? 14 : position)];
                if (count < width) need += count || width < 3 ? width - count : 9;
            }
            if (need <= wilds) return true;
        }
        return false;
    }

    int threat() const {
        int fewest = 99;
        for (int other : {left, right})
            if (seen.counts[size_t(other)] > 0) fewest = std::min(fewest, seen.counts[size_t(other)]);
        return fewest;
    }

    std::pair<int, double> lead_priority(const PlanUnit& unit) const {
        bool near = false;
        for (int other : {left, right}) {
            int count = seen.counts[size_t(other)];
            near = near || (0 < count && count == unit.size);
        }
        if (near && can_be_beaten(unit.kind, unit.size, unit.key)) return {0, -unit.cost};
        return {1, unit.cost + LEAD_SIZE_BONUS * unit.size};
    }

    bool reserved_rank(int value, int size) const {
        int spare = natural[size_t(value)];
        for (int suit = 0; suit < 4; ++suit) spare -= reserved[size_t(natural_index(value, suit))];
        return spare < size;
    }

    // -- actions ---------------------------------------------------------------------------------

    const PlayList& actions() {
        if (!listed) {
            HandView view(seen.hand, level, seen.rules);
            if (previous)
                card_follows(view, seen.rules, previous->kind(), previous->size(), int(previous->key), actions_);
            else
                card_leads(view, seen.rules, actions_);
            listed = true;
        }
        return actions_;
    }

    std::optional<PackedPlay> find(int kind, int rank, Cards cards) {
        auto reading = read_as(cards, kind, rank, level, seen.rules);
        if (reading && (!previous || reading->beats(*previous))) return reading;
        if (!can_play_cards(cards, previous, level, seen.rules)) return std::nullopt;
        for (const PackedPlay& action : actions())
            if (action.cards() == cards) return action;
        return std::nullopt;
    }

    std::optional<PackedPlay> play_unit(const PlanUnit& unit) {
        CardList cards;
        if (!units_cards(unit, held, level, unit.kind == STRAIGHT_FLUSH ? nullptr : &reserved, cards))
            return std::nullopt;
        return find(unit.kind, unit.rank, multiset(cards));
    }

    std::optional<PackedPlay> play_rank(const RankPlay& option) {
        Counts spare{};
        for (int index = 0; index < CARD_COUNT; ++index)
            spare[size_t(index)] = std::max(0, held[size_t(index)] - reserved[size_t(index)]);
        for (const Counts* hand : {&spare, &held}) {
            auto play = to_play(option, *hand, level);
            if (!play) continue;
            auto action = find(play->kind(), play->rank(), play->cards());
            if (action) return action;
        }
        return std::nullopt;
    }

    Hand hand_without(Cards cards) const {
        Hand rest = seen.hand;
        for (int index = 0; index < CARD_COUNT; ++index) {
            int count = count_of(cards, index);
            rest.counts[size_t(index)] = uint8_t(rest.counts[size_t(index)] - count);
            rest.size -= count;
        }
        return rest;
    }

    std::optional<PackedPlay> going_out() {
        Cards cards = seen.hand.cards();
        if (!can_play_cards(cards, previous, level, seen.rules)) return std::nullopt;
        int size = seen.hand.size;
        for (const PackedPlay& action : actions())
            if (action.size() == size) return action;
        return std::nullopt;
    }

    std::optional<PackedPlay> smallest_bomb() {
        const PackedPlay* best = nullptr;
        auto order = [](const PackedPlay& play) { return std::make_tuple(play.key, play.wild_count(), play.size()); };
        for (const PackedPlay& action : actions())
            if (is_bomb(action.kind()) && (!best || order(action) < order(*best))) best = &action;
        if (!best) return std::nullopt;
        return *best;
    }

    PackedPlay fallback_lead() {
        const PackedPlay* best = nullptr;
        auto order = [](const PackedPlay& play) {
            return std::make_tuple(is_bomb(play.kind()), play.key, -play.size());
        };
        for (const PackedPlay& action : actions())
            if (!best || order(action) < order(*best)) best = &action;
        if (!best) throw std::invalid_argument("the heuristic has no lead: the hand is empty");
        return *best;
    }
};

// -- leading ---------------------------------------------------------------------------------------

std::optional<PackedPlay> feed_partner(Table& table) {
    int partner_count = table.seen.counts[size_t(table.partner)];
    if (!(0 < partner_count && partner_count <= table.parameters.feed_partner_at)) return std::nullopt;
    int size = partner_count;
    int right = table.seen.counts[size_t(table.right)];
    if (0 < right && right <= size) return std::nullopt;
    int value = -1;
    for (int rank = 2; rank < 15; ++rank) {
        int count = table.natural[size_t(rank)];
        if (size <= count && count < 4 && !table.reserved_rank(rank, size) &&
            (value < 0 || table.orders[rank] < table.orders[value]))
            value = rank;
    }
    if (value < 0) return std::nullopt;
    PlanUnit unit;
    unit.kind = size == 1 ? SINGLE : PAIR;
    unit.rank = value;
    unit.size = size;
    unit.key = play_key(unit.kind, value, size, table.level, COMPETITION_RULES);
    unit.natural_count = size;
    for (int i = 0; i < size; ++i) unit.naturals[size_t(i)] = int8_t(value);
    return table.play_unit(unit);
}

PackedPlay lead(Table& table) {
    const auto& units = table.plan.units;
    const auto& plain = table.plain;
    const PlanUnit* choice = nullptr;
    if (units.size() == 1) {
        choice = &units[0];
    } else if (plain.empty()) {
        choice = min_by_key(table.bombs);
        if (!choice) throw std::invalid_argument("the heuristic has no lead: the hand is empty");
    } else {
        std::vector<const PlanUnit*> sure;
        for (const PlanUnit* unit : plain)
            if (!table.can_be_beaten(unit->kind, unit->size, unit->key)) sure.push_back(unit);
        if (!sure.empty() && plain.size() - sure.size() <= 1 && plain.size() > 1) {
            for (const PlanUnit* unit : sure)  // max by (size, -key), the first of equals
                if (!choice || unit->size > choice->size || (unit->size == choice->size && unit->key < choice->key))
                    choice = unit;
        } else if (plain.size() > 2) {
            if (auto action = feed_partner(table)) return *action;
        }
    }
    if (!choice) {
        std::pair<int, double> best{};
        for (const PlanUnit* unit : plain) {
            auto priority = table.lead_priority(*unit);
            if (!choice || priority > best) choice = unit, best = priority;
        }
    }
    if (auto action = table.play_unit(*choice)) return *action;
    return table.fallback_lead();
}

// -- following -------------------------------------------------------------------------------------

PackedPlay follow_partner(Table& table, const PackedPlay& previous) {
    int right = table.seen.counts[size_t(table.right)];
    if (is_bomb(previous.kind()) || table.seen.counts[size_t(table.partner)] == 0 ||
        !(0 < right && right <= table.parameters.block_threat))
        return PackedPlay{};
    int size = previous.size(), key = int(previous.key);
    if (!table.can_be_beaten(previous.kind(), size, key)) return PackedPlay{};
    std::vector<const PlanUnit*> covers;
    for (const PlanUnit* unit : table.plain)
        if (unit_beats(*unit, previous.kind(), size, key)) covers.push_back(unit);
    if (covers.empty()) return PackedPlay{};
    return table.play_unit(*max_by_key(covers)).value_or(PackedPlay{});
}

std::optional<PackedPlay> break_to_beat(Table& table, const PackedPlay& previous, bool threatened) {
    if (!known_kind(previous.kind(), COMPETITION_RULES)) return std::nullopt;  // rankplays: no such plays
    RankCounts view(table.seen.hand, table.level, COMPETITION_RULES);
    RankPlay beaten;
    beaten.kind = uint8_t(previous.kind());
    beaten.size = uint8_t(previous.size());
    beaten.key = previous.key;
    RankList follows;
    rank_follows(view, COMPETITION_RULES, beaten, follows);
    RankList options;
    for (const RankPlay& option : follows)
        if (!is_bomb(option.kind) && option.kind == previous.kind()) options.push_back(option);
    if (options.empty()) return std::nullopt;
    std::stable_sort(options.begin(), options.end(), [](const RankPlay& a, const RankPlay& b) {
        return a.key != b.key ? a.key < b.key : a.wilds < b.wilds;
    });
    bool found = false;
    double best_cost = 0.0;
    PackedPlay best;
    size_t candidates = std::min(options.size(), size_t(std::max(0, table.parameters.break_candidates)));
    for (size_t i = 0; i < candidates; ++i) {
        auto action = table.play_rank(options[i]);
        if (!action) continue;
        double cost = table.plans.plan(table.hand_without(action->cards())).cost;
        if (!found || cost < best_cost - BREAK_EPSILON) {
            found = true;
            best_cost = cost;
            best = *action;
        }
    }
    if (!found) return std::nullopt;
    double gain = table.plan.cost - best_cost;
    if (gain >= (threatened ? table.parameters.break_gain_threatened : table.parameters.break_gain)) return best;
    return std::nullopt;
}

bool bomb_wins_out(const Table& table) {
    int losing = 0;
    for (const PlanUnit* unit : table.plain)
        if (table.can_be_beaten(unit->kind, unit->size, unit->key)) ++losing;
    return losing <= 1;
}

PackedPlay follow_opponent(Table& table, const PackedPlay& previous) {
    int kind = previous.kind(), size = previous.size(), key = int(previous.key);
    bool threatened = table.threat() <= table.parameters.bomb_threat;
    if (!is_bomb(kind)) {
        std::vector<const PlanUnit*> beating;
        for (const PlanUnit* unit : table.plain)
            if (unit_beats(*unit, kind, size, key)) beating.push_back(unit);
        if (!beating.empty())
            if (auto action = table.play_unit(*min_by_key(beating))) return *action;
        if (auto action = break_to_beat(table, previous, threatened)) return *action;
    }
    std::vector<const PlanUnit*> bombs;
    for (const PlanUnit* unit : table.bombs)
        if (unit_beats(*unit, kind, size, key)) bombs.push_back(unit);
    if (!bombs.empty()) {
        const PlanUnit* bomb = min_by_key(bombs);
        if (threatened || bomb_wins_out(table))
            if (auto action = table.play_unit(*bomb)) return *action;
    } else if (threatened && table.threat() <= 2) {
        if (auto action = table.smallest_bomb()) return *action;
    }
    return PackedPlay{};
}

PackedPlay follow(Table& table) {
    if (auto out = table.going_out()) return *out;
    const PackedPlay& previous = *table.previous;
    if (table.seen.previous_seat == table.partner) return follow_partner(table, previous);
    return follow_opponent(table, previous);
}

}  // namespace

Seen seen_of(const DealState& deal) {
    if (deal.phase != DealPhase::PLAY || deal.current < 0) throw std::invalid_argument("no one is to play");
    Seen seen;
    int current = deal.current;
    seen.hand = deal.hands[size_t(current)];
    int wild = natural_index(deal.level, HEARTS);
    for (int seat = 0; seat < 4; ++seat) {
        const Hand& hand = deal.hands[size_t(seat)];
        seen.counts[size_t(seat)] = hand.size;
        if (seat == current) continue;
        for (int index = 0; index < CARD_COUNT; ++index)
            seen.unseen[size_t(index == wild ? 0 : rank_of(index))] += hand.counts[size_t(index)];
    }
    seen.seat = current;
    seen.previous_seat = deal.last_seat;
    if (deal.last_seat >= 0) seen.previous = deal.last_play;
    seen.level = deal.level;
    seen.rules = deal.rules.plays;
    return seen;
}

PackedPlay play(const Seen& seen, PlanCache& plans, const Parameters& parameters) {
    if (plans.level() != seen.level) throw std::invalid_argument("the plan cache is for another level");
    Table table(seen, parameters, plans);
    if (!table.previous) return lead(table);
    return follow(table);
}

PackedPlay play(const Seen& seen, PlanCache& plans) { return play(seen, plans, Parameters{}); }

}  // namespace cardroom::heuristic
