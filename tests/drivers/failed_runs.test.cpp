// Issue 34, item 10 (a), (b), (d): a run that cannot do what was asked
// says so at once, with a non-zero exit and the reason, and never reports
// NaN as a result with exit 0.

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>

#include "run_cli.h"

using namespace saltus::testing;
namespace fs = std::filesystem;

TEST_CASE("hopf_cycles that cannot start: an error at once, not minutes of Newton towards infinity",
          "[cli][hopf][errors]") {
  // examples/van_der_pol.json with a first cycle of amplitude 7: the guess
  // is far from the cycles, and Newton on the shooting residual walked off
  // along the slow manifold, where |F| ~ T / |x| -> 0 as |x| doubles each
  // step and the stiffness grows as |x|^2: 282 s and 1.95 GB, then exit 0
  // with "cycles: 0 points, start_not_converged". Now the iterates stay
  // within 100 times the guess's size (find_orbit.h), and a follow-up that
  // cannot start is an error, as a missing LP for a fold curve is.
  const fs::path dir = scratch("hopf-cycles-far");
  nlohmann::ordered_json file = example_json("van_der_pol.json");
  file["hopf_cycles"]["amplitude"] = GENERATE(7.0, 10.0);
  const auto begin = std::chrono::steady_clock::now();
  const Run r = run_saltus({"continue", write_run(dir, file).string(), "--out", (dir / "out").string()});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  INFO(r.out << r.err);
  CHECK(r.code != 0);
  CHECK_THAT(r.err, Catch::Contains("hopf_cycles: could not start") && Catch::Contains("amplitude"));
  CHECK_THAT(r.out, !Catch::Contains("cycles: 0 points"));
  CHECK(fs::exists(dir / "out" / "branch.csv"));  // the branch before it is written
  CHECK(seconds < 60);                            // measured: 0.7 s and 1.2 s (282 s before at 7)
  fs::remove_all(dir);
}

TEST_CASE("a failed simulation reports its error first and draws no figures", "[cli][simulate][errors]") {
  // A run of 100,000 samples that fails (here: too many events) spent 15-40 s
  // in gnuplot on its figures before the error was printed.
  const fs::path dir = scratch("simulate-fails");
  nlohmann::ordered_json file = example_json("bouncing_ball.json");
  file["simulation"]["max_events"] = 5;
  const Run r = run_saltus({"simulate", write_run(dir, file).string(), "--out", (dir / "out").string()});
  INFO(r.out << r.err);
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("max_events"));
  CHECK(fs::exists(dir / "out" / "trajectory.csv"));  // the samples up to the failure
  CHECK_FALSE(fs::exists(dir / "out" / "phase.png"));
  CHECK_FALSE(fs::exists(dir / "out" / "time.png"));
  fs::remove_all(dir);
}

TEST_CASE("NaN results are errors with the reason", "[cli][errors]") {
  const fs::path dir = scratch("not-finite-results");
  SECTION("filippov twofold: a friction coefficient of 1e18 (J1 = J2 = nan)") {
    // The K (about mu^2 = 1e36) cancel in D = K-+ K+- - K++ K-- to rounding:
    // the two-fold is degenerate, J1, J2 and the case undefined.
    for (const char* name : {"user/two_fold.json", "wheel_turntable.json"}) {
      nlohmann::ordered_json file = example_json(name);
      (file.contains("filippov") ? file["filippov"]["mu"] : file["parameters"]["mu"]) = 1e18;
      const Run r = run_saltus({"filippov", "twofold", write_run(dir, file).string()});
      INFO(name << ": " << r.out << r.err);
      CHECK(r.code == 2);
      CHECK_THAT(r.err, Catch::Contains("cannot be classified") && Catch::Contains("degenerate"));
      CHECK_THAT(r.out + r.err, !Catch::Contains("nan"));
    }
  }
  SECTION("lyapunov from a pendulum angle of 1e308 (mean contraction nan)") {
    nlohmann::ordered_json pendulum = nlohmann::ordered_json::parse(R"json({"coordinates": ["theta"],
      "parameters": {"c": 0.1, "A": 0.6, "w": 1.5}, "mass": ["1"],
      "forces": ["-c*theta_dot - sin(theta) + A*cos(w*t)"], "initial": {"theta": 1e308, "theta_dot": 0},
      "time": [0, 10], "lyapunov": {"duration": 20, "interval": 1}})json");
    nlohmann::ordered_json triple = example_json("triple_pendulum_light_chaotic.json");
    triple["initial"]["psi1"] = 1e308;
    triple["lyapunov"] = {{"duration", 20}, {"interval", 0.25}};
    for (const auto& file : {pendulum, triple}) {
      const Run r = run_saltus({"lyapunov", write_run(dir, file).string()});
      INFO(r.out << r.err);
      CHECK(r.code == 2);
      CHECK_THAT(r.err, Catch::Contains("not finite") && Catch::Contains("1e+308"));
      CHECK_THAT(r.out + r.err, !Catch::Contains("nan"));
    }
  }
  fs::remove_all(dir);
}
