// The cost of searching every guard inside every accepted step
// (SimulationOptions::guard_search, continuation/flow/guard_search.h) on the
// two models where a guard's sign change and back inside a step was missed
// or could be: the chaotic bouncing ball (examples/bouncing_ball_chaotic.json,
// flights that are exact parabolas, so the steps are long) and the forced
// impact oscillator (examples/user/impact_oscillator.json, max_step 0.05),
// each simulated over its run file's time span with the state-transition
// matrix, as shooting integrates it.
//
// Argument: 1 searches (the default), 0 checks the guards at the step ends
// alone (as before issue 34 item 5). Counter: the run's events (the same in
// both unless the search finds an event the ends missed).
// Instruction counts, steadier than times on a shared machine:
//
//   valgrind --tool=callgrind ./build/bench/saltus_bench \
//     --benchmark_filter='GuardSearch_BouncingBall/1' --benchmark_min_time=0

#include <benchmark/benchmark.h>

#include <string>

#include "continuation/flow/simulate.h"
#include "studies/hybrid_run_file.h"

using namespace saltus;

namespace {

void run(benchmark::State& state, const char* file) {
  const studies::HybridRun r = studies::read_hybrid_run(std::string(SALTUS_SOURCE_DIR) + "/examples/" + file);
  flow::SimulationOptions options = r.simulation;
  options.guard_search = state.range(0) != 0;
  options.output_interval = 0.0;
  options.record_steps = false;
  flow::Trajectory tr;
  for (auto _ : state) tr = flow::simulate(*r.system, r.mode, r.t0, r.initial, r.t1, options);
  if (!tr.ok()) {
    state.SkipWithError(("the simulation failed: " + tr.message).c_str());
    return;
  }
  state.counters["events"] = static_cast<double>(tr.events.size());
}

void BM_GuardSearch_BouncingBall(benchmark::State& state) { run(state, "bouncing_ball_chaotic.json"); }
void BM_GuardSearch_ImpactOscillator(benchmark::State& state) { run(state, "user/impact_oscillator.json"); }

}  // namespace

BENCHMARK(BM_GuardSearch_BouncingBall)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GuardSearch_ImpactOscillator)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
