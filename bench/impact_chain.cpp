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
// SALTUS_BENCH_SMOKE (ctest bench_smoke): N <= 32 only, to keep the suite short.

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "continuation/periodic/shooting.h"
#include "studies/hybrid_study.h"

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

void chain_sizes(benchmark::internal::Benchmark* b) {
  const bool smoke = std::getenv("SALTUS_BENCH_SMOKE") != nullptr;
  for (int n : {8, 16, 32, 64, 128, 256})
    if (!smoke || n <= 32) b->Arg(n);
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

}  // namespace
