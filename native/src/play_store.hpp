// A list of card-level plays kept small: 8 bytes a play where it can, 24 where it cannot.
//
// Every play of a set comes from one hand, so its cards are a subset of the hand's cards: with the hand
// (at most 32 cards) kept once, a play is a 32-bit mask over the hand's cards (the first copies of a card
// before the second), its kind, key rank and what its wild cards stand for (at most two); the key follows
// from kind, rank, size and level. Sets with a chained bomb, a play of more than two wild cards or a hand
// of more than 32 cards keep the 24-byte PackedPlay.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "card_plays.hpp"
#include "hand.hpp"

namespace cardroom {

class PlayStore {
  public:
    PlayStore() = default;
    // Keep ``plays``, all drawn from ``hand`` at ``level`` under ``rules``.
    PlayStore(PlayList plays, const Hand& hand, int level, const PlayRules& rules);

    size_t size() const { return compact_ ? small_.size() : wide_.size(); }
    PackedPlay operator[](size_t index) const;
    int kind(size_t index) const { return compact_ ? int(small_[index] >> KIND_SHIFT) & 0xF : wide_[index].kind(); }
    // The plays of one kind, kept alike.
    PlayStore of_kind(int kind) const;
    size_t nbytes() const { return compact_ ? small_.size() * 8 + sizeof(cards_) : wide_.size() * sizeof(PackedPlay); }
    bool compact() const { return compact_; }
    int level() const { return level_; }

  private:
    static constexpr int KIND_SHIFT = 32, RANK_SHIFT = 36, STANDS_SHIFT = 41;
    static constexpr uint64_t NO_STAND = 0x3F;

    bool pack(const PackedPlay& play, uint64_t& out) const;
    PackedPlay unpack(uint64_t packed) const;

    bool compact_ = false;
    int level_ = 2;
    PlayRules rules_{};
    Orders orders_{2};
    std::array<uint8_t, 32> cards_{};  // the hand's cards in index order, a card twice when held twice
    std::array<int8_t, CARD_COUNT> first_{};  // where each card's first copy sits in cards_
    std::vector<uint64_t> small_;
    PlayList wide_;
};

}  // namespace cardroom
