// The deal machine (cardroom.guandan.deal.Deal): tribute (进贡) and 抗贡, return (还贡), turns, passes,
// tricks, 接风, places; and random playouts inside the core.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "card_plays.hpp"
#include "hand.hpp"

namespace cardroom {

// xoshiro256** seeded through splitmix64: the core's injected randomness.
struct Random {
    std::array<uint64_t, 4> state{};
    explicit Random(uint64_t seed);
    uint64_t next();
    uint64_t below(uint64_t bound);  // uniform in [0, bound)
};

enum ReturnLimit : int8_t { RETURN_LIMIT_ALWAYS = 0, RETURN_LIMIT_TO_PARTNER = 1, RETURN_LIMIT_NEVER = 2 };

// The RuleSet's deal parameters (cardroom.guandan.ruleset), as cardroom.guandan.native.deal_parameters
// passes them.
struct DealRules {
    PlayRules plays;
    bool lead_passes_to_partner = true;
    int8_t anti_tribute_big_jokers = 2;
    bool small_jokers_exempt_payer = false;
    bool double_tribute_by_place = false;
    bool double_tribute_lead_last_place = false;
    int8_t return_limit = RETURN_LIMIT_ALWAYS;
    int8_t return_limit_rank = 10;
    bool return_limit_by_face_value = false;
};

enum class DealPhase : int8_t { TRIBUTE = 0, RETURN = 1, PLAY = 2, OVER = 3 };

// A deal from its tribute (or its first lead) to its places; a few hundred bytes.
struct DealState {
    std::array<Hand, 4> hands;
    DealRules rules;
    int8_t level = 2;
    int8_t current = 0;
    int8_t last_seat = -1;  // -1: the player to act leads
    int8_t passes = 0;
    int8_t finished_count = 0;
    DealPhase phase = DealPhase::PLAY;
    std::array<int8_t, 4> finished{};
    std::array<int8_t, 4> places{};  // filled once over
    PackedPlay last_play;

    // Tribute: the previous deal's places, who pays (exempt payers removed) and who receives.
    std::array<int8_t, 4> previous_places{-1, -1, -1, -1};
    std::array<int8_t, 2> payers{-1, -1};
    std::array<int8_t, 2> receivers{-1, -1};
    int8_t payer_count = 0;
    int8_t receiver_count = 0;
    bool anti_tribute = false;           // 抗贡: the paying side held the big jokers
    std::array<bool, 4> exempt{};        // payers excused by two small jokers
    std::array<int8_t, 4> paid{-1, -1, -1, -1};         // the card each payer gave
    std::array<int8_t, 4> receiver_of{-1, -1, -1, -1};  // whom each payer's card went to
    std::array<int8_t, 2> returns_due{-1, -1};
    int8_t returns_left = 0;
    int8_t leader = -1;  // who led the first trick

    DealState() = default;
    // A first deal (or a position) in its play phase, ``leader`` to act.
    DealState(const std::array<Hand, 4>& dealt, int level, int leader, const DealRules& rules);
    // A later deal: tribute (or 抗贡) from the previous deal's places.
    static DealState after(const std::array<Hand, 4>& dealt, int level, const std::array<int8_t, 4>& previous,
                           const DealRules& rules);

    bool over() const { return phase == DealPhase::OVER; }
    bool is_finished(int seat) const;
    // The legal plays of the player to act, PASS first when following (PASS has kind 0, no cards).
    void legal(PlayList& out) const;
    // The cards the player to act may give in the tribute or return phase, in index (print) order.
    void legal_cards(std::vector<int>& out) const;
    // Apply a play of the player to act, trusted to be legal (it came from legal()).
    void apply(const PackedPlay& play);
    // Give a tribute or return card of the player to act, trusted to be legal (from legal_cards()).
    void apply_card(int card);
    // The payer whose tribute a receiver returns to.
    int payer_to(int receiver) const;

  private:
    int next_active(int seat) const;
    void end_trick(int winner);
    void start_play(int seat);
    void tributes_paid();
};

struct Action {
    int8_t seat;
    DealPhase phase;  // TRIBUTE or RETURN: ``card`` was given; PLAY: ``play``
    int8_t card;
    PackedPlay play;
};

// Shuffle both decks and deal 27 each, seat 0 first; the turned card's holder leads.
std::array<Hand, 4> shuffled_hands(Random& random, int& leader);

// Play a deal out choosing uniformly among the legal actions at every turn (to the end of the current
// trick only, ``trick_only``, which starts in the play phase); the actions go to ``log`` when given.
// Returns the number of actions.
int random_playout(DealState& deal, Random& random, std::vector<Action>* log, bool trick_only = false);

}  // namespace cardroom
