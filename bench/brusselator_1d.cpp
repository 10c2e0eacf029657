// The cost of eigenvalue monitoring on a large sparse branch: the 1-D
// Brusselator with 500 points per species (1000 unknowns) continued along its
// homogeneous state in b through the Hopf points of its first two modes,
// without eigenvalues, with the 10 of smallest modulus (shift-invert Arnoldi
// on the engine's LU, warm-started from the last point), and with the Hopf
// test and its two points located. Goal: monitoring adds under 30% per
// point. Measured (2026-11-26, 2 cores): 72 ms, 124 ms (+73%) and 163 ms
// (+126%) a branch; before the warm start 247 ms with the Hopf test. An
// Arnoldi run is now about 15 solves with the LU (27 us each) where the base
// point costs about 1 ms: the goal is not met.
// Profile (2026-11-26, perf record, and counters around the Arnoldi runs):
// 73.3 ms, 126 ms (+72%) and 164 ms (+124%) a branch of 70 points. 74
// eigenvalue calls make 1294 LU solves: 66 warm-started runs of 15 solves
// (ncv = k + 4 = 14 plus one restart, the Krylov floor for k = 10) and 8
// fresh runs (every tenth call) of 38; the solves are ~60-70% of the
// monitoring time, Spectra's own work the rest. Tried and rejected: mixing
// 1% or 10% noise into the warm start instead of the fresh runs (2600-3500
// solves: the noise excites the unwanted directions), ncv = k + 3, k + 6,
// k + 8, k + 10 (more solves, not fewer); dropping the fresh runs alone
// saves 12% of the solves.
// Tracking (2026-11-26, continuation/eigenvalues.cpp): between the fresh
// runs, one block solve with the last point's 10-column invariant basis and
// harmonic Rayleigh-Ritz, certified by its residuals; every one of the 66
// warm calls passed at the first step (this branch is tracking's best case:
// along the homogeneous state the invariant subspaces, sine modes, do not
// turn; tests/continuation/eigenvalues.test.cpp has a branch where they do).
// One run (loaded machine, CPU time):
// 74.6 ms a branch without eigenvalues; with them 124 ms tracked against
// 153 ms with Arnoldi at every point (the *_ArnoldiOnly variants, the method
// before): monitoring +66% against +105%, its cost down by 36%; with the
// Hopf points located 160 ms against 247 ms (+114% against +231%). The goal
// (+30%) is not met: the 8 fresh runs (38 solves each) and the dense work on
// the n x k blocks (orthonormalization, H, R, about 1e6 multiply-adds a
// point) remain; the next cut is a fresh run every 20th call or a cheaper
// completeness check, and the Hopf location's corrector points.
// Profile (2026-11-26, second session; thread CPU time per branch of 70
// points, counters around each part, the machine loaded): the base point is
// one corrector factorization and one tangent factorization (148 sparse LUs
// of F_x a branch, 49 ms of the 73), and the eigenvalues add none (they use
// the tangent's LU). Monitoring (+41.5 ms): 66 tracking steps, each a
// 10-column block solve (8.2 ms in all) and 0.27 ms of dense n x 10 work
// (17.9 ms: two orthonormalizations, A V, H, R, G and the new basis, about
// 7 n k^2 multiply-adds); 8 fresh Arnoldi runs of 38 solves (15.8 ms); and
// 3 eigenvalue solves inside the location of the bound b = 6, which does
// not read them (2.9 ms). With the Hopf test: 13 more corrector points in
// the two locations (about 1.5 ms each with their eigenvalues) and 15.6 ms
// in hopf_point (three complex sparse LUs per HB, for q, p and l1).
// Cuts (continuation/eigenvalues.cpp): the harmonic Rayleigh-Ritz step
// written as Rayleigh-Ritz of F_x^{-1} on the tracked basis (no
// orthonormalization, no product with F_x: 3.5 n k^2, 8.3 ms); the fresh run
// every tenth call replaced by an audit (the smallest untracked eigenvalue
// by Arnoldi on the deflated inverse, 12 solves to 1e-2; 7 audits 4.3 ms)
// with a fresh run only when an eigenvalue entered from outside; the
// location of a test that reads no eigenvalues computes none
// (TestFunction::reads_eigenvalues); hopf_point's shift-0 solve on a real
// LU and its 2 i omega LU on the i omega ordering. The floor is the
// tracking step itself: block solve and dense work, 0.25 ms a point, 23% of
// this base. Three runs in a row (CPU time, loaded machine): without
// eigenvalues 79.1, 75.2, 73.2 ms; with them 99.1, 96.4, 95.4 ms (+25%,
// +28%, +30%); with the Hopf points located 133, 129, 127 ms (+68%, +72%,
// +74%); with 6 eigenvalues instead of 10 (one run): 71.8, 89.1 (+24%) and
// 119 ms (+66%). Three later runs (load 6 falling to 2): 74.7/107/142,
// 82.8/93.9/137, 79.2/93.7/128 ms (+43%, +13%, +18%; Hopf +90%, +65%, +62%).
// A plain Rayleigh-Ritz step before the block solve (2026-11-27: one sparse
// product with F_x, which certifies every point of this branch, where the
// tracked subspace does not turn): instructions of one branch (callgrind)
// 1052 M, 1321 M (+25.6%) and 1715 M (+63%); CPU time, medians of 40
// interleaved repetitions on the idle machine (cv 15%): 142 and 179 ms
// (+26%). The dense n x k work of the Ritz step is now the largest part of
// the monitoring (115 M instructions), then the first Arnoldi run and the
// audits.

