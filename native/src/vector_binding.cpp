// cardroom._core.VectorCore: the batched tables of native/src/vector_env.hpp behind
// cardroom.rl.vector.VectorEnv. The batch owns its output arrays and hands them to Python as read-only
// NumPy views that keep it alive; every step rewrites them in place, the GIL released.
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "binding.hpp"
#include "vector_env.hpp"

namespace cardroom::binding {

namespace {

constexpr size_t MATCH_PARAMETERS = 9;
constexpr char STATE_MAGIC[8] = {'c', 'r', 'v', 'e', 'c', 'v', '1', '\0'};

// The match parameters as cardroom.guandan.native.match_parameters gives them: the three rises, the
// place the partner needs to pass A, the limit of failures at A (0: none), whether only being
// overthrown counts, one more deal after a tie, the first deal on stage, no rise before being on stage.
MatchRules match_rules(nb::handle parameters) {
    nb::tuple values = nb::borrow<nb::tuple>(parameters);
    if (nb::len(values) != MATCH_PARAMETERS) throw nb::value_error("match parameters: 9 integers");
    auto at = [&](size_t i) { return nb::cast<int>(values[i]); };
    MatchRules rules;
    for (size_t i = 0; i < 3; ++i) {
        if (at(i) < 0 || at(i) > 12) throw nb::value_error("partner_rises: levels 0-12");
        rules.partner_rises[i] = int8_t(at(i));
    }
    if (at(3) < 2 || at(3) > 4) throw nb::value_error("pass_ace_partner_place: 2, 3 or 4");
    if (at(4) < 0 || at(4) > 100) throw nb::value_error("ace_failure_limit: 0 (none) to 100");
    rules.pass_ace_partner_place = int8_t(at(3));
    rules.ace_failure_limit = int8_t(at(4));
    rules.ace_failure_overthrown = at(5);
    rules.tie_extra_deal = at(6);
    rules.first_deal_on_stage = at(7);
    rules.first_stage_without_rise = at(8);
    return rules;
}

template <typename T>
using View1 = nb::ndarray<nb::numpy, const T, nb::ndim<1>>;
template <typename T>
using View2 = nb::ndarray<nb::numpy, const T, nb::ndim<2>>;
template <typename T>
using Array3 = nb::ndarray<nb::numpy, T, nb::ndim<3>>;

template <typename T>
nb::ndarray<nb::numpy, T, nb::ndim<2>> new_array(size_t rows, size_t columns) {
    auto* data = new T[rows * columns]();
    nb::capsule owner(data, [](void* p) noexcept { delete[] static_cast<T*>(p); });
    return nb::ndarray<nb::numpy, T, nb::ndim<2>>(data, {rows, columns}, owner);
}

struct VectorCore {
    EnvOptions options;
    ActionTable table;
    Layout layout;
    TablePlayer player{options, table, layout};
    size_t count;
    bool floats;
    std::vector<TableState> tables;
    std::vector<float> observation_floats;
    std::vector<int8_t> observation_bytes;
    std::vector<uint8_t> masks;
    std::vector<float> rewards;
    std::vector<int8_t> current;
    std::unique_ptr<bool[]> terminated, deal_over;
    std::vector<uint64_t> seeds;

    VectorCore(size_t tables_count, nb::handle deal_parameters, nb::handle match_parameters, int reward, int max_deals,
               int tribute_base, int return_base, bool float_observations)
        : table(registered_action_table()), layout(registered_layout()), count(tables_count), floats(float_observations) {
        if (!count) throw nb::value_error("a batch needs at least one table");
        options.deal = deal_rules(deal_parameters);
        if (options.deal.plays.extended()) throw nb::value_error("the action table covers the competition's play parameters only");
        options.match = match_rules(match_parameters);
        if (reward != 0 && reward != 1) throw nb::value_error("reward: 0 (deal) or 1 (match)");
        options.reward = RewardKind(reward);
        if (max_deals < 0) throw nb::value_error("max_deals: 0 (none) or more");
        options.max_deals = max_deals;
        size_t size = table.entries.size();
        if (tribute_base < 0 || return_base < 0 || size_t(tribute_base) + CARD_COUNT > size || size_t(return_base) + CARD_COUNT > size)
            throw nb::value_error("the tribute and return entries lie outside the action table");
        options.tribute_base = tribute_base;
        options.return_base = return_base;
        tables.resize(count);
        (floats ? observation_floats.resize(count * size_t(layout.size)) : observation_bytes.resize(count * size_t(layout.size)));
        masks.resize(count * size);
        rewards.resize(count * 4);
        current.assign(count, -1);
        terminated.reset(new bool[count]());
        deal_over.reset(new bool[count]());
        seeds.assign(count, 0);
    }

