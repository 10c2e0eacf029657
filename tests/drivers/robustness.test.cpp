// What fuzzing the run files found, each as a reproducer: a clear
// error naming the file, the key and the value, or a run that says what it
// does, instead of a crash, a silent hour or gigabytes.
#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "continuation/worker_threads.h"
#include "drivers/progress.h"
#include "models/expression_system.h"
#include "run_cli.h"
#include "studies/periodic_orbit.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace saltus::testing;

namespace {

// The example with `edit` applied, written as run.json in a fresh folder.
fs::path edited(const std::string& example_name, const std::function<void(json&)>& edit,
                const fs::path& dir) {
  fs::create_directories(dir);
  json run = json::parse(std::ifstream(example(example_name)));
  edit(run);
  std::ofstream(dir / "run.json") << run.dump();
  return dir / "run.json";
}

}  // namespace

TEST_CASE("robustness: a thread count beyond any machine is refused, naming the key", "[cli][errors][fuzz]") {
  const fs::path dir = scratch("threads");
  const auto file = edited(
      "triple_pendulum.json", [](json& j) { j["sweep"]["threads"] = 1000000000; }, dir);
  const Run r = run_saltus({"sweep", file.string(), "--out", (dir / "out").string()});
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::StartsWith("saltus: error: run file " + file.string()) &&
                        Catch::Contains("'sweep.threads' = 1000000000 must be in [0, 1024]"));
  CHECK_FALSE(fs::exists(dir / "out"));

  const auto wheel = edited(
      "wheel_turntable.json", [](json& j) { j["map"]["threads"] = 5000; }, dir);
  const Run m = run_saltus({"filippov", "map", wheel.string(), "--out", (dir / "out").string()});
  CHECK(m.code == 1);
  CHECK_THAT(m.err,
             Catch::Contains(wheel.string()) && Catch::Contains("'map.threads' = 5000 must be in [0, 1024]"));
  fs::remove_all(dir);
}

TEST_CASE("robustness: a refused thread runs its task on the caller, and every thread is joined", "[fuzz]") {
  // The real refusal (a process limit) cannot be staged portably; what can
  // fail is the count: every task runs exactly once whatever it is.
  for (int count : {1, 3, 17}) {
    std::atomic<int> runs{0}, mask{0};
    {
      saltus::WorkerThreads workers(count, [&](int i) {
        ++runs;
        mask |= 1 << i;
      });
    }  // the destructor joins
    CHECK(runs == count);
    CHECK(mask == (1 << count) - 1);
  }
  CHECK(saltus::worker_count(0, 5) >= 1);
  CHECK(saltus::worker_count(100000, 3) == 3);
  CHECK(saltus::check_threads(2000, "threads").find("must be in [0, 1024]") != std::string::npos);
  CHECK(saltus::check_threads(8, "threads").empty());
}

TEST_CASE("robustness: an output grid of 1e-17 is refused before it fills memory", "[cli][errors][fuzz]") {
  const fs::path dir = scratch("output-interval");
  const auto file = edited(
      "bouncing_ball.json", [](json& j) { j["simulation"]["output_interval"] = 1e-17; }, dir);
  const Run r = run_saltus({"simulate", file.string(), "--out", (dir / "out").string()});
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::StartsWith("saltus: error: " + file.string()) &&
                        Catch::Contains("output_interval = 1e-17") && Catch::Contains("at most 1e+07") &&
                        Catch::Contains("give a larger output_interval"));
  fs::remove_all(dir);
}

TEST_CASE("robustness: a transient keeps no samples, and ends in the same state", "[fuzz]") {
  // Transients once stored every step (gigabytes for a long one); only their
  // end state is used, so keeping no samples must not change it either.
  const auto run = saltus::studies::read_hybrid_run(example("triple_pendulum_periodic.json"));
  auto every_step = run.simulation;
  every_step.variational = false;
  every_step.output_interval = 0.0;
  const auto all =
      saltus::flow::simulate(*run.system, run.mode, run.t0, run.initial, run.t0 + 20, every_step);
  const auto bare = saltus::flow::simulate(*run.system, run.mode, run.t0, run.initial, run.t0 + 20,
                                           saltus::studies::without_samples(run.simulation));
  REQUIRE(all.ok());
  REQUIRE(bare.ok());
  CHECK(all.t.size() > bare.t.size() + 200);  // every step against the events alone
  CHECK(bare.t.size() <= 1 + 2 * bare.events.size());
  CHECK(bare.events.size() == all.events.size());
  CHECK((bare.x_end - all.x_end).norm() == 0.0);
}

