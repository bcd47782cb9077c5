#include "windows.hpp"

#include <algorithm>
#include <stdexcept>

namespace cardroom {

namespace {
struct Table {
    std::array<std::vector<Window>, 14> by_length;
    Table() {
        for (int length = 1; length <= 13; ++length)
            for (int top = 14; top >= length; --top) {
                Window window{top, top - length + 1, 0, {}};
                for (int i = 0; i < length; ++i) window.ranks[i] = rank_at_position(window.low + i);
                std::sort(window.ranks.begin(), window.ranks.begin() + length);
                for (int i = 0; i < length; ++i) window.mask |= 1 << window.ranks[i];
                by_length[length].push_back(window);
            }
    }
};
const Table& table() {
    static const Table instance;
    return instance;
}
}  // namespace

const std::vector<Window>& windows(int length) {
    if (length < 1 || length > 13) throw std::invalid_argument("a window holds 1 to 13 ranks");
    return table().by_length[length];
}

int highest_top(int mask, int length) {
    for (const Window& window : windows(length))
        if (!(mask & ~window.mask)) return window.top;
    return 0;
}

int lowest_wing(int mask, int length, int taken) {
    const auto& all = windows(length);
    for (auto window = all.rbegin(); window != all.rend(); ++window)
        if (!(window->mask & taken) && !(mask & ~window->mask)) return window->top;
    return 0;
}

int best_airplane_top(int naturals, int triples, int length) {
    for (const Window& window : windows(length)) {
        if (triples & ~window.mask) continue;
        if (lowest_wing(naturals & ~window.mask, length, window.mask)) return window.top;
    }
    return 0;
}

int best_chain_key(const PlayRules& rules, int naturals, int most, int size) {
    int best = 0;
    for (int length = std::max(rules.chain_bomb_lengths[0], 1); length <= rules.chain_bomb_lengths[1]; ++length) {
        int width = size / length;
        if (width * length != size || !(std::max(4, most) <= width && width <= rules.max_bomb_size)) continue;
        int top = highest_top(naturals, length);
        if (top) best = std::max(best, star_key(2 * (width + length), size, top));
    }
    return best;
}

bool bomb_reading_exists(const PlayRules& rules, int naturals, int rank_count, int most, int size) {
    if (rank_count == 1 && 4 <= size && size <= rules.max_bomb_size) return true;
    return best_chain_key(rules, naturals, most, size) > 0;
}

}  // namespace cardroom
