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
// equilibria, the Hopf point and the checks below). Counters: points,
// cpu_s_per_point (CPU seconds of the process: the host is shared), b_last,
// mu2 (the largest nontrivial multiplier's modulus at the last point), and
// amplitude_error0, frequency_error0: the first cycle against the Hopf
// normal form. To stderr, as each point comes: the cumulative CPU seconds,
// b, T and the leading multipliers, and for the first six cycles their
// amplitude and frequency against the normal form's.
//
//   ./build/bench/saltus_bench --benchmark_filter=BrusselatorCycles
//
// BrusselatorCycles/n: n = 50 and 100 points per species, 20 points each
// (SALTUS_BENCH_SMOKE, ctest bench_smoke: n = 50, 2 points). n = 500, the
// example's size, only with SALTUS_BENCH_LARGE=1: the explicit integrator
// takes 3870 steps a period there (the diffusion's eigenvalues reach
// -8000: the steps are bounded by stability, not accuracy), a product
// costs about 0.9 s and a point about a minute (docs/performance.md).
//
//   SALTUS_BENCH_LARGE=1 ./build/bench/saltus_bench --benchmark_filter=BrusselatorCycles/500

#include <benchmark/benchmark.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "analyses/hopf/cycle_start.h"
#include "continuation/autodiff_system.h"
#include "continuation/flow/simulate.h"
#include "continuation/pseudo_arclength.h"
#include "models/brusselator_1d_flow.h"
#include "testfunctions/floquet.h"
#include "testfunctions/fold.h"
#include "testfunctions/hopf.h"

