#pragma once
// Run files for hybrid systems (`saltus simulate`, `saltus lyapunov`,
// `saltus sweep`): a built-in model with its parameters, the initial mode and
// state, the time span, a Poincare section, the simulation, Lyapunov and
// sweep options. The keys are in kHybridRunFileHelp.

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "continuation/flow/lyapunov.h"
#include "continuation/options.h"
#include "drivers/json_input.h"

namespace saltus::drivers {

// The model with one parameter changed (for sweeps); throws RunFileError
// when the value is invalid (say, a restitution above 1).
using ModelFactory = std::function<std::shared_ptr<const flow::HybridSystem>(const std::string& parameter, double value)>;

struct SectionSpec {
  std::string variable;  // a state component
  double value = 0.0;
  bool angle = false;    // crossings of value modulo 2 pi (by sin(x - value) rising)
};

struct SweepSpec {
  std::string parameter;
  double from = 0.0, to = 1.0;
  int steps = 100;
  double transient = 100.0;  // time integrated at each value before recording
  double record = 100.0;     // time over which section hits are recorded
  int threads = 0;           // 0: all cores; the range is split into this many quasi-static chunks
  std::string plot;          // the state component drawn against the parameter
};

// Periodic orbits by shooting (`saltus periodic`): the orbit is cut at t0 in
// the run's mode, the period is fixed (non-autonomous forcing), the run's
// "initial" state is the guess; with `parameter`, the orbit is continued in it.
struct PeriodicSpec {
  double t0 = 0.0;
  double period = 0.0;  // 0: the model's forcing period
  std::string parameter;  // continuation parameter (empty: only the orbit)
  ContinuationOptions options;
};

struct HybridRun {
  std::filesystem::path path;
  std::string name;
  std::string description;
  std::string model;
  std::shared_ptr<const flow::HybridSystem> system;
  ModelFactory with_parameter;
  std::vector<std::string> parameter_names;
  int mode = 0;
  Vector initial;
  double t0 = 0.0, t1 = 1.0;
  double transient = 0.0;  // simulate: integrated from t0 first, not recorded
  flow::SimulationOptions simulation;
  flow::LyapunovOptions lyapunov;
  std::optional<SectionSpec> section;
  std::optional<SweepSpec> sweep;
  std::optional<PeriodicSpec> periodic;
  // The model with its continuation parameter carried in the state (last
  // component, constant), for shooting; null when the model has none.
  std::function<std::shared_ptr<const flow::HybridSystem>()> with_parameter_in_state;
  Vector parameter_in_state_value;  // its value (size 1)
  double forcing_period = 0.0;  // of a forced model (0: autonomous)
  std::string plot_x, plot_y;  // the phase portrait's axes (state names)
  std::vector<bool> angles;    // per state component: an angle, drawn modulo 2 pi

  std::vector<flow::Section> sections() const;  // the section as the simulator takes it
};

HybridRun read_hybrid_run(const std::filesystem::path& path);

extern const char* const kHybridRunFileHelp;

}  // namespace saltus::drivers
