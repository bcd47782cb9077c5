#include "play_store.hpp"

namespace cardroom {

PlayStore::PlayStore(PlayList plays, const Hand& hand, int level, const PlayRules& rules)
    : level_(level), rules_(rules), orders_(level, rules) {
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
    if (kind == CHAIN_BOMB || play.stands[2] != NO_CARD) return false;
    uint64_t mask = 0;
    int size = 0;
    if (kind == PASS) {
        out = NO_STAND << STANDS_SHIFT | NO_STAND << (STANDS_SHIFT + 6);
        return play.lo == 0 && play.hi == 0;
    }
    const std::array<uint64_t, 2> words{play.lo, play.hi & PackedPlay::CARD_BITS_HI};
    for (int half = 0; half < 2; ++half) {
        int base = 32 * half;
        for (uint64_t word = words[size_t(half)]; word; word &= word - 1) {  // one bit for each copy: bit 2i for one, 2i + 1 for two
            int bit = __builtin_ctzll(word);
            int index = base + bit / 2, copies = bit % 2 ? 2 : 1;
            int first = first_[size_t(index)];
            if (first < 0 || first + copies > int(cards_.size()) || cards_[size_t(first + copies - 1)] != index) return false;
            mask |= ((uint64_t(1) << copies) - 1) << first;
            size += copies;
        }
    }
    if (int(play.key) != play_key(kind, play.rank(), size, orders_, rules_)) return false;
    out = mask | uint64_t(kind) << KIND_SHIFT | uint64_t(play.rank()) << RANK_SHIFT;
    for (int w = 0; w < 2; ++w) {
        uint64_t stand = play.stands[size_t(w)] == NO_CARD ? NO_STAND : play.stands[size_t(w)];
        out |= stand << (STANDS_SHIFT + 6 * w);
    }
    return true;
}

PackedPlay PlayStore::unpack(uint64_t packed) const {
    int kind = int(packed >> KIND_SHIFT) & 0xF;
    if (kind == PASS) return PackedPlay{};
    int rank = int(packed >> RANK_SHIFT) & 0x1F;
    Cards cards = 0;
    int size = 0;
    for (uint32_t mask = uint32_t(packed); mask; mask &= mask - 1, ++size) cards += one_card(cards_[size_t(__builtin_ctz(mask))]);
    PackedPlay play = make_play(kind, rank, cards, uint32_t(play_key(kind, rank, size, orders_, rules_)));
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
