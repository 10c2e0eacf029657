#pragma once
// The built-in hybrid models, each registered once: name, one line of
// documentation, its modes and angles, how a run starts and what shooting
// needs. Parameters (names, defaults, documentation) come from the model
// itself (continuation/flow/parameters.h). The run-file reader, the --help
// text and the error messages are generated from this table; adding a model
// is its file plus one entry in registry.cpp.

#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "continuation/flow/hybrid_system.h"

namespace saltus::models {

struct HybridModel {
  std::string name;
  std::string description;  // one line
  int mode_count = 1;       // modes 0 .. mode_count - 1, named by the system
  std::vector<int> angles;  // state components that are angles (wrapped for shooting, drawn modulo 2 pi)
  // The parameter shooting carries when the orbit is not continued (it
  // needs one parameter column); empty: the model has no periodic orbits.
  std::string shooting_parameter;
  // The system with its default parameters.
  std::function<std::shared_ptr<const flow::HybridSystem>()> make;
  // The forcing period, an expression of the parameters ("2*pi/omega");
  // empty: autonomous.
  std::string forcing_period;
  // The system is a Filippov flow (models/filippov_hybrid.h: modes F+, F-,
  // sliding, escaping, two-fold in that order), whose branches of orbits
  // have sliding bifurcations (analyses/sliding/sliding_bifurcation.h).
  bool filippov = false;
  // The start mode from the state (at the start time t: a forced system's
  // side of its switching surface depends on it) when the run gives none;
  // empty: mode 0.
  std::function<int(const flow::HybridSystem&, double t, const Vector& x)> initial_mode;
  // Checks a start beyond the guards' sides (flow::check_start): throws
  // std::invalid_argument naming the value. May be empty.
  std::function<void(const flow::HybridSystem&, int mode, double t, const Vector& x)> check_start;
  // Further top-level run-file keys that set parameters (the pendulum's
  // physical "links"): the parameters they give; throws std::invalid_argument
  // naming the key.
  std::vector<std::string> extra_keys;
  std::function<std::map<std::string, double>(const nlohmann::ordered_json& run)> parameters_from_keys;
  std::string extra_keys_help;
};

const std::vector<HybridModel>& hybrid_models();
// nullptr when `name` is not registered.
const HybridModel* find_hybrid_model(const std::string& name);
// "bouncing_ball, triple_pendulum, ..."
std::string hybrid_model_names();
// Per model: its line, state, modes and parameters with defaults and
// documentation, for --help.
std::string hybrid_models_help();

// The registry's entry for a run file's own system (models/hybrid_expression.h):
// its modes, "angles" (state names), "forcing_period" (an expression of the
// parameters) and the first parameter for shooting. Throws
// std::invalid_argument naming the key.
HybridModel expression_hybrid_model(const nlohmann::ordered_json& run);

}  // namespace saltus::models
