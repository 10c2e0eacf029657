// Issue 34, item 1: a parameter the user fixes never moves. `saltus
// periodic` asked for the orbit of the forced impact oscillator
// (examples/user/impact_oscillator.json) at w = w0, from a guess from which
// Newton on the bordered system [G; e_w^T] fails, returned an orbit at
// w0 + 7e-5 (and at w0 + 1e-2 near the grazing), exit 0: the damped restart
// (continuation/corrector.cpp, correct_damped) minimized the bordered
// residual by Levenberg-Marquardt, which trades the row w - w0 = 0 against
// G, and then polished with w held where it had ended. The orbit must be at
// w0 exactly, and it is the closed form's (impact_oscillator_closed_form.h).

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "continuation/corrector.h"
#include "impact_oscillator_closed_form.h"
#include "run_cli.h"
#include "studies/hybrid_run_file.h"
#include "studies/periodic_orbit.h"

using namespace saltus;
namespace fs = std::filesystem;

TEST_CASE("saltus periodic: the orbit at the asked w exactly, when Newton fails and the damped restart runs",
          "[user][periodic][impact-oscillator][fixed-parameter]") {
  // Frequencies between the period doubling (2.4567) and the grazing
  // (3.3158), each with a guess 0.1 to 0.2 off its orbit (found by a scan:
  // plain Newton fails from these, and the old restart moved w by 1.3e-5,
  // 8e-5 and 9.7e-3 respectively).
  struct Case {
    double w, x, v;
  };
  const auto [w0, gx, gv] = GENERATE(Case{2.7, -0.4, 0.1}, Case{2.9, -0.31, 0.02}, Case{3.1, -0.25, 0.0});
  CAPTURE(w0, gx, gv);
  nlohmann::ordered_json file =
      nlohmann::ordered_json::parse(std::ifstream(saltus::testing::example("user/impact_oscillator.json")));
  file["parameters"]["w"] = w0;
  file["initial"] = {{"x", gx}, {"v", gv}};
  file["periodic"].erase("parameter");  // the orbit alone, at w0
  file["periodic"].erase("transient");  // from the guess itself
  const fs::path dir = saltus::testing::scratch("fixed-parameter");
  fs::create_directories(dir);
  const fs::path path = dir / "run.json";
  std::ofstream(path) << file.dump(1);

  // Plain Newton from the guess does not converge: the damped restart is what runs.
  const studies::HybridRun run = studies::read_hybrid_run(path);
  const studies::ShootingStart start = studies::shooting_start(run);
  REQUIRE(start.ok);
  Vector fix = Vector::Zero(start.problem->size());
  fix[start.problem->state_size()] = 1.0;
  REQUIRE_FALSE(correct(*start.problem, start.y, fix, run.periodic->options).converged);

  const auto result =
      saltus::testing::run_saltus({"periodic", path.string(), "--out", (dir / "out").string(), "--json"});
  INFO(result.err);
  REQUIRE(result.code == 0);
  const auto summary = nlohmann::ordered_json::parse(result.out);
  CHECK(summary["parameters"]["w"].get<double>() == w0);  // exactly: held, not solved for

  // The closed form's orbit at w0 through the cut t0 = 0 (the only
  // period-1 orbit with one impact there). 1e-8: the shooting's accuracy,
  // as in impact_oscillator.test.cpp (measured: 1e-10 near the grazing,
  // 3e-15 elsewhere); the old restart's orbits were 2e-7 to 2.5e-3 off.
  const saltus::testing::Oscillator osc{run.system->parameter("zeta"), run.system->parameter("F"),
                                        run.system->parameter("d"), run.system->parameter("r")};
  const auto orbits = osc.orbits(w0);
  REQUIRE(orbits.size() == 1);
  const Eigen::Vector2d exact = orbits[0].at(osc, w0, summary["t0"].get<double>());
  CHECK(std::abs(summary["state"]["x"].get<double>() - exact[0]) < 1e-8);
  CHECK(std::abs(summary["state"]["v"].get<double>() - exact[1]) < 1e-8);
  fs::remove_all(dir);
}
