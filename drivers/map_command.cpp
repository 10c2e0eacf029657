// `saltus map RUNFILE`: a two-parameter brute-force map of a hybrid model's
// attractors (period on the section, chaotic, escaped), run through the grid
// runner (drivers/grid_runner.h): journal, --resume, Ctrl-C.

#include "drivers/map_command.h"

#include <fstream>
#include <iomanip>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "continuation/worker_threads.h"
#include "drivers/attractor.h"
#include "drivers/grid_runner.h"
#include "studies/map_files.h"
#include "studies/output.h"
#include "studies/periodic_orbit.h"

namespace saltus::drivers {

namespace fs = std::filesystem;

using studies::axis_value;

namespace {

// Grid point k from its left neighbour's record in a seeded row
// (studies::map_point).
Json map_record(const HybridRun& run, int k, const Json* previous) {
  studies::MapPoint before;
  if (previous) {
    before.settled.end = state_of(*previous);
    if (previous->contains("failure")) before.settled.failure = (*previous)["failure"].get<std::string>();
  }
  const studies::MapPoint p = studies::map_point(run, k, previous ? &before : nullptr);
  Json record;
  put_state(p.settled.end, &record);
  record["distinct_hits"] = p.distinct;
  record["events"] = p.settled.events;
  if (run.map->lyapunov) record["lyapunov"] = json_double(p.lyapunov);
  if (!p.settled.failure.empty()) record["failure"] = p.settled.failure;
  return record;
}

// A record of map_record read back from the journal: its state (the next
// point's start in a seeded row unless it failed), the distinct hits as
// map_record counts them (up to max_period + 1), the event count, the
// exponent when the map asks for it, a failure's message.
void check_map_record(const HybridRun& run, const Json& r) {
  const MapSpec& spec = *run.map;
  std::vector<std::string> required{"mode", "t", "x", "distinct_hits", "events"};
  if (spec.lyapunov) required.push_back("lyapunov");
  record::keys(r, required, {"failure"});
  const bool failed = r.contains("failure");
  if (failed) record::text(r, "failure");
  check_state(r, run.modes, run.system->dimension(), !failed);
  record::integer(r, "distinct_hits", 0, spec.max_period + 1);
  record::integer(r, "events", 0, std::numeric_limits<int>::max());
  if (spec.lyapunov) record::real(r["lyapunov"], "lyapunov", false);
}

// The records as the study's result (studies::attractor_map gives the same).
studies::MapResult map_result(const HybridRun& run, const GridRun& grid) {
  const MapSpec& spec = *run.map;
  studies::MapResult r;
  for (int i = 0; i < spec.x.steps; ++i) r.x.push_back(axis_value(spec.x, i));
  for (int j = 0; j < spec.y.steps; ++j) r.y.push_back(axis_value(spec.y, j));
  r.interrupted = grid.interrupted;
  r.points.resize(grid.records.size());
  r.done.assign(grid.records.size(), false);
  for (std::size_t k = 0; k < grid.records.size(); ++k) {
    const Json& record = grid.records[k];
    if (record.is_null()) continue;
    studies::MapPoint& p = r.points[k];
    r.done[k] = true;
    p.distinct = record["distinct_hits"].get<int>();
    p.settled.events = record["events"].get<int>();
    if (record.contains("failure")) p.settled.failure = record["failure"].get<std::string>();
    if (record.contains("lyapunov")) p.lyapunov = double_of(record["lyapunov"]);
  }
  return r;
}

}  // namespace

int map_command(const HybridRun& run, const fs::path& dir, bool json, std::ostream& out, std::ostream& err,
                const GridControl& control) {
  const MapSpec& spec = *run.map;
  const int points = spec.x.steps * spec.y.steps;
  GridJob job;
  job.command = "saltus map";
  job.kind = "map";
  job.points = points;
  // Seeded rows are chains in x; unseeded points are each their own.
  job.chains = studies::map_chains(spec);
  job.threads = worker_count(spec.threads, job.chains);
  std::ifstream in(run.path);
  std::ostringstream identity;
  identity << in.rdbuf() << "\nmap";
  job.identity = identity.str();
  job.compute = [&run](int k, const Json* previous) { return map_record(run, k, previous); };
  job.check = [&run](int, const Json& record) { check_map_record(run, record); };
  job.chains_fixed = true;  // a seeded row is a block; an unseeded point one of its own
  job.interrupt_after = control.interrupt_after;
  const GridRun grid = run_grid(job, dir, control.resume, err);
  if (!grid.writer) return grid.interrupted ? 130 : 0;  // another MPI rank: rank 0 writes

  const studies::MapResult map = map_result(run, grid);
  for (const auto& w : write_map(run, map, dir)) err << "saltus map: warning: " << w << '\n';
  const Json summary = map_summary(run, map);
  if (!grid.interrupted) remove_journal(dir, job.kind);
  if (json) {
    out << summary.dump(2) << '\n';
  } else {
    out << run.name << ": " << (grid.interrupted ? "interrupted, " : "") << grid.done() << " of " << points
        << " points of (" << spec.x.label() << ", " << spec.y.label() << ")"
        << (grid.resumed ? " (" + std::to_string(grid.resumed) + " from the journal)" : "") << ':';
    for (const auto& [c, n] : summary["classes"].items()) out << ' ' << c << ' ' << n.get<int>() << ',';
    out << "\nwrote " << dir.string() << '\n';
  }
  if (grid.interrupted) {
    err << "saltus map: interrupted: " << grid.done() << " of " << points
        << " points written; continue with --resume\n";
    return 130;  // 128 + SIGINT
  }
  return 0;
}

}  // namespace saltus::drivers