namespace {

using namespace saltus;

// The Hopf point of the homogeneous state of n points per species, located
// on its branch in b, as (x, a, b, d1, d2); empty when not found.
// The first Fourier coefficient of z(t) = <p, x(t) - x0> over the cycle
// from z0 (period T), on 64 equally spaced samples (the trapezoidal rule,
// spectrally accurate on a periodic function): on the centre manifold
// x = x0 + z q + conj(z q) + O(|z|^2) with z = epsilon e^{i omega t}, and
// the O(|z|^2) terms are the harmonics 0 and 2, so this is epsilon +
// O(epsilon^3) (as tests/continuation/periodic/matrix_free_cycles.test.cpp).
double first_harmonic(const flow::HybridSystem& flow, const Vector& z0, double T, const Vector& x0,
                      const Eigen::VectorXcd& p) {
  constexpr int kSamples = 64;
  flow::SimulationOptions options;
  options.variational = false;
  options.record_steps = false;
  Vector z = z0;
  std::complex<double> c = 0.0;
  for (int k = 0; k < kSamples; ++k) {
    const double t = k * T / kSamples;
    c += p.dot((z.head(x0.size()) - x0).cast<std::complex<double>>()) *
         std::polar(1.0, -2 * M_PI * k / kSamples);
    const flow::Trajectory tr = flow::simulate(flow, 0, t, z, t + T / kSamples, options);
    if (!tr.ok()) return std::nan("");
    z = tr.x_end;
  }
  return std::abs(c) / kSamples;
}

// The normal form z' = (mu + i omega) z + l1 omega z |z|^2 (Kuznetsov,
// "Elements of applied bifurcation theory", 3rd ed., 2004, Sec. 3.5) at the
// Hopf point: its cycles have the amplitude epsilon = sqrt(-mu' (b - b_H) /
// (l1 omega)) and the frequency omega, both to relative O(b - b_H).
struct NormalForm {
  HopfPoint h;
  double b_h = 0.0, mu_prime = 0.0;
};

// One cycle y = (x, T, b) against the normal form, as a row to stderr
// (b - b_H, epsilon, the normal form's, relative error, 2 pi / T, relative
// error); returns the two relative errors.
std::pair<double, double> normal_form_row(int n, const Vector& u_hopf, const NormalForm& nf,
                                          const Vector& y) {
  models::Brusselator1d model;
  model.n = n;
  const double b = y[2 * n + 1], T = y[2 * n];
  Vector z(2 * n + 4);
  z << y.head(2 * n), u_hopf[2 * n], b, u_hopf[2 * n + 2], u_hopf[2 * n + 3];
  const double epsilon = first_harmonic(*models::brusselator_1d_flow(n), z, T,
                                        model.homogeneous_state(u_hopf[2 * n], b), nf.h.p);
  const double predicted = std::sqrt(-nf.mu_prime * (b - nf.b_h) / (nf.h.l1 * nf.h.omega));
  const double amplitude_error = std::abs(epsilon / predicted - 1);
  const double frequency_error = std::abs(2 * M_PI / T / nf.h.omega - 1);
  std::fprintf(stderr, "# normal form: %.6e %.6e %.6e %.3e %.8f %.3e\n", b - nf.b_h, epsilon, predicted,
               amplitude_error, 2 * M_PI / T, frequency_error);
  return {amplitude_error, frequency_error};
}

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
  NormalForm nf;  // untimed: the Hopf data (the sparse path of hopf_point)
  nf.h = hopf_point(*equations, u_hopf, omega);
  nf.b_h = u_hopf[2 * n + 1];
  std::fprintf(stderr,
               "# Brusselator cycles, n = %d (%d states), Hopf point b_H = %.8f, omega = %.8f, l1 = %.6g\n"
               "# per point: cumulative CPU s, b, T, leading Floquet multipliers; for the first 6 also "
               "\"normal form:\" b - b_H, epsilon (first harmonic of <p, x - x0>), the normal form's "
               "sqrt(-mu' (b - b_H) / (l1 omega)), relative error, 2 pi / T, relative error\n",
               n, 2 * n, nf.b_h, nf.h.omega, nf.h.l1);
  std::clock_t started = std::clock(), untimed = 0;
  std::pair<double, double> first_errors{NAN, NAN};
  for (auto _ : state) {
    // Matrix-free at every size (automatic from 256 states: n = 500 would
    // be anyway).
    periodic::ShootingOptions shooting;
    shooting.linear_solver = periodic::ShootingLinearSolver::kMatrixFree;
    start = hopf_cycle_start(*equations, models::brusselator_1d_flow(n), u_hopf, 1, 0.05, shooting, omega);
    nf.mu_prime = start.guess.transversality;
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
    // Each point as it comes (a long run shows what it has): its multipliers
    // are those the LPC/PD/NS tests just computed (ShootingSystem keeps the
    // last 8), the normal-form rows untimed.
    std::size_t printed = 0;
    options.callback = [&](const Branch& b) {
      const std::clock_t now = std::clock();
      for (; printed < b.points.size(); ++printed) {  // the first call has the start too
        const BranchPoint& p = b.points[printed];
        const Eigen::VectorXcd mu = start.shooting->leading_multipliers(start.problem->u(p.y));
        std::fprintf(stderr, "%.1f %.8f %.8f", static_cast<double>(now - started - untimed) / CLOCKS_PER_SEC,
                     p.y[2 * n + 1], p.y[2 * n]);
        for (const auto& m : mu) std::fprintf(stderr, " %.6f%+.6fi", m.real(), m.imag());
        std::fprintf(stderr, "\n");
        if (printed < 6) {
          const auto errors = normal_form_row(n, u_hopf, nf, p.y);
          if (printed == 0) first_errors = errors;
        }
      }
      std::fflush(stderr);
      untimed += std::clock() - now;
      return true;
    };
    branch = continue_branch(*start.problem, start.y0, options, tests);
    if (branch.points.size() < static_cast<std::size_t>(points)) {
      state.SkipWithError(("the branch stopped: " + branch.message).c_str());
      return;
    }
  }
  const double cpu = static_cast<double>(std::clock() - started - untimed) / CLOCKS_PER_SEC;
  state.counters["points"] = static_cast<double>(branch.points.size());
  state.counters["cpu_s_per_point"] = cpu / (static_cast<double>(state.iterations()) * points);
  state.counters["b_last"] = branch.points.back().y[2 * n + 1];
  const Eigen::VectorXcd mu = start.shooting->leading_multipliers(start.problem->u(branch.points.back().y));
  if (mu.size() > 1) state.counters["mu2"] = std::abs(mu[1]);
  state.counters["amplitude_error0"] = first_errors.first;
  state.counters["frequency_error0"] = first_errors.second;
}
void sizes(benchmark::internal::Benchmark* b) {
  const bool smoke = std::getenv("SALTUS_BENCH_SMOKE") != nullptr;
  b->Arg(50);
  if (!smoke) b->Arg(100);
  if (!smoke && std::getenv("SALTUS_BENCH_LARGE") != nullptr) b->Arg(500);
}
BENCHMARK(BM_BrusselatorCycles)->Apply(sizes)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace

