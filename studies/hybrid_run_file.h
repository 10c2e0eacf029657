#pragma once
// Run files for hybrid systems (`saltus simulate`, `saltus lyapunov`,
// `saltus sweep`): a built-in model with its parameters, the initial mode and
// state, the time span, a Poincare section, the simulation, Lyapunov and
// sweep options. The keys are in hybrid_run_file_help().

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "continuation/flow/lyapunov.h"
#include "continuation/options.h"
#include "studies/json_input.h"

namespace saltus::studies {

struct SectionSpec {
  std::string variable;  // a state component
  double value = 0.0;
  bool angle = false;  // crossings of value modulo 2 pi (by sin(x - value) rising)
};

// A million values of a parameter are far beyond any diagram (and each keeps
// its section hits in memory until the end).
constexpr int kMaxSweepSteps = 1000000;

struct SweepSpec {
  std::string parameter;
  double from = 0.0, to = 1.0;
  int steps = 100;           // at most kMaxSweepSteps
  double transient = 100.0;  // time integrated at each value before recording
  double record = 100.0;     // time over which section hits are recorded
  int threads = 0;           // 0: all cores; the range is split into this many quasi-static chunks
  std::string plot;          // the state component drawn against the parameter
};

// A curve of special points in two parameters ("periodic.curve"), started
// from the first located point of its kind on the one-parameter branch:
// grazing ("GR", the grazing system of continuation/periodic/grazing_orbit.h),
// fold ("LPC") and period doubling ("PD") of forced orbits (the minimally
// augmented systems of continuation/periodic/cycle_curve.h), each continued
// in the second parameter.
struct CurveSpec {
  std::string kind = "GR";
  std::string first, second;  // first: periodic.parameter
  ContinuationOptions options;
};

// A two-parameter brute-force map (`saltus map`, drivers/map_command.cpp):
// per grid point a transient, then the section's hits over `record`; the
// attractor's period is the number of distinct hits (two hits are one when
// every component differs by at most tolerance (1 + |x|), angles modulo
// 2 pi); more than max_period distinct hits: "chaotic"; a failed simulation:
// "escaped". Read by read_map_spec (drivers/map_spec.cpp).
struct MapAxis {
  std::vector<std::string> parameters;  // one, or several set to the same value ("c1", "c2", "c3")
  double from = 0.0, to = 1.0;
  int steps = 20;
  std::string label() const;  // "q1", "c1=c2=c3"
};

constexpr int kMaxMapPoints = 1000000;  // x.steps * y.steps: each point is a simulation

struct MapSpec {
  MapAxis x, y;              // x varies fastest: point k = j * x.steps + i
  double transient = 100.0;  // time integrated at each point before recording
  double record = 100.0;     // time over which section hits are recorded
  int max_period = 8;        // more distinct hits than this: chaotic
  double tolerance = 1e-4;   // hits within tolerance (1 + |x|) are one
  bool lyapunov = false;     // also the largest Lyapunov exponent (the run's "lyapunov" options)
  bool seed_rows = false;    // "seed": "rows": each point starts from its x-neighbour's end state
  int threads = 0;           // 0: all cores
};

// Periodic orbits by shooting (`saltus periodic`). A forced model: the orbit
// is cut at t0 in the run's mode with the forcing period, the run's "initial"
// state the guess. An autonomous model (no forcing period): the period is an
// unknown with a phase condition, and the guess comes from a simulation: a
// transient, then successive returns to the run's section until one comes
// back to within return_tolerance (1 + |x|) of an earlier one (angles modulo
// 2 pi). With `parameter`, the orbit is continued in it.
struct PeriodicSpec {
  double t0 = 0.0;
  double period = 0.0;                  // 0: the model's forcing period
  bool period_follows_forcing = false;  // T = the forcing period at the continued parameter's value
  bool autonomous = false;              // the model has no forcing period
  std::string parameter;                // continuation parameter (empty: only the orbit)
  double transient = -1.0;              // < 0: use "initial" as the guess (forced models only)
  double record = 200.0;                // time over which section returns are looked for
  int max_returns = 8;                  // the orbit may cross the section up to this many times per period
  double return_tolerance = 1e-3;       // a return within this times (1 + |x|) closes the orbit
  std::filesystem::path diagram;        // a sweep CSV to draw the branch over (else the run's sweep, if any)
  // Stop the branch at a grazing ("GR", testfunctions/grazing.h). Off for
  // orbits that chatter into sticking: the number of impacts before the
  // stick changes along such a branch without any tangency, and the test
  // reads each change of the event count as a grazing.
  bool grazing = true;
  // "grazing": "continue": through a grazing with the new event sequence
  // (analyses/grazing/through_grazing.h).
  bool grazing_continue = false;
  std::vector<CurveSpec> curves;    // "curve": one object, or a list of them
  bool curve_list = false;          // given as a list: curve_<i>.csv, curves_<first>_<second>.png
  std::filesystem::path curve_map;  // `saltus periodic --over-map`: a map.csv drawn under the curves
  ContinuationOptions options;
};

struct HybridRun {
  std::filesystem::path path;
  std::string keys;  // the run's keys as JSON text: a grid journal's identity (studies/grid_runner.h)
  std::string name;
  std::string description;
  std::string model;  // the registered model's name (models/registry.h)
  bool filippov = false;  // a Filippov flow (models/registry.h, HybridModel::filippov)
  std::shared_ptr<const flow::HybridSystem> system;
  int mode = 0;
  int modes = 1;  // the system's modes are 0 .. modes - 1
  Vector initial;
  double t0 = 0.0, t1 = 1.0;
  double transient = 0.0;  // simulate: integrated from t0 first, not recorded
  flow::SimulationOptions simulation;
  flow::LyapunovOptions lyapunov;
  std::optional<SectionSpec> section;
  std::optional<SweepSpec> sweep;
  std::optional<PeriodicSpec> periodic;
  std::optional<MapSpec> map;
  std::string fixed_parameter;            // carried (and held fixed) when the orbit is not continued
  double forcing_period = 0.0;            // of a forced model (0: autonomous)
  std::string forcing_period_expression;  // the model's, of its parameters (empty: autonomous)
  std::vector<int> wrapped_angles;        // angle components, wrapped into [-pi, pi] for shooting