TEST_CASE("robustness: negative damping of the triple pendulum is refused, naming the value",
          "[cli][errors][fuzz]") {
  const fs::path dir = scratch("damping");
  const auto file = edited(
      "triple_pendulum_periodic.json", [](json& j) { j["parameters"]["c2"] = -0.8; }, dir);
  const Run r = run_saltus({"simulate", file.string(), "--out", (dir / "out").string()});
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains(file.string()) && Catch::Contains("the damping c2 = -0.8") &&
                        Catch::Contains("must be >= 0"));
  fs::remove_all(dir);
}

TEST_CASE("robustness: a billion sampled futures are refused", "[cli][errors][fuzz]") {
  const fs::path dir = scratch("futures");
  const auto file = edited(
      "wheel_turntable.json", [](json& j) { j["futures"]["samples"] = 1000000000; }, dir);
  const Run r = run_saltus({"filippov", "futures", file.string(), "--out", (dir / "out").string()});
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains(file.string()) &&
                        Catch::Contains("'futures.samples' = 1000000000 must be in [1, 1e5]"));
  fs::remove_all(dir);
}

TEST_CASE("robustness: a transient beyond the resolution of time is told so", "[cli][errors][fuzz]") {
  const fs::path dir = scratch("huge-transient");
  const auto file = edited(
      "bouncing_ball_chaotic.json", [](json& j) { j["lyapunov"]["transient"] = 1.8446744073709552e19; }, dir);
  const Run r = run_saltus({"lyapunov", file.string(), "--out", (dir / "out").string()});
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains(file.string()) && Catch::Contains("no digits left for the span") &&
                        Catch::Contains("give a shorter transient") &&
                        !Catch::Contains("000000000000000000000"));
  fs::remove_all(dir);
}

TEST_CASE("robustness: a long simulation says how far it is", "[cli][fuzz]") {
  // Without the delays, a line every 256 field evaluations: what runs, the
  // time reached, the fraction of the span and the time left.
  std::ostringstream err;
  auto progress = std::make_shared<saltus::drivers::TimeProgress>(
      err, "saltus simulate: run.json", std::chrono::milliseconds(0), std::chrono::milliseconds(0));
  progress->set_span(0.0, 10.0);
  const auto system =
      saltus::drivers::with_progress(saltus::models::make_expression_ode({"x"}, {}, {}, {"1"}), progress);
  saltus::flow::SimulationOptions options;
  options.max_step = 1e-3;  // 10^4 steps, so many lines
  const auto tr = saltus::flow::simulate(*system, 0, 0.0, saltus::Vector::Zero(1), 10.0, options);
  REQUIRE(tr.ok());
  CHECK_THAT(err.str(), Catch::StartsWith("saltus simulate: run.json: simulating, t = ") &&
                            Catch::Contains(" of [0, 10] (") && Catch::Contains("%)") &&
                            Catch::Contains("s left"));
}

TEST_CASE("robustness: a continuation of orbits says which point it is at, not a time that stands still",
          "[cli][fuzz]") {
  // Shooting integrates one period after another from the same t0: the time
  // reached stands still. Each new point of a study's branch sets the stage
  // (drivers::staging), which the line shows instead: the branch's name, the
  // point's count and its free parameters (the components after the state).
  std::ostringstream err;
  auto progress = std::make_shared<saltus::drivers::TimeProgress>(
      err, "saltus periodic: run.json", std::chrono::milliseconds(0), std::chrono::milliseconds(0));
  const saltus::studies::Progress staged = saltus::drivers::staging(progress);
  saltus::Branch branch;
  branch.names = {"x", "A", "w"};
  branch.state_size = 1;
  branch.points.push_back({});
  branch.points.back().y = saltus::Vector::LinSpaced(3, 1.0, 3.0);
  CHECK(staged("pd_curve", branch));
  for (int k = 0; k < 256; ++k) progress->at(0.5);
  CHECK_THAT(err.str(), Catch::StartsWith("saltus periodic: run.json: pd_curve: point 1, A = 2, w = 3, "));
  CHECK_THAT(err.str(), !Catch::Contains("simulating") && !Catch::Contains("x = "));
  CHECK(!saltus::drivers::staging(nullptr));  // no line: no progress
}
