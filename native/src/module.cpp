// cardroom._core: the compiled rules core bound with nanobind. The Python engine (cardroom.guandan) is
// the reference; cardroom.guandan.native wraps these functions and is the only caller.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <stdexcept>
#include <string>

#include "binding.hpp"
#include "card_plays.hpp"
#include "deal.hpp"
#include "evaluation.hpp"
#include "search.hpp"
#include "play_store.hpp"
#include "hand.hpp"
#include "heuristic.hpp"
#include "planner.hpp"
#include "rank_plays.hpp"

namespace nb = nanobind;
using namespace cardroom;

namespace cardroom::binding {

// The Python values plays are made of, registered once by cardroom.guandan.native; kept for the life
// of the interpreter (never destroyed: a static destructor would run after the interpreter finalised).
struct Types {
    bool ready = false;
    nb::object cards[CARD_COUNT];
    nb::object ranks[17];
    nb::object kinds[KIND_COUNT];
    nb::object suits[4];
    nb::object play_type, rank_play_type, pass_play;
    nb::object unit_type, plan_type;  // cardroom.bots.planning's Unit and Plan
    nb::object keys[4096];
    nb::str index_name;
};
Types& types = *new Types;

const Types& registered() {
    if (!types.ready) throw std::runtime_error("cardroom._core: register() has not been called");
    return types;
}

std::string card_name(int index) {
    if (index == SMALL_JOKER) return "SB";
    if (index == BIG_JOKER) return "HR";
    return std::string(1, "SHCD"[suit_of(index)]) + "23456789TJQKA"[rank_of(index) - 2];
}

// A level out of 2…A raises ValueError in the pure engine's words (cardroom.guandan.hands.check_level).
int check_level(int level) {
    if (level >= 2 && level <= 14) return level;
    std::string got = level == 15 ? "SMALL_JOKER" : level == 16 ? "BIG_JOKER" : std::to_string(level);
    throw nb::value_error(("the level rank must be 2\u2026A, got " + got).c_str());
}

int card_index_of(nb::handle card) {
    PyObject* value = PyObject_GetAttr(card.ptr(), types.index_name.ptr());
    long index = value && PyLong_Check(value) ? PyLong_AsLong(value) : -1;
    Py_XDECREF(value);
    PyErr_Clear();
    if (index < 0 || index >= CARD_COUNT)
        throw nb::type_error(("expected a Card, got " + std::string(Py_TYPE(card.ptr())->tp_name)).c_str());
    return int(index);
}

// A hand from an iterable of cards or a mapping of card to count (a Counter); a card held more than
// twice, or a negative count, raises ValueError naming the card.
Hand read_hand(nb::handle cards) {
    registered();
    std::array<long, CARD_COUNT> counts{};
    if (PyDict_Check(cards.ptr())) {
        PyObject *key, *value;
        Py_ssize_t position = 0;
        while (PyDict_Next(cards.ptr(), &position, &key, &value)) {
            long times = PyLong_AsLong(value);
            if (times == -1 && PyErr_Occurred()) throw nb::python_error();
            if (times) counts[size_t(card_index_of(key))] += times;
        }
    } else {
        for (nb::handle card : cards) ++counts[size_t(card_index_of(card))];
    }
    Hand hand;
    for (int index = 0; index < CARD_COUNT; ++index) {
        long count = counts[size_t(index)];
        if (count < 0 || count > 2)
            throw nb::value_error((card_name(index) + " is held " + std::to_string(count) +
                                   " times: the two decks hold each card twice")
                                      .c_str());
        hand.counts[size_t(index)] = uint8_t(count);
        hand.size += int(count);
    }
    return hand;
}

PyObject* key_object(uint32_t key) {
    if (key < 4096) return Py_NewRef(types.keys[key].ptr());
    return PyLong_FromUnsignedLong(key);
}

// A Play (cardroom.guandan.plays.Play) made straight as the tuple subclass it is.
PyObject* python_play(const PackedPlay& play, int level) {
    if (play.kind() == PASS) return Py_NewRef(types.pass_play.ptr());
    Cards cards = play.cards();
    int size = play.size();
    PyObject* card_tuple = PyTuple_New(size);
    if (!card_tuple) throw nb::python_error();
    int at = 0;
    for (int index = 0; index < CARD_COUNT && at < size; ++index)
        for (int times = count_of(cards, index); times > 0; --times)
            PyTuple_SET_ITEM(card_tuple, at++, Py_NewRef(types.cards[index].ptr()));
    int wilds = play.wild_count();
    PyObject* stands = PyTuple_New(wilds);
    if (!stands) { Py_DECREF(card_tuple); throw nb::python_error(); }
    for (int i = 0; i < wilds; ++i) PyTuple_SET_ITEM(stands, i, Py_NewRef(types.cards[play.stands[i]].ptr()));
    auto* type = reinterpret_cast<PyTypeObject*>(types.play_type.ptr());
    PyObject* result = type->tp_alloc(type, 6);
    if (!result) { Py_DECREF(card_tuple); Py_DECREF(stands); throw nb::python_error(); }
    PyTuple_SET_ITEM(result, 0, Py_NewRef(types.kinds[play.kind()].ptr()));
    PyTuple_SET_ITEM(result, 1, Py_NewRef(types.ranks[play.rank()].ptr()));
    PyTuple_SET_ITEM(result, 2, card_tuple);
    PyTuple_SET_ITEM(result, 3, stands);
    PyTuple_SET_ITEM(result, 4, Py_NewRef(types.ranks[level].ptr()));
    PyTuple_SET_ITEM(result, 5, key_object(play.key));
    return result;
}

constexpr size_t PLAY_PARAMETERS = 15, DEAL_PARAMETERS = 23;

PlayRules read_play_rules(const nb::tuple& values);

// The play parameters of a RuleSet as cardroom.guandan.native.play_parameters gives them (15 integers).
PlayRules play_rules(nb::handle parameters) {
    nb::tuple values = nb::borrow<nb::tuple>(parameters);
    if (nb::len(values) != PLAY_PARAMETERS) throw nb::value_error("play parameters: 15 integers");
    return read_play_rules(values);
}

// A RuleSet's deal parameters as cardroom.guandan.native.deal_parameters gives them: the 15 play
// parameters, then 接风, tribute and return (8 integers).
DealRules deal_rules(nb::handle parameters) {
    nb::tuple values = nb::borrow<nb::tuple>(parameters);
    if (nb::len(values) != DEAL_PARAMETERS) throw nb::value_error("deal parameters: 23 integers");
    auto at = [&](size_t i) { return nb::cast<int>(values[i]); };
    DealRules rules;
    rules.plays = read_play_rules(values);
    rules.lead_passes_to_partner = at(15);
    rules.anti_tribute_big_jokers = int8_t(at(16));
    rules.small_jokers_exempt_payer = at(17);
    rules.double_tribute_by_place = at(18);
    rules.double_tribute_lead_last_place = at(19);
    rules.return_limit = int8_t(at(20));
    rules.return_limit_rank = int8_t(at(21));
    rules.return_limit_by_face_value = at(22);
    if (rules.anti_tribute_big_jokers < 1 || rules.anti_tribute_big_jokers > 2 || rules.return_limit < 0 ||
        rules.return_limit > 2 || rules.return_limit_rank < 2 || rules.return_limit_rank > 14)
        throw nb::value_error("deal parameters out of range (see RuleSet)");
    return rules;
}

PlayRules read_play_rules(const nb::tuple& values) {
    auto at = [&](size_t i) { return nb::cast<int>(values[i]); };
    PlayRules rules;
    rules.natural_straight_flush_is_straight = at(0);
    rules.level_rank_high = at(1);
    rules.two_high = at(2);
    rules.straight_lengths[0] = at(3), rules.straight_lengths[1] = at(4);
    rules.tube_lengths[0] = at(5), rules.tube_lengths[1] = at(6);
    rules.plate_lengths[0] = at(7), rules.plate_lengths[1] = at(8);
    rules.airplanes = at(9);
    rules.max_bomb_size = at(10);
    rules.three_jokers_bomb = at(11);
    rules.chain_bomb_lengths[0] = at(12), rules.chain_bomb_lengths[1] = at(13);
    rules.big_joker_wild = at(14) & 1;
    rules.bombs_by_stars = at(14) & 2;
    auto within = [](int low, int value, int high) { return low <= value && value <= high; };
    bool chained = rules.chain_bomb_lengths[0] || rules.chain_bomb_lengths[1];
    if (!within(3, rules.straight_lengths[0], 13) || !within(rules.straight_lengths[0], rules.straight_lengths[1], 13) ||
        !within(2, rules.tube_lengths[0], 13) || !within(rules.tube_lengths[0], rules.tube_lengths[1], 13) ||
        !within(2, rules.plate_lengths[0], 13) || !within(rules.plate_lengths[0], rules.plate_lengths[1], 13) ||
        !within(4, rules.max_bomb_size, 12) ||
        (chained && !(within(2, rules.chain_bomb_lengths[0], 13) && within(rules.chain_bomb_lengths[0], rules.chain_bomb_lengths[1], 13))))
        throw nb::value_error("play parameters out of range (see RuleSet)");
    return rules;
}

}  // namespace cardroom::binding

