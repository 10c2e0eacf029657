// `saltus sweep RUNFILE`: a brute-force bifurcation diagram (studies::sweep),
// journalled, resumable with --resume, stopped by Ctrl-C.

#include <algorithm>

#include "drivers/grid_command.h"
#include "drivers/hybrid_commands.h"
#include "studies/sweep_files.h"

namespace saltus::drivers {

namespace fs = std::filesystem;

int sweep_command(const HybridRun& run, const fs::path& dir, bool json, std::ostream& out, std::ostream& err,
                  const GridOptions& options) {
  const SweepSpec& spec = *run.sweep;
  studies::SweepResult sweep;
  {
    CtrlC ctrl_c;
    sweep = studies::sweep(run, grid_control(options, dir, err));
  }
  if (!sweep.writer) return sweep.interrupted ? 130 : 0;  // another MPI rank: rank 0 writes

  for (const auto& w : write_sweep(run, sweep, dir)) err << "saltus sweep: warning: " << w << '\n';
  const Json summary = sweep_summary(run, sweep);
  if (!sweep.interrupted) remove_journal(dir, "sweep");
  const int done = static_cast<int>(std::count(sweep.done.begin(), sweep.done.end(), true));
  if (json)
    out << summary.dump(2) << '\n';
  else
    out << run.name << ": " << (sweep.interrupted ? "interrupted, " : "") << done << " of " << spec.steps
        << " values of " << spec.parameter << " on " << sweep.chains << " threads"
        << (sweep.resumed ? " (" + std::to_string(sweep.resumed) + " from the journal)" : "") << ", "
        << summary["section_hits"].get<int>() << " section hits, " << summary["failures"].size()
        << " values ended early\nwrote " << dir.string() << '\n';
  if (sweep.interrupted) {
    err << "saltus sweep: interrupted: " << done << " of " << spec.steps
        << " values written; continue with --resume\n";
    return 130;  // 128 + SIGINT, as a shell reports a run ended by Ctrl-C
  }
  return 0;
}

}  // namespace saltus::drivers
