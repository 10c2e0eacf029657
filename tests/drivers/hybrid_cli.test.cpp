#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "drivers/cli.h"
#include "run_cli.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace saltus::testing;


TEST_CASE("saltus simulate examples/bouncing_ball.json: the ball comes to rest on the table", "[cli][hybrid]") {
  const fs::path out = scratch("bb");
  const Run r = run_saltus({"simulate", example("bouncing_ball.json").string(), "--out", out.string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json summary = json::parse(r.out);
  CHECK(summary["status"] == "finished");
  CHECK(summary["mode_end"] == "contact");
  CHECK(summary["events"].get<int>() < 60);
  for (const char* f : {"trajectory.csv", "events.csv", "summary.json", "phase.png", "time.png"})
    CHECK(fs::exists(out / f));
  fs::remove_all(out);
}

TEST_CASE("saltus lyapunov: exponents largest first, summing to the impact contraction", "[cli][hybrid]") {
  const Run r = run_saltus({"lyapunov", example("bouncing_ball_chaotic.json").string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json result = json::parse(r.out);
  const auto exponents = result["exponents"].get<std::vector<double>>();
  REQUIRE(exponents.size() == 2);
  CHECK(exponents[0] >= exponents[1]);
  CHECK(exponents[0] > 0.1);  // chaotic bouncing
  CHECK(std::abs(result["sum"].get<double>() - result["mean_log_det_saltation"].get<double>()) < 1e-6);
}

TEST_CASE("hybrid run files: bad input is named", "[cli][hybrid][errors]") {
  struct Case {
    std::string what, text, message;
  };
  const std::string pendulum_state =
      R"("time": [0, 1], "initial": {"psi1": 1.8, "psi2": 1.0, "psi3": 2.0, "psi1_dot": 0, "psi2_dot": 0, "psi3_dot": 0})";
  const std::vector<Case> cases = {
      {"restitution above 1", R"({"model": "bouncing_ball", "parameters": {"e": 1.5},
        "initial": {"q": 0.1, "v": 0}, "time": [0, 1]})", "e = 1.5"},
      {"negative restitution", R"({"model": "bouncing_ball", "parameters": {"e": -0.2},
        "initial": {"q": 0.1, "v": 0}, "time": [0, 1]})", "e = -0.2"},
      {"missing state", R"({"model": "bouncing_ball", "initial": {"q": 0.1}, "time": [0, 1]})",
       "'initial.v' is missing"},
      {"unknown model", R"({"model": "pogo", "initial": {}, "time": [0, 1]})", "unknown model 'pogo'"},
      {"backwards time", R"({"model": "bouncing_ball", "initial": {"q": 0.1, "v": 0}, "time": [1, 0]})",
       "t1 > t0"},
      {"pendulum restitution", R"({"model": "triple_pendulum", "parameters": {"e": 1.2}, )" + pendulum_state + "}",
       "e = 1.2"},
      {"pendulum violated constraint", R"({"model": "triple_pendulum", "time": [0, 1],
        "initial": {"psi1": 0, "psi2": 0, "psi3": 0, "psi1_dot": 0, "psi2_dot": 0, "psi3_dot": 0}})",
       "violates constraint 2: h = -0.8"},
      // beta2 = v12^2 with v13 = v23 = 0: M is singular where psi1 = psi2.
      {"pendulum singular mass matrix", R"({"model": "triple_pendulum", "parameters": {"beta2": 0.4,
        "v12": 0.6324555320336759, "v13": 0, "v23": 0, "beta3": 1}, "time": [0, 1],
        "initial": {"psi1": 1.8, "psi2": 1.8, "psi3": 2.0, "psi1_dot": 0, "psi2_dot": 0, "psi3_dot": 0}})",
       "not symmetric positive definite"},
  };
  for (const auto& c : cases) {
    SECTION(c.what) {
      const fs::path dir = scratch("bad");
      fs::create_directories(dir);
      std::ofstream(dir / "run.json") << c.text;
      const Run r = run_saltus({"simulate", (dir / "run.json").string(), "--out", (dir / "out").string()});
      CHECK(r.code == 1);
      CHECK_THAT(r.err, Catch::Contains(c.message));
      CHECK(!fs::exists(dir / "out"));
      fs::remove_all(dir);
    }
  }
}

TEST_CASE("saltus sweep: a small diagram of the triple pendulum on two threads", "[cli][hybrid]") {
  const fs::path dir = scratch("sweep");
  fs::create_directories(dir);
  std::ofstream(dir / "run.json") << R"({"model": "triple_pendulum",
    "initial": {"psi1": 1.8, "psi2": 1.0, "psi3": 2.0, "psi1_dot": 0, "psi2_dot": 0, "psi3_dot": 0},
    "time": [0, 10], "section": {"variable": "psi1", "value": 0, "angle": true},
    "sweep": {"parameter": "q1", "from": 1.05, "to": 1.2, "steps": 4, "transient": 20, "record": 40, "threads": 2}})";
  const Run r = run_saltus({"sweep", (dir / "run.json").string(), "--out", (dir / "out").string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json summary = json::parse(r.out);
  CHECK(summary["threads"] == 2);
  CHECK(summary["section_hits"].get<int>() >= 4);
  CHECK(summary["failures"].empty());
  CHECK(fs::exists(dir / "out" / "sweep.csv"));
  CHECK(fs::exists(dir / "out" / "sweep.png"));
  fs::remove_all(dir);
}

TEST_CASE("saltus periodic examples/bouncing_ball_orbit.json: multipliers and the fold of cycles", "[cli][periodic]") {
  const fs::path out = scratch("orbit");
  const Run r = run_saltus({"periodic", example("bouncing_ball_orbit.json").string(), "--out", out.string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json summary = json::parse(r.out);
  // |mu|^2 = det of the impact map = e^2 (e = 0.5), a complex pair: stable.
  REQUIRE(summary["multipliers"].size() == 2);
  for (const auto& m : summary["multipliers"])
    CHECK(std::hypot(m[0].get<double>(), m[1].get<double>()) == Approx(0.5).epsilon(1e-9));
  CHECK(summary["stable"] == true);
  // The existence boundary A omega = (1 - e) g tau / (2 (1 + e)): 0.2602183319...
  const double A_fold = (0.5 * 9.81 * 1.0 / 3.0) / (2 * M_PI);
  bool found = false;
  for (const auto& s : summary["special_points"])
    if (s["type"] == "LPC") {
      found = true;
      CHECK(std::abs(s["parameters"]["A"].get<double>() - A_fold) < 1e-8);
    }
  CHECK(found);
  CHECK(fs::exists(out / "branch.png"));
  fs::remove_all(out);
}
