#pragma once
// Run files for hybrid systems (`saltus simulate`, `saltus lyapunov`): a
// built-in model with its parameters, the initial mode and state, the time
// span, and the simulation and Lyapunov options. The keys are in
// kHybridRunFileHelp.

#include <filesystem>
#include <memory>
#include <string>

#include "continuation/flow/lyapunov.h"
#include "drivers/json_input.h"

namespace saltus::drivers {

struct HybridRun {
  std::filesystem::path path;
  std::string name;
  std::string description;
  std::shared_ptr<const flow::HybridSystem> system;
  int mode = 0;
  Vector initial;
  double t0 = 0.0, t1 = 1.0;
  flow::SimulationOptions simulation;
  flow::LyapunovOptions lyapunov;
  std::string plot_x, plot_y;  // the phase portrait's axes (state names)
};

HybridRun read_hybrid_run(const std::filesystem::path& path);

extern const char* const kHybridRunFileHelp;

}  // namespace saltus::drivers
