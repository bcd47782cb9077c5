// Many Guandan tables stepped in one call (cardroom.rl.vector.VectorEnv, docs/rl.md "The batched
// environment"): each table plays matches one action at a time (deal machine of deal.hpp, levels as
// cardroom.guandan.match.Match keeps them), and after every step writes the seat to act's observation
// (encoding.hpp's layout), its legal mask over the action table, both teams' rewards and the flags into
// the batch's arrays. A finished deal is followed by the match's next deal, a finished match by a new
// one, in the same step. Each table draws its deals from its own seeded Random.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "action_table.hpp"
#include "deal.hpp"
#include "encoding.hpp"

namespace cardroom {

// The RuleSet's match parameters (cardroom.guandan.match.Match._finish_deal).
struct MatchRules {
    std::array<int8_t, 3> partner_rises{3, 2, 1};
    int8_t pass_ace_partner_place = 3;
    int8_t ace_failure_limit = 0;  // 0: no limit
    bool ace_failure_overthrown = false;  // AceFailure.OVERTHROWN (else FAILED_DEAL)
    bool tie_extra_deal = true;
    bool first_deal_on_stage = false;
    bool first_stage_without_rise = false;
};

enum class RewardKind : int8_t { DEAL = 0, MATCH = 1 };

struct EnvOptions {
    DealRules deal;
    MatchRules match;
    RewardKind reward = RewardKind::DEAL;
    int max_deals = 0;  // 0: play to passing A
    int tribute_base = 0, return_base = 0;  // where the action table's tribute and return entries start
};

// What the seats have seen of the deal in play, as the encoding reads it: the cards each seat played,
// each seat's last two actions, who led the trick in play, and the cards given (tributes are public,
// a return is seen by its two seats).
struct DealTracker {
    struct Recent {
        Cards cards = 0;
        int8_t kind = 0;  // 0 nothing, 1 pass, 2 play
    };
    struct Given {
        int8_t from = -1, to = -1, card = -1;
        bool returned = false;
    };
    std::array<Cards, 4> played{};
    std::array<std::array<Recent, 2>, 4> recent{};  // latest first
    std::array<Given, 4> given{};
    int8_t given_count = 0;
    int8_t trick_leader = -1;
};

// One table: its random stream, the match's levels and the deal in play. Trivially copyable, so a
// batch's state is its tables' bytes.
struct TableState {
    Random random{0};
    DealState deal;
    DealTracker seen;
    std::array<int8_t, 2> levels{2, 2};
    std::array<int8_t, 2> ace_failures{};
    std::array<bool, 2> on_stage{};
    int8_t level_team = -1;  // whose level the deal in play is (-1: nobody's, a first deal)
    int16_t deals = 0;       // deals begun in this match
    uint32_t matches = 0;    // matches begun since the table was seeded
};

struct StepResult {
    int8_t team_reward[2] = {0, 0};
    bool deal_over = false;
    bool match_over = false;
};

// One table's rules: begin a match, apply one table index for the seat to act, encode its view.
class TablePlayer {
  public:
    TablePlayer(const EnvOptions& options, const ActionTable& table, const Layout& layout)
        : options_(options), table_(table), layout_(layout) {}

    void seed(TableState& state, uint64_t seed) const;
    bool legal(const TableState& state, const uint8_t* mask, int64_t action) const;
    // Apply a legal action (checked with legal() first) and deal on when the deal or the match ends.
    StepResult apply(TableState& state, int64_t action) const;
    void write_mask(const TableState& state, uint8_t* out) const;  // zeroed first
    template <typename T>
    void write_observation(const TableState& state, T* out) const;  // zeroed first

  private:
    void begin_match(TableState& state) const;
    void begin_deal(TableState& state, const std::array<int8_t, 4>* previous) const;
    void finish_deal(TableState& state, StepResult& result) const;

    const EnvOptions& options_;
    const ActionTable& table_;
    const Layout& layout_;
};

}  // namespace cardroom
