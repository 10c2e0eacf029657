// Time per continuation point on the Lorenz branch of periodic orbits
// (sigma = 10, beta = 8/3) from the orbit at rho = 280 (AUTO-07p's `lor`
// start) down to the first period doubling (rho = 229.4067...), by single
// shooting with the PD test function, as tests/continuation/periodic/
// lorenz.test.cpp runs it. Each iteration is the whole branch to the PD
// (start correction, the steps, the PD location), reported per point:
// "us_per_point" = the iteration's time / the points on the branch (regular
// and located). The goal: no slower than AUTO-07p's collocation at
// the same accuracy of the PD values (about 0.3 ms per point on this kind of
// machine).
//
// The arguments are -10 log10 of the integrator tolerance (absolute =
// relative; 80 is 1e-8, 75 is 3.2e-8) and -log10 of the corrector's newton_tolerance (on |dy| / (1 + |y|);
// the engine's default is 1e-10): a Newton step cannot be resolved below the integration error, so a looser
// one saves a variational solve per point. The third argument is SimulationOptions::transition_error_control:
// 1, Phi takes part in the step-size control (the default); 0, the state alone decides the steps and Phi
// rides on them. The fourth is SimulationOptions::method: 0 dopri5, 1 dop853. "pd_error" is |rho_PD -
// rho_PD(1e-12)|, the PD's distance from its value at tolerance 1e-12 with dop853 (the more accurate method
// there): the accuracy that tolerance buys (the goal is 1e-6). "reference_spread" is the distance between the
// two methods' PDs at 1e-12, the reference's own error bar (it should be far below 1e-6).
//
//   ./build/bench/saltus_bench --benchmark_filter=Lorenz

#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>

#include "continuation/flow/hybrid_system.h"
#include "continuation/flow/simulate.h"
#include "continuation/periodic/shooting.h"
#include "continuation/pseudo_arclength.h"
#include "models/lorenz.h"
#include "testfunctions/floquet.h"

using namespace saltus;

namespace {

struct Run {
  double pd = NAN;
  std::size_t points = 0;
};

Run branch_to_first_pd(double tolerance, double newton_tolerance = 1e-10,
                       bool transition_error_control = true,
                       flow::IntegrationMethod method = flow::IntegrationMethod::kDop853) {
  flow::SimulationOptions simulation;
  simulation.absolute_tolerance = simulation.relative_tolerance = tolerance;
  simulation.transition_error_control = transition_error_control;
  simulation.method = method;
  const models::LorenzBranchStart start = models::lorenz_branch_start(simulation);
  ContinuationOptions options = models::lorenz_branch_options();
  options.newton_tolerance = newton_tolerance;
  options.bounds["rho"] = {205.0, 300.0};
  // Stop at the first PD: the callback sees it as soon as it is located.
  options.callback = [](const Branch& b) { return b.special_points.empty(); };
  const Branch b =
      continue_branch(*start.problem, start.y, options, {std::make_shared<PeriodDoublingTest>()});
  Run run;
  run.points = b.points.size();
  for (const auto& s : b.special_points)
    if (s.type == "PD") {
      run.pd = s.y[4];
      break;
    }
  return run;
}

void BM_LorenzBranchToFirstPD(benchmark::State& state) {
  const double tolerance = std::pow(10.0, -0.1 * static_cast<double>(state.range(0)));
  const double newton_tolerance = std::pow(10.0, -static_cast<double>(state.range(1)));
  const bool transition_error_control = state.range(2) != 0;
  const auto method =
      state.range(3) == 0 ? flow::IntegrationMethod::kDopri5 : flow::IntegrationMethod::kDop853;
  static const double reference_pd =
      branch_to_first_pd(1e-12, 1e-10, true, flow::IntegrationMethod::kDop853).pd;
  static const double reference_spread =
      std::abs(branch_to_first_pd(1e-12, 1e-10, true, flow::IntegrationMethod::kDopri5).pd - reference_pd);
  Run run;
  std::size_t points = 0;
  for (auto _ : state) {
    run = branch_to_first_pd(tolerance, newton_tolerance, transition_error_control, method);
    points += run.points;
  }
  if (!std::isfinite(run.pd) || !std::isfinite(reference_pd)) {
    state.SkipWithError("no period doubling located on the branch: the settings lost the cascade");
    return;
  }
  state.SetItemsProcessed(static_cast<int64_t>(points));
  state.counters["points"] = static_cast<double>(run.points);
  state.counters["us_per_point"] = benchmark::Counter(
      static_cast<double>(points) * 1e-6, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["pd_rho"] = run.pd;
  state.counters["pd_error"] = std::abs(run.pd - reference_pd);
  state.counters["reference_spread"] = reference_spread;
  state.SetLabel(flow::to_string(method));
}

}  // namespace

// Tolerances 1e-6 .. 1e-10 by half decades, both step-size controls, both
// methods; then a looser corrector where it can pay.
void lorenz_arguments(benchmark::internal::Benchmark* b) {
  for (int method : {0, 1})
    for (int control : {1, 0})
      for (int tolerance = 60; tolerance <= 100; tolerance += 5) b->Args({tolerance, 10, control, method});
  for (int method : {0, 1})
    for (int tolerance : {75, 80, 85}) b->Args({tolerance, 8, 1, method});
}

BENCHMARK(BM_LorenzBranchToFirstPD)->Apply(lorenz_arguments)->Unit(benchmark::kMillisecond);
