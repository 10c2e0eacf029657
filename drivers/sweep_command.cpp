// `saltus sweep RUNFILE`: a brute-force bifurcation diagram, run through the
// grid runner (drivers/grid_runner.h): journal, --resume, Ctrl-C.

#include <fstream>
#include <iomanip>
#include <limits>
#include <sstream>

#include "continuation/worker_threads.h"
#include "drivers/attractor.h"
#include "drivers/grid_runner.h"
#include "drivers/hybrid_commands.h"
#include "studies/output.h"
#include "studies/periodic_orbit.h"
#include "studies/sweep_files.h"

namespace saltus::drivers {

namespace fs = std::filesystem;

namespace {

// The run file's text and the sweep: what a journal must have been made by.
std::string study_identity(const HybridRun& run, const std::string& extra) {
  std::ifstream in(run.path);
  std::ostringstream text;
  text << in.rdbuf() << '\n' << extra;
  return text.str();
}

// Value k from its predecessor's record in its chunk (studies::sweep_point).
Json sweep_record(const HybridRun& run, int k, const Json* previous) {
  Settled before;
  if (previous) {
    before.end = state_of(*previous);
    if (previous->contains("failure")) before.failure = (*previous)["failure"].get<std::string>();
  }
  const Settled s = studies::sweep_point(run, k, previous ? &before : nullptr);
  Json record;
  put_state(s.end, &record);
  Json hits = Json::array();
  for (const auto& h : s.hits) {
    Json row = Json::array({json_double(h.t)});
    for (int i = 0; i < h.x.size(); ++i) row.push_back(json_double(h.x[i]));
    hits.push_back(row);
  }
  record["hits"] = hits;
  record["events"] = s.events;
  if (!s.failure.empty()) record["failure"] = s.failure;
  return record;
}

// A record of sweep_record read back from the journal: its state (the next
// value's start unless it failed), each hit a time and a state, the event
// count, a failure's message.
void check_sweep_record(const HybridRun& run, const Json& r) {
  record::keys(r, {"mode", "t", "x", "hits", "events"}, {"failure"});
  const bool failed = r.contains("failure");
  if (failed) record::text(r, "failure");
  const int n = run.system->dimension();
  check_state(r, run.modes, n, !failed);
  const Json& hits = record::array(r["hits"], "hits", -1);
  for (std::size_t h = 0; h < hits.size(); ++h) {
    const std::string key = "hits[" + std::to_string(h) + "]";
    const Json& row = record::array(hits[h], key, n + 1);
    for (int i = 0; i <= n; ++i) record::real(row[i], key + "[" + std::to_string(i) + "]", false);
  }
  record::integer(r, "events", 0, std::numeric_limits<int>::max());
}

// The records as the study's result (studies::sweep gives the same).
studies::SweepResult sweep_result(const HybridRun& run, const GridRun& grid) {
  const SweepSpec& spec = *run.sweep;
  studies::SweepResult r;
  r.parameter = spec.parameter;
  r.chains = grid.chains;
  r.interrupted = grid.interrupted;
  r.points.resize(spec.steps);
  r.done.assign(spec.steps, false);
  for (int k = 0; k < spec.steps; ++k) {
    r.values.push_back(studies::sweep_value(spec, k));
    const Json& record = grid.records[k];
    if (record.is_null()) continue;
    Settled& p = r.points[k];
    r.done[k] = true;
    p.events = record["events"].get<int>();
    if (record.contains("failure")) p.failure = record["failure"].get<std::string>();
    for (const auto& row : record["hits"]) {
      flow::SectionHit h;
      h.t = double_of(row[0]);
      h.x.resize(static_cast<int>(row.size()) - 1);
      for (int i = 0; i < h.x.size(); ++i) h.x[i] = double_of(row[i + 1]);
      p.hits.push_back(std::move(h));
    }
  }
  return r;
}

}  // namespace

int sweep_command(const HybridRun& run, const fs::path& dir, bool json, std::ostream& out, std::ostream& err,
                  const GridControl& control) {
  const SweepSpec& spec = *run.sweep;
  GridJob job;
  job.command = "saltus sweep";
  job.kind = "sweep";
  job.points = spec.steps;
  job.chains = job.threads = studies::sweep_chains(run);
  job.identity = study_identity(run, "sweep");
  job.compute = [&run](int k, const Json* previous) { return sweep_record(run, k, previous); };
  job.check = [&run](int, const Json& record) { check_sweep_record(run, record); };
  job.interrupt_after = control.interrupt_after;
  const GridRun grid = run_grid(job, dir, control.resume, err);
  if (!grid.writer) return grid.interrupted ? 130 : 0;  // another MPI rank: rank 0 writes

  const studies::SweepResult sweep = sweep_result(run, grid);
  for (const auto& w : write_sweep(run, sweep, dir)) err << "saltus sweep: warning: " << w << '\n';
  const Json summary = sweep_summary(run, sweep);
  if (!grid.interrupted) remove_journal(dir, job.kind);
  if (json)
    out << summary.dump(2) << '\n';
  else
    out << run.name << ": " << (grid.interrupted ? "interrupted, " : "") << grid.done() << " of "
        << spec.steps << " values of " << spec.parameter << " on " << grid.chains << " threads"
        << (grid.resumed ? " (" + std::to_string(grid.resumed) + " from the journal)" : "") << ", "
        << summary["section_hits"].get<int>() << " section hits, " << summary["failures"].size()
        << " values ended early\nwrote " << dir.string() << '\n';
  if (grid.interrupted) {
    err << "saltus sweep: interrupted: " << grid.done() << " of " << spec.steps
        << " values written; continue with --resume\n";
    return 130;  // 128 + SIGINT, as a shell reports a run ended by Ctrl-C
  }
  return 0;
}

}  // namespace saltus::drivers