namespace {

using namespace saltus;

// One evaluation of the field at n points per species against one of its
// tangent-lifted field (f, f_z w): the directional derivative's cost in units
// of the field (counters lifted_over_plain, plain_us, lifted_us).
//
//   ./build/bench/saltus_bench --benchmark_filter=BrusselatorLiftedField
void BM_BrusselatorLiftedField(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0)), dim = 2 * n + 4;
  const auto plain = models::brusselator_1d_flow(n);
  const auto lifted = plain->tangent_lifted();
  models::Brusselator1d model;
  model.n = n;
  Vector z(2 * dim), f(2 * dim);
  z.head(2 * n) = model.homogeneous_state(2.0, 5.12);
  for (int i = 0; i < 2 * n; ++i) z[i] += 0.1 * std::sin(0.37 * i);
  z.segment(2 * n, 4) << 2.0, 5.12, 0.008, 0.004;
  for (int i = 0; i < dim; ++i) z[dim + i] = std::cos(0.71 * i);
  constexpr int kCalls = 2000;
  double plain_s = 0.0, lifted_s = 0.0;
  for (auto _ : state) {
    std::clock_t t0 = std::clock();
    for (int k = 0; k < kCalls; ++k) {
      plain->field_in_place(0, 0.0, z.data(), f.data());
      benchmark::DoNotOptimize(f.data());
    }
    std::clock_t t1 = std::clock();
    for (int k = 0; k < kCalls; ++k) {
      lifted->field_in_place(0, 0.0, z.data(), f.data());
      benchmark::DoNotOptimize(f.data());
    }
    std::clock_t t2 = std::clock();
    plain_s += static_cast<double>(t1 - t0) / CLOCKS_PER_SEC;
    lifted_s += static_cast<double>(t2 - t1) / CLOCKS_PER_SEC;
  }
  const double calls = static_cast<double>(state.iterations()) * kCalls;
  state.counters["plain_us"] = 1e6 * plain_s / calls;
  state.counters["lifted_us"] = 1e6 * lifted_s / calls;
  state.counters["lifted_over_plain"] = lifted_s / plain_s;
}
BENCHMARK(BM_BrusselatorLiftedField)->Arg(500)->Unit(benchmark::kMillisecond);

// One period (T = 3.08, the first cycles') of the tangent-lifted flow, a
// product M v of the matrix-free shooting (continuation/periodic/
// monodromy_operator.h), against one period of the state alone, with the
// shooting's integration options (dop853, 1e-12, no variational equations):
// counters product_s and state_s (CPU seconds).
//
//   ./build/bench/saltus_bench --benchmark_filter=BrusselatorProduct
void BM_BrusselatorProduct(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0)), dim = 2 * n + 4;
  const auto plain = models::brusselator_1d_flow(n);
  const auto lifted = plain->tangent_lifted();
  models::Brusselator1d model;
  model.n = n;
  Vector z(2 * dim);
  z.head(2 * n) = model.homogeneous_state(2.0, 5.12);
  for (int i = 0; i < n; ++i) z[2 * i] += 0.05 * std::sin(M_PI * (i + 1) / (n + 1));
  z.segment(2 * n, 4) << 2.0, 5.12, 0.008, 0.004;
  z.tail(dim).setZero();
  for (int i = 0; i < 2 * n; ++i) z[dim + i] = std::sin(M_PI * (i / 2 + 1) / (n + 1));
  z.tail(dim).normalize();
  flow::SimulationOptions options;
  options.variational = false;
  options.guard_search = false;
  options.record_steps = false;
  double product_s = 0.0, state_s = 0.0;
  for (auto _ : state) {
    std::clock_t t0 = std::clock();
    const flow::Trajectory tr = flow::simulate(*lifted, 0, 0.0, z, 3.08, options);
    std::clock_t t1 = std::clock();
    const flow::Trajectory alone = flow::simulate(*plain, 0, 0.0, Vector(z.head(dim)), 3.08, options);
    std::clock_t t2 = std::clock();
    if (!tr.ok() || !alone.ok()) {
      state.SkipWithError("a period failed");
      return;
    }
    product_s += static_cast<double>(t1 - t0) / CLOCKS_PER_SEC;
    state_s += static_cast<double>(t2 - t1) / CLOCKS_PER_SEC;
  }
  state.counters["product_s"] = product_s / static_cast<double>(state.iterations());
  state.counters["state_s"] = state_s / static_cast<double>(state.iterations());
}
// n = 500 costs a second: not in the smoke run (ctest bench_smoke).
void product_sizes(benchmark::internal::Benchmark* b) {
  b->Arg(100);
  if (std::getenv("SALTUS_BENCH_SMOKE") == nullptr) b->Arg(500);
}
BENCHMARK(BM_BrusselatorProduct)->Apply(product_sizes)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
