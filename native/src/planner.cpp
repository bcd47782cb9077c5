#include "planner.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <utility>

#include "plays.hpp"

namespace cardroom::planning {

namespace {

constexpr int LEAF_BUDGET = 2500;
constexpr size_t MAX_STRAIGHT_FLUSH_CHOICES = 6;
constexpr double STRAIGHT_FLUSH_COST = -1.05;
constexpr double FOUR_JOKERS_COST = -1.5;
constexpr double EPSILON = 1e-9;

// BOMB_COSTS by the number of cards (4…10).
constexpr double bomb_cost(int size) {
    constexpr double costs[] = {-0.8, -0.95, -1.15, -1.2, -1.25, -1.3, -1.35};
    return costs[size - 4];
}

double weakness(int order) { return double(15 - std::min(order, 15)) / 13; }

double single_cost(int order) {
    if (order >= 17) return 0.5;
    if (order == 16) return 0.7;
    return 1.0 + 0.8 * weakness(order);
}

double pair_cost(int order) {
    if (order >= 17) return 0.4;
    if (order == 16) return 0.6;
    return 1.0 + 0.7 * weakness(order);
}

double triple_cost(int order) { return 1.0 + 0.5 * weakness(order); }

double sequence_cost(int top) { return 1.0 + 0.4 * (14 - top) / 9; }

// SEQUENCE_SHAPES: (kind, cards per rank, ranks) of 顺子, 三连对 and 钢板.
constexpr int SHAPE_KIND[3] = {STRAIGHT, TUBE, PLATE};
constexpr int SHAPE_WIDTH[3] = {1, 2, 3};
constexpr int SHAPE_LENGTH[3] = {5, 3, 2};

bool has_window(int shape, int low) { return low >= 1 && low + SHAPE_LENGTH[shape] - 1 <= 14; }

// A list of rank values (at most the 13 natural ranks; negated: a triple made a bomb).
struct Ranks {
    std::array<int8_t, 13> values{};
    int size = 0;

    void push(int value) { values[size_t(size++)] = int8_t(value); }
    int operator[](int i) const { return values[size_t(i)]; }
    Ranks without(int value) const {
        Ranks rest;
        for (int i = 0; i < size; ++i)
            if (values[size_t(i)] != value) rest.push(values[size_t(i)]);
        return rest;
    }
    Ranks with(int value) const {
        Ranks more = *this;
        more.push(value);
        return more;
    }
};

// A wild card's placement: 's' a single made a pair, 'p' a pair made a triple, 't' a triple made a bomb.
struct Operation {
    char what = 0;
    int value = 0;
};

struct Settled {
    double cost = 0.0;
    std::array<Operation, 2> operations{};
    int operation_count = 0;
};

struct WildMove {
    Ranks singles, pairs, triples;
    Operation operation;
};

struct Sequence {
    int shape;
    int low;
    std::array<int8_t, 5> fills;
};

struct Leaf {
    double cost = 0.0;
    std::array<int, 15> counts{};
    int wilds = 0;
    std::vector<Sequence> sequences;
    Settled settled;
};

struct FlushCandidate {
    PlanUnit unit;
    std::array<int, 5> used{};
    int used_count = 0;
};

struct FlushChoice {
    std::array<PlanUnit, 2> flushes;
    int flush_count = 0;
    std::array<int, 15> counts{};
    int wilds = 0;
};

class Planner {
  public:
    Planner(int level_rank, bool compensated_sum) : level(level_rank), orders(level_rank), compensated(compensated_sum) {
        for (int value = 2; value < 17; ++value) {
            single[value] = single_cost(orders[value]);
            pair[value] = pair_cost(orders[value]);
            triple[value] = triple_cost(orders[value]);
        }
    }

