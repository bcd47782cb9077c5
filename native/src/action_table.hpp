// The fixed action table of cardroom.rl.actions, given to the core as data, and its legal mask: the
// entries (kind × ranks × wild cards used) a hand's counts make, as cardroom.rl.actions.pure_play_mask
// reads them, that beat the play to beat.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "card_plays.hpp"

#include "hand.hpp"
#include "plays.hpp"

namespace cardroom {

struct TableEntry {
    int8_t kind = -1;  // -1: not a play (passing, tribute, return)
    int8_t rank = 0, size = 0, wilds = 0;
    int8_t suit = -1;  // a straight flush's
    int8_t pair = -1;  // a full house's pair rank; -1 for a pair of wild cards
};

// Where each play of the competition's kinds sits in a table (-1: not there), so the mask can list
// a hand's plays kind by kind instead of trying every entry.
struct TableIndex {
    bool ready = false;
    std::array<std::array<std::array<std::array<int16_t, 3>, 11>, 17>, 4> of_rank{};  // single, pair, triple, bomb × rank × size × wilds
    std::array<std::array<std::array<int16_t, 3>, 18>, 15> full_house{};  // triple × pair rank (17: wild pair) × wilds
    std::array<std::array<std::array<int16_t, 3>, 15>, 3> sequence{};     // straight, tube, plate × lowest position × wilds
    std::array<std::array<std::array<int16_t, 3>, 15>, 4> flush{};        // suit × lowest position × wilds
    int16_t four_jokers = -1;
};

struct ActionTable {
    std::vector<TableEntry> entries;
    int pass_index = 0;
    // Each play entry's comparison key at each level 2-14 under the competition's order (prepare()).
    std::array<std::vector<int32_t>, 15> keys;
    TableIndex index;

    // Fill ``keys`` and ``index`` once the entries are set.
    void prepare();

    // Mark the legal entries in ``out`` (``entries.size()`` bytes, zeroed): every play the hand makes
    // when leading (``previous_kind`` PASS), else passing and the plays that beat the previous play of
    // that kind, size and key.
    void mask(const Hand& hand, int level, const PlayRules& rules, int previous_kind, int previous_size,
              int previous_key, uint8_t* out) const;
    // The same mask found by trying every entry (what serves before prepare(), and the check of mask()).
    void mask_by_entries(const Hand& hand, int level, const PlayRules& rules, int previous_kind, int previous_size,
                         int previous_key, uint8_t* out) const;
};

// The cards the table plays for a play entry (cardroom.rl.actions.concrete_play): where the ranks can
// give their natural cards in several ways, the way that leaves the hand the most straight-flush
// windows, then bombs, then cards in bombs; each rank gives copies outside straight-flush windows
// first, then ♠ ♥ ♣ ♦. Read as the entry's kind and key rank; false when the hand cannot make it.
bool concrete_play(const TableEntry& entry, const Hand& hand, int level, const PlayRules& rules, PackedPlay& out);

}  // namespace cardroom
