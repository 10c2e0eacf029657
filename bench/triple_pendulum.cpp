// Event-driven simulation of the triple pendulum with a barrier
// (models/triple_pendulum.h, Awrejcewicz & Kudra eq. (8)) by flow::simulate,
// as a bifurcation sweep runs it: defaults with q1 = 1.1, from psi =
// (1.8, 1.0, 2.0) at rest in free flight, no variational equations.
//
//   span  50 time units, e = 0.8 (the paper's) and e = 1 (elastic), at
//         abs = rel = 1e-8, 1e-10, 1e-12 (the argument is the exponent). The
//         span holds impacts, Zeno sequences ending in permanent contact and
//         releases, so it times the whole hybrid machinery, not one RK loop.
//   first_impacts  the windows bench/peer/compare.sh sets beside scipy: the
//         first N impacts only (all free flight -> free flight; N = 40 for
//         e = 0.8, 60 for e = 1), at the same tolerances.
// The second argument is SimulationOptions::method: 0 dopri5, 1 dop853.
//
// Counters: sim_time_per_wall_s, simulated time units per wall-clock second
// (steady_clock over the timed loop, like us_per_step in
// continuation_step.cpp: the rate that matters to a user, not cpu time), and
// events, the number of events per run (impacts, stick starts, releases).
// Each run is deterministic, so every iteration makes the same events.

#include "models/triple_pendulum.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <string>

#include "continuation/flow/mechanical.h"
#include "continuation/flow/simulate.h"

using namespace saltus;

namespace {

constexpr double kSpan = 50.0;

// max_events = 0: run the whole span.
void run(benchmark::State& state, double e, int max_events) {
  models::TriplePendulum p;
  p.q1 = 1.1;
  p.e = e;
  const auto system = flow::make_mechanical(p);
  Vector x0(6);
  x0 << 1.8, 1.0, 2.0, 0.0, 0.0, 0.0;
  flow::SimulationOptions options;
  options.absolute_tolerance = options.relative_tolerance =
      std::pow(10.0, -static_cast<double>(state.range(0)));
  options.variational = false;
  options.method = state.range(1) == 0 ? flow::IntegrationMethod::kDopri5 : flow::IntegrationMethod::kDop853;
  state.SetLabel(flow::to_string(options.method));
  if (max_events > 0) options.max_events = max_events;
  const auto expected =
      max_events > 0 ? flow::SimulationStatus::kTooManyEvents : flow::SimulationStatus::kFinished;

  double simulated = 0.0;
  std::size_t events = 0;
  const auto started = std::chrono::steady_clock::now();
  for (auto _ : state) {
    const flow::Trajectory r = flow::simulate(*system, 0, 0.0, x0, kSpan, options);
    if (r.status != expected) {
      state.SkipWithError(("simulation ended with " + flow::to_string(r.status) + ": " + r.message).c_str());
      break;
    }
    simulated += r.t_end;
    events = r.events.size();
    benchmark::DoNotOptimize(r.x_end.data());
  }
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started;
  if (elapsed.count() > 0) state.counters["sim_time_per_wall_s"] = simulated / elapsed.count();
  state.counters["events"] = static_cast<double>(events);
}

void BM_TriplePendulum_span50_e08(benchmark::State& state) { run(state, 0.8, 0); }
void BM_TriplePendulum_first_impacts_e08(benchmark::State& state) { run(state, 0.8, 40); }
void BM_TriplePendulum_first_impacts_e1(benchmark::State& state) { run(state, 1.0, 60); }

BENCHMARK(BM_TriplePendulum_span50_e08)->ArgsProduct({{8, 10, 12}, {0, 1}})->Unit(benchmark::kMillisecond);
// No 50-unit span with e = 1: a link pressed onto the barrier by the torque
// then bounces elastically while damping takes a fixed fraction of a small
// rebound speed per flight, so the speeds fall like 1/n (not geometrically,
// no Zeno point) and the run spends its million-event budget by t ~ 33.
BENCHMARK(BM_TriplePendulum_first_impacts_e08)
    ->ArgsProduct({{8, 10, 12}, {0, 1}})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TriplePendulum_first_impacts_e1)
    ->ArgsProduct({{8, 10, 12}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

}  // namespace
