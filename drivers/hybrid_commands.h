#pragma once
// `saltus simulate RUNFILE` and `saltus lyapunov RUNFILE` on hybrid run files.

#include <filesystem>
#include <ostream>

#include "drivers/grid_command.h"
#include "drivers/progress.h"
#include "drivers/studies.h"
#include "studies/hybrid_run_file.h"

namespace saltus::drivers {

// Simulates and writes trajectory.csv, events.csv, summary.json and the
// phase-portrait and time-series figures into dir; with transition_matrix
// (--transition-matrix) the variational equations too, and summary.json's
// "transition_matrix" Phi(t1, t0). Returns the exit code.
int simulate_command(const HybridRun& run, const std::filesystem::path& dir, bool json, std::ostream& out,
                     std::ostream& err, bool transition_matrix = false);

// The Lyapunov spectrum (largest first); with dir, lyapunov.csv (running
// estimates), summary.json and a convergence figure. Returns the exit code.
int lyapunov_command(const HybridRun& run, const std::filesystem::path& dir, bool json, std::ostream& out,
                     std::ostream& err);

// A brute-force bifurcation diagram: for each parameter value (quasi-static:
// each starts from the state the previous one ended in) a transient, then the
// section's hits over `record`; sweep.csv, sweep.json and a figure. The range
// is split into `threads` chunks run in parallel, each quasi-static from the
// run's initial state (with a doubled transient at its first value). Runs
// through studies/grid_runner.h: a journal line per finished value, --resume,
// and Ctrl-C writes the finished values with "status": "interrupted" (exit
// 130). Returns the exit code.
int sweep_command(const HybridRun& run, const std::filesystem::path& dir, bool json, std::ostream& out,
                  std::ostream& err, const GridOptions& options = {});

// A periodic orbit by shooting (studies::find_orbit, studies/hybrid_study.h: from the run's
// guess, or for an autonomous model from a simulation's section returns):
// period, Floquet multipliers ([re, im] pairs, largest modulus first; an
// autonomous orbit's trivial one apart) and state; with a continuation
// parameter, its branch (branch.csv, orbits.csv with stability and section
// values, summary.json) with LPC, PD and NS located, drawn over the
// brute-force diagram (the run's sweep or a named sweep CSV). Exit 2 when no
// guess or no orbit is found.
int periodic_command(const HybridRun& run, const std::filesystem::path& dir, bool json, std::ostream& out,
                     std::ostream& err, std::shared_ptr<TimeProgress> progress = nullptr);

}  // namespace saltus::drivers