using namespace cardroom::binding;

namespace {

PyObject* python_rank_play(const RankPlay& play) {
    if (!types.rank_play_type.is_valid()) throw std::runtime_error("cardroom._core: register_rank_play() has not been called");
    auto* type = reinterpret_cast<PyTypeObject*>(types.rank_play_type.ptr());
    PyObject* result = type->tp_alloc(type, 9);
    if (!result) throw nb::python_error();
    PyTuple_SET_ITEM(result, 0, Py_NewRef(types.kinds[play.kind].ptr()));
    PyTuple_SET_ITEM(result, 1, Py_NewRef(types.ranks[play.rank].ptr()));
    PyTuple_SET_ITEM(result, 2, PyLong_FromLong(play.size));
    PyTuple_SET_ITEM(result, 3, PyLong_FromLong(play.wilds));
    PyTuple_SET_ITEM(result, 4, key_object(play.key));
    PyTuple_SET_ITEM(result, 5, Py_NewRef(play.suit == 0xFF ? Py_None : types.suits[play.suit].ptr()));
    PyTuple_SET_ITEM(result, 6, Py_NewRef(play.pair_rank == 0xFF ? Py_None : types.ranks[play.pair_rank].ptr()));
    PyTuple_SET_ITEM(result, 7, PyLong_FromLong(play.big_jokers));
    PyTuple_SET_ITEM(result, 8, PyLong_FromLong(play.length));
    return result;
}

// A Play given from Python, read back into its packed form (its kind, key rank, cards and key).
// Anything but a tuple of a Play's six fields raises TypeError (never read out of bounds).
PackedPlay read_play(nb::handle play) {
    if (!PyTuple_Check(play.ptr()) || PyTuple_GET_SIZE(play.ptr()) < 6)
        throw nb::type_error(("expected a Play, got " + std::string(Py_TYPE(play.ptr())->tp_name)).c_str());
    nb::tuple fields = nb::borrow<nb::tuple>(play);
    int kind = nb::cast<int>(fields[0]);
    if (kind == PASS) return PackedPlay{};
    int rank = nb::cast<int>(fields[1]);
    Hand held = read_hand(fields[2]);
    return make_play(kind, rank, held.cards(), nb::cast<uint32_t>(fields[5]));
}

// A packed, lazy list of card-level plays: counts, indexes and filters without a Python object per
// play; Play values are made on access.
struct PlaySet {
    PlayStore plays;

