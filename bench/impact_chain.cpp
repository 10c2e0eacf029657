// One periodic orbit of the forced impact chain (scripts/impact_chain N: N
// masses, 2N states, a stop on the first mass, the forcing on the last) by
// shooting from a transient, as `saltus periodic` finds it: studies::
// find_orbit (the transient, the guess, Newton with the dense monodromy,
// whose 2N variational directions ride through every step, the multipliers
// from it, and the check of the events), against N. The run file is written
// by the generator (Debian's python3) and loaded, its expressions compiled,
// before the timing. Counters: states (2N), multiplier (the largest
// modulus), impacts (events of the orbit's period).
//
//   ./build/bench/saltus_bench --benchmark_filter=ImpactChain
//
// ImpactChainShooting{Dense,MatrixFree}/N/0: the orbit from the same guess
// (the state after the run's transient, studies::shooting_start) by
// periodic::find_orbit, with the dense monodromy or matrix-free (Newton-
// Krylov: continuation/periodic/newton_krylov.h); /N/1: the same and its
// multipliers (dense: the eigenvalues of the monodromy at the orbit;
// matrix-free: the 6 largest by Arnoldi, monodromy_operator.h, those in a
// cluster inside 0.9 bounded rather than resolved, as the branch's tests
// ask). Counters: newton (iterations), products (M v, matrix-free: GMRES's
// and, in arnoldi, Arnoldi's), multiplier (the largest modulus resolved, or
// when none is the cluster's bound), resolved (of the 6), deviation
// (matrix-free: the largest |x - x_dense| against the dense orbit, computed
// untimed).
//
// ImpactChainBranch{Dense,MatrixFree}/N/tests: one continuation point's
// cost. The orbit continued in the forcing frequency w (its period 2 pi / w
// follows; the cut at a fixed phase of the forcing) by pseudo-arclength
// from the same converged orbit, 6 points at the fixed step ds = 0.02 (the
// start and 5 steps), with the corrector and the tangent dense (the
// Jacobian from the variational equations) or matrix-free (GMRES on the
// bordered system, continuation/linear_solver.h); /N/0 without test
// functions, /N/1 with the orbit branch's default ones (LPC, PD, NS, as
// studies::continue_orbits; PD and NS read the leading multipliers: the
// dense monodromy's eigenvalues, or matrix-free 8 by Arnoldi). Counters:
// points, cpu_ms_per_point (the branch's CPU over its 5 steps: the start's
// tangent and tests are charged to them), w_last and deviation
// (matrix-free: the largest |y - y_dense| over the points against the
// dense branch's, computed untimed, or taken from the dense run just
// before).
//
// SALTUS_BENCH_SMOKE (ctest bench_smoke): N <= 32 only, to keep the suite
// short. N = 512 (1024 states) only with SALTUS_BENCH_LARGE=1: its dense
// orbit costs about a minute, its dense branch several.
//
//   SALTUS_BENCH_LARGE=1 ./build/bench/saltus_bench --benchmark_filter=ImpactChain
//
// The benchmarks compile a run file's blocks before they start
// (SALTUS_COMPILE=wait, models/compiled_block.h), once per N into the
// cache; from N = 64 that compile takes longer than the benchmark (over 5
// minutes of CPU at N = 64, 2026-11-29), so docs/performance.md's table
// is measured interpreted, as the figures were:
//
//   SALTUS_COMPILE=0 SALTUS_BENCH_LARGE=1 ./build/bench/saltus_bench --benchmark_filter=ImpactChain

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "continuation/periodic/find_orbit.h"
#include "continuation/periodic/monodromy_operator.h"
#include "continuation/periodic/shooting.h"
#include "continuation/pseudo_arclength.h"
#include "studies/hybrid_study.h"
#include "studies/json_input.h"
#include "studies/periodic_orbit.h"
#include "testfunctions/floquet.h"
#include "testfunctions/fold.h"

using namespace saltus;

