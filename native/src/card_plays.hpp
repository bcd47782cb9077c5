// Card-level legal plays under the competition's play parameters (cardroom.guandan.combinations):
// every distinct multiset of cards once per distinct reading, in the same order as the pure engine.
#pragma once
#include <vector>

#include "hand.hpp"
#include "plays.hpp"

namespace cardroom {

// The play parameters the compiled core reads; the others are the competition's.
struct PlayRules {
    bool natural_straight_flush_is_straight = false;
};

using PlayList = std::vector<PackedPlay>;

// The plays of one kind whose key is above ``above`` (sizes other than ``size`` left out when given).
void plays_of_kind(const HandView& view, const PlayRules& rules, int kind, int above, int size, PlayList& out);

// Every lead, kinds in the pure engine's order.
void card_leads(const HandView& view, const PlayRules& rules, PlayList& out);

// Every play that beats ``previous`` (passing not included).
void card_follows(const HandView& view, const PlayRules& rules, int previous_kind, int previous_size,
                  int previous_key, PlayList& out);

// Whether the compiled core enumerates this kind (the competition's ten kinds and PASS).
constexpr bool known_kind(int kind) { return kind >= SINGLE && kind <= FOUR_JOKERS; }

}  // namespace cardroom