    size_t size() const { return plays.size(); }
    size_t position(Py_ssize_t index) const {
        Py_ssize_t count = Py_ssize_t(plays.size());
        if (index < 0) index += count;
        if (index < 0 || index >= count) throw nb::index_error("play index out of range");
        return size_t(index);
    }
    nb::object get(Py_ssize_t index) const {
        return nb::steal(python_play(plays[position(index)], plays.level()));
    }
    nb::list to_list() const {
        PyObject* list = PyList_New(Py_ssize_t(plays.size()));
        if (!list) throw nb::python_error();
        for (size_t i = 0; i < plays.size(); ++i) PyList_SET_ITEM(list, Py_ssize_t(i), python_play(plays[i], plays.level()));
        return nb::steal<nb::list>(list);
    }
    // Every play as an action of ``seat``: instances of ``action_type`` (a frozen dataclass of ``seat``
    // and ``play``) made as its __init__ would, without running it for each play.
    nb::tuple actions(int seat, nb::handle action_type) const {
        if (!PyType_Check(action_type.ptr())) throw nb::type_error("actions(): the action type must be a class");
        auto* type = reinterpret_cast<PyTypeObject*>(action_type.ptr());
        static PyObject* seat_name = PyUnicode_InternFromString("seat");  // kept for the interpreter's life
        static PyObject* play_name = PyUnicode_InternFromString("play");
        nb::object seat_object = nb::int_(seat);
        PyObject* tuple = PyTuple_New(Py_ssize_t(plays.size()));
        if (!tuple) throw nb::python_error();
        nb::object result = nb::steal(tuple);
        for (size_t i = 0; i < plays.size(); ++i) {
            nb::object action = nb::steal(type->tp_alloc(type, 0));
            if (!action.is_valid()) throw nb::python_error();
            nb::object play = nb::steal(python_play(plays[i], plays.level()));
            if (PyObject_GenericSetAttr(action.ptr(), seat_name, seat_object.ptr()) < 0 ||
                PyObject_GenericSetAttr(action.ptr(), play_name, play.ptr()) < 0)
                throw nb::python_error();
            PyTuple_SET_ITEM(tuple, Py_ssize_t(i), action.release().ptr());
        }
        return nb::borrow<nb::tuple>(result);
    }
    template <typename T, typename F>
    nb::ndarray<nb::numpy, T, nb::ndim<1>> column(F&& field) const {
        auto* data = new T[plays.size()];
        for (size_t i = 0; i < plays.size(); ++i) data[i] = T(field(plays[i]));
        nb::capsule owner(data, [](void* p) noexcept { delete[] static_cast<T*>(p); });
        return nb::ndarray<nb::numpy, T, nb::ndim<1>>(data, {plays.size()}, owner);
    }
    nb::ndarray<nb::numpy, uint8_t, nb::ndim<2>> card_counts() const {
        auto* data = new uint8_t[plays.size() * CARD_COUNT];
        for (size_t i = 0; i < plays.size(); ++i) {
            Cards cards = plays[i].cards();
            for (int index = 0; index < CARD_COUNT; ++index) data[i * CARD_COUNT + index] = uint8_t(count_of(cards, index));
        }
        nb::capsule owner(data, [](void* p) noexcept { delete[] static_cast<uint8_t*>(p); });
        return nb::ndarray<nb::numpy, uint8_t, nb::ndim<2>>(data, {plays.size(), size_t(CARD_COUNT)}, owner);
    }
    // For each entry of ``entries`` (a list of [type, rank, cards] lists, as a protocol's action list
    // writes plays), the index of the play of this set with the same kind, key rank and cards, or -1.
    // ``heads`` maps a type name to {rank letter: kind << 5 | rank}; ``card_indices`` a card name to its
    // index: the notation stays in Python. An entry whose cards field is not a list reads as no cards
    // (a pass); anything malformed is -1.
    nb::list match_entries(nb::handle entries, nb::handle heads, nb::handle card_indices) const {
        if (!PyList_Check(entries.ptr()) || !PyDict_Check(heads.ptr()) || !PyDict_Check(card_indices.ptr()))
            throw nb::type_error("match_entries(): entries is a list, heads and card_indices are dicts");
        std::unordered_map<unsigned __int128, Py_ssize_t, CardsHash> found;
        found.reserve(plays.size() * 2);
        for (size_t i = 0; i < plays.size(); ++i) {
            const PackedPlay play = plays[i];
            const unsigned __int128 key = (static_cast<unsigned __int128>(play.kind() << 5 | play.rank()) << 110) |
                                          play.cards();
            found.emplace(key, Py_ssize_t(i));
        }
        const Py_ssize_t count = PyList_GET_SIZE(entries.ptr());
        PyObject* result = PyList_New(count);
        if (!result) throw nb::python_error();
        nb::object owned = nb::steal(result);
        for (Py_ssize_t i = 0; i < count; ++i) {
            const Py_ssize_t index = match_entry(PyList_GET_ITEM(entries.ptr(), i), heads.ptr(), card_indices.ptr(), found);
            PyObject* value = PyLong_FromSsize_t(index);
            if (!value) throw nb::python_error();
            PyList_SET_ITEM(result, i, value);
        }
        return nb::borrow<nb::list>(owned);
    }
    struct CardsHash {
        size_t operator()(unsigned __int128 key) const noexcept {
            const uint64_t lo = uint64_t(key), hi = uint64_t(key >> 64);
            return size_t(lo * 0x9E3779B97F4A7C15ULL ^ (hi + 0x632BE59BD9B4E019ULL + (lo << 6) + (lo >> 2)));
        }
    };
    static Py_ssize_t match_entry(PyObject* entry, PyObject* heads, PyObject* card_indices,
                                  const std::unordered_map<unsigned __int128, Py_ssize_t, CardsHash>& found) {
        if (!PyList_Check(entry) || PyList_GET_SIZE(entry) != 3) return -1;
        PyObject* type = PyList_GET_ITEM(entry, 0);
        PyObject* rank = PyList_GET_ITEM(entry, 1);
        PyObject* cards = PyList_GET_ITEM(entry, 2);
        if (!PyUnicode_Check(type) || !PyUnicode_Check(rank)) return -1;
        PyObject* ranks = PyDict_GetItemWithError(heads, type);
        if (!ranks || !PyDict_Check(ranks)) { PyErr_Clear(); return -1; }
        PyObject* head = PyDict_GetItemWithError(ranks, rank);
        if (!head || !PyLong_Check(head)) { PyErr_Clear(); return -1; }
        unsigned __int128 held = 0;
        if (PyList_Check(cards)) {
            for (Py_ssize_t c = 0; c < PyList_GET_SIZE(cards); ++c) {
                PyObject* name = PyList_GET_ITEM(cards, c);
                if (!PyUnicode_Check(name)) return -1;
                PyObject* number = PyDict_GetItemWithError(card_indices, name);
                if (!number || !PyLong_Check(number)) { PyErr_Clear(); return -1; }
                const long index = PyLong_AsLong(number);
                if (index < 0 || index >= CARD_COUNT || count_of(held, int(index)) == 2) return -1;
                held += static_cast<unsigned __int128>(1) << (2 * index);
            }
        }
        const long kind_rank = PyLong_AsLong(head);
        if (kind_rank < 0 || kind_rank >= 1 << 10) return -1;
        const unsigned __int128 key = (static_cast<unsigned __int128>(kind_rank) << 110) | held;
        const auto at = found.find(key);
        return at == found.end() ? -1 : at->second;
    }
    PlaySet of_kind(int kind) const { return PlaySet{plays.of_kind(kind)}; }
    // As list.index: anything that is not one of the plays (a malformed play included) is not in the set.
    Py_ssize_t index_of(nb::handle play) const {
        try {
            return find(play);
        } catch (const std::exception&) {
            PyErr_Clear();
        }
        throw nb::value_error("the play is not in this set");
    }
    Py_ssize_t find(nb::handle play) const {
        PackedPlay wanted = read_play(play);
        nb::tuple fields = nb::borrow<nb::tuple>(play);
        if (!PyTuple_Check(fields[3].ptr())) throw nb::type_error("expected a Play");
        nb::tuple stands = nb::borrow<nb::tuple>(fields[3]);
        // a play read at another level is another play (Play compares its level too)
        if (nb::cast<int>(fields[0]) != PASS && (fields[4].is_none() || nb::cast<int>(fields[4]) != int(plays.level())))
            throw nb::value_error("the play is not in this set");
        for (size_t i = 0; i < plays.size(); ++i) {
            PackedPlay candidate = plays[i];
            if (candidate.lo != wanted.lo || candidate.hi != wanted.hi || candidate.key != wanted.key) continue;
            if (size_t(candidate.wild_count()) != nb::len(stands)) continue;
            bool same = true;
            for (size_t w = 0; w < nb::len(stands) && same; ++w) same = candidate.stands[w] == card_index_of(stands[w]);
            if (same) return Py_ssize_t(i);
        }
        throw nb::value_error("the play is not in this set");
    }
};

PlaySet card_leads_of(nb::handle hand, int level, nb::handle parameters) {
    PlayRules rules = play_rules(parameters);
    check_level(level);
    Hand held = read_hand(hand);
    HandView view(held, level, rules);
    PlayList plays;
    plays.reserve(512);
    card_leads(view, rules, plays);
    return PlaySet{PlayStore(std::move(plays), held, level, rules)};
}

PlaySet card_follows_of(nb::handle hand, int level, nb::handle parameters, int kind, int size, int key, bool with_pass) {
    PlayRules rules = play_rules(parameters);
    if (!known_kind(kind, rules)) throw nb::value_error("the play to beat is of a kind these rules lack");
    check_level(level);
    Hand held = read_hand(hand);
    HandView view(held, level, rules);
    PlayList plays;
    if (with_pass) plays.push_back(PackedPlay{});
    card_follows(view, rules, kind, size, key, plays);
    return PlaySet{PlayStore(std::move(plays), held, level, rules)};
}

PlaySet plays_of_kind_of(nb::handle hand, int level, nb::handle parameters, int kind, int above, int size) {
    PlayRules rules = play_rules(parameters);
    if (!known_kind(kind, rules)) throw nb::value_error("these rules have no plays of this kind");
    check_level(level);
    Hand held = read_hand(hand);
    HandView view(held, level, rules);
    PlayList plays;
    plays_of_kind(view, rules, kind, above, size, plays);
    return PlaySet{PlayStore(std::move(plays), held, level, rules)};
}

nb::list rank_list(const RankList& plays) {
    PyObject* list = PyList_New(Py_ssize_t(plays.size()));
    if (!list) throw nb::python_error();
    for (size_t i = 0; i < plays.size(); ++i) PyList_SET_ITEM(list, Py_ssize_t(i), python_rank_play(plays[i]));
    return nb::steal<nb::list>(list);
}

size_t rank_lead_count(nb::handle hand, int level, nb::handle parameters) {
    PlayRules rules = play_rules(parameters);
    RankCounts view(read_hand(hand), check_level(level), rules);
    RankList plays;
    plays.reserve(256);
    rank_leads(view, rules, plays);
    return plays.size();
}

nb::list rank_leads_of(nb::handle hand, int level, nb::handle parameters) {
    PlayRules rules = play_rules(parameters);
    RankCounts view(read_hand(hand), check_level(level), rules);
    RankList plays;
    plays.reserve(256);
    rank_leads(view, rules, plays);
    return rank_list(plays);
}

nb::list rank_follows_of(nb::handle hand, int level, nb::handle parameters, int kind, int size, int key) {
    PlayRules rules = play_rules(parameters);
    if (!known_kind(kind, rules)) throw nb::value_error("the play to beat is of a kind these rules lack");
    RankCounts view(read_hand(hand), check_level(level), rules);
    RankPlay previous;
    previous.kind = uint8_t(kind);
    previous.size = uint8_t(size);
    previous.key = uint32_t(key);
    RankList plays;
    rank_follows(view, rules, previous, plays);
    return rank_list(plays);
}

// Four dealt hands of 27 cards holding both decks, or ValueError.
std::array<Hand, 4> read_dealt(nb::handle hands) {
    nb::sequence seats = nb::borrow<nb::sequence>(hands);
    if (nb::len(seats) != 4) throw nb::value_error("a deal needs four hands of 27 cards");
    std::array<Hand, 4> dealt;
    Cards total = 0;
    for (int seat = 0; seat < 4; ++seat) {
        dealt[size_t(seat)] = read_hand(seats[size_t(seat)]);
        if (dealt[size_t(seat)].size != 27) throw nb::value_error("a deal needs four hands of 27 cards");
        total += dealt[size_t(seat)].cards();
    }
    for (int index = 0; index < CARD_COUNT; ++index)
        if (count_of(total, index) != 2) throw nb::value_error("the four hands must hold both decks, each card exactly twice");
    return dealt;
}

nb::list seats_list(const int8_t* seats, int count) {
    nb::list list;
    for (int i = 0; i < count; ++i) list.append(int(seats[i]));
    return list;
}

// The actions of a log as (phase, seat, card or Play): phase 0 tribute, 1 return, 2 play.
nb::list action_list(const std::vector<Action>& log, int level) {
    nb::list actions;
    for (const Action& action : log) {
        nb::object payload = action.phase == DealPhase::PLAY ? nb::steal(python_play(action.play, level))
                                                             : types.cards[action.card];
        actions.append(nb::make_tuple(int(action.phase), int(action.seat), payload));
    }
    return actions;
}

// The plans the heuristic and the search of this thread have made, for one level at a time (a deal's
// decisions share its level; a new level starts a new cache).
heuristic::PlanCache& plan_cache(int level) {
    thread_local std::unique_ptr<heuristic::PlanCache> plans;
    if (!plans || plans->level() != level) plans = std::make_unique<heuristic::PlanCache>(level, PY_VERSION_HEX >= 0x030C0000);
    return *plans;
}

// Integers from a Python sequence of exactly ``count`` of them.
template <size_t N>
void read_ints(nb::handle values, std::array<int, N>& out, const char* what) {
    PyObject* fast = PySequence_Fast(values.ptr(), what);
    if (!fast) throw nb::python_error();
    nb::object owned = nb::steal(fast);
    if (size_t(PySequence_Fast_GET_SIZE(fast)) != N)
        throw nb::value_error((std::string(what) + ": " + std::to_string(N) + " integers").c_str());
    for (size_t i = 0; i < N; ++i) {
        long value = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, Py_ssize_t(i)));
        if (value == -1 && PyErr_Occurred()) throw nb::python_error();
        out[i] = int(value);
    }
}