    HandPlan plan(const std::array<uint8_t, CARD_COUNT>& hand) {
        std::array<int, CARD_COUNT> by_card{};
        for (int index = 0; index < CARD_COUNT; ++index) by_card[size_t(index)] = hand[size_t(index)];
        int wild_index = natural_index(level, HEARTS);
        int wilds = by_card[size_t(wild_index)];
        by_card[size_t(wild_index)] = 0;
        std::array<int, 15> counts{};
        for (int value = 2; value <= 14; ++value)
            for (int suit = 0; suit < 4; ++suit) counts[size_t(value)] += by_card[size_t(natural_index(value, suit))];
        std::vector<PlanUnit> joker_units = jokers(by_card[SMALL_JOKER], by_card[BIG_JOKER]);
        Sum joker_cost(compensated);
        for (const PlanUnit& unit : joker_units) joker_cost.add(unit.cost);

        bool found = false;
        double best_cost = 0.0;
        Leaf best_leaf;
        FlushChoice best_choice;
        for (const FlushChoice& choice : flush_choices(by_card, counts, wilds)) {
            Leaf leaf = search(choice.counts, choice.wilds);
            Sum flush_cost(compensated);
            for (int i = 0; i < choice.flush_count; ++i) flush_cost.add(choice.flushes[size_t(i)].cost);
            double cost = leaf.cost + flush_cost.value();
            if (!found || cost < best_cost - EPSILON) {
                found = true;
                best_cost = cost;
                best_leaf = std::move(leaf);
                best_choice = choice;
            }
        }
        HandPlan result;
        result.units = units_of(best_leaf);
        for (int i = 0; i < best_choice.flush_count; ++i) result.units.push_back(best_choice.flushes[size_t(i)]);
        result.units.insert(result.units.end(), joker_units.begin(), joker_units.end());
        result.cost = best_cost + joker_cost.value();
        return result;
    }

  private:
    int level;
    Orders orders;
    bool compensated;
    std::array<double, 17> single{}, pair{}, triple{};

    // search state
    std::array<int, 15> cnt{};
    std::vector<Sequence> chosen;
    int budget = 0;
    double leaf_best = 0.0;
    Leaf best;

    static PlanUnit unit(int kind, int rank, int size, int key, double cost, int wilds = 0, int suit = -1,
                         int pair_rank = -1) {
        PlanUnit made;
        made.kind = kind;
        made.rank = rank;
        made.size = size;
        made.key = key;
        made.cost = cost;
        made.wilds = wilds;
        made.suit = suit;
        made.pair_rank = pair_rank;
        return made;
    }

    static void add_naturals(PlanUnit& unit, int value, int times) {
        for (int i = 0; i < times; ++i) unit.naturals[size_t(unit.natural_count++)] = int8_t(value);
    }

    std::vector<PlanUnit> jokers(int small, int big) const {
        std::vector<PlanUnit> units;
        if (small == 2 && big == 2) {
            PlanUnit four = unit(FOUR_JOKERS, RANK_SMALL_JOKER, 4, FOUR_JOKERS_TIER * BOMB_TIER_STEP, FOUR_JOKERS_COST);
            add_naturals(four, RANK_SMALL_JOKER, 2);
            add_naturals(four, RANK_BIG_JOKER, 2);
            units.push_back(four);
            return units;
        }
        for (auto [rank, held] : {std::pair{RANK_SMALL_JOKER, small}, std::pair{RANK_BIG_JOKER, big}}) {
            int order = orders[rank];
            if (held == 2) {
                PlanUnit made = unit(PAIR, rank, 2, order, pair_cost(order));
                add_naturals(made, rank, 2);
                units.push_back(made);
            } else if (held == 1) {
                PlanUnit made = unit(SINGLE, rank, 1, order, single_cost(order));
                add_naturals(made, rank, 1);
                units.push_back(made);
            }
        }
        return units;
    }

    // -- straight flushes ------------------------------------------------------------------------

    std::vector<FlushCandidate> flush_candidates(const std::array<int, CARD_COUNT>& by_card, int wilds) const {
        std::vector<FlushCandidate> found;
        for (int suit = 0; suit < 4; ++suit) {
            std::array<int, 15> held{};
            int distinct = 0;
            for (int value = 2; value <= 14; ++value) {
                held[size_t(value)] = by_card[size_t(natural_index(value, suit))];
                if (held[size_t(value)]) ++distinct;
            }
            if (distinct + wilds < 5) continue;
            for (int low = 1; low <= 10; ++low) {
                FlushCandidate candidate;
                int key = STRAIGHT_FLUSH_TIER * BOMB_TIER_STEP + low + 4;
                candidate.unit = unit(STRAIGHT_FLUSH, rank_at_position(low), 5, key, STRAIGHT_FLUSH_COST - 0.005 * (low + 4),
                                      0, suit);
                for (int position = low; position < low + 5; ++position) {
                    int value = rank_at_position(position);
                    if (!held[size_t(value)]) continue;
                    add_naturals(candidate.unit, value, 1);
                    candidate.used[size_t(candidate.used_count++)] = natural_index(value, suit);
                }
                int need = 5 - candidate.unit.natural_count;
                if (need > wilds) continue;
                candidate.unit.wilds = need;
                found.push_back(candidate);
            }
        }
        std::stable_sort(found.begin(), found.end(), [](const FlushCandidate& a, const FlushCandidate& b) {
            if (a.unit.wilds != b.unit.wilds) return a.unit.wilds < b.unit.wilds;
            if (a.unit.key != b.unit.key) return a.unit.key > b.unit.key;
            return a.unit.suit < b.unit.suit;
        });
        if (found.size() > MAX_STRAIGHT_FLUSH_CHOICES) found.resize(MAX_STRAIGHT_FLUSH_CHOICES);
        return found;
    }