  // The system with one parameter changed (sweeps); throws RunFileError
  // naming the value when it is invalid (say, a restitution above 1).
  std::shared_ptr<const flow::HybridSystem> with_parameter(const std::string& name, double value) const;
  std::string plot_x, plot_y;  // the phase portrait's axes (state names)
  std::vector<bool> angles;    // per state component: an angle, drawn modulo 2 pi

  std::vector<flow::Section> sections() const;
  // T(p) of a forced model with the parameter `carried` free, and dT/dp,
  // exactly (a Jet through the forcing-period expression).
  std::function<double(const Vector& p, Vector* dT_dp)> period_of(
      const std::string& carried) const;  // the section as the simulator takes it
};

HybridRun read_hybrid_run(const std::filesystem::path& path);
// The same keys as an object in memory; `where` names it in errors and
// relative paths (periodic.diagram) are relative to its folder.
HybridRun parse_hybrid_run(const Json& description, const std::filesystem::path& where);

// The run file's "map" (drivers/map_spec.cpp), checked against the run's
// system and section (its keys: studies/option_tables_hybrid.cpp).
MapSpec read_map_spec(const Json& map, const HybridRun& run);
// The model's parameters at the map's point (x, y).
std::map<std::string, double> map_parameters(const MapSpec& spec, double x, double y);

// The run-file keys and, per registered model, its state, modes and
// parameters with defaults (models/registry.h).
const std::string& hybrid_run_file_help();

}  // namespace saltus::studies
