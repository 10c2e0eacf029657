// The whole Lorenz cascade as `saltus continue examples/lorenz.json` runs it
// (sigma = 10, beta = 8/3): the orbit at rho = 280 found by simulation, its
// branch followed down to rho = 205 by single shooting (DOP853, tolerance
// 1e-10), and at each of the first two period doublings the switch onto the
// doubled branch, down to rho = 205 again. One iteration is the whole study
// (run_continuation; no files, no figures).
//
// Counters: pd1_error, pd2_error, pd3_error: |rho_PD - reference| for the
// first three PDs against AUTO-07p's lor demo chain rerun with NTST x2 and x4
// and tight tolerances (229.4067086, 218.2101278, 215.9659306, scatter
// <= 5e-8); us_per_point over all branches, and branch_us_per_point,
// doubled1_us_per_point, doubled2_us_per_point (each branch's time from its
// first point to its last, by the progress callback, per point, located
// ones included). The goal: the cascade under 79 ms of CPU (AUTO's tight chain) with
// every error below 1e-7, and no branch above 1.5x AUTO's time per step
// (0.27, 0.72 and 1.12 ms on the three branches).
//
//   ./build/bench/saltus_bench --benchmark_filter=LorenzCascade

#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <map>

#include "drivers/continue_command.h"
#include "drivers/studies.h"
#include "studies/run_file.h"

using namespace saltus;

namespace {

constexpr double kReferencePd[] = {229.4067086, 218.2101278, 215.9659306};

// Argument: ContinuationOptions::chord (1, the default: chord steps in the
// corrector; 0: Newton with a Jacobian at every iteration).
void BM_LorenzCascade(benchmark::State& state) {
  drivers::RunFile run = drivers::read_run_file(SALTUS_SOURCE_DIR "/examples/lorenz.json");
  run.options.chord = run.periodic->doubling_options.chord = state.range(0) != 0;
  using Clock = std::chrono::steady_clock;
  struct Timing {
    Clock::time_point first, last;
    std::size_t points = 0;
  };
  std::map<std::string, Timing> timing;
  const drivers::Progress progress = [&timing](const std::string& name, const Branch& branch) {
    Timing& t = timing[name];
    const auto now = Clock::now();
    if (t.points == 0) t.first = now;
    t.last = now;
    t.points = branch.points.size() + branch.special_points.size();
  };
  std::vector<drivers::NamedBranch> branches;
  std::size_t points = 0;
  for (auto _ : state) {
    timing.clear();
    branches = drivers::run_continuation(run, progress);
    for (const auto& nb : branches) points += nb.branch.points.size() + nb.branch.special_points.size();
  }
  std::vector<double> pds;
  for (const auto& nb : branches)
    for (const auto& sp : nb.branch.special_points)
      if (sp.type == "PD") pds.push_back(nb.branch.component(sp.y, "rho"));
  if (pds.size() < 3) {
    state.SkipWithError("fewer than three period doublings located: the cascade was lost");
    return;
  }
  for (int k = 0; k < 3; ++k)
    state.counters["pd" + std::to_string(k + 1) + "_error"] = std::abs(pds[k] - kReferencePd[k]);
  state.counters["us_per_point"] = benchmark::Counter(
      static_cast<double>(points) * 1e-6, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  for (const auto& [name, t] : timing)
    if (t.points > 1)
      state.counters[name + "_us_per_point"] =
          std::chrono::duration<double, std::micro>(t.last - t.first).count() /
          static_cast<double>(t.points - 1);
}

}  // namespace

BENCHMARK(BM_LorenzCascade)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