    static void take_naturals(std::array<int, 15>& counts, const PlanUnit& unit) {
        for (int i = 0; i < unit.natural_count; ++i) --counts[size_t(unit.naturals[size_t(i)])];
    }

    // No straight flush, one, or two (a second only beside a first of natural cards).
    std::vector<FlushChoice> flush_choices(const std::array<int, CARD_COUNT>& by_card, const std::array<int, 15>& counts,
                                           int wilds) const {
        std::vector<FlushChoice> choices;
        FlushChoice none;
        none.counts = counts;
        none.wilds = wilds;
        choices.push_back(none);
        for (const FlushCandidate& first : flush_candidates(by_card, wilds)) {
            FlushChoice one;
            one.flushes[0] = first.unit;
            one.flush_count = 1;
            one.counts = counts;
            take_naturals(one.counts, first.unit);
            one.wilds = wilds - first.unit.wilds;
            choices.push_back(one);
            if (first.unit.wilds) continue;
            std::array<int, CARD_COUNT> left = by_card;
            for (int i = 0; i < first.used_count; ++i) --left[size_t(first.used[size_t(i)])];
            for (const FlushCandidate& second : flush_candidates(left, one.wilds)) {
                const PlanUnit& a = second.unit;
                const PlanUnit& b = first.unit;
                // (second.wilds, -second.key, second.suit) < (0, -first.key, first.suit): tried the other way round
                if (a.wilds < 0 || (a.wilds == 0 && (-a.key < -b.key || (a.key == b.key && a.suit < b.suit)))) continue;
                FlushChoice two = one;
                two.flushes[1] = a;
                two.flush_count = 2;
                take_naturals(two.counts, a);
                two.wilds = one.wilds - a.wilds;
                choices.push_back(two);
            }
        }
        return choices;
    }

    // -- the search of sequences -----------------------------------------------------------------

    Leaf search(const std::array<int, 15>& counts, int wilds) {
        cnt = counts;
        chosen.clear();
        budget = LEAF_BUDGET;
        leaf_best = std::numeric_limits<double>::infinity();
        best = Leaf{};
        visit(1, 0, wilds, 0.0);
        return best;
    }

    void visit(int position, int shape_from, int wild, double cost) {
        while (position <= 14) {
            int held = cnt[size_t(rank_at_position(position))];
            if ((0 < held && held < 4) || (wild && position >= 10)) break;
            ++position;
            shape_from = 0;
        }
        if (position > 14 || budget <= 0) {
            --budget;
            Settled settled = settle(wild);
            double total = settled.cost + cost;
            if (total < leaf_best - EPSILON) {
                leaf_best = total;
                best.cost = total;
                best.counts = cnt;
                best.wilds = wild;
                best.sequences = chosen;
                best.settled = settled;
            }
            return;
        }
        for (int shape = shape_from; shape < 3; ++shape) {
            if (!has_window(shape, position)) continue;
            int width = SHAPE_WIDTH[shape], length = SHAPE_LENGTH[shape];
            int need = 0;
            Sequence sequence{shape, position, {}};
            for (int i = 0; i < length; ++i) {
                int held = cnt[size_t(rank_at_position(position + i))];
                if (held >= 4) {
                    need = 9;
                    break;
                }
                int short_by = held < width ? width - held : 0;
                need += short_by;
                sequence.fills[size_t(i)] = int8_t(short_by);
            }
            if (need > wild) continue;
            for (int i = 0; i < length; ++i) cnt[size_t(rank_at_position(position + i))] -= width - sequence.fills[size_t(i)];
            chosen.push_back(sequence);
            visit(position, shape, wild - need, cost + sequence_cost(position + length - 1));
            chosen.pop_back();
            for (int i = 0; i < length; ++i) cnt[size_t(rank_at_position(position + i))] += width - sequence.fills[size_t(i)];
        }
        visit(position + 1, 0, wild, cost);
    }

