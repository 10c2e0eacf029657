// Time per point on the Lorenz system's period-doubling curve in (rho,
// sigma) (beta = 8/3; examples/user/lorenz_pd_curve.json): autonomous
// shooting with the phase condition plus the bordered test function of
// M + I, its derivative from the tangent-lifted system (continuation/
// periodic/cycle_curve.h), from the first PD of the branch from rho = 280
// at sigma = 10 (located untimed, as bench/lorenz_branch.cpp follows it),
// 20 points up in sigma. Counters: us_per_point, points, and sigma_end,
// rho_end: the last point reached.
//
//   ./build/bench/saltus_bench --benchmark_filter=LorenzPdCurve

#include <benchmark/benchmark.h>

#include <memory>

#include "continuation/flow/hybrid_system.h"
#include "continuation/periodic/cycle_curve.h"
#include "continuation/pseudo_arclength.h"
#include "models/lorenz.h"
#include "testfunctions/floquet.h"

using namespace saltus;

namespace {

void BM_LorenzPdCurve(benchmark::State& state) {
  flow::SimulationOptions simulation;
  simulation.absolute_tolerance = simulation.relative_tolerance = 1e-10;
  const models::LorenzBranchStart start = models::lorenz_branch_start(simulation);
  const Branch branch = continue_branch(*start.problem, start.y, models::lorenz_branch_options(),
                                        {std::make_shared<PeriodDoublingTest>()});
  const SpecialPoint* pd = nullptr;
  for (const auto& sp : branch.special_points)
    if (!pd && sp.type == "PD") pd = &sp;
  if (!pd) {
    state.SkipWithError("no PD on the Lorenz branch");
    return;
  }
  // (x, y, z, T, rho) -> (x, y, z, T, rho, sigma).
  Vector u(6);
  u << pd->y, 10.0;
  periodic::ShootingOptions options;
  options.autonomous = true;
  options.simulation = simulation;
  Vector reference(5);
  reference << u.head(3), u.tail(2);
  const periodic::ShootingSystem shooting(
      flow::make_hybrid(models::Lorenz{})->with_parameters_in_state({"rho", "sigma"}), 2, options, reference);
  ContinuationOptions o;
  o.ds = 0.05;
  o.ds_max = 0.5;
  o.max_points = 20;
  Branch curve;
  std::size_t total = 0;
  for (auto _ : state) {
    auto system = std::make_shared<periodic::CycleCurveSystem>(
        shooting, periodic::CycleBifurcation::kPeriodDoubling, u);
    const ContinuationProblem problem(system, Vector::Constant(1, 10.0), {"sigma"});
    curve = continue_branch(problem, u, o);
    total += curve.points.size();
  }
  if (curve.points.size() < 10) state.SkipWithError(("Lorenz PD curve: " + curve.message).c_str());
  state.counters["points"] = static_cast<double>(curve.points.size());
  state.counters["us_per_point"] = benchmark::Counter(
      static_cast<double>(total) * 1e-6, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["sigma_end"] = curve.points.back().y[5];
  state.counters["rho_end"] = curve.points.back().y[4];
}
BENCHMARK(BM_LorenzPdCurve)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
