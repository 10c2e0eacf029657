// Parallel efficiency of `saltus sweep` and `saltus map` over MPI ranks
// (studies/grid_mpi.h): the same study on one core and on 2 ranks of one
// thread each; efficiency = T(1 core) / (2 T(2 ranks)), read from the rows of
// one run (goal >= 0.9). The processes are started as a user starts them
// (taskset pins the one-core run; mpirun --oversubscribe --allow-run-as-root
// the ranks), so process start-up and MPI's gather are in the times. Only
// when CMake found MPI (SALTUS_MPIEXEC); the run files are copies of the
// examples written into the temporary directory.
//
// What bounds the efficiency: Open MPI's start-up (mpirun, MPI_Init and
// MPI_Finalize) costs s = 0.35 to 0.55 s of wall time on this machine kind
// even for an empty program (measured with a bare MPI_Init/MPI_Finalize),
// and the blocks of both studies are balanced (dealt out in turn), so with a
// study of T1 seconds on one core the efficiency is about T1 / (T1 + 2 s):
// the examples' own studies (3.9 s and 5.0 s) measured 0.81 and 0.85, and
// studies of 12 s 0.90-0.92 (sweep) and 0.88 (map). A study of the size MPI
// is for (minutes) is at 1 - 2 s / T1. The studies here are sized to about
// 24 s on one core, where the start-up costs 3 to 4%: the sweep with six
// times the example's values, the map on an 85 x 64 grid. With
// SALTUS_BENCH_SMOKE set (the test suite's bench_smoke, which only checks
// that every benchmark runs) they shrink to 24 values and a 9 x 8 grid.
#include <benchmark/benchmark.h>

#ifdef SALTUS_MPIEXEC

#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

namespace fs = std::filesystem;

const fs::path& work() {
  static const fs::path dir = [] {
    const fs::path d = fs::temp_directory_path() / "saltus-bench-mpi";
    fs::create_directories(d);
    const std::string src = SALTUS_SOURCE_DIR;
    const bool smoke = std::getenv("SALTUS_BENCH_SMOKE") != nullptr;
    // 720 values in 2 chunks; 85 x 64 single points on one thread per rank.
    const std::string steps = smoke ? "24" : "720", x = smoke ? "9" : "85", y = smoke ? "8" : "64";
    std::system(("jq '.sweep.threads = 2 | .sweep.steps = " + steps + "' " + src +
                 "/examples/triple_pendulum.json > " + (d / "sweep.json").string())
                    .c_str());
    std::system(("jq '.map.seed = \"none\" | .map.threads = 1 | .map.x.steps = " + x + " | .map.y.steps = " +
                 y + "' " + src + "/examples/user/impact_oscillator_map.json > " + (d / "map.json").string())
                    .c_str());
    return d;
  }();
  return dir;
}

// kind: sweep or map; ranks 0: one process pinned to one core.
void run(benchmark::State& state, const std::string& kind) {
  const int ranks = static_cast<int>(state.range(0));
  const std::string file = (work() / (kind + ".json")).string(), out = (work() / (kind + "-out")).string();
  const std::string launcher = ranks == 0 ? std::string("taskset -c 0 ")
                                          : std::string(SALTUS_MPIEXEC) +
                                                " --oversubscribe --allow-run-as-root -n " +
                                                std::to_string(ranks) + " ";
  const std::string command =
      launcher + SALTUS_CLI + " " + kind + " " + file + " --out " + out + " > /dev/null 2>&1";
  for (auto _ : state)
    if (std::system(command.c_str()) != 0) state.SkipWithError(("failed: " + command).c_str());
}

void BM_MpiSweep(benchmark::State& state) { run(state, "sweep"); }
void BM_MpiMap(benchmark::State& state) { run(state, "map"); }
// Arg 0: one core (taskset); 2: two ranks.
BENCHMARK(BM_MpiSweep)->Arg(0)->Arg(2)->UseRealTime()->Unit(benchmark::kSecond);
BENCHMARK(BM_MpiMap)->Arg(0)->Arg(2)->UseRealTime()->Unit(benchmark::kSecond);

}  // namespace

#endif
