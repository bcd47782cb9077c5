// The fixed action table of cardroom.rl.actions, given to the core as data, and its legal mask: the
// entries (kind × ranks × wild cards used) a hand's counts make, as cardroom.rl.actions.pure_play_mask
// reads them, that beat the play to beat.
#pragma once
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

struct ActionTable {
    std::vector<TableEntry> entries;
    int pass_index = 0;

    // Mark the legal entries in ``out`` (``entries.size()`` bytes, zeroed): every play the hand makes
    // when leading (``previous_kind`` PASS), else passing and the plays that beat the previous play of
    // that kind, size and key.
    void mask(const Hand& hand, int level, const PlayRules& rules, int previous_kind, int previous_size,
              int previous_key, uint8_t* out) const;
};

// The cards the table plays for a play entry (cardroom.rl.actions.concrete_play): where the ranks can
// give their natural cards in several ways, the way that leaves the hand the most straight-flush
// windows, then bombs, then cards in bombs; each rank gives copies outside straight-flush windows
// first, then ♠ ♥ ♣ ♦. Read as the entry's kind and key rank; false when the hand cannot make it.
bool concrete_play(const TableEntry& entry, const Hand& hand, int level, const PlayRules& rules, PackedPlay& out);

}  // namespace cardroom