    size_t width() const { return table.entries.size(); }

    void write(size_t i) {
        const TableState& state = tables[i];
        size_t size = size_t(layout.size);
        uint8_t* mask = masks.data() + i * width();
        std::memset(mask, 0, width());
        player.write_mask(state, mask);
        if (floats) {
            float* row = observation_floats.data() + i * size;
            std::fill(row, row + size, 0.0f);
            player.write_observation(state, row);
        } else {
            int8_t* row = observation_bytes.data() + i * size;
            std::memset(row, 0, size);
            player.write_observation(state, row);
        }
        current[i] = state.deal.current;
    }

    void reset(View1<uint64_t> given) {
        if (given.shape(0) != count) throw nb::value_error(("reset(): one seed per table (" + std::to_string(count) + ")").c_str());
        std::vector<uint64_t> copied(given.data(), given.data() + count);
        nb::gil_scoped_release release;
        for (size_t i = 0; i < count; ++i) {
            seeds[i] = copied[i];
            player.seed(tables[i], copied[i]);
            rewards[4 * i] = rewards[4 * i + 1] = rewards[4 * i + 2] = rewards[4 * i + 3] = 0.0f;
            terminated[i] = deal_over[i] = false;
            write(i);
        }
    }

    // The first table whose action is not legal for its seat to act, or -1.
    long first_illegal(View1<int64_t> actions) const {
        if (actions.shape(0) != count) throw nb::value_error(("one action per table (" + std::to_string(count) + ")").c_str());
        for (size_t i = 0; i < count; ++i)
            if (!player.legal(tables[i], masks.data() + i * width(), actions.data()[i])) return long(i);
        return -1;
    }

    void step(View1<int64_t> actions) {
        long illegal = first_illegal(actions);
        if (illegal >= 0)
            throw nb::value_error(("table " + std::to_string(illegal) + ": action " + std::to_string(actions.data()[illegal]) +
                                   " is not legal for its seat to act")
                                      .c_str());
        std::vector<int64_t> chosen(actions.data(), actions.data() + count);
        nb::gil_scoped_release release;
        for (size_t i = 0; i < count; ++i) {
            StepResult result = player.apply(tables[i], chosen[i]);
            for (int seat_index = 0; seat_index < 4; ++seat_index)
                rewards[4 * i + size_t(seat_index)] = float(result.team_reward[seat_index % 2]);
            terminated[i] = result.match_over;
            deal_over[i] = result.deal_over;
            write(i);
        }
    }

    // Per table, its legal entry number floor(u * count) in index order, u its uniform in [0, 1).
    nb::ndarray<nb::numpy, int64_t, nb::ndim<1>> sample_legal(View1<double> uniforms) const {
        if (uniforms.shape(0) != count) throw nb::value_error(("one uniform per table (" + std::to_string(count) + ")").c_str());
        auto* data = new int64_t[count]();
        nb::capsule owner(data, [](void* p) noexcept { delete[] static_cast<int64_t*>(p); });
        size_t size = width();
        auto ones = [](const uint8_t* at) {  // the set bytes (each 0 or 1) among eight
            uint64_t word;
            std::memcpy(&word, at, 8);
            return int64_t((word * 0x0101010101010101ull) >> 56);
        };
        for (size_t i = 0; i < count; ++i) {
            double u = uniforms.data()[i];
            if (!(u >= 0.0 && u < 1.0)) throw nb::value_error("uniforms lie in [0, 1)");
        }
        size_t whole = size / 8 * 8;
        for (size_t i = 0; i < count; ++i) {
            const uint8_t* mask = masks.data() + i * size;
            int64_t legal = 0;
            for (size_t entry = 0; entry < whole; entry += 8) legal += ones(mask + entry);
            for (size_t entry = whole; entry < size; ++entry) legal += mask[entry];
            if (!legal) throw std::logic_error("a table with no legal action");
            int64_t pick = std::min(legal - 1, int64_t(uniforms.data()[i] * double(legal)));
            size_t entry = 0;
            for (; entry < whole; entry += 8) {
                int64_t here = ones(mask + entry);
                if (pick < here) break;
                pick -= here;
            }
            for (; entry < size; ++entry)
                if (mask[entry] && pick-- == 0) break;
            data[i] = int64_t(entry);
        }
        return nb::ndarray<nb::numpy, int64_t, nb::ndim<1>>(data, {count}, owner);
    }

