// The first result of a new run file (issue 37 item 2): examples/lorenz.json
// read and its study run (the cascade of bench/lorenz_cascade.cpp, no files,
// no figures), each iteration from the reading of the run file on:
//   LorenzFirstRun/empty_cache   a cache directory emptied before each
//                                iteration (default SALTUS_COMPILE: the rates
//                                interpreted while they compile in a
//                                background process, waited for outside the
//                                timing; its CPU is not this process's)
//   LorenzFirstRun/interpreted   SALTUS_COMPILE=0
//   LorenzFirstRun/cached        the rates compiled, loaded from a warm cache
// The goal: empty_cache within 2x interpreted (CPU), cached as before. CPU of
// the process (all its threads), medians of interleaved repetitions:
//   ./build/bench/saltus_bench --benchmark_filter=LorenzFirstRun
//     --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true
// (one command line)

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include "drivers/continue_command.h"
#include "drivers/studies.h"
#include "models/compiled_block.h"
#include "studies/run_file.h"
#include "tests/scoped_environment.h"

using namespace saltus;

namespace {

namespace fs = std::filesystem;

// The benchmarks time steady states: run files' expressions compiled in the
// foreground (SALTUS_COMPILE=wait) unless the environment says otherwise, so
// that a benchmark of a run file measures its compiled blocks and no
// background compile outlives the program. The ones below set their own.
[[maybe_unused]] const bool kForeground = [] { return setenv("SALTUS_COMPILE", "wait", 0) == 0; }();

using Environment = saltus::testing::ScopedEnvironment;

std::size_t lorenz_study(benchmark::State& state, const char* expected) {
  const drivers::RunFile run = drivers::read_run_file(SALTUS_SOURCE_DIR "/examples/lorenz.json");
  if (!run.expressions || (run.expressions->compiled ? "compiled" : "interpreted") != std::string(expected))
    state.SkipWithError(("the rates were not " + std::string(expected) + ": " +
                         (run.expressions ? run.expressions->note : std::string("no report")))
                            .c_str());
  std::size_t points = 0;
  for (const auto& nb : drivers::run_continuation(run)) points += nb.branch.points.size();
  return points;
}

// Argument: 0 empty cache, 1 interpreted, 2 cached.
void BM_LorenzFirstRun(benchmark::State& state) {
  const fs::path cache =
      fs::temp_directory_path() / "saltus-bench-first-run" / std::to_string(state.range(0));
  const Environment directory("SALTUS_CACHE_DIR", cache.string());
  const int how = static_cast<int>(state.range(0));
  const Environment mode("SALTUS_COMPILE", how == 1 ? std::optional<std::string>("0") : std::nullopt);
  if (how == 2) {
    const Environment wait("SALTUS_COMPILE", "wait");
    drivers::read_run_file(SALTUS_SOURCE_DIR "/examples/lorenz.json");  // the cache warm
  }
  std::size_t points = 0;
  for (auto _ : state) {
    if (how == 0) {
      state.PauseTiming();
      models::wait_for_background_compiles();
      fs::remove_all(cache);
      fs::create_directories(cache);
      state.ResumeTiming();
    }
    points = lorenz_study(state, how == 2 ? "compiled" : "interpreted");
  }
  models::wait_for_background_compiles();
  state.counters["points"] = static_cast<double>(points);
  state.SetLabel(how == 0 ? "empty_cache" : how == 1 ? "interpreted" : "cached");
}

}  // namespace

BENCHMARK(BM_LorenzFirstRun)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
