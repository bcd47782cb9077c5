// What the binding's files share (native/src/module.cpp defines it): the registered Python values and
// the readers of Python input into the core's types, which raise Python exceptions on bad input.
#pragma once
#include <nanobind/nanobind.h>

#include <string>

#include "action_table.hpp"
#include "deal.hpp"
#include "encoding.hpp"
#include "hand.hpp"
#include "plays.hpp"

namespace cardroom::binding {

namespace nb = nanobind;

struct Types;
// The values cardroom.guandan.native registered; raises if register() has not been called.
const Types& registered();

std::string card_name(int index);
int check_level(int level);
int card_index_of(nb::handle card);
Hand read_hand(nb::handle cards);
// A Play value (a new reference), made straight as the tuple subclass it is.
PyObject* python_play(const PackedPlay& play, int level);
PlayRules play_rules(nb::handle parameters);
// The deal parameters of a RuleSet (cardroom.guandan.native.deal_parameters).
DealRules deal_rules(nb::handle parameters);

// cardroom.rl's registrations and calls: the action table, the observation vector, the action features.
void bind_learning(nb::module_& m);
// What cardroom.rl registered: the action table and the observation vector's layout (raise if not yet).
const ActionTable& registered_action_table();
const Layout& registered_layout();

// cardroom.rl.vector's batched tables (native/src/vector_binding.cpp).
void bind_vector_env(nb::module_& m);

}  // namespace cardroom::binding
