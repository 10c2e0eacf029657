// `saltus map RUNFILE`: a two-parameter brute-force map of a hybrid model's
// attractors (studies::attractor_map), journalled, resumable with --resume,
// stopped by Ctrl-C.

#include "drivers/map_command.h"

#include <algorithm>

#include "drivers/grid_command.h"
#include "studies/map_files.h"

namespace saltus::drivers {

namespace fs = std::filesystem;

int map_command(const HybridRun& run, const fs::path& dir, bool json, std::ostream& out, std::ostream& err,
                const GridOptions& options) {
  const MapSpec& spec = *run.map;
  const int points = spec.x.steps * spec.y.steps;
  studies::MapResult map;
  {
    CtrlC ctrl_c;
    map = studies::attractor_map(run, grid_control(options, dir, err));
  }
  if (!map.writer) return map.interrupted ? 130 : 0;  // another MPI rank: rank 0 writes

  for (const auto& w : write_map(run, map, dir)) err << "saltus map: warning: " << w << '\n';
  const Json summary = map_summary(run, map);
  if (!map.interrupted) remove_journal(dir, "map");
  const int done = static_cast<int>(std::count(map.done.begin(), map.done.end(), true));
  if (json) {
    out << summary.dump(2) << '\n';
  } else {
    out << run.name << ": " << (map.interrupted ? "interrupted, " : "") << done << " of " << points
        << " points of (" << spec.x.label() << ", " << spec.y.label() << ")"
        << (map.resumed ? " (" + std::to_string(map.resumed) + " from the journal)" : "") << ':';
    for (const auto& [c, n] : summary["classes"].items()) out << ' ' << c << ' ' << n.get<int>() << ',';
    out << "\nwrote " << dir.string() << '\n';
  }
  if (map.interrupted) {
    err << "saltus map: interrupted: " << done << " of " << points
        << " points written; continue with --resume\n";
    return 130;  // 128 + SIGINT
  }
  return 0;
}

}  // namespace saltus::drivers
