#include "play_store.hpp"

namespace cardroom {

PlayStore::PlayStore(PlayList plays, const Hand& hand, int level, const PlayRules& rules)
    : level_(level), rules_(rules) {
    first_.fill(-1);
    compact_ = hand.size <= int(cards_.size());
    if (compact_) {
        int at = 0;
        for (int index = 0; index < CARD_COUNT; ++index)
            for (int copy = 0; copy < hand.counts[size_t(index)]; ++copy) {
                if (!copy) first_[size_t(index)] = int8_t(at);
                cards_[size_t(at++)] = uint8_t(index);
            }
        small_.reserve(plays.size());
        uint64_t packed = 0;
        for (const PackedPlay& play : plays) {
            if (!pack(play, packed)) {
                compact_ = false;
                small_ = {};
                break;
            }
            small_.push_back(packed);
        }
    }
    if (!compact_) wide_ = std::move(plays);
}

bool PlayStore::pack(const PackedPlay& play, uint64_t& out) const {
    int kind = play.kind();
    if (kind == CHAIN_BOMB || play.wild_count() > 2) return false;
    Cards cards = play.cards();
    uint64_t mask = 0;
    for (int index = 0; index < CARD_COUNT; ++index) {
        int count = count_of(cards, index);
        if (!count) continue;
        int first = first_[size_t(index)];
        if (first < 0 || first + count > int(cards_.size()) || cards_[size_t(first + count - 1)] != index) return false;
        mask |= ((uint64_t(1) << count) - 1) << first;
    }
    out = mask | uint64_t(kind) << KIND_SHIFT | uint64_t(play.rank()) << RANK_SHIFT;
    for (int w = 0; w < 2; ++w) {
        uint64_t stand = play.stands[size_t(w)] == NO_CARD ? NO_STAND : play.stands[size_t(w)];
        out |= stand << (STANDS_SHIFT + 6 * w);
    }
    PackedPlay back = unpack(out);
    return back.lo == play.lo && back.hi == play.hi && back.key == play.key && back.stands == play.stands;
}

PackedPlay PlayStore::unpack(uint64_t packed) const {
    int kind = int(packed >> KIND_SHIFT) & 0xF;
    if (kind == PASS) return PackedPlay{};
    int rank = int(packed >> RANK_SHIFT) & 0x1F;
    Cards cards = 0;
    int size = 0;
    for (uint32_t mask = uint32_t(packed); mask; mask &= mask - 1, ++size) cards += one_card(cards_[size_t(__builtin_ctz(mask))]);
    PackedPlay play = make_play(kind, rank, cards, uint32_t(play_key(kind, rank, size, level_, rules_)));
    for (int w = 0; w < 2; ++w) {
        auto stand = uint8_t(packed >> (STANDS_SHIFT + 6 * w) & NO_STAND);
        if (stand != NO_STAND) play.stands[size_t(w)] = stand;
    }
    return play;
}

PackedPlay PlayStore::operator[](size_t index) const { return compact_ ? unpack(small_[index]) : wide_[index]; }

PlayStore PlayStore::of_kind(int kind) const {
    PlayStore result(*this);
    result.small_.clear();
    result.wide_.clear();
    for (size_t i = 0; i < size(); ++i)
        if (this->kind(i) == kind) {
            if (compact_) result.small_.push_back(small_[i]);
            else result.wide_.push_back(wide_[i]);
        }
    return result;
}

}  // namespace cardroom
