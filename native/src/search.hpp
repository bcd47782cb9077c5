// The search bot's playouts (cardroom.bots.playout.play_trick and the value loop of
// cardroom.bots.search.SearchBot.weigh, their reference): each candidate played at a sampled position,
// the trick played to its end by the heuristic at every seat, the position reached valued.
#pragma once
#include <vector>

#include "deal.hpp"
#include "evaluation.hpp"
#include "heuristic.hpp"

namespace cardroom::search {

// Play the trick in play to its end (the next lead), or the deal's if it ends first, with the
// heuristic at every seat; with no play to beat, nothing is played.
void play_trick(DealState& deal, heuristic::PlanCache& plans);

// For each candidate of the player to act: the candidate played at ``position``, the trick played to its
// end, the value of the position reached for that player's team. ``team_searched``: that team's later
// follows in the trick are chosen on the sample by a one-level search (an experiment; the heuristic's
// otherwise).
std::vector<double> trick_values(const DealState& position, const std::vector<PackedPlay>& candidates,
                                 heuristic::PlanCache& plans, const evaluation::Model& model,
                                 bool team_searched = false);

}  // namespace cardroom::search