// The play rules of a parameters tuple, the last one read remembered (play_parameters gives the same
// tuple for the same rule set).
const PlayRules& cached_play_rules(nb::handle parameters) {
    static nb::object* last = new nb::object();  // kept for the life of the interpreter
    static PlayRules rules;
    if (!last->is_valid() || !last->is(parameters)) {
        rules = play_rules(parameters);
        *last = nb::borrow(parameters);
    }
    return rules;
}

heuristic::Parameters heuristic_parameters(nb::handle values) {
    heuristic::Parameters parameters;
    if (values.is_none()) return parameters;
    nb::tuple fields = nb::borrow<nb::tuple>(values);
    if (nb::len(fields) != 6) throw nb::value_error("heuristic parameters: 6 values");
    parameters.bomb_threat = nb::cast<int>(fields[0]);
    parameters.block_threat = nb::cast<int>(fields[1]);
    parameters.break_gain = nb::cast<double>(fields[2]);
    parameters.break_gain_threatened = nb::cast<double>(fields[3]);
    parameters.break_candidates = nb::cast<int>(fields[4]);
    parameters.feed_partner_at = nb::cast<int>(fields[5]);
    return parameters;
}

// heuristic.unseen_counts: the cards neither in ``hand`` nor played in ``history`` (events whose ``kind``
// is ``play_kind`` and whose ``play`` is not None), by rank; index 0 the unseen ♥ level cards.
nb::list heuristic_unseen(nb::handle hand, nb::handle history, int level, nb::handle play_kind) {
    registered();
    check_level(level);
    int wild = natural_index(level, HEARTS);
    std::array<int, 17> unseen{};
    for (int rank = 2; rank <= 14; ++rank) unseen[size_t(rank)] = 8;
    unseen[size_t(level)] = 6;
    unseen[0] = 2;
    unseen[RANK_SMALL_JOKER] = unseen[RANK_BIG_JOKER] = 2;
    auto remove = [&](nb::handle card) {
        int index = card_index_of(card);
        --unseen[size_t(index == wild ? 0 : rank_of(index))];
    };
    for (nb::handle card : hand) remove(card);
    static PyObject* kind_name = PyUnicode_InternFromString("kind");  // kept for the interpreter's life
    static PyObject* play_name = PyUnicode_InternFromString("play");
    static PyObject* cards_name = PyUnicode_InternFromString("cards");
    for (nb::handle event : history) {
        nb::object kind = nb::steal(PyObject_GetAttr(event.ptr(), kind_name));
        if (!kind.is_valid()) throw nb::python_error();
        if (!kind.is(play_kind)) continue;
        nb::object play = nb::steal(PyObject_GetAttr(event.ptr(), play_name));
        if (!play.is_valid()) throw nb::python_error();
        if (play.is_none()) continue;
        nb::object cards = nb::steal(PyObject_GetAttr(play.ptr(), cards_name));
        if (!cards.is_valid()) throw nb::python_error();
        for (nb::handle card : cards) remove(card);
    }
    PyObject* list = PyList_New(17);
    if (!list) throw nb::python_error();
    for (size_t i = 0; i < 17; ++i) PyList_SET_ITEM(list, Py_ssize_t(i), PyLong_FromLong(unseen[i]));
    return nb::steal<nb::list>(list);
}

