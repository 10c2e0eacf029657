// The Lorenz system's period-doubling curve in (rho, sigma)
// (examples/user/lorenz_pd_curve.json: autonomous shooting plus the bordered
// test function of M + I, continuation/periodic/cycle_curve.h) against
// independent one-parameter locations of the PD.

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>

#include "run_cli.h"

using namespace saltus;

namespace {

// The first located PD of a one-parameter run's branch: (rho, sigma).
std::pair<double, double> first_pd(const nlohmann::json& special_points) {
  for (const auto& sp : special_points)
    if (sp["type"] == "PD" && sp["status"] == "located")
      return {sp["parameters"]["rho"].get<double>(), sp["state"].value("sigma", NAN)};
  return {NAN, NAN};
}

// The run file's branch alone (no curve) at another sigma, from the stable
// orbit at rho_start (the section at z = section), by `saltus periodic`:
// its first located PD in rho on the one-parameter branch down to rho_low
// (an independent location: no curve system involved). At sigma = 9 the
// branch from rho = 280 does not reach this PD (its multipliers stay off
// -1 down to rho = 185, another family), so it starts at rho = 200, where
// the attractor is the orbit on the curve (multiplier -0.65).
double one_parameter_pd(const std::filesystem::path& example, double sigma, double rho_start, double section,
                        double rho_low) {
  const auto dir = saltus::testing::scratch("lorenz-pd-" + std::to_string(sigma));
  std::filesystem::create_directories(dir);
  auto run = nlohmann::json::parse(std::ifstream(example));
  run["parameters"]["sigma"] = sigma;
  run["parameters"]["rho"] = rho_start;
  run["section"]["value"] = section;
  run["periodic"].erase("curve");
  run["periodic"]["bounds"]["rho"] = {rho_low, rho_start};
  std::ofstream(dir / "run.json") << run.dump(2);
  const auto r =
      saltus::testing::run_saltus({"periodic", (dir / "run.json").string(), "--out", (dir / "out").string()});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  const auto summary = nlohmann::json::parse(std::ifstream(dir / "out" / "summary.json"));
  const double rho = first_pd(summary["branch"]["special_points"]).first;
  std::filesystem::remove_all(dir);
  return rho;
}

}  // namespace

TEST_CASE(
    "saltus periodic examples/user/lorenz_pd_curve.json: the PD curve in (rho, sigma) passes through the "
    "known PD at sigma = 10 and the one-parameter PDs at sigma = 9 and 11",
    "[cli][periodic][curve][cycle_curve][lorenz]") {
  const auto example = saltus::testing::example("user/lorenz_pd_curve.json");
  const auto out = saltus::testing::scratch("lorenz-pd-curve");
  const auto r = saltus::testing::run_saltus({"periodic", example.string(), "--out", out.string()});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  const auto summary = nlohmann::json::parse(std::ifstream(out / "summary.json"));
  // The start: the first PD of the branch from rho = 280 at sigma = 10,
  // rho = 229.4067086 (AUTO-07p's lor demo at tight tolerances; our own
  // cascade, tests/continuation/periodic/lorenz.test.cpp, gives
  // 229.406708567).
  const double start = first_pd(summary["branch"]["special_points"]).first;
  CHECK(std::abs(start - 229.4067086) < 1e-7);
  for (const char* file : {"curve_1.csv", "curve_2.csv"}) {  // both curves start there (corrected onto g = 0)
    const auto rows = saltus::testing::read_csv(out / file);
    REQUIRE(rows.size() >= 5);
    CHECK(std::abs(std::stod(rows.front().at("rho")) - 229.4067086) < 1e-7);
    CHECK(std::abs(std::stod(rows.front().at("sigma")) - 10.0) < 1e-12);
    // The flip coefficient of the Poincare map (the GPD test): positive all
    // along, 0.0116 at the start (checked against differences of the
    // simulated map in tests/continuation/periodic/poincare_map_forms.test.cpp).
    for (const auto& row : rows) {
      const double c = std::stod(row.at("test_GPD"));
      CHECK(c > 0.0099);
      CHECK(c < 0.014);
    }
    CHECK(std::abs(std::stod(rows.front().at("test_GPD")) - 0.0115565494) < 1e-8);
  }
  REQUIRE(summary["curves"].size() == 2);
  // Each way in sigma, the curve ends at its bound (EP located at sigma = 9
  // or 11) with rho there; compared with the one-parameter PD at that sigma.
  std::map<double, double> ends;
  for (const auto& c : summary["curves"]) {
    for (const auto& sp : c["special_points"]) {
      INFO(sp.dump());
      CHECK((sp["type"] == "EP" || sp["type"] == "GPD"));  // no R2 or LPPD: the trivial 1 is deflated
      if (sp["type"] == "EP" && sp["status"] == "located") {
        const double sigma = sp["parameters"]["sigma"].get<double>();
        if (std::abs(sigma - 9) < 1e-9 || std::abs(sigma - 11) < 1e-9)
          ends[std::round(sigma)] = sp["state"]["rho"].get<double>();
      }
    }
  }
  REQUIRE(ends.size() == 2);
  const double at9 = one_parameter_pd(example, 9.0, 200.0, 190.0, 185.0);
  const double at11 = one_parameter_pd(example, 11.0, 280.0, 279.0, 260.0);
  WARN("PD curve: rho = " << std::setprecision(12) << ends[9] << " at sigma = 9 (one-parameter: " << at9
                          << "), " << ends[11] << " at sigma = 11 (one-parameter: " << at11 << ")");
  // Both located to event_tolerance 1e-10 on orbits integrated to 1e-11
  // (4e-10 apart measured), at rho = 192.5448654 and 270.7652164.
  CHECK(std::abs(ends[9] - at9) < 1e-7);
  CHECK(std::abs(ends[11] - at11) < 1e-7);
  CHECK(std::abs(at9 - 192.5448654) < 1e-6);
  CHECK(std::abs(at11 - 270.7652164) < 1e-6);
  CHECK(std::filesystem::exists(out / "curves_rho_sigma.png"));
  std::filesystem::remove_all(out);
}
