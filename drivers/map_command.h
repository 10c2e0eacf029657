#pragma once
// `saltus map RUNFILE`: a two-parameter brute-force map of a hybrid model
// (the run file's "map", studies/hybrid_run_file.h MapSpec).

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "drivers/grid_command.h"
#include "drivers/studies.h"
#include "studies/hybrid_run_file.h"
#include "studies/output.h"

namespace saltus::drivers {

// map.csv (one row per grid point, x fastest: the parameters, class, period,
// distinct hits, events, and the largest Lyapunov exponent when asked),
// summary.json (the grid, "status", the count per class) and map.png/.svg.
// Exit 130 when Ctrl-C stopped it (the finished points are written; --resume
// continues).
int map_command(const HybridRun& run, const std::filesystem::path& dir, bool json, std::ostream& out,
                std::ostream& err, const GridOptions& options = {});

}  // namespace saltus::drivers
