// The bouncing ball's LPC and PD curves (examples/bouncing_ball_curves.json)
// against their closed forms (tests/continuation/periodic/
// bouncing_ball_closed_form.h, derived in shooting.test.cpp): at every point
// of every curve the amplitude A is the closed form at that point's omega or
// e, to 1e-8.

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../continuation/periodic/bouncing_ball_closed_form.h"
#include "run_cli.h"

using namespace saltus;

namespace {

// The columns of a curve.csv by name, one map per row.
std::vector<std::map<std::string, double>> read_rows(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> names;
  {
    std::stringstream h(line);
    std::string name;
    while (std::getline(h, name, ',')) names.push_back(name);
  }
  std::vector<std::map<std::string, double>> rows;
  while (std::getline(in, line)) {
    std::stringstream s(line);
    std::string cell;
    std::map<std::string, double> row;
    for (std::size_t i = 0; std::getline(s, cell, ',') && i < names.size(); ++i) {
      try {
        row[names[i]] = std::stod(cell);
      } catch (const std::exception&) {  // a label column
      }
    }
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

TEST_CASE(
    "saltus periodic examples/bouncing_ball_curves.json: LPC and PD curves in (A, omega) and (A, e) "
    "are the closed forms to 1e-8",
    "[cli][periodic][curve][cycle_curve]") {
  const auto out = saltus::testing::scratch("ball-curves");
  const auto r = saltus::testing::run_saltus(
      {"periodic", saltus::testing::example("bouncing_ball_curves.json").string(), "--out", out.string()});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  const auto summary = nlohmann::json::parse(std::ifstream(out / "summary.json"));
  REQUIRE(summary["curves"].size() == 5);
  for (const auto& c : summary["curves"]) {
    const std::string kind = c["kind"], second = c["parameters"][1];
    INFO(kind << " in (A, " << second << ")");
    const auto rows = read_rows(out / c["file"].get<std::string>());
    CHECK(rows.size() >= 15);
    double worst = 0.0, lo = 1e300, hi = -1e300;
    for (const auto& row : rows) {
      saltus::testing::BallClosedForm an;  // g = 9.81, e = 0.5, omega = 2 pi: the run's
      (second == "omega" ? an.omega : an.e) = row.at(second);
      const double closed = kind == "LPC" ? an.A_fold() : an.A_pd();
      worst = std::max(worst, std::abs(row.at("A") - closed));
      lo = std::min(lo, row.at(second)), hi = std::max(hi, row.at(second));
    }
    INFO("largest |A - closed form| " << worst << " over " << second << " in [" << lo << ", " << hi << "]");
    CHECK(worst < 1e-8);
    CHECK(hi - lo > (second == "omega" ? 2.0 : 0.3));  // a real stretch of the curve
    // The codimension-2 points: the period-1 monodromy has det e^2 (each
    // impact's saltation scales the normal speed by -e, the flight is a
    // shear), so beside the critical +1 or -1 the other multiplier is e^2
    // on the LPC curve, -e^2 on the PD curve: R1 or R2 exactly at e = 1 and
    // never LPPD (e^2 = -1). On the PD curve at e = 1, A_LPC = 0 and
    // A_PD = 2 g (1 + 1) / (4 omega^2) = g / omega^2.
    std::vector<std::string> types;
    for (const auto& sp : c["special_points"])
      if (sp["type"] != "EP") types.push_back(sp["type"]);
    if (second == "e" && hi > 1.0) {
      REQUIRE(types == std::vector<std::string>{kind == "PD" ? "R2" : "R1"});
      const auto& r = c["special_points"][0];
      CHECK(r["status"] == "located");
      CHECK(std::abs(r["parameters"]["e"].get<double>() - 1.0) < 1e-8);
      CHECK(std::abs(r["state"]["A"].get<double>() - 9.81 / (4 * M_PI * M_PI)) < 1e-8);
      for (const auto& mu : r["multipliers"]) CHECK(std::abs(mu[0].get<double>() + 1.0) < 1e-6);
    } else {
      CHECK(types.empty());
    }
  }
  CHECK(std::filesystem::exists(out / "curves_A_omega.png"));
  CHECK(std::filesystem::exists(out / "curves_A_e.png"));
  std::filesystem::remove_all(out);
}

// A gnuplot that refuses every script: the run's data files are all written,
// and every figure it could not draw is named in a warning (the curves'
// figures were once dropped without a word).
TEST_CASE("saltus periodic: figures gnuplot cannot draw are warnings, the data stays",
          "[cli][periodic][curve][output]") {
  const auto dir = saltus::testing::scratch("ball-curves-nognuplot");
  std::filesystem::create_directories(dir / "bin");
  {
    std::ofstream fake(dir / "bin" / "gnuplot");
    fake << "#!/bin/sh\necho 'refused by the test'\nexit 1\n";
  }
  std::filesystem::permissions(dir / "bin" / "gnuplot", std::filesystem::perms::owner_all);
  auto run = nlohmann::json::parse(std::ifstream(saltus::testing::example("bouncing_ball_curves.json")));
  auto& curves = run["periodic"]["curve"];
  curves = nlohmann::json::array({curves[0], curves[2]});  // (A, omega) and (A, e)
  for (auto& c : curves) c["max_points"] = 4;
  std::ofstream(dir / "ball.json") << run.dump(2);

  const std::string path = std::getenv("PATH");
  ::setenv("PATH", ((dir / "bin").string() + ":" + path).c_str(), 1);
  const auto r = saltus::testing::run_saltus(
      {"periodic", (dir / "ball.json").string(), "--out", (dir / "out").string()});
  ::setenv("PATH", path.c_str(), 1);
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  for (const char* stem : {"orbit", "branch", "curves_A_omega", "curves_A_e"}) {
    INFO(stem);
    CHECK(r.err.find(std::string("figure ") + stem + " not drawn: refused by the test") != std::string::npos);
    CHECK(std::filesystem::exists(dir / "out" / (std::string(stem) + ".dat")));
    CHECK(!std::filesystem::exists(dir / "out" / (std::string(stem) + ".png")));
  }
  for (const char* file : {"branch.csv", "curve_1.csv", "curve_2.csv", "summary.json"})
    CHECK(std::filesystem::exists(dir / "out" / file));
  std::filesystem::remove_all(dir);
}

TEST_CASE("saltus periodic: LPC and PD curves asked badly are clear errors",
          "[cli][periodic][curve][errors]") {
  const auto example = saltus::testing::example("bouncing_ball_curves.json");
  struct Case {
    std::string what, curve, message;
    int code;
    double A_low = 0.2;  // the branch's lower bound in A
  };
  const std::vector<Case> cases = {
      {"twice the same", R"({"kind": "PD", "parameters": ["A", "A"]})", "two different parameters", 1},
      // The branch has no NS point: its orbits' multipliers are real.
      {"no NS on the branch", R"({"kind": "NS", "parameters": ["A", "omega"]})",
       "no located Neimark-Sacker point (NS) to start the curve from", 2},
      // The branch stops at A = 0.3, above the fold (0.2602): no LPC on it.
      {"no LPC on the branch", R"({"kind": "LPC", "parameters": ["A", "omega"]})",
       "no located fold of cycles (LPC) to start the curve from", 2, 0.3},
      {"no GR on the branch", R"([{"kind": "GR", "parameters": ["A", "omega"]}])",
       "no located grazing (GR) to start the curve from", 2},
  };
  for (const auto& c : cases) {
    SECTION(c.what) {
      const auto dir = saltus::testing::scratch("ball-bad-curve");
      std::filesystem::create_directories(dir);
      auto run = nlohmann::json::parse(std::ifstream(example));
      run["periodic"]["curve"] = nlohmann::json::parse(c.curve);
      run["periodic"]["bounds"]["A"] = {c.A_low, 0.46};
      std::ofstream(dir / "run.json") << run.dump(2);
      const auto r = saltus::testing::run_saltus(
          {"periodic", (dir / "run.json").string(), "--out", (dir / "out").string()});
      CHECK(r.code == c.code);
      CHECK_THAT(r.err, Catch::Contains(c.message));
      if (c.code == 1) CHECK(!std::filesystem::exists(dir / "out"));
      std::filesystem::remove_all(dir);
    }
  }
}