#include "models/brusselator_1d.h"

#include <benchmark/benchmark.h>

#include <chrono>

#include "continuation/autodiff_system.h"
#include "continuation/eigenvalues.h"
#include "continuation/pseudo_arclength.h"
#include "testfunctions/hopf.h"

namespace {

using namespace saltus;

// monitor: the eigenvalues at every point; detect: and the Hopf test, with
// its points located.
// track: eigenvalue tracking between Arnoldi runs (off: Arnoldi at every
// point, the method before it).
void run(benchmark::State& state, bool monitor, bool detect, bool track = true) {
  set_eigenvalue_tracking(track);
  models::Brusselator1d model;
  model.n = 500;
  Vector p(4);
  p << 2.0, 4.5, 0.008, 0.004;
  const ContinuationProblem problem(make_system(model), p, {"b"});
  Vector y0(2 * model.n + 1);
  y0 << model.homogeneous_state(2.0, 4.5), 4.5;
  ContinuationOptions options;
  options.ds = 0.1;
  options.ds_max = 0.25;
  options.bounds["b"] = Bound{4.5, 6.0};
  options.eigenvalues = monitor;
  options.eigenvalue_count = 10;
  TestFunctions tests;
  if (detect) tests.push_back(std::make_shared<HopfTest>());
  std::size_t points = 0;
  const auto started = std::chrono::steady_clock::now();
  for (auto _ : state) {
    const Branch branch = continue_branch(problem, y0, options, tests);
    if (branch.stop_reason != StopReason::kBound) state.SkipWithError("the branch did not reach b = 6");
    points = branch.points.size();
  }
  const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - started;
  state.counters["points"] = static_cast<double>(points);
  // Wall-clock milliseconds per point (located special points included).
  if (state.iterations() > 0 && points > 0)
    state.counters["ms_per_point"] = elapsed.count() / (static_cast<double>(state.iterations()) * points);
  set_eigenvalue_tracking(true);
}

void BM_Brusselator1d_Branch(benchmark::State& state) { run(state, false, false); }
void BM_Brusselator1d_BranchWithEigenvalues(benchmark::State& state) { run(state, true, false); }
void BM_Brusselator1d_BranchWithHopfPoints(benchmark::State& state) { run(state, true, true); }
void BM_Brusselator1d_BranchWithEigenvalues_ArnoldiOnly(benchmark::State& state) {
  run(state, true, false, false);
}
void BM_Brusselator1d_BranchWithHopfPoints_ArnoldiOnly(benchmark::State& state) {
  run(state, true, true, false);
}
BENCHMARK(BM_Brusselator1d_Branch)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Brusselator1d_BranchWithEigenvalues)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Brusselator1d_BranchWithHopfPoints)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Brusselator1d_BranchWithEigenvalues_ArnoldiOnly)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Brusselator1d_BranchWithHopfPoints_ArnoldiOnly)->Unit(benchmark::kMillisecond);

}  // namespace
