#pragma once
// The built-in algebraic systems F(x, p) = 0 that a `saltus continue` run
// file names with "model", each registered once: its name, one line of
// documentation, and its size option where it has one ("model_options.n").
// The run-file reader (studies/run_file.cpp) and its error messages take
// them from here; adding a model is its file plus one entry in
// algebraic_models.cpp. (The hybrid models have their own registry,
// models/registry.h.)

#include <climits>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "continuation/system.h"

namespace saltus::models {

struct AlgebraicModel {
  std::string name;
  std::string description;  // one line
  // The model's size ("model_options.n"), when it has one: its default and range.
  bool sized = false;
  int default_size = 0, min_size = 0, max_size = INT_MAX;
  // The system (of the given size when sized).
  std::function<std::shared_ptr<const System>(int size)> make;
};

const std::vector<AlgebraicModel>& algebraic_models();
// nullptr when `name` is not registered.
const AlgebraicModel* find_algebraic_model(const std::string& name);
// "bratu, brusselator_1d, cusp, pitchfork"
std::string algebraic_model_names();

}  // namespace saltus::models
