// The cycles of the 1-D Brusselator (examples/brusselator_1d.json: a = 2,
// d1 = 0.008, d2 = 0.004; the example has n = 500 points per species, 1000
// unknowns) followed from the Hopf point of its homogeneous state: the
// equilibria continued in b with the Hopf test (as bench/brusselator_1d.cpp),
// the first cycle from the Hopf normal form (analyses/hopf/cycle_start.h),
// then pseudo-arclength continuation of the cycles by matrix-free shooting
// (continuation/linear_solver.h: GMRES on the bordered system, each product
// one tangent-lifted period; periodic::ShootingSystem chooses it by size),
// with the LPC, PD and NS tests on the leading Floquet multipliers by
// Arnoldi. Timed: the start's correction and the points (untimed: the
// equilibria and the Hopf point). Counters: points, cpu_s_per_point (CPU
// seconds of the process: the host is shared), b_last, and mu2 (the
// largest nontrivial multiplier's modulus at the last point). The
// multipliers of every point go to stderr as a table.
//
//   ./build/bench/saltus_bench --benchmark_filter=BrusselatorCycles
//
// BrusselatorCycles/n: n = 50 and 100 points per species, 20 points each
// (SALTUS_BENCH_SMOKE, ctest bench_smoke: n = 50, 2 points). n = 500, the
// example's size, only with SALTUS_BENCH_LARGE=1: the explicit integrator
// takes 3870 steps a period there (the diffusion's eigenvalues reach
// -8000: the steps are bounded by stability, not accuracy), a product
// costs about 7 s and a point several minutes (docs/performance.md).

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "analyses/hopf/cycle_start.h"
#include "continuation/autodiff_system.h"
#include "continuation/pseudo_arclength.h"
#include "models/brusselator_1d_flow.h"
#include "testfunctions/floquet.h"
#include "testfunctions/fold.h"
#include "testfunctions/hopf.h"

namespace {

using namespace saltus;

// The Hopf point of the homogeneous state of n points per species, located
// on its branch in b, as (x, a, b, d1, d2); empty when not found.
Vector hopf_point_of(int n, double* omega) {
  models::Brusselator1d model;
  model.n = n;
  Vector p(4);
  p << 2.0, 4.5, 0.008, 0.004;
  const ContinuationProblem problem(make_system(model), p, {"b"});
  Vector y0(2 * n + 1);
  y0 << model.homogeneous_state(2.0, 4.5), 4.5;
  ContinuationOptions options;
  options.ds = 0.1;
  options.ds_max = 0.25;
  options.bounds["b"] = Bound{4.5, 6.0};
  options.eigenvalues = true;
  options.eigenvalue_count = 10;
  options.event_tolerance = 1e-12;
  const Branch branch = continue_branch(problem, y0, options, {std::make_shared<HopfTest>()});
  for (const auto& sp : branch.special_points)
    if (sp.type == "HB") {
      *omega = sp.data.value("frequency", 0.0);
      return problem.u(sp.y);
    }
  return {};
}

void BM_BrusselatorCycles(benchmark::State& state) {
  const bool smoke = std::getenv("SALTUS_BENCH_SMOKE") != nullptr;
  const int n = static_cast<int>(state.range(0)), points = smoke ? 3 : 21;  // the start and 20 points
  double omega = 0.0;
  const Vector u_hopf = hopf_point_of(n, &omega);
  if (u_hopf.size() == 0) {
    state.SkipWithError("no Hopf point on the homogeneous branch");
    return;
  }
  models::Brusselator1d model;
  model.n = n;
  const auto equations = make_system(model);
  const TestFunctions tests = {std::make_shared<FoldTest>("LPC"), std::make_shared<PeriodDoublingTest>(),
                               std::make_shared<NeimarkSackerTest>()};
  Branch branch;
  HopfCycleStart start;
  const std::clock_t started = std::clock();
  for (auto _ : state) {
    // Matrix-free at every size (automatic from 256 states: n = 500 would
    // be anyway).
    periodic::ShootingOptions shooting;
    shooting.linear_solver = periodic::ShootingLinearSolver::kMatrixFree;
    start = hopf_cycle_start(*equations, models::brusselator_1d_flow(n), u_hopf, 1, 0.05, shooting, omega);
    ContinuationOptions options;
    options.ds = 0.1;
    options.ds_max = 0.5;
    // Near the Hopf point a second multiplier is 1 - O(b - b_H) (0.997 at
    // n = 50): the integration's noise (1e-12) reaches the Newton steps
    // amplified by 1 / (1 - mu), and the default 1e-10 on them stalls the
    // corrector (the steps shrank to 1e-7 within 20 points, dense and
    // matrix-free alike); 1e-8 is the residual's own tolerance.
    options.newton_tolerance = 1e-8;
    options.max_points = points;
    options.direction = start.direction;
    branch = continue_branch(*start.problem, start.y0, options, tests);
    if (branch.points.size() < static_cast<std::size_t>(points)) {
      state.SkipWithError(("the branch stopped: " + branch.message).c_str());
      return;
    }
  }
  const double cpu = static_cast<double>(std::clock() - started) / CLOCKS_PER_SEC;
  state.counters["points"] = static_cast<double>(branch.points.size());
  state.counters["cpu_s_per_point"] = cpu / (static_cast<double>(state.iterations()) * points);
  state.counters["b_last"] = branch.points.back().y[2 * n + 1];
  std::fprintf(stderr, "# Brusselator cycles, n = %d (%d states): b, T, leading Floquet multipliers\n", n,
               2 * n);
  for (const auto& p : branch.points) {
    const Eigen::VectorXcd mu = start.shooting->leading_multipliers(start.problem->u(p.y));
    std::fprintf(stderr, "%.6f %.6f", p.y[2 * n + 1], p.y[2 * n]);
    for (const auto& m : mu) std::fprintf(stderr, " %.6f%+.6fi", m.real(), m.imag());
    std::fprintf(stderr, "\n");
  }
  const Eigen::VectorXcd mu = start.shooting->leading_multipliers(start.problem->u(branch.points.back().y));
  if (mu.size() > 1) state.counters["mu2"] = std::abs(mu[1]);
}
void sizes(benchmark::internal::Benchmark* b) {
  const bool smoke = std::getenv("SALTUS_BENCH_SMOKE") != nullptr;
  b->Arg(50);
  if (!smoke) b->Arg(100);
  if (!smoke && std::getenv("SALTUS_BENCH_LARGE") != nullptr) b->Arg(500);
}
BENCHMARK(BM_BrusselatorCycles)->Apply(sizes)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
