// saltus_peer_impacts: a hybrid run file's impacts and the CPU time of the
// simulation as JSON, for bench/peer/siconos_compare.sh to set beside Siconos
// (bench/peer/siconos_impacts.cpp), which integrates the same model.
//
//   saltus_peer_impacts FILE [--tol 1e-10] [--t1 T] [--max-events N] [--repeat K] [--max-step H]
//
// The run file is read as `saltus simulate` reads it (studies::load_hybrid:
// a user model's expressions, a built-in model's parameters) and simulated
// from its initial state with its own simulation options (max_step
// included, unless --max-step: H > 0 that bound, 0 none) except: abs = rel = tol (--tol 0: the run file's),
// no variational equations (the default of `saltus simulate`), no output grid and no per-step records
// (Siconos records nothing but the events either), at most N events.
//
// Each of the K repetitions is one flow::simulate (the first a warm-up, not
// timed, when K > 1). Output: {"tool", "tolerance", "status", "sim_time",
// "cpu_s" (median process CPU time of the timed runs), "repetitions",
// "events": [{"t", "v_before", "v_after"}]} with the velocities those of the
// state's second component (as the run files' v). Under callgrind profile
// flow::simulate (--toggle-collect='saltus::flow::simulate*', --repeat 1).

#include <algorithm>
#include <ctime>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "continuation/flow/simulate.h"
#include "studies/hybrid_study.h"

using namespace saltus;

namespace {

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: saltus_peer_impacts FILE [--tol T] [--t1 T] [--max-events N] [--repeat K]\n";
    return 2;
  }
  double tol = 1e-10, t1 = -1.0, max_step = -1.0;
  int max_events = 0, repeat = 3;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    const double value = std::atof(argv[i + 1]);
    if (key == "--tol")
      tol = value;
    else if (key == "--t1")
      t1 = value;
    else if (key == "--max-events")
      max_events = static_cast<int>(value);
    else if (key == "--repeat")
      repeat = std::max(1, static_cast<int>(value));
    else if (key == "--max-step")
      max_step = value;
    else {
      std::cerr << "unknown option " << key << "\n";
      return 2;
    }
  }
  try {
    const auto run = studies::load_hybrid(argv[1]);
    flow::SimulationOptions options = run->simulation;
    if (tol > 0.0) options.absolute_tolerance = options.relative_tolerance = tol;
    options.variational = false;
    options.output_interval = 0.0;
    options.record_steps = false;
    if (max_events > 0) options.max_events = max_events;
    if (max_step == 0.0) options.max_step = std::numeric_limits<double>::infinity();
    if (max_step > 0.0) options.max_step = max_step;
    const double end = t1 > 0.0 ? t1 : run->t1;

    flow::Trajectory tr;
    std::vector<double> cpu;
    for (int k = 0; k < repeat; ++k) {
      const double started = cpu_seconds();
      tr = flow::simulate(*run->system, run->mode, run->t0, run->initial, end, options);
      if (repeat == 1 || k > 0) cpu.push_back(cpu_seconds() - started);
    }
    std::sort(cpu.begin(), cpu.end());
    // A run cut by --max-events ends with kTooManyEvents: the intended stop.
    const bool cut = max_events > 0 && tr.status == flow::SimulationStatus::kTooManyEvents;
    nlohmann::json events = nlohmann::json::array();
    for (const auto& ev : tr.events)
      events.push_back({{"t", ev.t}, {"v_before", ev.x_before(1)}, {"v_after", ev.x_after(1)}});
    nlohmann::json out = {{"tool", "saltus"},
                          {"tolerance", tol},
                          {"status", cut ? std::string("max_events") : flow::to_string(tr.status)},
                          {"message", tr.message},
                          {"sim_time", tr.t_end},
                          {"cpu_s", cpu[cpu.size() / 2]},
                          {"repetitions", cpu.size()},
                          {"events", events}};
    std::cout << out.dump() << "\n";
    return tr.ok() || cut ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << argv[1] << ": " << e.what() << "\n";
    return 1;
  }
}