    nb::object observation() {
        nb::handle self = nb::find(this);
        size_t size = size_t(layout.size);
        if (floats) return nb::cast(View2<float>(observation_floats.data(), {count, size}, self));
        return nb::cast(View2<int8_t>(observation_bytes.data(), {count, size}, self));
    }

    nb::bytes state() const {
        std::string out(STATE_MAGIC, sizeof(STATE_MAGIC));
        uint64_t header[2] = {uint64_t(sizeof(TableState)), uint64_t(count)};
        out.append(reinterpret_cast<const char*>(header), sizeof(header));
        out.append(reinterpret_cast<const char*>(tables.data()), count * sizeof(TableState));
        out.append(reinterpret_cast<const char*>(seeds.data()), count * sizeof(uint64_t));
        return nb::bytes(out.data(), out.size());
    }

    void set_state(nb::bytes saved) {
        const char* data = saved.c_str();
        size_t expected = sizeof(STATE_MAGIC) + 2 * sizeof(uint64_t) + count * (sizeof(TableState) + sizeof(uint64_t));
        if (saved.size() != expected || std::memcmp(data, STATE_MAGIC, sizeof(STATE_MAGIC)) != 0)
            throw nb::value_error("not the state of a batch of this many tables from this build of cardroom");
        uint64_t header[2];
        std::memcpy(header, data + sizeof(STATE_MAGIC), sizeof(header));
        if (header[0] != sizeof(TableState) || header[1] != count)
            throw nb::value_error("not the state of a batch of this many tables from this build of cardroom");
        const char* at = data + sizeof(STATE_MAGIC) + sizeof(header);
        std::memcpy(static_cast<void*>(tables.data()), at, count * sizeof(TableState));
        std::memcpy(seeds.data(), at + count * sizeof(TableState), count * sizeof(uint64_t));
        for (size_t i = 0; i < count; ++i) {
            rewards[4 * i] = rewards[4 * i + 1] = rewards[4 * i + 2] = rewards[4 * i + 3] = 0.0f;
            terminated[i] = deal_over[i] = false;
            write(i);
        }
    }

    // Every table's four hands, counts per card (a god's view, for tests and debugging).
    Array3<uint8_t> hands() const {
        auto* data = new uint8_t[count * 4 * CARD_COUNT]();
        nb::capsule owner(data, [](void* p) noexcept { delete[] static_cast<uint8_t*>(p); });
        for (size_t i = 0; i < count; ++i)
            for (size_t seat = 0; seat < 4; ++seat)
                std::memcpy(data + (i * 4 + seat) * CARD_COUNT, tables[i].deal.hands[seat].counts.data(), CARD_COUNT);
        return Array3<uint8_t>(data, {count, 4, size_t(CARD_COUNT)}, owner);
    }

    // The cards each seat has played in the deal in play.
    Array3<uint8_t> played() const {
        auto* data = new uint8_t[count * 4 * CARD_COUNT]();
        nb::capsule owner(data, [](void* p) noexcept { delete[] static_cast<uint8_t*>(p); });
        for (size_t i = 0; i < count; ++i)
            for (size_t seat = 0; seat < 4; ++seat)
                for (int index = 0; index < CARD_COUNT; ++index)
                    data[(i * 4 + seat) * CARD_COUNT + size_t(index)] = uint8_t(count_of(tables[i].seen.played[seat], index));
        return Array3<uint8_t>(data, {count, 4, size_t(CARD_COUNT)}, owner);
    }