// HeuristicBot.play inside the core (native/src/heuristic.cpp): what the seat to play sees — its hand,
// the four card counts, the 17 unseen counts (index 0 the unseen ♥ level cards), the play to beat (None
// when leading) and who made it — in; the Play it chooses (PASS to pass) out.
nb::object heuristic_play_of(nb::handle hand, nb::handle counts, nb::handle unseen, int seat, nb::handle previous,
                             int previous_seat, int level, nb::handle parameters, nb::handle thresholds) {
    heuristic::Seen seen;
    seen.hand = read_hand(hand);
    read_ints(counts, seen.counts, "counts");
    read_ints(unseen, seen.unseen, "unseen");
    if (seat < 0 || seat > 3) throw nb::value_error("a seat is 0-3");
    seen.seat = seat;
    seen.level = check_level(level);
    seen.rules = cached_play_rules(parameters);
    if (!previous.is_none()) {
        // -1: who made it is not known (the heuristic then takes it for an opponent's, as Python does)
        if (previous_seat < -1 || previous_seat > 3) throw nb::value_error("the play to beat's seat: 0-3, or -1");
        seen.previous = read_play(previous);
        if (!known_kind(seen.previous.kind(), seen.rules)) throw nb::value_error("the play to beat is of a kind these rules lack");
        seen.previous_seat = previous_seat;
    }
    if (!seen.hand.size) throw nb::value_error("the seat to play holds no cards");
    PackedPlay chosen = heuristic::play(seen, plan_cache(level), heuristic_parameters(thresholds));
    return nb::steal(python_play(chosen, level));
}

// cardroom.guandan.deal.Deal inside the core, from the dealt hands to the places: a first deal names
// its leader, a later one the previous deal's places (tribute, 抗贡 and return follow from them).
struct DealMachine {
    DealState state;

    static DealState start(nb::handle hands, int level, nb::handle parameters, int leader, nb::handle previous) {
        std::array<Hand, 4> dealt = read_dealt(hands);
        DealRules rules = deal_rules(parameters);
        check_level(level);
        if ((leader < 0) == previous.is_none()) throw nb::value_error("give either the first leader or the previous deal's places");
        if (previous.is_none()) {
            if (leader > 3) throw nb::value_error("the leader must be a seat 0-3");
            return DealState(dealt, level, leader, rules);
        }
        nb::sequence places = nb::borrow<nb::sequence>(previous);
        std::array<int8_t, 4> order{};
        std::array<bool, 4> seen{};
        if (nb::len(places) != 4) throw nb::value_error("places must be the four seats in finishing order");
        for (size_t i = 0; i < 4; ++i) {
            int seat = nb::cast<int>(places[i]);
            if (seat < 0 || seat > 3 || seen[size_t(seat)]) throw nb::value_error("places must be the four seats in finishing order");
            seen[size_t(seat)] = true;
            order[i] = int8_t(seat);
        }
        return DealState::after(dealt, level, order, rules);
    }

    DealMachine(nb::handle hands, int level, nb::handle parameters, int leader, nb::handle previous)
        : state(start(hands, level, parameters, leader, previous)) {}

    PlaySet legal_plays() const {
        PlayList plays;
        state.legal(plays);
        return PlaySet{PlayStore(std::move(plays), state.hands[size_t(std::max<int>(state.current, 0))], state.level,
                                 state.rules.plays)};
    }
    nb::list legal_cards() const {
        std::vector<int> cards;
        state.legal_cards(cards);
        nb::list list;
        for (int card : cards) list.append(types.cards[card]);
        return list;
    }
    void play(nb::handle chosen) {
        if (state.phase != DealPhase::PLAY) throw nb::value_error("no play now: the deal is not in its play phase");
        PackedPlay wanted = read_play(chosen);
        PlayList options;
        state.legal(options);
        for (const PackedPlay& option : options)
            if (option.lo == wanted.lo && option.hi == wanted.hi && option.key == wanted.key) {
                state.apply(option);
                return;
            }
        throw nb::value_error("the play is not legal for the player to act");
    }
    void play_index(Py_ssize_t index) {
        if (state.phase != DealPhase::PLAY) throw nb::value_error("no play now: the deal is not in its play phase");
        PlaySet options = legal_plays();
        state.apply(options.plays[options.position(index)]);
    }
    void give(nb::handle card) {
        if (state.phase != DealPhase::TRIBUTE && state.phase != DealPhase::RETURN)
            throw nb::value_error("no tribute or return is due now");
        int index = card_index_of(card);
        std::vector<int> cards;
        state.legal_cards(cards);
        if (std::find(cards.begin(), cards.end(), index) == cards.end())
            throw nb::value_error(("the player to act may not give " + card_name(index) + " now").c_str());
        state.apply_card(index);
    }
    nb::list hand(int seat) const {
        if (seat < 0 || seat > 3) throw nb::value_error("a seat is 0-3");
        nb::list cards;
        const Hand& held = state.hands[size_t(seat)];
        for (int index = 0; index < CARD_COUNT; ++index)
            for (int times = held.counts[size_t(index)]; times > 0; --times) cards.append(types.cards[index]);
        return cards;
    }
    nb::dict receiver_of() const {
        nb::dict result;
        for (int i = 0; i < state.payer_count; ++i) {
            int payer = state.payers[size_t(i)];
            if (state.receiver_of[size_t(payer)] >= 0) result[nb::int_(payer)] = int(state.receiver_of[size_t(payer)]);
        }
        return result;
    }
    // The heuristic's view of the player to act (heuristic::seen_of): (hand, counts, unseen, seat,
    // the play to beat or None, its seat or -1, level).
    nb::tuple heuristic_seen() const {
        if (state.phase != DealPhase::PLAY) throw nb::value_error("no play now: the deal is not in its play phase");
        heuristic::Seen seen = heuristic::seen_of(state);
        nb::list cards, counts, unseen;
        for (int index = 0; index < CARD_COUNT; ++index)
            for (int times = seen.hand.counts[size_t(index)]; times > 0; --times) cards.append(types.cards[index]);
        for (int count : seen.counts) counts.append(count);
        for (int count : seen.unseen) unseen.append(count);
        nb::object previous = seen.previous.kind() == PASS ? nb::none() : nb::steal(python_play(seen.previous, seen.level));
        return nb::make_tuple(cards, counts, unseen, seen.seat, previous, seen.previous_seat, seen.level);
    }
    // The heuristic's play for the player to act (heuristic::play on heuristic::seen_of).
    nb::object heuristic_play() const {
        if (state.phase != DealPhase::PLAY) throw nb::value_error("no play now: the deal is not in its play phase");
        heuristic::Seen seen = heuristic::seen_of(state);
        return nb::steal(python_play(heuristic::play(seen, plan_cache(seen.level)), seen.level));
    }
    nb::list playout(uint64_t seed) {
        Random random(seed);
        std::vector<Action> log;
        random_playout(state, random, &log);
        return action_list(log, state.level);
    }
};

