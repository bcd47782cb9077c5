#include "hand.hpp"

#include <stdexcept>
#include <string>

namespace cardroom {

namespace {

struct SubsetTable {
    // by pattern (8 bits), then size 0..8
    std::array<std::array<std::vector<uint8_t>, 9>, 256> lists;
    SubsetTable() {
        for (unsigned pattern = 0; pattern < 256; ++pattern) {
            std::array<int, 4> held{};
            bool valid = true;
            for (int suit = 0; suit < 4; ++suit) {
                held[suit] = (pattern >> (2 * suit)) & 3;
                if (held[suit] > 2) valid = false;
            }
            if (!valid) continue;
            // product over the suits held, in suit order, the first slowest
            std::array<int, 4> taken{};
            for (;;) {
                unsigned subset = 0;
                int size = 0;
                for (int suit = 0; suit < 4; ++suit) {
                    subset |= unsigned(taken[suit]) << (2 * suit);
                    size += taken[suit];
                }
                lists[pattern][size].push_back(uint8_t(subset));
                int suit = 3;
                while (suit >= 0) {
                    if (held[suit] == 0) { --suit; continue; }
                    if (taken[suit] < held[suit]) { ++taken[suit]; break; }
                    taken[suit] = 0;
                    --suit;
                }
                if (suit < 0) break;
            }
        }
    }
};

const SubsetTable& table() {
    static const SubsetTable instance;
    return instance;
}

}  // namespace

const std::vector<uint8_t>& rank_subsets(unsigned pattern, int size) {
    static const std::vector<uint8_t> none;
    if (size < 0 || size > 8) return none;
    return table().lists[pattern][size];
}

Hand Hand::from_cards(Cards cards) {
    Hand hand;
    for (int index = 0; index < CARD_COUNT; ++index) {
        hand.counts[index] = uint8_t(count_of(cards, index));
        hand.size += hand.counts[index];
    }
    return hand;
}

Cards Hand::cards() const {
    Cards cards = 0;
    for (int index = 0; index < CARD_COUNT; ++index) cards |= Cards(counts[index]) << (2 * index);
    return cards;
}

HandView::HandView(const Hand& hand, int level_rank, const PlayRules& rules)
    : level(level_rank),
      wild(natural_index(level_rank, HEARTS)),
      wilds(hand.counts[natural_index(level_rank, HEARTS)]),
      small_jokers(hand.counts[SMALL_JOKER]),
      big_jokers(hand.counts[BIG_JOKER]),
      big_wilds(rules.extended() && rules.big_joker_wild ? hand.counts[BIG_JOKER] : 0),
      orders(level_rank, rules) {
    for (int rank = 2; rank <= 14; ++rank) {
        unsigned bits = 0;
        int total = 0, mask = 0;
        for (int suit = 0; suit < 4; ++suit) {
            int index = natural_index(rank, suit);
            int count = index == wild ? 0 : hand.counts[index];
            bits |= unsigned(count) << (2 * suit);
            total += count;
            if (count) mask |= 1 << suit;
        }
        pattern[rank] = bits;
        totals[rank] = total;
        suit_mask[rank] = mask;
    }
}

}  // namespace cardroom
