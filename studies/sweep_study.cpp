#include "studies/sweep_study.h"

#include <limits>

#include "continuation/worker_threads.h"
#include "studies/periodic_orbit.h"
#include "studies/settled_record.h"
#include "studies/study.h"

namespace saltus::studies {

Settled settle(const flow::HybridSystem& system, const StartState& start, double transient, double record,
               const flow::SimulationOptions& plain, const std::vector<flow::Section>& sections) {
  Settled s;
  s.end = start;
  try {
    if (transient > 0) {
      const flow::Trajectory warm =
          flow::simulate(system, s.end.mode, s.end.t, s.end.x, s.end.t + transient, plain);
      s.events += static_cast<int>(warm.events.size());
      if (!warm.ok()) {
        s.failure = warm.message;
        return s;
      }
      s.end = {warm.mode_end, warm.t_end, warm.x_end};
    }
    const flow::Trajectory rec =
        flow::simulate(system, s.end.mode, s.end.t, s.end.x, s.end.t + record, plain, {}, sections);
    s.events += static_cast<int>(rec.events.size());
    s.hits = rec.section_hits;
    if (!rec.ok())
      s.failure = rec.message;
    else
      s.end = {rec.mode_end, rec.t_end, rec.x_end};
  } catch (const std::exception& e) {
    s.failure = e.what();
  }
  return s;
}

double sweep_value(const SweepSpec& spec, int k) {
  return spec.steps == 1 ? spec.from : spec.from + (spec.to - spec.from) * k / (spec.steps - 1);
}

int sweep_chains(const HybridRun& run) { return worker_count(run.sweep->threads, run.sweep->steps); }

Settled sweep_point(const HybridRun& run, int k, const Settled* previous) {
  const SweepSpec& spec = *run.sweep;
  StartState start{run.mode, run.t0, run.initial};
  if (previous && previous->failure.empty()) start = previous->end;
  const double transient = previous ? spec.transient : 2 * spec.transient;
  try {
    const auto system = run.with_parameter(spec.parameter, sweep_value(spec, k));
    return settle(*system, start, transient, spec.record, without_samples(run.simulation), run.sections());
  } catch (const std::exception& e) {
    Settled s;
    s.end = start;
    s.failure = e.what();
    return s;
  }
}

namespace {

// Value k from its predecessor's record in its block (sweep_point).
Json sweep_record(const HybridRun& run, int k, const Json* previous) {
  Settled before;
  if (previous) {
    before.end = state_of(*previous);
    if (previous->contains("failure")) before.failure = (*previous)["failure"].get<std::string>();
  }
  const Settled s = sweep_point(run, k, previous ? &before : nullptr);
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

}  // namespace

SweepResult sweep(const HybridRun& run, const GridControl& control) {
  if (!run.sweep)
    throw StudyError("sweep: run '" + run.name + "' has no 'sweep' keys (parameter, from, to, steps)");
  const SweepSpec& spec = *run.sweep;
  GridJob job;
  job.command = "saltus sweep";
  job.kind = "sweep";
  job.points = spec.steps;
  job.chains = job.threads = sweep_chains(run);
  job.identity = run.keys + "\nsweep";
  job.compute = [&run](int k, const Json* previous) { return sweep_record(run, k, previous); };
  job.check = [&run](int, const Json& record) { check_sweep_record(run, record); };
  const GridRun grid = run_grid(job, control);

  SweepResult r;
  r.parameter = spec.parameter;
  r.chains = grid.chains;
  r.resumed = grid.resumed;
  r.interrupted = grid.interrupted;
  r.writer = grid.writer;
  r.points.resize(spec.steps);
  r.done.assign(spec.steps, false);
  for (int k = 0; k < spec.steps; ++k) {
    r.values.push_back(sweep_value(spec, k));
    const Json& record = grid.records[k];
    if (record.is_null()) continue;
    Settled& p = r.points[k];
    r.done[k] = true;
    p.end = state_of(record);
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

}  // namespace saltus::studies
