#include "studies/map_study.h"

#include <algorithm>
#include <cmath>

#include "continuation/flow/lyapunov.h"
#include "studies/periodic_orbit.h"
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
      const flow::LyapunovResult r = flow::lyapunov_spectrum(*system, s.end.mode, s.end.t, s.end.x, run.lyapunov);
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

MapResult attractor_map(const HybridRun& run, const SweepProgress& progress) {
  if (!run.map) throw StudyError("map: run '" + run.name + "' has no 'map' keys (x, y, ...)");
  const MapSpec& spec = *run.map;
  MapResult r;
  for (int i = 0; i < spec.x.steps; ++i) r.x.push_back(axis_value(spec.x, i));
  for (int j = 0; j < spec.y.steps; ++j) r.y.push_back(axis_value(spec.y, j));
  const int points = spec.x.steps * spec.y.steps;
  r.points.resize(points);
  const auto compute = [&](int k, bool first) {
    r.points[k] = map_point(run, k, spec.seed_rows && !first ? &r.points[k - 1] : nullptr);
  };
  r.interrupted = !run_blocks(points, map_chains(spec), spec.threads, compute, progress, &r.done);
  return r;
}

}  // namespace saltus::studies
