// The impact oscillator's period-doubling curve in (w, F)
// (examples/user/impact_oscillator_curves.json, the second curve) against
// the closed form of impact_oscillator_closed_form.h: at every point (w, F)
// of the curve, the closed-form impacting orbit through saltus's point has a
// multiplier -1, det(S E(T) + I) = 0, at a frequency found by bisection in w
// at that F (independent of the simulator: exact exponentials and a scalar
// root), which must be the curve's w to 1e-8.

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "impact_oscillator_closed_form.h"
#include "run_cli.h"
#include "studies/hybrid_run_file.h"

using namespace saltus;
using saltus::testing::Oscillator;

TEST_CASE(
    "impact oscillator (examples/user/impact_oscillator_curves.json): the PD curve in (w, F) is a PD of "
    "the closed-form orbit at every point",
    "[user][periodic][impact-oscillator][curve][cycle_curve]") {
  const auto path = saltus::testing::example("user/impact_oscillator_curves.json");
  const auto run = studies::read_hybrid_run(path);
  Oscillator osc{run.system->parameter("zeta"), run.system->parameter("F"), run.system->parameter("d"),
                 run.system->parameter("r")};
  const auto out = saltus::testing::scratch("impact-oscillator-pd-curve");
  const auto result = saltus::testing::run_saltus({"periodic", path.string(), "--out", out.string()});
  INFO(result.out << result.err);
  REQUIRE(result.code == 0);
  const auto summary = nlohmann::json::parse(std::ifstream(out / "summary.json"));
  REQUIRE(summary["curves"].size() == 2);
  CHECK(summary["curves"][1]["kind"] == "PD");
  int points = 0;
  double F_min = 1e300, F_max = -1e300;
  for (const auto& row : saltus::testing::read_csv(out / summary["curves"][1]["file"].get<std::string>())) {
    auto at = [&](const char* name) { return std::stod(row.at(name)); };
    osc.F = at("F");
    const double w = at("w"), closed = closed_form_pd(osc, w, Eigen::Vector2d(at("x"), at("v")));
    INFO("F = " << std::setprecision(12) << osc.F << ": w = " << w << ", closed form " << closed);
    CHECK(std::abs(w - closed) < 1e-8);
    F_min = std::min(F_min, osc.F), F_max = std::max(F_max, osc.F);
    ++points;
  }
  CHECK(points >= 15);
  CHECK(F_max - F_min > 0.6);  // from F = 1 down towards the GR-PD-LPC point at F = 0.2997
  // No codimension-2 point on it: the saltation matrix of x = d, v -> -r v
  // is [[-r, 0], [(a+ + r a-) / v, -r]] (det r^2) and the flow's
  // determinant over T is e^(-2 zeta T), so beside -1 the multiplier is
  // -r^2 e^(-2 zeta T), in (-1, 0) for r = 0.8: no R2 (-1) and no LPPD (+1).
  for (const auto& sp : summary["curves"][1]["special_points"]) CHECK(sp["type"] == "EP");
  std::filesystem::remove_all(out);
}
