// Time per point on the impact oscillator's grazing curve in (w, F)
// (examples/user/impact_oscillator_curves.json: x'' + 2 zeta x' + x =
// F cos(w t), a stop at x = d; continuation/periodic/grazing_orbit.h:
// shooting on the flow without the contact plus "the guard's minimum is
// zero"), from the closed-form grazing orbit at F = 1. Counters:
// us_per_point, points, and max_error, the largest |F - d D(w)| against the
// closed form F = d D(w), D(w) = sqrt((1 - w^2)^2 + (2 zeta w)^2) (computed
// untimed).
//
//   ./build/bench/saltus_bench --benchmark_filter=GrazingCurve

#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>

#include "continuation/periodic/grazing_orbit.h"
#include "continuation/pseudo_arclength.h"
#include "studies/hybrid_run_file.h"
#include "testfunctions/grazing.h"

using namespace saltus;

namespace {

void BM_GrazingCurve(benchmark::State& state) {
  const auto run = studies::read_hybrid_run(std::string(SALTUS_SOURCE_DIR) +
                                            "/examples/user/impact_oscillator_curves.json");
  const double zeta = run.system->parameter("zeta"), d = run.system->parameter("d"), F = 1.0;
  const auto D = [zeta](double w) { return std::hypot(1 - w * w, 2 * zeta * w); };
  // The grazing frequency at F: D(w) = F / d, a quadratic in w^2 (the upper root).
  const double b = 4 * zeta * zeta - 2, c = 1 - (F / d) * (F / d);
  const double w = std::sqrt((-b + std::sqrt(b * b - 4 * c)) / 2);
  // The harmonic orbit x = F ((1 - w^2) cos wt + 2 zeta w sin wt) / D^2 at t0 = 0.
  Vector u(4);
  u << F * (1 - w * w) / (D(w) * D(w)), F * 2 * zeta * w * w / (D(w) * D(w)), w, F;

  periodic::ShootingOptions options;
  options.simulation = run.simulation;
  options.simulation.output_interval = 0.0;
  options.period_of = [](const Vector& p, Vector* dT_dp) {  // T = 2 pi / w, w the first carried parameter
    if (dT_dp) {
      dT_dp->setZero(p.size());
      (*dT_dp)[0] = -2 * M_PI / (p[0] * p[0]);
    }
    return 2 * M_PI / p[0];
  };
  const periodic::ShootingSystem shooting(run.system->with_parameters_in_state({"w", "F"}), 2, options);
  const auto contact = nearest_contact(shooting, u);
  if (!contact) {
    state.SkipWithError("no contact near the closed-form grazing orbit");
    return;
  }
  ContinuationOptions o;
  o.ds = 0.05;
  o.ds_max = 0.1;
  o.max_points = 30;
  Branch curve;
  std::size_t total = 0;
  for (auto _ : state) {
    auto system = std::make_shared<periodic::GrazingSystem>(shooting, contact->contact, u);
    const ContinuationProblem problem(system, Vector::Constant(1, F), {"F"});
    curve = continue_branch(problem, u, o);
    total += curve.points.size();
  }
  if (curve.points.size() < 10) state.SkipWithError(("grazing curve: " + curve.message).c_str());
  double worst = 0.0;
  for (const auto& p : curve.points) worst = std::max(worst, std::abs(p.y[3] - d * D(p.y[2])));
  state.counters["points"] = static_cast<double>(curve.points.size());
  state.counters["us_per_point"] = benchmark::Counter(
      static_cast<double>(total) * 1e-6, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["max_error"] = worst;
}
BENCHMARK(BM_GrazingCurve)->Unit(benchmark::kMillisecond);

}  // namespace
