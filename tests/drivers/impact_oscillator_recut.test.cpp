// The cut of a forced orbit moves away from its impact (issue 34, item 6;
// continuation/periodic/shooting.h, ShootingSystem::recut). The impact
// oscillator of examples/user/impact_oscillator.json (stop d = 0.1), cut at
// the phase its transient ends at (t0 = 0.2106 T at w = 2.3), continued
// down in w: the impact of the 1:1 orbit moves earlier in the forcing
// cycle (its phase w s / 2 pi from 0.46 at w = 2.3 to 0.29 at w = 2.0 and
// 0.04 at w = 1.5; the closed form of tests/drivers/
// impact_oscillator_closed_form.h) and passes the cut near w = 1.9408.
// There x(t0) reaches the stop d and then jumps (v to -r v): the branch
// in (x(t0), v(t0), w) is discontinuous, and with a fixed cut it stopped
// there ("LPC bracketed" at w = 1.9407518, the corrector turning back).
// With the cut moved the branch goes on to the bound w = 1.7, and every
// point on both sides of the crossing is the closed-form orbit at its own
// cut t0 (branch.csv's column t0) to 1e-8.

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "impact_oscillator_closed_form.h"
#include "run_cli.h"
#include "studies/hybrid_run_file.h"

using namespace saltus;

TEST_CASE("impact oscillator: the branch in w goes on where the impact time crosses the cut t0",
          "[user][periodic][impact-oscillator][recut]") {
  const auto example = saltus::testing::example("user/impact_oscillator.json");
  nlohmann::json file = nlohmann::json::parse(std::ifstream(example));
  file["periodic"]["direction"] = -1;
  file["periodic"]["bounds"]["w"] = {1.7, 4.0};
  const auto out = saltus::testing::scratch("impact-recut");
  std::filesystem::create_directories(out);
  const auto path = out / "impact_down.json";
  std::ofstream(path) << file.dump(2);
  const auto run = studies::read_hybrid_run(path);
  const saltus::testing::Oscillator osc{run.system->parameter("zeta"), run.system->parameter("F"),
                                        run.system->parameter("d"), run.system->parameter("r")};
  const auto result = saltus::testing::run_saltus({"periodic", path.string(), "--out", (out / "o").string()});
  INFO(result.out << result.err);
  REQUIRE(result.code == 0);
  const auto summary = nlohmann::json::parse(std::ifstream(out / "o" / "summary.json"));
  INFO(summary["branch"].dump());
  // No false fold where the impact meets the cut; the branch ends at the bound.
  for (const auto& sp : summary["special_points"]) CHECK(sp["type"].get<std::string>() != "LPC");
  CHECK(summary["branch"]["stop_reason"].get<std::string>() == "bound");

  const auto rows = saltus::testing::read_csv(out / "o" / "branch.csv");
  REQUIRE(!rows.empty());
  REQUIRE(rows.front().count("t0"));
  const double t0_start = std::stod(rows.front().at("t0"));
  int before = 0, after = 0;  // points above and below the crossing (w = 1.9408)
  double w_min = 1e300;
  std::set<double> cuts;
  for (const auto& row : rows) {
    if (!row.at("label").empty()) continue;  // the bound's point is solved for w alone
    const double w = std::stod(row.at("w")), t0 = std::stod(row.at("t0"));
    const Eigen::Vector2d z(std::stod(row.at("x")), std::stod(row.at("v")));
    w_min = std::min(w_min, w);
    cuts.insert(t0);
    const auto orbits = osc.orbits(w);
    REQUIRE(!orbits.empty());
    double closest = 1e300;
    const saltus::testing::Oscillator::Orbit* o = nullptr;
    for (const auto& c : orbits)
      if ((c.at(osc, w, t0) - z).norm() < closest) closest = (c.at(osc, w, t0) - z).norm(), o = &c;
    INFO("w = " << w << ", t0 = " << t0 << ": closed form " << o->at(osc, w, t0).transpose() << ", saltus "
                << z.transpose());
    CHECK(closest < 1e-8);
    // The impact's phase against the first cut's: after the crossing the
    // impact comes before the cut's phase in the forcing cycle.
    const double T = 2 * M_PI / w, impact_phase = std::fmod(o->s / T, 1.0);
    const double cut_phase = std::fmod(t0_start / (2 * M_PI / 2.3), 1.0);
    (impact_phase > cut_phase ? before : after) += 1;
  }
  INFO("points before the crossing " << before << ", after " << after);
  CHECK(before > 10);
  CHECK(after > 10);
  CHECK(w_min < 1.75);
  CHECK(cuts.size() >= 2);  // the cut moved
  std::filesystem::remove_all(out);
}
