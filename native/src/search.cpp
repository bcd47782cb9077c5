#include "search.hpp"

namespace cardroom::search {

void play_trick(DealState& deal, heuristic::PlanCache& plans) {
    while (deal.phase == DealPhase::PLAY && deal.last_seat >= 0) deal.apply(heuristic::play(heuristic::seen_of(deal), plans));
}

namespace {
int team_of(int seat) { return seat % 2; }

// A follow of the searching team inside the trick, chosen on the sample: the heuristic's play, passing,
// the lowest plain play that beats and the lowest bomb, each valued at the trick's end (the heuristic
// playing on); the best, the heuristic's among equals.
PackedPlay searched_follow(const DealState& deal, int seat, heuristic::PlanCache& plans, const evaluation::Model& model) {
    PackedPlay proposal = heuristic::play(heuristic::seen_of(deal), plans);
    PlayList options;
    deal.legal(options);
    std::vector<PackedPlay> candidates{proposal};
    auto add = [&](const PackedPlay* play) {
        if (!play) return;
        for (const PackedPlay& known : candidates)
            if (known.lo == play->lo && known.hi == play->hi && known.key == play->key) return;
        candidates.push_back(*play);
    };
    const PackedPlay *pass = nullptr, *plain = nullptr, *bomb = nullptr;
    for (const PackedPlay& option : options) {
        if (option.kind() == PASS) pass = &option;
        else if (is_bomb(option.kind())) { if (!bomb || option.key < bomb->key) bomb = &option; }
        else if (!plain || option.key < plain->key) plain = &option;
    }
    add(pass);
    add(plain);
    add(bomb);
    PackedPlay best = proposal;
    double best_value = 0.0;
    for (size_t i = 0; i < candidates.size(); ++i) {
        DealState after = deal;
        after.apply(candidates[i]);
        play_trick(after, plans);
        double value = evaluation::position_value(after, seat, plans, model);
        if (i == 0 || value > best_value) best = candidates[i], best_value = value;
    }
    return best;
}

void play_trick_searched(DealState& deal, int seat, heuristic::PlanCache& plans, const evaluation::Model& model) {
    while (deal.phase == DealPhase::PLAY && deal.last_seat >= 0) {
        int to_act = deal.current;
        if (team_of(to_act) == team_of(seat)) deal.apply(searched_follow(deal, to_act, plans, model));
        else deal.apply(heuristic::play(heuristic::seen_of(deal), plans));
    }
}
}  // namespace

std::vector<double> trick_values(const DealState& position, const std::vector<PackedPlay>& candidates,
                                 heuristic::PlanCache& plans, const evaluation::Model& model, bool team_searched) {
    std::vector<double> values;
    values.reserve(candidates.size());
    int seat = position.current;
    for (const PackedPlay& candidate : candidates) {
        DealState deal = position;
        deal.apply(candidate);
        if (team_searched) play_trick_searched(deal, seat, plans, model);
        else play_trick(deal, plans);
        values.push_back(evaluation::position_value(deal, seat, plans, model));
    }
    return values;
}

}  // namespace cardroom::search