// A position's deal (Deal.at_position: hands now, who is out, the play to beat and the passes on it).
DealState read_position(nb::sequence hands, int level, int current, nb::sequence finished, int last_seat,
                        nb::handle last_play, int passes, nb::handle parameters) {
    if (nb::len(hands) != 4) throw nb::value_error("a position needs four hands");
    std::array<Hand, 4> held;
    Cards total = 0;
    for (int seat = 0; seat < 4; ++seat) {
        held[seat] = read_hand(hands[seat]);
        Cards before = total;
        total += held[seat].cards();
        for (int index = 0; index < CARD_COUNT; ++index)
            if (count_of(total, index) < count_of(before, index) || count_of(total, index) > 2)
                throw nb::value_error("the hands hold a card more than twice between them");
    }
    if (current < 0 || current > 3) throw nb::value_error("the player to act must be a seat 0-3");
    DealState deal(held, check_level(level), current, deal_rules(parameters));
    for (nb::handle seat_object : finished) {
        int seat = nb::cast<int>(seat_object);
        if (seat < 0 || seat > 3 || deal.is_finished(seat) || held[seat].size) throw nb::value_error("finished: seats 0-3 out of cards, once each");
        deal.finished[deal.finished_count++] = int8_t(seat);
    }
    for (int seat = 0; seat < 4; ++seat)
        if (!deal.is_finished(seat) && !held[seat].size) throw nb::value_error("a seat still in holds no cards");
    if (deal.is_finished(current)) throw nb::value_error("the player to act has gone out");
    if (!last_play.is_none()) {
        if (last_seat < 0 || last_seat > 3) throw nb::value_error("the play to beat needs its seat 0-3");
        deal.last_play = read_play(last_play);
        if (!known_kind(deal.last_play.kind(), deal.rules.plays)) throw nb::value_error("the play to beat is of a kind these rules lack");
        deal.last_seat = int8_t(last_seat);
        if (passes < 0 || passes > 2) throw nb::value_error("passes on the play to beat: 0-2");
        deal.passes = int8_t(passes);
    }
    return deal;
}

// A position's deal played on uniformly at random inside the core, to the end of the deal or of the
// trick: [(seat, Play)], and the places once the deal is over (empty otherwise).
nb::tuple random_playout_from(nb::sequence hands, int level, int current, nb::sequence finished, int last_seat,
                              nb::handle last_play, int passes, uint64_t seed, nb::handle parameters,
                              bool trick_only) {
    DealState deal = read_position(hands, level, current, finished, last_seat, last_play, passes, parameters);
    Random random(seed);
    std::vector<Action> log;
    random_playout(deal, random, &log, trick_only);
    nb::list actions;
    for (const Action& action : log) actions.append(nb::make_tuple(int(action.seat), nb::steal(python_play(action.play, level))));
    nb::list places;
    if (deal.over())
        for (int8_t seat : deal.places) places.append(int(seat));
    return nb::make_tuple(actions, places);
}

evaluation::Model read_model(nb::handle weights, nb::handle partner_rises) {
    evaluation::Model model;
    nb::sequence values = nb::borrow<nb::sequence>(weights);
    nb::sequence rises = nb::borrow<nb::sequence>(partner_rises);
    if (nb::len(values) != evaluation::FEATURE_COUNT) throw nb::value_error("the evaluation takes 12 weights");
    if (nb::len(rises) != 3) throw nb::value_error("partner_rises: three levels");
    for (size_t i = 0; i < size_t(evaluation::FEATURE_COUNT); ++i) model.weights[i] = nb::cast<double>(values[i]);
    for (size_t i = 0; i < 3; ++i) model.partner_rises[i] = nb::cast<int>(rises[i]);
    model.compensated = PY_VERSION_HEX >= 0x030C0000;
    return model;
}

// evaluation.position_value of a position's deal for ``seat``'s team.
double position_value_of(nb::sequence hands, int level, int current, nb::sequence finished, int last_seat,
                         nb::handle last_play, int passes, nb::handle parameters, int seat, nb::handle weights,
                         nb::handle partner_rises) {
    DealState deal = read_position(hands, level, current, finished, last_seat, last_play, passes, parameters);
    if (seat < 0 || seat > 3) throw nb::value_error("a seat is 0-3");
    return evaluation::position_value(deal, seat, plan_cache(level), read_model(weights, partner_rises));
}

// search.trick_values: each candidate of the player to act played at a position, the trick played to
// its end by the heuristic, the position reached valued for that player's team.
std::vector<double> trick_values_of(nb::sequence hands, int level, int current, nb::sequence finished, int last_seat,
                                    nb::handle last_play, int passes, nb::handle parameters, nb::sequence candidates,
                                    nb::handle weights, nb::handle partner_rises, bool team_searched) {
    DealState deal = read_position(hands, level, current, finished, last_seat, last_play, passes, parameters);
    evaluation::Model model = read_model(weights, partner_rises);
    PlayList options;
    deal.legal(options);
    std::vector<PackedPlay> plays;
    for (nb::handle candidate : candidates) {
        PackedPlay wanted = read_play(candidate);
        auto legal = std::find_if(options.begin(), options.end(), [&](const PackedPlay& option) {
            return option.lo == wanted.lo && option.hi == wanted.hi && option.key == wanted.key;
        });
        if (legal == options.end()) throw nb::value_error("a candidate is not legal for the player to act");
        plays.push_back(*legal);
    }
    return search::trick_values(deal, plays, plan_cache(level), model, team_searched);
}

// n fresh deals shuffled and played uniformly at random inside the core: (deals, actions). With
// ``tribute`` each deal follows random places of a previous deal (tribute, 抗贡 and return included).
nb::tuple random_deals(size_t count, uint64_t seed, int level, nb::handle parameters, bool tribute) {
    check_level(level);
    Random random(seed);
    DealRules rules = deal_rules(parameters);
    size_t actions = 0;
    {
        nb::gil_scoped_release release;
        for (size_t i = 0; i < count; ++i) {
            int leader = 0;
            auto hands = shuffled_hands(random, leader);
            if (tribute) {
                std::array<int8_t, 4> places{0, 1, 2, 3};
                for (int j = 3; j > 0; --j) std::swap(places[size_t(j)], places[random.below(uint64_t(j) + 1)]);
                DealState deal = DealState::after(hands, level, places, rules);
                actions += size_t(random_playout(deal, random, nullptr));
            } else {
                DealState deal(hands, level, leader, rules);
                actions += size_t(random_playout(deal, random, nullptr));
            }
        }
    }
    return nb::make_tuple(count, actions);
}

