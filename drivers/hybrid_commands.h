#pragma once
// `saltus simulate RUNFILE` and `saltus lyapunov RUNFILE` on hybrid run files.

#include <filesystem>
#include <ostream>

#include "drivers/hybrid_run_file.h"

namespace saltus::drivers {

// Simulates and writes trajectory.csv, events.csv, summary.json and the
// phase-portrait and time-series figures into dir. Returns the exit code.
int simulate_command(const HybridRun& run, const std::filesystem::path& dir, bool json, std::ostream& out,
                     std::ostream& err);

// The Lyapunov spectrum (largest first); with dir, lyapunov.csv (running
// estimates), summary.json and a convergence figure. Returns the exit code.
int lyapunov_command(const HybridRun& run, const std::filesystem::path& dir, bool json, std::ostream& out,
                     std::ostream& err);

// A brute-force bifurcation diagram: for each parameter value (quasi-static:
// each starts from the state the previous one ended in) a transient, then the
// section's hits over `record`; sweep.csv, sweep.json and a figure. The range
// is split into `threads` chunks run in parallel, each quasi-static from the
// run's initial state (with a doubled transient at its first value).
int sweep_command(const HybridRun& run, const std::filesystem::path& dir, bool json, std::ostream& out,
                  std::ostream& err);

// The periodic orbit through the run's guess by shooting: period, Floquet
// multipliers ([re, im] pairs, largest modulus first) and state; with a
// continuation parameter, its branch (branch.csv, summary.json, a figure)
// with LPC and PD located.
int periodic_command(const HybridRun& run, const std::filesystem::path& dir, bool json, std::ostream& out,
                     std::ostream& err);

}  // namespace saltus::drivers
