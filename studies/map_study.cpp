#include "studies/map_study.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "continuation/flow/lyapunov.h"
#include "continuation/worker_threads.h"
#include "studies/periodic_orbit.h"
#include "studies/settled_record.h"
#include "studies/study.h"

namespace saltus::studies {

int distinct_hits(const std::vector<Vector>& hits, const std::vector<bool>& angles, double tolerance,
                  int at_most) {
  std::vector<const Vector*> kinds;
  for (const Vector& h : hits) {
    const auto same = [&](const Vector* k) {
      for (int i = 0; i < h.size(); ++i) {
        const double d = i < static_cast<int>(angles.size()) && angles[i]
                             ? std::remainder(h[i] - (*k)[i], 2 * M_PI)
                             : h[i] - (*k)[i];
        if (!(std::abs(d) <= tolerance * (1 + std::abs((*k)[i])))) return false;
      }
      return true;
    };
    if (std::none_of(kinds.begin(), kinds.end(), same)) kinds.push_back(&h);
    if (static_cast<int>(kinds.size()) >= at_most) break;
  }
  return static_cast<int>(kinds.size());
}

std::string map_class(int distinct, bool failed, int max_period) {
  if (failed) return "escaped";
  if (distinct == 0) return "no hits";
  if (distinct > max_period) return "chaotic";
  return "period-" + std::to_string(distinct);
}

double axis_value(const MapAxis& a, int i) {
  return a.steps == 1 ? a.from : a.from + (a.to - a.from) * i / (a.steps - 1);
}

int map_chains(const MapSpec& spec) { return spec.seed_rows ? spec.y.steps : spec.x.steps * spec.y.steps; }

MapPoint map_point(const HybridRun& run, int k, const MapPoint* previous) {
  const MapSpec& spec = *run.map;
  const int i = k % spec.x.steps, j = k / spec.x.steps;
  StartState start{run.mode, run.t0, run.initial};
  if (previous && previous->settled.failure.empty()) start = previous->settled.end;
  const double transient = spec.seed_rows && !previous ? 2 * spec.transient : spec.transient;
  MapPoint p;
  Settled& s = p.settled;
  s.end = start;
  try {
    const auto system =
        run.system->with_parameters(map_parameters(spec, axis_value(spec.x, i), axis_value(spec.y, j)));
    s = settle(*system, start, transient, spec.record, without_samples(run.simulation), run.sections());
    if (spec.lyapunov && s.failure.empty()) {
      const flow::LyapunovResult r =
          flow::lyapunov_spectrum(*system, s.end.mode, s.end.t, s.end.x, run.lyapunov);
      if (r.ok() && r.exponents.size() > 0)
        p.lyapunov = r.exponents[0];
      else
        s.failure = "Lyapunov exponents: " + r.message;
    }
  } catch (const std::exception& e) {
    s.failure = e.what();
  }
  std::vector<Vector> hits;
  for (const auto& h : s.hits) hits.push_back(h.x);
  p.distinct = distinct_hits(hits, run.angles, spec.tolerance, spec.max_period + 1);
  return p;
}

namespace {

// Grid point k from its left neighbour's record in a seeded row (map_point).
Json map_record(const HybridRun& run, int k, const Json* previous) {
  MapPoint before;
  if (previous) {
    before.settled.end = state_of(*previous);
    if (previous->contains("failure")) before.settled.failure = (*previous)["failure"].get<std::string>();
  }
  const MapPoint p = map_point(run, k, previous ? &before : nullptr);
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

}  // namespace

MapResult attractor_map(const HybridRun& run, const GridControl& control) {
  if (!run.map) throw StudyError("map: run '" + run.name + "' has no 'map' keys (x, y, ...)");
  const MapSpec& spec = *run.map;
  GridJob job;
  job.command = "saltus map";
  job.kind = "map";
  job.points = spec.x.steps * spec.y.steps;
  job.chains = map_chains(spec);  // seeded rows are chains in x; unseeded points each their own
  job.threads = worker_count(spec.threads, job.chains);
  job.chains_fixed = true;  // a seeded row is a block; an unseeded point one of its own
  job.identity = run.keys + "\nmap";
  job.compute = [&run](int k, const Json* previous) { return map_record(run, k, previous); };
  job.check = [&run](int, const Json& record) { check_map_record(run, record); };
  const GridRun grid = run_grid(job, control);

  MapResult r;
  for (int i = 0; i < spec.x.steps; ++i) r.x.push_back(axis_value(spec.x, i));
  for (int j = 0; j < spec.y.steps; ++j) r.y.push_back(axis_value(spec.y, j));
  r.resumed = grid.resumed;
  r.interrupted = grid.interrupted;
  r.writer = grid.writer;
  r.points.resize(job.points);
  r.done.assign(job.points, false);
  for (int k = 0; k < job.points; ++k) {
    const Json& record = grid.records[k];
    if (record.is_null()) continue;
    MapPoint& p = r.points[k];
    r.done[k] = true;
    p.settled.end = state_of(record);
    p.distinct = record["distinct_hits"].get<int>();
    p.settled.events = record["events"].get<int>();
    if (record.contains("failure")) p.settled.failure = record["failure"].get<std::string>();
    if (record.contains("lyapunov")) p.lyapunov = double_of(record["lyapunov"]);
  }
  return r;
}

}  // namespace saltus::studies