void check_tuple_type(nb::handle type) {
    if (!PyType_Check(type.ptr()) || !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(type.ptr()), &PyTuple_Type))
        throw nb::type_error("register(): plays are tuple subclasses");
}

void register_rank_play(nb::object rank_play_type) {
    check_tuple_type(rank_play_type);
    types.rank_play_type = rank_play_type;
}

void register_planner(nb::object unit_type, nb::object plan_type) {
    check_tuple_type(unit_type);
    check_tuple_type(plan_type);
    types.unit_type = unit_type;
    types.plan_type = plan_type;
}

PyObject* new_tuple_of(nb::handle type_object, Py_ssize_t size) {
    auto* type = reinterpret_cast<PyTypeObject*>(type_object.ptr());
    PyObject* made = type->tp_alloc(type, size);
    if (!made) throw nb::python_error();
    return made;
}

PyObject* rank_or_none(int rank) { return Py_NewRef(rank < 0 ? Py_None : types.ranks[rank].ptr()); }

// A planning.Unit made straight as the tuple subclass it is.
PyObject* python_unit(const planning::PlanUnit& unit) {
    nb::object naturals = nb::steal(PyTuple_New(unit.natural_count));
    if (!naturals.is_valid()) throw nb::python_error();
    for (int i = 0; i < unit.natural_count; ++i)
        PyTuple_SET_ITEM(naturals.ptr(), i, PyLong_FromLong(unit.naturals[size_t(i)]));
    nb::object size = nb::int_(unit.size), wilds = nb::int_(unit.wilds), cost = nb::float_(unit.cost);
    PyObject* made = new_tuple_of(types.unit_type, 9);
    PyTuple_SET_ITEM(made, 0, Py_NewRef(types.kinds[unit.kind].ptr()));
    PyTuple_SET_ITEM(made, 1, rank_or_none(unit.rank));
    PyTuple_SET_ITEM(made, 2, size.release().ptr());
    PyTuple_SET_ITEM(made, 3, key_object(uint32_t(unit.key)));
    PyTuple_SET_ITEM(made, 4, cost.release().ptr());
    PyTuple_SET_ITEM(made, 5, naturals.release().ptr());
    PyTuple_SET_ITEM(made, 6, wilds.release().ptr());
    PyTuple_SET_ITEM(made, 7, Py_NewRef(unit.suit < 0 ? Py_None : types.suits[unit.suit].ptr()));
    PyTuple_SET_ITEM(made, 8, rank_or_none(unit.pair_rank));
    return made;
}

// The planning.Plan of a hand given as card indices (planning.Planner's cache key) at a level.
nb::object plan_hand_of(nb::handle indices, int level) {
    check_level(level);
    registered();
    if (!types.plan_type.is_valid()) throw std::runtime_error("cardroom._core: register_planner() has not been called");
    std::array<uint8_t, CARD_COUNT> counts{};
    for (nb::handle item : indices) {
        long index = PyLong_AsLong(item.ptr());
        if (index == -1 && PyErr_Occurred()) throw nb::python_error();
        if (index < 0 || index >= CARD_COUNT)
            throw nb::value_error(("no card has the index " + std::to_string(index)).c_str());
        if (++counts[size_t(index)] > 2)
            throw nb::value_error((card_name(int(index)) + " is held 3 times: the two decks hold each card twice").c_str());
    }
    planning::HandPlan plan;
    {
        nb::gil_scoped_release release;
        plan = planning::plan_hand(counts, level, PY_VERSION_HEX >= 0x030C0000);
    }
    nb::object units = nb::steal(PyTuple_New(Py_ssize_t(plan.units.size())));
    if (!units.is_valid()) throw nb::python_error();
    for (size_t i = 0; i < plan.units.size(); ++i) PyTuple_SET_ITEM(units.ptr(), Py_ssize_t(i), python_unit(plan.units[i]));
    nb::object cost = nb::float_(plan.cost);
    PyObject* made = new_tuple_of(types.plan_type, 2);
    PyTuple_SET_ITEM(made, 0, units.release().ptr());
    PyTuple_SET_ITEM(made, 1, cost.release().ptr());
    return nb::steal(made);
}

void register_types(nb::sequence cards, nb::sequence ranks, nb::sequence kinds, nb::sequence suits,
                    nb::object play_type, nb::object pass_play) {
    if (nb::len(cards) != CARD_COUNT || nb::len(ranks) != 17 || nb::len(kinds) != KIND_COUNT || nb::len(suits) != 4)
        throw nb::value_error("register(): 54 cards, 17 ranks, 14 kinds and 4 suits");
    for (int i = 0; i < CARD_COUNT; ++i) types.cards[i] = nb::borrow(cards[i]);
    for (int i = 0; i < 17; ++i) types.ranks[i] = nb::borrow(ranks[i]);
    for (int i = 0; i < KIND_COUNT; ++i) types.kinds[i] = nb::borrow(kinds[i]);
    for (int i = 0; i < 4; ++i) types.suits[i] = nb::borrow(suits[i]);
    check_tuple_type(play_type);
    types.play_type = play_type;
    types.pass_play = pass_play;
    for (int i = 0; i < 4096; ++i) types.keys[i] = nb::int_(i);
    types.index_name = nb::str("index");
    types.ready = true;
}

}  // namespace