    // Tributes laid face down while the other payer of a double tribute has yet to pay (in no hand).
    nb::ndarray<nb::numpy, uint8_t, nb::ndim<2>> pending() const {
        auto made = new_array<uint8_t>(count, CARD_COUNT);
        for (size_t i = 0; i < count; ++i) {
            const DealState& deal = tables[i].deal;
            if (deal.phase != DealPhase::TRIBUTE) continue;
            for (int seat = 0; seat < 4; ++seat)
                if (deal.paid[size_t(seat)] >= 0) ++made.data()[i * CARD_COUNT + size_t(deal.paid[size_t(seat)])];
        }
        return made;
    }

    // Per table: both teams' levels, whose level is played (-1 nobody), the deal's level, the deal's
    // number in its match (from 1), matches begun since the seed, the phase (0 tribute, 1 return, 2 play).
    nb::ndarray<nb::numpy, int64_t, nb::ndim<2>> progress() const {
        auto made = new_array<int64_t>(count, 7);
        for (size_t i = 0; i < count; ++i) {
            const TableState& state = tables[i];
            int64_t* row = made.data() + i * 7;
            row[0] = state.levels[0], row[1] = state.levels[1], row[2] = state.level_team, row[3] = state.deal.level;
            row[4] = state.deals, row[5] = state.matches, row[6] = int64_t(state.deal.phase);
        }
        return made;
    }
};

}  // namespace

void bind_vector_env(nb::module_& m) {
    m.attr("TABLE_BYTES") = sizeof(TableState);
    nb::class_<VectorCore>(m, "VectorCore", "Many Guandan tables stepped in one call (cardroom.rl.vector.VectorEnv).")
        .def(nb::init<size_t, nb::handle, nb::handle, int, int, int, int, bool>(), nb::arg("count"),
             nb::arg("deal_parameters"), nb::arg("match_parameters"), nb::arg("reward"), nb::arg("max_deals"),
             nb::arg("tribute_base"), nb::arg("return_base"), nb::arg("float_observations"))
        .def("reset", &VectorCore::reset, nb::arg("seeds"), "Seed every table and begin its first match.")
        .def("first_illegal", &VectorCore::first_illegal, nb::arg("actions"),
             "The first table whose action is not legal for its seat to act, or -1.")
        .def("step", &VectorCore::step, nb::arg("actions"), "Apply one table index per table (all legal, else ValueError).")
        .def("sample_legal", &VectorCore::sample_legal, nb::arg("uniforms"),
             "Per table, a legal entry chosen by its uniform in [0, 1) (uniformly over the mask).")
        .def_prop_ro("observation", &VectorCore::observation)
        .def_prop_ro("legal_action_mask", [](VectorCore& c) {
            return View2<int8_t>(reinterpret_cast<const int8_t*>(c.masks.data()), {c.count, c.width()}, nb::find(&c));
        })
        .def_prop_ro("rewards", [](VectorCore& c) { return View2<float>(c.rewards.data(), {c.count, 4}, nb::find(&c)); })
        .def_prop_ro("current_player", [](VectorCore& c) { return View1<int8_t>(c.current.data(), {c.count}, nb::find(&c)); })
        .def_prop_ro("terminated", [](VectorCore& c) { return View1<bool>(c.terminated.get(), {c.count}, nb::find(&c)); })
        .def_prop_ro("deal_over", [](VectorCore& c) { return View1<bool>(c.deal_over.get(), {c.count}, nb::find(&c)); })
        .def_prop_ro("seeds", [](VectorCore& c) { return View1<uint64_t>(c.seeds.data(), {c.count}, nb::find(&c)); })
        .def("state", &VectorCore::state, "The tables' state as bytes (this build of cardroom only).")
        .def("set_state", &VectorCore::set_state, nb::arg("state"), "Restore what state() gave.")
        .def("hands", &VectorCore::hands)
        .def("played", &VectorCore::played)
        .def("pending", &VectorCore::pending)
        .def("progress", &VectorCore::progress);
}

}  // namespace cardroom::binding
