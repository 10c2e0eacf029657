// Your own system against the built-in: the triple pendulum written as a
// run file (examples/user/triple_pendulum.json: M, f and the constraints by
// expressions, models/mechanical_expression.h) and the C++ model
// (models/triple_pendulum.h), simulated over the same span from the same
// start (q1 = 1.1, psi = (1.8, 1.0, 2.0) at rest, e = 0.8, tolerance 1e-10,
// dop853): the events are the same, so the ratio of the two times is the
// cost of the expressions. Argument: 0 the state alone, 1 with the
// variational equations (shooting's case). RunFile is the run file as saltus
// runs it, its expressions compiled with the system compiler
// (models/compiled_block.h; the first run compiles them into the cache);
// RunFileInterpreted the same with SALTUS_COMPILE=0, the register loop of
// models/expression_block.h.

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "continuation/flow/mechanical.h"
#include "continuation/flow/simulate.h"
#include "models/mechanical_expression.h"
#include "models/triple_pendulum.h"

using namespace saltus;

namespace {

std::shared_ptr<const flow::HybridSystem> run_file_pendulum(bool compile) {
  std::ifstream in(std::string(SALTUS_SOURCE_DIR) + "/examples/user/triple_pendulum.json");
  const auto json = nlohmann::ordered_json::parse(in);
  const char* old = std::getenv("SALTUS_COMPILE");
  const std::string saved = old ? old : "";
  if (!compile) setenv("SALTUS_COMPILE", "0", 1);
  auto system = models::make_expression_mechanical(json)->with_parameter("q1", 1.1);
  if (old)
    setenv("SALTUS_COMPILE", saved.c_str(), 1);
  else
    unsetenv("SALTUS_COMPILE");
  return system;
}

std::shared_ptr<const flow::HybridSystem> built_in_pendulum() {
  models::TriplePendulum p;
  p.q1 = 1.1;
  return flow::make_mechanical(p);
}

void simulate(benchmark::State& state, const flow::HybridSystem& system) {
  Vector x0(6);
  x0 << 1.8, 1.0, 2.0, 0.0, 0.0, 0.0;
  flow::SimulationOptions options;
  options.absolute_tolerance = options.relative_tolerance = 1e-10;
  options.variational = state.range(0) == 1;
  std::size_t events = 0;
  for (auto _ : state) {
    const flow::Trajectory r = flow::simulate(system, 0, 0.0, x0, 20.0, options);
    if (!r.ok()) {
      state.SkipWithError(("simulation failed: " + r.message).c_str());
      break;
    }
    events = r.events.size();
  }
  state.counters["events"] = static_cast<double>(events);
}

void BM_TriplePendulum_BuiltIn(benchmark::State& state) { simulate(state, *built_in_pendulum()); }
void BM_TriplePendulum_RunFile(benchmark::State& state) { simulate(state, *run_file_pendulum(true)); }
void BM_TriplePendulum_RunFileInterpreted(benchmark::State& state) {
  simulate(state, *run_file_pendulum(false));
}

}  // namespace

BENCHMARK(BM_TriplePendulum_BuiltIn)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TriplePendulum_RunFile)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TriplePendulum_RunFileInterpreted)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
