// Time per point on the bouncing ball's period-doubling curve in (A, omega)
// (continuation/periodic/cycle_curve.h: shooting plus the bordered test
// function of M + I, its derivative from the tangent-lifted system), beside
// the time per point of the one-parameter orbit branch in A with its PD
// located, in the same run: the ratio is the price of the second
// derivatives (one lifted period of dimension 2 (n + 2) per Jacobian).
// Counters: us_per_point, points and, for the curve, max_error: the largest
// |A - A_PD(omega)| against the closed form (tests/continuation/periodic/
// bouncing_ball_closed_form.h; computed untimed).
//
//   ./build/bench/saltus_bench --benchmark_filter=BallCycle

#include "continuation/periodic/cycle_curve.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>

#include "continuation/flow/hybrid_system.h"
#include "continuation/pseudo_arclength.h"
#include "models/bouncing_ball.h"
#include "testfunctions/floquet.h"

using namespace saltus;
using namespace saltus::periodic;

namespace {

constexpr double kG = 9.81, kE = 0.5, kT0 = 0.55;

// A_PD(omega) and the orbit's state at the cut (the closed form of
// tests/continuation/periodic/bouncing_ball_closed_form.h).
double A_pd(double omega) {
  const double V = (1 - kE) * kG * M_PI / ((1 + kE) * omega);
  return std::hypot(2 * kG * (1 + kE * kE) / ((1 + kE) * (1 + kE) * omega * omega), V / omega);
}
Vector orbit(double A, double omega) {
  const double tau = 2 * M_PI / omega, V = (1 - kE) * kG * tau / (2 * (1 + kE));
  const double phi = std::acos(V / (A * omega)), u = kG * tau / 2, s = kT0 - phi / omega;
  Vector x(2);
  x << A * std::sin(phi) + u * s - kG * s * s / 2, u - kG * s;
  return x;
}

// The forcing period 2 pi / omega with omega the last carried parameter.
ShootingOptions options() {
  ShootingOptions o;
  o.phase = kT0;  // at omega = 2 pi, t0 = 0.55
  o.period_of = [](const Vector& p, Vector* dT_dp) {
    if (dT_dp) {
      dT_dp->setZero(p.size());
      (*dT_dp)[p.size() - 1] = -2 * M_PI / (p[p.size() - 1] * p[p.size() - 1]);
    }
    return 2 * M_PI / p[p.size() - 1];
  };
  o.simulation.absolute_tolerance = o.simulation.relative_tolerance = 1e-12;
  return o;
}

void BM_BallCyclePdCurve(benchmark::State& state) {
  models::BouncingBall ball;
  ball.e = kE;
  const ShootingSystem shooting(flow::make_hybrid(ball)->with_parameters_in_state({"A", "omega"}), 2,
                                options());
  const double omega = 2 * M_PI;
  Vector u0(4);
  u0 << orbit(A_pd(omega), omega), A_pd(omega), omega;
  ContinuationOptions o;
  o.ds = 0.05;
  o.ds_max = 0.2;
  o.max_points = 20;
  Branch curve;
  std::size_t total = 0;
  for (auto _ : state) {
    auto system = std::make_shared<CycleCurveSystem>(shooting, CycleBifurcation::kPeriodDoubling, u0);
    const ContinuationProblem problem(system, Vector::Constant(1, omega), {"omega"});
    curve = continue_branch(problem, u0, o);
    total += curve.points.size();
  }
  if (curve.points.size() < 10) state.SkipWithError(("PD curve: " + curve.message).c_str());
  double worst = 0.0;
  for (const auto& p : curve.points) worst = std::max(worst, std::abs(p.y[2] - A_pd(p.y[3])));
  state.counters["points"] = static_cast<double>(curve.points.size());
  state.counters["us_per_point"] = benchmark::Counter(
      static_cast<double>(total) * 1e-6, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["max_error"] = worst;
}
BENCHMARK(BM_BallCyclePdCurve)->Unit(benchmark::kMillisecond);

void BM_BallCycleBranchInA(benchmark::State& state) {
  models::BouncingBall ball;
  ball.e = kE;
  ball.omega = 2 * M_PI;
  ShootingOptions fixed = options();  // omega = 2 pi: the period 1, the cut at 0.55
  fixed.period_of = nullptr;
  fixed.t0 = kT0;
  auto shooting =
      std::make_shared<ShootingSystem>(flow::make_hybrid(ball)->with_parameters_in_state({"A"}), 1, fixed);
  const double A = 0.3;
  Vector y(3);
  y << orbit(A, 2 * M_PI), A;
  const ContinuationProblem problem(shooting, Vector::Constant(1, A), {"A"});
  ContinuationOptions o;
  o.ds = 0.005;
  o.ds_max = 0.02;
  o.max_points = 20;
  o.event_tolerance = 1e-12;
  Branch branch;
  std::size_t total = 0;
  for (auto _ : state) {
    branch = continue_branch(problem, y, o, {std::make_shared<PeriodDoublingTest>()});
    total += branch.points.size();
  }
  if (branch.points.size() < 10) state.SkipWithError(("branch in A: " + branch.message).c_str());
  state.counters["points"] = static_cast<double>(branch.points.size());
  state.counters["us_per_point"] = benchmark::Counter(
      static_cast<double>(total) * 1e-6, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_BallCycleBranchInA)->Unit(benchmark::kMillisecond);

}  // namespace
