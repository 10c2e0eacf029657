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
// matrix-free: the 6 largest by Arnoldi, monodromy_operator.h). Counters:
// newton (iterations), products (M v, matrix-free: GMRES's and, in
// arnoldi, Arnoldi's), multiplier, deviation (matrix-free: the largest
// |x - x_dense| against the dense orbit, computed untimed).
//
// SALTUS_BENCH_SMOKE (ctest bench_smoke): N <= 32 only, to keep the suite short.

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <string>

#include "continuation/periodic/find_orbit.h"
#include "continuation/periodic/monodromy_operator.h"
#include "continuation/periodic/shooting.h"
#include "studies/hybrid_study.h"
#include "studies/periodic_orbit.h"

using namespace saltus;

namespace {

// The run file of N masses, from scripts/impact_chain, loaded.
std::shared_ptr<const studies::HybridRun> impact_chain(int n) {
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() /
      ("saltus_impact_chain_" + std::to_string(n) + "_" + std::to_string(getpid()) + ".json");
  const std::string command = "/usr/bin/python3 " + std::string(SALTUS_SOURCE_DIR) +
                              "/scripts/impact_chain " + std::to_string(n) + " > " + file.string();
  if (std::system(command.c_str()) != 0) return nullptr;
  auto run = studies::load_hybrid(file);
  std::filesystem::remove(file);
  return run;
}

const std::initializer_list<int> kSizes = {8, 16, 32, 64, 128, 256};

void chain_sizes(benchmark::internal::Benchmark* b) {
  const bool smoke = std::getenv("SALTUS_BENCH_SMOKE") != nullptr;
  for (int n : kSizes)
    if (!smoke || n <= 32) b->Arg(n);
}

// (N, with multipliers 0 | 1).
void chain_sizes_and_multipliers(benchmark::internal::Benchmark* b) {
  const bool smoke = std::getenv("SALTUS_BENCH_SMOKE") != nullptr;
  for (int with : {0, 1})
    for (int n : kSizes)
      if (!smoke || n <= 32) b->Args({n, with});
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
  const auto run = impact_chain(n);
  if (!run) {
    state.SkipWithError("scripts/impact_chain failed (is /usr/bin/python3 there?)");
    return;
  }
  const studies::ShootingStart start = studies::shooting_start(*run);
  if (!start.ok) {
    state.SkipWithError(("no guess: " + start.message).c_str());
    return;
  }
  const Vector u0 = start.problem->u(start.y);
  periodic::OrbitSearchOptions options;
  options.linear_solver = solver;
  const bool matrix_free = solver == periodic::ShootingLinearSolver::kMatrixFree;
  const bool multipliers = state.range(1) == 1;
  periodic::OrbitSearch orbit;
  double multiplier = 0.0;
  int products = 0, arnoldi = 0;
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
      multiplier = std::abs(a.multipliers[0]);
      arnoldi = a.products;
      products += a.products;
    } else {
      multiplier = std::abs(periodic::floquet_multipliers(start.system->monodromy(orbit.u))[0]);
    }
  }
  state.counters["states"] = 2 * n;
  state.counters["newton"] = orbit.iterations;
  state.counters["products"] = products;
  if (matrix_free && multipliers) state.counters["arnoldi"] = arnoldi;
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

}  // namespace