    // -- settling by rank ------------------------------------------------------------------------

    // The cost of the pairs the triples take as full houses (the weakest pairs).
    double absorbed(const std::array<double, 13>& pair_costs, int pairs, int triples) const {
        Sum sum(compensated);
        if (triples >= pairs) {
            for (int i = 0; i < pairs; ++i) sum.add(pair_costs[size_t(i)]);
            return sum.value();
        }
        std::array<double, 13> sorted = pair_costs;
        std::stable_sort(sorted.begin(), sorted.begin() + pairs, std::greater<double>());
        for (int i = 0; i < triples; ++i) sum.add(sorted[size_t(i)]);
        return sum.value();
    }

    double pair_total(const Ranks& pairs, int triples, double cost) const {
        std::array<double, 13> pair_costs{};
        Sum sum(compensated);
        for (int i = 0; i < pairs.size; ++i) {
            pair_costs[size_t(i)] = pair[size_t(pairs[i])];
            sum.add(pair_costs[size_t(i)]);
        }
        cost += sum.value();
        if (triples) cost -= absorbed(pair_costs, pairs.size, triples);
        return cost;
    }

    double loose(int wilds) const {
        if (wilds == 1) return single[size_t(level)];
        if (wilds == 2) return pair[size_t(level)];
        return 0.0;
    }

    static int weakest(const Ranks& ranks, const std::array<double, 17>& costs, bool plain_only) {
        int found = 0;
        double most = 0.0;
        for (int i = 0; i < ranks.size; ++i) {
            int value = ranks[i];
            if (plain_only && value <= 0) continue;
            if (!found || costs[size_t(value)] > most) {
                found = value;
                most = costs[size_t(value)];
            }
        }
        return found;
    }

    // One wild card joins the weakest single, pair or triple (a triple so joined is a bomb, listed in
    // triples as its negated rank).
    int wild_moves(const Ranks& singles, const Ranks& pairs, const Ranks& triples, std::array<WildMove, 3>& moves) const {
        int count = 0;
        if (singles.size) {
            int value = weakest(singles, single, false);
            moves[size_t(count++)] = WildMove{singles.without(value), pairs.with(value), triples, Operation{'s', value}};
        }
        if (pairs.size) {
            int value = weakest(pairs, pair, false);
            moves[size_t(count++)] = WildMove{singles, pairs.without(value), triples.with(value), Operation{'p', value}};
        }
        int value = weakest(triples, triple, true);
        if (value) moves[size_t(count++)] = WildMove{singles, pairs, triples.without(value).with(-value), Operation{'t', value}};
        return count;
    }

    double groups(const Ranks& singles, const Ranks& pairs, const Ranks& triples) const {
        Sum bombs(compensated);
        for (int value = 2; value <= 14; ++value)
            if (cnt[size_t(value)] >= 4) bombs.add(bomb_cost(cnt[size_t(value)]));
        double cost = bombs.value();
        Sum single_sum(compensated);
        for (int i = 0; i < singles.size; ++i) single_sum.add(single[size_t(singles[i])]);
        cost += single_sum.value();
        int plain = 0;
        for (int i = 0; i < triples.size; ++i) {
            int value = triples[i];
            if (value > 0) {
                cost += triple[size_t(value)];
                ++plain;
            } else {
                cost += bomb_cost(4);
            }
        }
        if (pairs.size) cost = pair_total(pairs, plain, cost);
        return cost;
    }

    Settled settle(int wilds) const {
        Settled settled;
        double cost = 0.0;
        Ranks singles, pairs, triples;
        for (int value = 2; value <= 14; ++value) {
            int held = cnt[size_t(value)];
            if (!held) continue;
            if (held == 1) {
                cost += single[size_t(value)];
                singles.push(value);
            } else if (held == 2) {
                pairs.push(value);
            } else if (held == 3) {
                cost += triple[size_t(value)];
                triples.push(value);
            } else {
                cost += bomb_cost(held);
            }
        }
        if (pairs.size) cost = pair_total(pairs, triples.size, cost);
        settled.cost = cost;
        if (!wilds) return settled;
        double best_total = cost + loose(wilds);
        std::array<WildMove, 3> firsts, seconds;
        int first_count = wild_moves(singles, pairs, triples, firsts);
        for (int i = 0; i < first_count; ++i) {
            const WildMove& first = firsts[size_t(i)];
            double total = groups(first.singles, first.pairs, first.triples) + loose(wilds - 1);
            if (total < best_total - EPSILON) {
                best_total = total;
                settled.operations[0] = first.operation;
                settled.operation_count = 1;
            }
            if (wilds == 1) continue;
            int second_count = wild_moves(first.singles, first.pairs, first.triples, seconds);
            for (int j = 0; j < second_count; ++j) {
                const WildMove& second = seconds[size_t(j)];
                total = groups(second.singles, second.pairs, second.triples) + loose(wilds - 2);
                if (total < best_total - EPSILON) {
                    best_total = total;
                    settled.operations = {first.operation, second.operation};
                    settled.operation_count = 2;
                }
            }
        }
        settled.cost = best_total;
        return settled;
    }

