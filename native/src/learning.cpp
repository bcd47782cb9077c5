// cardroom._core's bindings for the research interfaces (cardroom.rl): the action table's mask and
// concrete cards, the observation vector and the candidate actions' features, each layout registered
// from Python at import.
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "action_table.hpp"
#include "binding.hpp"
#include "card_plays.hpp"
#include "encoding.hpp"

namespace cardroom::binding {

namespace {

ActionTable& action_table = *new ActionTable;

// cardroom.rl.actions registers its table: ``size`` entries, passing at ``pass_index``, and each play
// entry as (index, kind, key rank, cards, wild cards, suit or -1, pair's rank or -1).
void register_action_table(size_t size, int pass_index, nb::sequence plays) {
    ActionTable table;
    table.entries.resize(size);
    table.pass_index = pass_index;
    if (pass_index < 0 || size_t(pass_index) >= size) throw nb::value_error("the pass index is outside the table");
    for (nb::handle item : plays) {
        nb::tuple fields = nb::borrow<nb::tuple>(item);
        if (nb::len(fields) != 7) throw nb::value_error("an action-table entry: (index, kind, rank, size, wilds, suit, pair)");
        auto at = [&](size_t i) { return nb::cast<int>(fields[i]); };
        int index = at(0), kind = at(1), rank = at(2), cards = at(3), wilds = at(4), suit = at(5), pair = at(6);
        if (index < 0 || size_t(index) >= size || index == pass_index) throw nb::value_error("an action-table index is outside the table");
        if (kind < SINGLE || kind > FOUR_JOKERS || rank < 2 || rank > 16 || cards < 1 || cards > 10 || wilds < 0 ||
            wilds > 2 || suit < -1 || suit > 3 || pair < -1 || pair > 16)
            throw nb::value_error("an action-table entry out of range");
        table.entries[size_t(index)] = {int8_t(kind), int8_t(rank), int8_t(cards), int8_t(wilds), int8_t(suit), int8_t(pair)};
    }
    table.prepare();
    action_table = std::move(table);
}

// The legal mask over the registered table: the leads, or (``kind`` > 0) passing and what beats the
// play of that kind, size and key; an int8 array.
nb::ndarray<nb::numpy, int8_t, nb::ndim<1>> action_mask(nb::handle hand, int level, nb::handle parameters, int kind,
                                                         int size, int key) {
    if (action_table.entries.empty()) throw std::runtime_error("cardroom._core: register_action_table() has not been called");
    PlayRules rules = play_rules(parameters);
    if (rules.extended()) throw nb::value_error("the action table covers the competition's play parameters only");
    if (kind && !known_kind(kind, rules)) throw nb::value_error("the play to beat is of a kind these rules lack");
    Hand held = read_hand(hand);
    check_level(level);
    size_t count = action_table.entries.size();
    auto* data = new int8_t[count]();
    nb::capsule owner(data, [](void* p) noexcept { delete[] static_cast<int8_t*>(p); });
    action_table.mask(held, level, rules, kind, size, key, reinterpret_cast<uint8_t*>(data));
    return nb::ndarray<nb::numpy, int8_t, nb::ndim<1>>(data, {count}, owner);
}

// The card-level play of a registered play entry from this hand (cardroom.rl.actions.concrete_play),
// or None when the hand cannot make it.
nb::object table_play(size_t index, nb::handle hand, int level, nb::handle parameters) {
    if (index >= action_table.entries.size() || action_table.entries[index].kind < 0)
        throw nb::value_error("not a play entry of the registered action table");
    PlayRules rules = play_rules(parameters);
    if (rules.extended()) throw nb::value_error("the action table covers the competition's play parameters only");
    PackedPlay play;
    if (!concrete_play(action_table.entries[index], read_hand(hand), check_level(level), rules, play)) return nb::none();
    return nb::steal(python_play(play, level));
}

// What cardroom.rl.encoding registers: the vector's layout, and the Python values an observation is
// read by (the log's kinds that count, the phases with an entry of their own).
struct EncodingTypes {
    bool ready = false;
    Layout layout;
    PyObject *play = nullptr, *pass = nullptr, *trick = nullptr, *tribute = nullptr, *returned = nullptr;
    std::array<PyObject*, 3> phases{};
    nb::object keep;  // holds the registered values alive
    nb::str seat{"seat"}, hand{"hand"}, level{"level"}, levels{"levels"}, level_team{"level_team"}, phase{"phase"},
        current_player{"current_player"}, card_counts{"card_counts"}, finished{"finished"}, previous{"previous"},
        previous_seat{"previous_seat"}, history{"history"}, kind{"kind"}, play_name{"play"}, card{"card"}, to{"to"};
};
EncodingTypes* encoding_types = nullptr;

void register_encoding(nb::sequence starts, int size, int max_count, int history_depth, nb::sequence event_kinds,
                       nb::sequence phases) {
    static constexpr std::array<const char*, PART_COUNT> names = {
        "hand", "hand_wilds", "unseen", "played", "known", "card_counts", "places", "own_level", "other_level",
        "level_rank", "level_team", "phase", "to_act", "trick_leader", "to_beat_seat", "to_beat_cards", "to_beat_kind",
        "to_beat_rank", "recent"};
    if (nb::len(starts) != PART_COUNT) throw nb::value_error("register_encoding(): the 19 parts as (name, start)");
    if (nb::len(event_kinds) != 5 || nb::len(phases) != 3) throw nb::value_error("register_encoding(): 5 event kinds, 3 phases");
    if (history_depth < 0 || history_depth > 2 || max_count < 1) throw nb::value_error("register_encoding(): history depth 0-2");
    auto* types = new EncodingTypes;
    for (size_t i = 0; i < PART_COUNT; ++i) {
        nb::tuple part = nb::borrow<nb::tuple>(starts[i]);
        if (nb::len(part) != 2 || nb::cast<std::string>(part[0]) != names[i])
            throw nb::value_error(("register_encoding(): part " + std::to_string(i) + " must be " + names[i]).c_str());
        types->layout.start[i] = nb::cast<int>(part[1]);
        if (types->layout.start[i] < 0 || types->layout.start[i] >= size) throw nb::value_error("a part starts outside the vector");
    }
    types->layout.size = size;
    types->layout.max_count = max_count;
    types->layout.history_depth = history_depth;
    types->keep = nb::make_tuple(event_kinds, phases);
    types->play = event_kinds[0].ptr(), types->pass = event_kinds[1].ptr(), types->trick = event_kinds[2].ptr();
    types->tribute = event_kinds[3].ptr(), types->returned = event_kinds[4].ptr();
    for (size_t i = 0; i < 3; ++i) types->phases[i] = phases[i].ptr();
    encoding_types = types;  // the previous registration, if any, is kept: views may still point into it
}

nb::object attribute(nb::handle object, const nb::str& name) {
    PyObject* value = PyObject_GetAttr(object.ptr(), name.ptr());
    if (!value) throw nb::python_error();
    return nb::steal(value);
}

int seat_or_none(nb::handle value) { return value.is_none() ? -1 : nb::cast<int>(value); }

Cards cards_of(nb::handle cards) {
    Cards result = 0;
    for (nb::handle card : cards) result += one_card(card_index_of(card));
    return result;
}

// A Play's kind, key rank and cards (a tuple subclass: kind, rank, cards, ...).
void read_kind_rank_cards(nb::handle play, int& kind, int& rank, Cards& cards) {
    PyObject* fields = play.ptr();
    if (!PyTuple_Check(fields) || PyTuple_GET_SIZE(fields) < 3) throw nb::type_error("expected a Play");
    kind = int(PyLong_AsLong(PyTuple_GET_ITEM(fields, 0)));
    PyObject* rank_object = PyTuple_GET_ITEM(fields, 1);
    rank = rank_object == Py_None ? 0 : int(PyLong_AsLong(rank_object));
    if (PyErr_Occurred()) throw nb::python_error();
    cards = cards_of(PyTuple_GET_ITEM(fields, 2));
}

// The observation vector (cardroom.rl.encoding.encode_observation) of an Observation.
nb::ndarray<nb::numpy, float, nb::ndim<1>> encode_observation(nb::handle observation) {
    if (!encoding_types) throw std::runtime_error("cardroom._core: register_encoding() has not been called");
    registered();
    const EncodingTypes& names = *encoding_types;
    SeatView view;
    view.seat = nb::cast<int>(attribute(observation, names.seat));
    if (view.seat < 0 || view.seat > 3) throw nb::value_error("a seat is 0-3");
    for (nb::handle card : attribute(observation, names.hand)) {
        int index = card_index_of(card);
        if (++view.hand[size_t(index)] > 2) throw nb::value_error((card_name(index) + " is held more than twice").c_str());
    }
    view.level = check_level(nb::cast<int>(attribute(observation, names.level)));
    nb::sequence levels = nb::borrow<nb::sequence>(attribute(observation, names.levels));
    for (size_t team = 0; team < 2; ++team) view.levels[team] = check_level(nb::cast<int>(levels[team]));
    view.level_team = seat_or_none(attribute(observation, names.level_team));
    nb::object phase = attribute(observation, names.phase);
    for (int i = 0; i < 3; ++i)
        if (phase.ptr() == names.phases[size_t(i)]) view.phase = i;
    view.current = seat_or_none(attribute(observation, names.current_player));
    nb::sequence counts = nb::borrow<nb::sequence>(attribute(observation, names.card_counts));
    if (nb::len(counts) != 4) throw nb::value_error("four card counts");
    for (size_t seat = 0; seat < 4; ++seat) view.card_counts[seat] = std::max(0, nb::cast<int>(counts[seat]));
    int place = 0;
    for (nb::handle seat : attribute(observation, names.finished)) {
        int out = nb::cast<int>(seat);
        if (out < 0 || out > 3) throw nb::value_error("finished: seats 0-3");
        if (!view.place[size_t(out)]) view.place[size_t(out)] = place + 1;
        ++place;
    }
    nb::object previous = attribute(observation, names.previous);
    view.previous_seat = seat_or_none(attribute(observation, names.previous_seat));
    if (!previous.is_none()) {
        int kind = 0, rank = 0;
        read_kind_rank_cards(previous, kind, rank, view.previous_cards);
        if (rank) {
            if (kind < SINGLE || kind > FOUR_JOKERS) throw nb::value_error("the play to beat is not of a competition kind");
            view.previous_kind = kind, view.previous_rank = rank;
        }
    }
    nb::object history = attribute(observation, names.history);
    view.history.reserve(size_t(nb::len(history)));
    for (nb::handle event : history) {
        nb::object kind = attribute(event, names.kind);
        LogEntry entry;
        if (kind.ptr() == names.play) {
            nb::object play = attribute(event, names.play_name);
            entry.seat = int8_t(seat_or_none(attribute(event, names.seat)));
            if (play.is_none() || entry.seat < 0) continue;
            int play_kind = 0, rank = 0;
            read_kind_rank_cards(play, play_kind, rank, entry.cards);
            entry.kind = LogKind::PLAY;
        } else if (kind.ptr() == names.pass) {
            entry.seat = int8_t(seat_or_none(attribute(event, names.seat)));
            if (entry.seat < 0) continue;
            entry.kind = LogKind::PASS;
        } else if (kind.ptr() == names.trick) {
            entry.kind = LogKind::TRICK;
        } else if (kind.ptr() == names.tribute || kind.ptr() == names.returned) {
            nb::object card = attribute(event, names.card), to = attribute(event, names.to);
            if (card.is_none() || to.is_none()) continue;
            entry.kind = LogKind::GIVE;
            entry.seat = int8_t(seat_or_none(attribute(event, names.seat)));
            entry.card = int8_t(card_index_of(card));
            entry.to = int8_t(nb::cast<int>(to));
        } else {
            continue;
        }
        if (entry.seat > 3 || entry.to > 3) throw nb::value_error("an event names a seat outside 0-3");
        view.history.push_back(entry);
    }
    size_t size = size_t(names.layout.size);
    auto* data = new float[size]();
    nb::capsule owner(data, [](void* p) noexcept { delete[] static_cast<float*>(p); });
    encode(view, names.layout, data);
    return nb::ndarray<nb::numpy, float, nb::ndim<1>>(data, {size}, owner);
}

// What cardroom.rl.encoding registers for the candidate actions' features: their layout, and the
// action classes (tribute, return, play).
struct FeatureTypes {
    FeatureLayout layout;
    PyObject *tribute = nullptr, *returned = nullptr, *play = nullptr;
    nb::object keep;
    nb::str legal_actions{"legal_actions"}, level{"level"}, hand{"hand"}, play_name{"play"}, card{"card"};
};
FeatureTypes* feature_types = nullptr;

void register_features(nb::sequence parts, int size, int max_play_size, int tribute_type, int return_type,
                       nb::sequence action_types) {
    static constexpr std::array<const char*, FEATURE_PART_COUNT> names = {"cards", "type", "rank", "wilds", "size",
                                                                          "goes_out", "bomb"};
    if (nb::len(parts) != FEATURE_PART_COUNT || nb::len(action_types) != 3)
        throw nb::value_error("register_features(): the 7 parts as (name, start), and 3 action types");
    auto* types = new FeatureTypes;
    for (size_t i = 0; i < FEATURE_PART_COUNT; ++i) {
        nb::tuple part = nb::borrow<nb::tuple>(parts[i]);
        if (nb::len(part) != 2 || nb::cast<std::string>(part[0]) != names[i])
            throw nb::value_error(("register_features(): part " + std::to_string(i) + " must be " + names[i]).c_str());
        types->layout.start[i] = nb::cast<int>(part[1]);
        if (types->layout.start[i] < 0 || types->layout.start[i] >= size) throw nb::value_error("a part starts outside the row");
    }
    types->layout.size = size;
    types->layout.max_play_size = max_play_size;
    types->layout.tribute_type = tribute_type;
    types->layout.return_type = return_type;
    types->keep = nb::borrow(action_types);
    types->tribute = action_types[0].ptr(), types->returned = action_types[1].ptr(), types->play = action_types[2].ptr();
    feature_types = types;
}

// The feature rows (cardroom.rl.encoding.legal_action_features) of an Observation's legal actions.
nb::ndarray<nb::numpy, float, nb::ndim<2>> action_features(nb::handle observation) {
    if (!feature_types) throw std::runtime_error("cardroom._core: register_features() has not been called");
    registered();
    const FeatureTypes& names = *feature_types;
    int level = check_level(nb::cast<int>(attribute(observation, names.level)));
    int hand_size = int(nb::len(attribute(observation, names.hand)));
    nb::object actions = attribute(observation, names.legal_actions);
    std::vector<CandidateAction> candidates;
    candidates.reserve(size_t(nb::len(actions)));
    for (nb::handle action : actions) {
        PyObject* type = reinterpret_cast<PyObject*>(Py_TYPE(action.ptr()));
        CandidateAction candidate;
        if (type == names.play) {
            read_kind_rank_cards(attribute(action, names.play_name), candidate.kind, candidate.rank, candidate.cards);
            if (candidate.rank && (candidate.kind < SINGLE || candidate.kind > FOUR_JOKERS))
                throw nb::value_error("a legal play is not of a competition kind");
        } else if (type == names.tribute || type == names.returned) {
            candidate.move = type == names.tribute ? CandidateAction::TRIBUTE : CandidateAction::RETURN;
            candidate.card = card_index_of(attribute(action, names.card));
        } else {
            throw nb::type_error(("not a Guandan action: " + std::string(Py_TYPE(action.ptr())->tp_name)).c_str());
        }
        candidates.push_back(candidate);
    }
    size_t width = size_t(names.layout.size);
    auto* data = new float[candidates.size() * width]();
    nb::capsule owner(data, [](void* p) noexcept { delete[] static_cast<float*>(p); });
    for (size_t row = 0; row < candidates.size(); ++row)
        encode_action(candidates[row], names.layout, level, hand_size, data + row * width);
    return nb::ndarray<nb::numpy, float, nb::ndim<2>>(data, {candidates.size(), width}, owner);
}

}  // namespace

const ActionTable& registered_action_table() {
    if (action_table.entries.empty()) throw std::runtime_error("cardroom._core: register_action_table() has not been called");
    return action_table;
}

const Layout& registered_layout() {
    if (!encoding_types) throw std::runtime_error("cardroom._core: register_encoding() has not been called");
    return encoding_types->layout;
}

void bind_learning(nb::module_& m) {
    m.def("register_action_table", &register_action_table, nb::arg("size"), nb::arg("pass_index"), nb::arg("plays"),
          "Register cardroom.rl.actions' table: its play entries.");
    m.def("action_mask", &action_mask, nb::arg("hand"), nb::arg("level"), nb::arg("rules"), nb::arg("kind") = 0,
          nb::arg("size") = 0, nb::arg("key") = 0);
    m.def("table_play", &table_play, nb::arg("index"), nb::arg("hand"), nb::arg("level"), nb::arg("rules"));
    m.def("register_encoding", &register_encoding, nb::arg("starts"), nb::arg("size"), nb::arg("max_count"),
          nb::arg("history_depth"), nb::arg("event_kinds"), nb::arg("phases"),
          "Register cardroom.rl.encoding's layout and the values observations are read by.");
    m.def("encode_observation", &encode_observation, nb::arg("observation"));
    m.def("register_features", &register_features, nb::arg("parts"), nb::arg("size"), nb::arg("max_play_size"),
          nb::arg("tribute_type"), nb::arg("return_type"), nb::arg("action_types"),
          "Register cardroom.rl.encoding's action-feature layout and the action classes.");
    m.def("action_features", &action_features, nb::arg("observation"));
}

}  // namespace cardroom::binding
