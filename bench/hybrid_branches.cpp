// Orbit branches of hybrid systems as `saltus periodic` follows them: the
// triple pendulum's rotating orbit in q1 (examples/triple_pendulum_orbit.json,
// autonomous shooting with saltation, to its LPC and back) and the stick-slip
// oscillator's orbit in v0 (examples/stick_slip_orbit.json). One iteration is
// the branch from the corrected first orbit with LPC, PD and NS located (and
// GR where the run asks for it); the orbit's search from a simulation is not
// timed.
//
// Argument: ContinuationOptions::chord (1, the default: chord steps in the
// corrector; 0: Newton with a Jacobian at every iteration), so that one run
// gives the time per point before and after. Counters: us_per_point, points,
// special (how many were located) and, for the chord run, special_shift: the
// largest change of a located point's parameter against the Newton run
// (computed once, untimed).
//
//   ./build/bench/saltus_bench --benchmark_filter=HybridBranch

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "continuation/pseudo_arclength.h"
#include "studies/hybrid_run_file.h"
#include "studies/periodic_orbit.h"
#include "testfunctions/floquet.h"
#include "testfunctions/fold.h"
#include "testfunctions/grazing.h"

using namespace saltus;

namespace {

struct Setup {
  studies::HybridRun run;
  studies::ShootingStart start;
  Vector orbit;
};

Setup setup(const char* file) {
  Setup s{studies::read_hybrid_run(std::string(SALTUS_SOURCE_DIR) + "/examples/" + file), {}, {}};
  s.start = studies::shooting_start(s.run);
  if (!s.start.ok) return s;
  ContinuationOptions one = s.run.periodic->options;
  one.max_points = 1;
  one.bounds.clear();
  const Branch first = continue_branch(*s.start.problem, s.start.y, one);
  if (first.usable()) s.orbit = first.points[0].y;
  return s;
}

Branch follow(const Setup& s, bool chord) {
  ContinuationOptions options = s.run.periodic->options;
  options.chord = chord;
  TestFunctions tests = {std::make_shared<FoldTest>("LPC"), std::make_shared<PeriodDoublingTest>(),
                         std::make_shared<NeimarkSackerTest>()};
  if (s.run.periodic->grazing) tests.push_back(std::make_shared<GrazingTest>());
  return continue_branch(*s.start.problem, s.orbit, options, tests);
}

void run(benchmark::State& state, const char* file) {
  const Setup s = setup(file);
  if (s.orbit.size() == 0) {
    state.SkipWithError("no periodic orbit to start from");
    return;
  }
  const bool chord = state.range(0) != 0;
  Branch b;
  std::size_t points = 0;
  for (auto _ : state) {
    b = follow(s, chord);
    points += b.points.size() + b.special_points.size();
  }
  state.counters["us_per_point"] = benchmark::Counter(
      static_cast<double>(points) * 1e-6, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["points"] = static_cast<double>(b.points.size() + b.special_points.size());
  state.counters["special"] = static_cast<double>(b.special_points.size());
  if (!chord) return;
  const Branch newton = follow(s, false);
  const int p = s.start.problem->size() - 1;
  double shift = newton.special_points.size() == b.special_points.size() ? 0.0 : INFINITY;
  for (std::size_t k = 0; k < b.special_points.size() && std::isfinite(shift); ++k)
    shift = std::max(shift, std::abs(b.special_points[k].y[p] - newton.special_points[k].y[p]));
  state.counters["special_shift"] = shift;
}

void BM_HybridBranch_TriplePendulum(benchmark::State& state) { run(state, "triple_pendulum_orbit.json"); }
void BM_HybridBranch_StickSlip(benchmark::State& state) { run(state, "stick_slip_orbit.json"); }

}  // namespace

BENCHMARK(BM_HybridBranch_TriplePendulum)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HybridBranch_StickSlip)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