    // -- the plan's units ------------------------------------------------------------------------

    PlanUnit of_a_rank(int kind, int value, int natural, int wild) const {
        const std::array<double, 17>& costs = kind == SINGLE ? single : kind == PAIR ? pair : triple;
        PlanUnit made = unit(kind, value, kind, orders[value], costs[size_t(value)], wild);
        add_naturals(made, value, natural);
        return made;
    }

    struct Group {
        int value, natural, wild;
    };

    std::vector<PlanUnit> units_of(const Leaf& leaf) const {
        std::vector<PlanUnit> units;
        for (const Sequence& sequence : leaf.sequences) {
            int width = SHAPE_WIDTH[sequence.shape], length = SHAPE_LENGTH[sequence.shape];
            int wilds = 0;
            for (int i = 0; i < length; ++i) wilds += sequence.fills[size_t(i)];
            int top = sequence.low + length - 1;
            PlanUnit made = unit(SHAPE_KIND[sequence.shape], rank_at_position(sequence.low), width * length, top,
                                 sequence_cost(top), wilds);
            for (int i = 0; i < length; ++i)
                add_naturals(made, rank_at_position(sequence.low + i), width - sequence.fills[size_t(i)]);
            units.push_back(made);
        }
        std::array<int, 15> extra{};
        const Settled& settled = leaf.settled;
        for (int i = 0; i < settled.operation_count; ++i) ++extra[size_t(settled.operations[size_t(i)].value)];
        std::vector<Group> singles, pairs, triples;
        for (int value = 2; value <= 14; ++value) {
            int natural = leaf.counts[size_t(value)], wild = extra[size_t(value)];
            int total = natural + wild;
            if (total >= 4) {
                PlanUnit bomb = unit(BOMB, value, total, bomb_tier(total) * BOMB_TIER_STEP + orders[value],
                                     bomb_cost(total), wild);
                add_naturals(bomb, value, natural);
                units.push_back(bomb);
            } else if (total == 1) {
                singles.push_back({value, natural, wild});
            } else if (total == 2) {
                pairs.push_back({value, natural, wild});
            } else if (total == 3) {
                triples.push_back({value, natural, wild});
            }
        }
        int loose_wilds = leaf.wilds - settled.operation_count;
        if (loose_wilds) units.push_back(of_a_rank(loose_wilds == 1 ? SINGLE : PAIR, level, 0, loose_wilds));
        for (const Group& group : singles) units.push_back(of_a_rank(SINGLE, group.value, group.natural, group.wild));
        std::stable_sort(pairs.begin(), pairs.end(), [this](const Group& a, const Group& b) {
            return -pair[size_t(a.value)] < -pair[size_t(b.value)];
        });
        size_t absorbed_count = std::min(pairs.size(), triples.size());
        for (size_t i = triples.size(); i < pairs.size(); ++i)
            units.push_back(of_a_rank(PAIR, pairs[i].value, pairs[i].natural, pairs[i].wild));
        for (size_t i = 0; i < triples.size(); ++i) {
            const Group& three = triples[i];
            if (i >= absorbed_count) {
                units.push_back(of_a_rank(TRIPLE, three.value, three.natural, three.wild));
                continue;
            }
            const Group& two = pairs[i];
            PlanUnit house = unit(FULL_HOUSE, three.value, 5, orders[three.value], triple[size_t(three.value)],
                                  three.wild + two.wild, -1, two.value);
            add_naturals(house, three.value, three.natural);
            add_naturals(house, two.value, two.natural);
            units.push_back(house);
        }
        return units;
    }
};

}  // namespace

HandPlan plan_hand(const std::array<uint8_t, CARD_COUNT>& by_card, int level, bool compensated) {
    return Planner(level, compensated).plan(by_card);
}

}  // namespace cardroom::planning
