// What `saltus simulate` pays for (issue 37 item 3): studies::simulate on
// the run files of the forced impact oscillator
// (examples/user/impact_oscillator.json, t in [0, 60], max_step 0.05) and
// the chaotic bouncing ball (examples/bouncing_ball_chaotic.json, the
// built-in model, t in [0, 30]), each over its run file's span with its
// output grid, with and without the variational equations.
//
//   Simulate_ImpactOscillator/0   the state alone (the default since issue 37)
//   Simulate_ImpactOscillator/1   with Phi and the saltations (--transition-matrix)
//
// And the same impact oscillator written in C++ (an AutoDiffHybrid functor,
// exactly the run file's expressions) against its run file on the state
// alone, with the run file's max_step 0.05 and without it (Arg 1 / 0):
// what the expression blocks cost against compiled C++, and what max_step
// costs. Instruction counts are steadier than times on a shared machine:
//
//   valgrind --tool=callgrind --toggle-collect='saltus::flow::simulate*' \
//     ./build/bench/saltus_bench --benchmark_filter='Simulate_ImpactOscillator/0' --benchmark_min_time=0
//
// Counter: the run's events (the same with and without Phi).

#include "continuation/flow/simulate.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <limits>
#include <string>

#include "continuation/flow/hybrid_system.h"
#include "studies/hybrid_study.h"

using namespace saltus;

namespace {

std::string example(const char* file) { return std::string(SALTUS_SOURCE_DIR) + "/examples/" + file; }

void run_file(benchmark::State& state, const char* file) {
  const auto run = studies::load_hybrid(example(file));
  const bool variational = state.range(0) != 0;
  flow::Trajectory tr;
  for (auto _ : state) tr = studies::simulate(*run, variational);
  if (!tr.ok()) {
    state.SkipWithError(("the simulation failed: " + tr.message).c_str());
    return;
  }
  state.counters["events"] = static_cast<double>(tr.events.size());
}

void BM_Simulate_ImpactOscillator(benchmark::State& state) { run_file(state, "user/impact_oscillator.json"); }
void BM_Simulate_BouncingBall(benchmark::State& state) { run_file(state, "bouncing_ball_chaotic.json"); }

// examples/user/impact_oscillator.json in C++: x'' + 2 zeta x' + x = F cos(w t),
// an impact at x = d (falling d - x) with v -> -r v.
struct ImpactOscillator {
  double w = 2.3, zeta = 0.05, F = 1.0, d = 0.1, r = 0.8;
  int dimension() const { return 2; }
  int guard_count(int) const { return 1; }
  flow::Crossing crossing(int, int) const { return flow::Crossing::kFalling; }
  template <class T>
  void field(int, const T& t, const T* u, T* f) const {
    using std::cos;
    f[0] = u[1];
    f[1] = -2.0 * zeta * u[1] - u[0] + F * cos(w * t);
  }
  template <class T>
  T guard(int, int, const T&, const T* u) const {
    return d - u[0];
  }
  int next_mode(int mode, int, double, const double*) const { return mode; }
  template <class T>
  void reset(int, int, int, const T&, const T* u, T* y) const {
    y[0] = u[0];
    y[1] = -r * u[1];
  }
};

// Arg: 1 the run file's max_step 0.05, 0 none.
flow::SimulationOptions oscillator_options(const studies::HybridRun& run, bool max_step) {
  flow::SimulationOptions options = run.simulation;
  options.variational = false;
  if (!max_step) options.max_step = std::numeric_limits<double>::infinity();
  return options;
}

void BM_ImpactOscillator_CppModel(benchmark::State& state) {
  const auto run = studies::load_hybrid(example("user/impact_oscillator.json"));
  const auto system = flow::make_hybrid(ImpactOscillator{});
  const flow::SimulationOptions options = oscillator_options(*run, state.range(0) != 0);
  flow::Trajectory tr;
  for (auto _ : state) tr = flow::simulate(*system, 0, run->t0, run->initial, run->t1, options);
  if (!tr.ok()) state.SkipWithError(("the simulation failed: " + tr.message).c_str());
  state.counters["events"] = static_cast<double>(tr.events.size());
}

void BM_ImpactOscillator_RunFileModel(benchmark::State& state) {
  const auto run = studies::load_hybrid(example("user/impact_oscillator.json"));
  const flow::SimulationOptions options = oscillator_options(*run, state.range(0) != 0);
  flow::Trajectory tr;
  for (auto _ : state) tr = flow::simulate(*run->system, run->mode, run->t0, run->initial, run->t1, options);
  if (!tr.ok()) state.SkipWithError(("the simulation failed: " + tr.message).c_str());
  state.counters["events"] = static_cast<double>(tr.events.size());
}

}  // namespace

BENCHMARK(BM_Simulate_ImpactOscillator)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Simulate_BouncingBall)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ImpactOscillator_CppModel)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ImpactOscillator_RunFileModel)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