NB_MODULE(_core, m) {
    m.doc() = "cardroom's compiled rules core (C++20); cardroom.guandan.native is its Python face.";
    m.attr("PLAY_BYTES") = sizeof(PackedPlay);
    m.attr("DEAL_BYTES") = sizeof(DealState);
    m.def("register", &register_types, "Register the Python values that plays are made of.");
    m.def("register_rank_play", &register_rank_play, "Register the RankPlay type.");
    m.def("register_planner", &register_planner, nb::arg("unit_type"), nb::arg("plan_type"),
          "Register cardroom.bots.planning's Unit and Plan types.");
    m.def("plan_hand", &plan_hand_of, nb::arg("indices"), nb::arg("level"),
          "The bots' plan (cardroom.bots.planning.Plan) of a hand given as card indices, at a level.");

    nb::class_<PlaySet>(m, "PlaySet", "A packed, lazy list of card-level plays (8 bytes a play, or 24).")
        .def("__len__", &PlaySet::size)
        .def("__getitem__", &PlaySet::get, "The play at an index, made on access.")
        .def("to_list", &PlaySet::to_list, "Every play as a Play value.")
        .def("actions", &PlaySet::actions, nb::arg("seat"), nb::arg("action_type"),
             "Every play as an action of the seat (a tuple of action_type(seat, play)).")
        .def("of_kind", &PlaySet::of_kind, "The plays of one kind (a PlayKind value).")
        .def("match_entries", &PlaySet::match_entries, nb::arg("entries"), nb::arg("heads"), nb::arg("card_indices"),
             "Each [type, rank, cards] entry's index in this set (same kind, key rank and cards), or -1.")
        .def("index", &PlaySet::index_of, nb::arg("play").none(), "The index of a play (kind, key rank, cards and readings).")
        .def("kinds", [](const PlaySet& s) { return s.column<uint8_t>([](const PackedPlay& p) { return p.kind(); }); })
        .def("ranks", [](const PlaySet& s) { return s.column<uint8_t>([](const PackedPlay& p) { return p.rank(); }); })
        .def("keys", [](const PlaySet& s) { return s.column<int32_t>([](const PackedPlay& p) { return p.key; }); })
        .def("sizes", [](const PlaySet& s) { return s.column<uint8_t>([](const PackedPlay& p) { return p.size(); }); })
        .def("wild_counts", [](const PlaySet& s) { return s.column<uint8_t>([](const PackedPlay& p) { return p.wild_count(); }); })
        .def("card_counts", &PlaySet::card_counts, "An (n, 54) matrix of each play's count of every card.")
        .def_prop_ro("nbytes", [](const PlaySet& s) { return s.plays.nbytes(); })
        .def_prop_ro("compact", [](const PlaySet& s) { return s.plays.compact(); }, "Whether plays take 8 bytes (else 24).");

    m.def("card_leads", &card_leads_of, nb::arg("hand"), nb::arg("level"), nb::arg("rules"));
    m.def("card_follows", &card_follows_of, nb::arg("hand"), nb::arg("level"), nb::arg("rules"), nb::arg("kind"),
          nb::arg("size"), nb::arg("key"), nb::arg("with_pass") = false);
    m.def("plays_of_kind", &plays_of_kind_of, nb::arg("hand"), nb::arg("level"), nb::arg("rules"), nb::arg("kind"),
          nb::arg("above"), nb::arg("size"));
    m.def("rank_leads", &rank_leads_of, nb::arg("hand"), nb::arg("level"), nb::arg("rules"));
    m.def("rank_lead_count", &rank_lead_count, nb::arg("hand"), nb::arg("level"), nb::arg("rules"));
    m.def("rank_follows", &rank_follows_of, nb::arg("hand"), nb::arg("level"), nb::arg("rules"), nb::arg("kind"),
          nb::arg("size"), nb::arg("key"));
    m.def("heuristic_play", &heuristic_play_of, nb::arg("hand"), nb::arg("counts"), nb::arg("unseen"), nb::arg("seat"),
          nb::arg("previous").none(), nb::arg("previous_seat"), nb::arg("level"), nb::arg("rules"),
          nb::arg("thresholds").none() = nb::none(),
          "cardroom.bots.HeuristicBot's play for the seat to play (a Play; PASS to pass).");
    m.def("heuristic_unseen", &heuristic_unseen, nb::arg("hand"), nb::arg("history"), nb::arg("level"),
          nb::arg("play_kind"), "cardroom.bots.heuristic.unseen_counts: the unseen cards by rank (index 0 the wild cards).");
    m.def("random_playout", &random_playout_from, nb::arg("hands"), nb::arg("level"), nb::arg("current"),
          nb::arg("finished"), nb::arg("last_seat"), nb::arg("last_play").none(), nb::arg("passes"), nb::arg("seed"),
          nb::arg("rules"), nb::arg("trick_only"));
    bind_learning(m);
    bind_vector_env(m);
    m.def("position_value", &position_value_of, nb::arg("hands"), nb::arg("level"), nb::arg("current"),
          nb::arg("finished"), nb::arg("last_seat"), nb::arg("last_play").none(), nb::arg("passes"), nb::arg("parameters"),
          nb::arg("seat"), nb::arg("weights"), nb::arg("partner_rises"),
          "The bots' evaluation (cardroom.bots.evaluation.position_value) of a position for a seat's team.");
    m.def("trick_values", &trick_values_of, nb::arg("hands"), nb::arg("level"), nb::arg("current"),
          nb::arg("finished"), nb::arg("last_seat"), nb::arg("last_play").none(), nb::arg("passes"),
          nb::arg("parameters"), nb::arg("candidates"), nb::arg("weights"), nb::arg("partner_rises"),
          nb::arg("team_searched") = false,
          "Each candidate played, the trick played out by the heuristic, the position valued for the player's team.");
    m.def("random_deals", &random_deals, nb::arg("count"), nb::arg("seed"), nb::arg("level"), nb::arg("rules"),
          nb::arg("tribute") = false);

    nb::class_<DealMachine>(m, "Deal", "A deal inside the core, from tribute (or the first lead) to its places.")
        .def(nb::init<nb::handle, int, nb::handle, int, nb::handle>(), nb::arg("hands"), nb::arg("level"), nb::arg("rules"),
             nb::arg("leader") = -1, nb::arg("previous_places").none() = nb::none())
        .def_prop_ro("phase", [](const DealMachine& d) { return int(d.state.phase); }, "0 tribute, 1 return, 2 play, 3 over.")
        .def_prop_ro("current_player", [](const DealMachine& d) { return int(d.state.current); }, "-1 once over.")
        .def_prop_ro("leader", [](const DealMachine& d) { return int(d.state.leader); }, "Who led the first trick (-1 before).")
        .def_prop_ro("places", [](const DealMachine& d) { return seats_list(d.state.places.data(), d.state.over() ? 4 : 0); })
        .def_prop_ro("finished", [](const DealMachine& d) { return seats_list(d.state.finished.data(), d.state.finished_count); })
        .def_prop_ro("payers", [](const DealMachine& d) { return seats_list(d.state.payers.data(), d.state.payer_count); })
        .def_prop_ro("anti_tribute", [](const DealMachine& d) { return d.state.anti_tribute; })
        .def_prop_ro("exempt", [](const DealMachine& d) {
            nb::list seats;
            for (int seat = 0; seat < 4; ++seat)
                if (d.state.exempt[size_t(seat)]) seats.append(seat);
            return seats;
        })
        .def_prop_ro("receiver_of", &DealMachine::receiver_of, "Whom each payer's tribute went to.")
        .def("hand", &DealMachine::hand, nb::arg("seat"), "A seat's cards in print order.")
        .def("legal_plays", &DealMachine::legal_plays, "The plays of the player to act (PASS first when following).")
        .def("legal_cards", &DealMachine::legal_cards, "The cards the player to act may give (tribute or return).")
        .def("play", &DealMachine::play, nb::arg("play"), "Apply a legal play of the player to act.")
        .def("play_index", &DealMachine::play_index, nb::arg("index"), "Apply the play at that index of legal_plays().")
        .def("give", &DealMachine::give, nb::arg("card"), "Give a legal tribute or return card.")
        .def("heuristic_seen", &DealMachine::heuristic_seen,
             "The heuristic's view of the player to act: (hand, counts, unseen, seat, previous, previous_seat, level).")
        .def("heuristic_play", &DealMachine::heuristic_play, "The heuristic's play for the player to act.")
        .def("playout", &DealMachine::playout, nb::arg("seed"),
             "Play the deal out uniformly at random: [(phase, seat, card or Play)].");
}
