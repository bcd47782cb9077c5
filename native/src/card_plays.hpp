// Card-level legal plays under the competition's play parameters (cardroom.guandan.combinations):
// every distinct multiset of cards once per distinct reading, in the same order as the pure engine.
#pragma once
#include <vector>

#include "hand.hpp"
#include "plays.hpp"

namespace cardroom {

using PlayList = std::vector<PackedPlay>;

// The plays of one kind whose key is above ``above`` (sizes other than ``size`` left out when given).
void plays_of_kind(const HandView& view, const PlayRules& rules, int kind, int above, int size, PlayList& out);

// Every lead, kinds in the pure engine's order.
void card_leads(const HandView& view, const PlayRules& rules, PlayList& out);

// Every play that beats ``previous`` (passing not included).
void card_follows(const HandView& view, const PlayRules& rules, int previous_kind, int previous_size,
                  int previous_key, PlayList& out);

// Whether these rules have plays of this kind (the competition's ten kinds; airplanes, three-joker and
// chained bombs where the rules have them).
bool known_kind(int kind, const PlayRules& rules);

// The same, for rule sets with extended plays (cardroom.guandan.extended); plays_of_kind dispatches.
void extended_plays_of_kind(const HandView& view, const PlayRules& rules, int kind, int above, int size, PlayList& out);

}  // namespace cardroom
