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

}  // namespace saltus::drivers