namespace {

// The run file of N masses, from scripts/impact_chain, loaded; with
// `parameter`, its orbit carries (and a branch continues) that parameter.
std::shared_ptr<const studies::HybridRun> impact_chain(int n, const std::string& parameter = "") {
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() /
      ("saltus_impact_chain_" + std::to_string(n) + "_" + std::to_string(getpid()) + ".json");
  const std::string command = "/usr/bin/python3 " + std::string(SALTUS_SOURCE_DIR) +
                              "/scripts/impact_chain " + std::to_string(n) + " > " + file.string();
  if (std::system(command.c_str()) != 0) return nullptr;
  std::shared_ptr<const studies::HybridRun> run;
  if (parameter.empty()) {
    run = studies::load_hybrid(file);
  } else {
    studies::Json description = studies::Json::parse(std::ifstream(file));
    description["periodic"]["parameter"] = parameter;
    run = studies::load_hybrid_description(description, file.string());
  }
  std::filesystem::remove(file);
  return run;
}

// The chain's run (as impact_chain) and the shooting start after its
// transient; nothing, with the benchmark skipped and why, when either fails.
struct ChainStart {
  std::shared_ptr<const studies::HybridRun> run;
  studies::ShootingStart start;
};
std::optional<ChainStart> chain_start(benchmark::State& state, int n, const std::string& parameter = "") {
  ChainStart c{impact_chain(n, parameter), {}};
  if (!c.run) {
    state.SkipWithError("scripts/impact_chain failed (is /usr/bin/python3 there?)");
    return std::nullopt;
  }
  c.start = studies::shooting_start(*c.run);
  if (!c.start.ok) {
    state.SkipWithError(("no guess: " + c.start.message).c_str());
    return std::nullopt;
  }
  return c;
}

const std::initializer_list<int> kSizes = {8, 16, 32, 64, 128, 256, 512};

bool in_run(int n) {
  if (std::getenv("SALTUS_BENCH_SMOKE") != nullptr) return n <= 32;
  return n < 512 || std::getenv("SALTUS_BENCH_LARGE") != nullptr;
}

void chain_sizes(benchmark::internal::Benchmark* b) {
  for (int n : kSizes)
    if (in_run(n)) b->Arg(n);
}

// (N, with multipliers or test functions 0 | 1).
void chain_sizes_and_multipliers(benchmark::internal::Benchmark* b) {
  for (int with : {0, 1})
    for (int n : kSizes)
      if (in_run(n)) b->Args({n, with});
}

void BM_ImpactChainOrbitDense(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto run = impact_chain(n);
  if (!run) {
    state.SkipWithError("scripts/impact_chain failed (is /usr/bin/python3 there?)");
    return;
  }
  studies::BranchResult orbit;
  for (auto _ : state) {
    orbit = studies::find_orbit(run);
    if (orbit.branch.points.empty() || !orbit.branch.usable()) {
      state.SkipWithError(("no orbit: " + orbit.branch.message).c_str());
      return;
    }
  }
  const Vector u = orbit.problem->u(orbit.branch.points[0].y);
  state.counters["states"] = 2 * n;
  state.counters["multiplier"] = std::abs(periodic::floquet_multipliers(orbit.shooting->monodromy(u))[0]);
  state.counters["impacts"] = static_cast<double>(orbit.shooting->trajectory(u)->events.size());
}
BENCHMARK(BM_ImpactChainOrbitDense)->Apply(chain_sizes)->Unit(benchmark::kMillisecond);

// The orbit from the run's guess, dense or matrix-free, with its leading multipliers.
void shooting(benchmark::State& state, periodic::ShootingLinearSolver solver) {
  const int n = static_cast<int>(state.range(0));
  const std::optional<ChainStart> chain = chain_start(state, n);
  if (!chain) return;
  const studies::ShootingStart& start = chain->start;
  const Vector u0 = start.problem->u(start.y);
  periodic::OrbitSearchOptions options;
  options.linear_solver = solver;
  const bool matrix_free = solver == periodic::ShootingLinearSolver::kMatrixFree;
  const bool multipliers = state.range(1) == 1;
  periodic::OrbitSearch orbit;
  double multiplier = 0.0;
  int products = 0, arnoldi = 0, resolved = 0;
  for (auto _ : state) {
    orbit = periodic::find_orbit(*start.system, u0, options);
    if (!orbit.ok()) {
      state.SkipWithError(("no orbit: " + orbit.message).c_str());
      return;
    }
    products = orbit.products;
    if (!multipliers) continue;
    if (matrix_free) {
      const periodic::ArnoldiMultipliers a =
          periodic::arnoldi_multipliers(periodic::MonodromyOperator(*start.system, orbit.u));
      multiplier = a.multipliers.size() > 0 ? std::abs(a.multipliers[0]) : a.unresolved_bound;
      resolved = static_cast<int>(a.multipliers.size());
      arnoldi = a.products;
      products += a.products;
    } else {
      multiplier = std::abs(periodic::floquet_multipliers(start.system->monodromy(orbit.u))[0]);
    }
  }
  state.counters["states"] = 2 * n;
  state.counters["newton"] = orbit.iterations;
  state.counters["products"] = products;
  if (matrix_free && multipliers) {
    state.counters["arnoldi"] = arnoldi;
    state.counters["resolved"] = resolved;
  }
  if (multipliers) state.counters["multiplier"] = multiplier;
  if (matrix_free) {
    options.linear_solver = periodic::ShootingLinearSolver::kDense;
    const periodic::OrbitSearch dense = periodic::find_orbit(*start.system, u0, options);
    state.counters["deviation"] = (dense.u - orbit.u).lpNorm<Eigen::Infinity>();
  }
}

void BM_ImpactChainShootingDense(benchmark::State& state) {
  shooting(state, periodic::ShootingLinearSolver::kDense);
}
BENCHMARK(BM_ImpactChainShootingDense)->Apply(chain_sizes_and_multipliers)->Unit(benchmark::kMillisecond);

void BM_ImpactChainShootingMatrixFree(benchmark::State& state) {
  shooting(state, periodic::ShootingLinearSolver::kMatrixFree);
}
BENCHMARK(BM_ImpactChainShootingMatrixFree)
    ->Apply(chain_sizes_and_multipliers)
    ->Unit(benchmark::kMillisecond);

// The dense branch's points by N (ImpactChainBranchDense), for the
// matrix-free run's deviation without a second dense branch.
std::map<int, std::vector<Vector>> dense_points;

// The branch in w from the orbit of the run's guess (found matrix-free,
// untimed), with its corrector and tangent dense or matrix-free.
void branch(benchmark::State& state, periodic::ShootingLinearSolver solver) {
  const int n = static_cast<int>(state.range(0));
  const bool with_tests = state.range(1) == 1;
  const std::optional<ChainStart> chain = chain_start(state, n, "w");
  if (!chain) return;
  const studies::ShootingStart& start = chain->start;
  periodic::OrbitSearchOptions search;
  search.linear_solver = periodic::ShootingLinearSolver::kMatrixFree;
  const periodic::OrbitSearch orbit = periodic::find_orbit(*start.system, start.problem->u(start.y), search);
  if (!orbit.ok()) {
    state.SkipWithError(("no orbit: " + orbit.message).c_str());
    return;
  }
  periodic::ShootingOptions shooting = start.system->options();
  shooting.linear_solver = solver;
  ContinuationOptions options = chain->run->periodic->options;
  options.ds = options.ds_max = 0.02;
  options.max_points = 6;
  options.bounds.clear();
  const TestFunctions tests = {std::make_shared<FoldTest>("LPC"), std::make_shared<PeriodDoublingTest>(),
                               std::make_shared<NeimarkSackerTest>()};
  Branch b;
  double cpu = 0.0;
  for (auto _ : state) {
    // A fresh system each time: a second branch would find the first's
    // monodromies in the system's memory.
    const ContinuationProblem problem(
        std::make_shared<periodic::ShootingSystem>(start.system->hybrid(), 1, shooting),
        start.problem->parameters(), {start.parameter});
    const std::clock_t started = std::clock();
    b = continue_branch(problem, problem.y(orbit.u), options, with_tests ? tests : TestFunctions{});
    cpu += static_cast<double>(std::clock() - started) / CLOCKS_PER_SEC;
    if (b.points.size() < 6) {
      state.SkipWithError(("the branch stopped: " + b.message).c_str());
      return;
    }
  }
  state.counters["states"] = 2 * n;
  state.counters["points"] = static_cast<double>(b.points.size());
  state.counters["cpu_ms_per_point"] = 1e3 * cpu / (static_cast<double>(state.iterations()) * 5);
  state.counters["w_last"] = b.points.back().y[b.points.back().y.size() - 1];
  if (solver == periodic::ShootingLinearSolver::kDense) {
    std::vector<Vector>& points = dense_points[n];
    points.clear();
    for (const BranchPoint& p : b.points) points.push_back(p.y);
    return;
  }
  if (!dense_points.contains(n)) {
    shooting.linear_solver = periodic::ShootingLinearSolver::kDense;
    const ContinuationProblem dense(
        std::make_shared<periodic::ShootingSystem>(start.system->hybrid(), 1, shooting),
        start.problem->parameters(), {start.parameter});
    const Branch reference = continue_branch(dense, dense.y(orbit.u), options);
    for (const BranchPoint& p : reference.points) dense_points[n].push_back(p.y);
  }
  const std::vector<Vector>& reference = dense_points[n];
  double deviation = reference.size() == b.points.size() ? 0.0 : INFINITY;
  for (std::size_t k = 0; k < reference.size() && k < b.points.size(); ++k)
    deviation = std::max(deviation, (b.points[k].y - reference[k]).lpNorm<Eigen::Infinity>());
  state.counters["deviation"] = deviation;
}

void BM_ImpactChainBranchDense(benchmark::State& state) {
  branch(state, periodic::ShootingLinearSolver::kDense);
}
BENCHMARK(BM_ImpactChainBranchDense)->Apply(chain_sizes_and_multipliers)->Unit(benchmark::kMillisecond);

void BM_ImpactChainBranchMatrixFree(benchmark::State& state) {
  branch(state, periodic::ShootingLinearSolver::kMatrixFree);
}
BENCHMARK(BM_ImpactChainBranchMatrixFree)->Apply(chain_sizes_and_multipliers)->Unit(benchmark::kMillisecond);

}  // namespace
