#include <boost/math/special_functions/lambert_w.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "continuation/flow/simulate.h"
#include "models/expression_system.h"
#include "run_cli.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace saltus;
using namespace saltus::testing;

namespace {

std::vector<json> of_type(const json& summary, const std::string& type) {
  std::vector<json> out;
  for (const auto& s : summary["special_points"])
    if (s["type"] == type) out.push_back(s);
  return out;
}

}  // namespace

TEST_CASE(
    "examples/van_der_pol.json: HB at mu = 0, l1 = -1/4; its cycles to mu = 2 have the simulated period",
    "[cli][hopf]") {
  const fs::path out = scratch("van-der-pol");
  const json summary = continue_json(example("van_der_pol.json"), out);
  const auto hb = of_type(summary, "HB");
  REQUIRE(hb.size() == 1);
  CHECK(std::abs(hb[0]["parameters"]["mu"].get<double>()) < 1e-10);
  CHECK(hb[0]["l1"].get<double>() ==
        Approx(-0.25).epsilon(1e-9));  // derived in tests/testfunctions/hopf.test.cpp
  CHECK(hb[0]["criticality"] == "supercritical");
  for (const char* f : {"branch.csv", "cycles.csv", "summary.json", "branch.png", "orbits.png"})
    CHECK(fs::exists(out / f));

  // branch.csv: stable (no eigenvalue right of the axis) before mu = 0, two unstable after.
  const auto rows = read_csv(out / "branch.csv");
  REQUIRE(rows.size() > 10);
  for (const auto& row : rows) {
    const double mu = std::stod(row.at("mu"));
    if (std::abs(mu) > 1e-6) CHECK(std::stoi(row.at("unstable")) == (mu > 0 ? 2 : 0));
    CHECK(std::stod(row.at("re_1")) ==
          Approx(mu / 2).margin(1e-9));  // eigenvalues mu/2 +- i sqrt(1 - mu^2/4)
  }

  // The cycles end at mu = 2 ("EP"); the period there against a direct
  // simulation: a transient of 200 time units, then the time between two
  // upward crossings of x = 0, located on the dense output.
  const auto cycles = read_csv(out / "cycles.csv");
  REQUIRE(!cycles.empty());
  const auto& last = cycles.back();
  REQUIRE(std::stod(last.at("mu")) == Approx(2.0).margin(1e-9));
  const double T = std::stod(last.at("T"));
  const auto ode = models::make_expression_ode({"x", "y"}, {"mu"}, {2.0}, {"y", "-x + (mu - x^2)*y"});
  flow::SimulationOptions options;
  options.absolute_tolerance = options.relative_tolerance = 1e-13;
  options.event_tolerance = 1e-14;
  options.output_interval = 0;
  Vector x0(2);
  x0 << 0.5, 0.0;
  const flow::Section upward{[](double, const Vector& x) { return x[0]; }, flow::Crossing::kRising};
  const flow::Trajectory tr = flow::simulate(*ode, 0, 0.0, x0, 230.0, options, {}, {upward});
  REQUIRE(tr.ok());
  std::vector<double> hits;
  for (const auto& h : tr.section_hits)
    if (h.t > 200) hits.push_back(h.t);
  REQUIRE(hits.size() >= 2);
  CHECK(std::abs(T - (hits[1] - hits[0])) < 1e-8);
  // Stable cycles: the nontrivial multiplier inside the unit circle, as the HB's l1 < 0 says.
  const auto ep = of_type(summary, "EP");
  bool cycle_end = false;
  for (const auto& e : ep)
    if (e["branch"] == "cycles") {
      cycle_end = true;
      CHECK(std::abs(e["multipliers"][0][0].get<double>()) < 1.0);
    }
  CHECK(cycle_end);
}

TEST_CASE("examples/brusselator.json: HB at b = 1 + a^2 = 2, frequency 1, l1 = -1/2", "[cli][hopf]") {
  const json summary = continue_json(example("brusselator.json"), scratch("brusselator"));
  const auto hb = of_type(summary, "HB");
  REQUIRE(hb.size() == 1);
  CHECK(std::abs(hb[0]["parameters"]["b"].get<double>() - 2.0) < 1e-10);
  CHECK(std::abs(hb[0]["frequency"].get<double>() - 1.0) < 1e-9);
  CHECK(std::abs(hb[0]["l1"].get<double>() + 0.5) < 1e-8);  // -(a^2 + 2) / (2a (2a^2 + 1)) at a = 1
  bool cycles = false;
  for (const auto& b : summary["branches"]) cycles |= b["name"] == "cycles" && b["points"].get<int>() > 5;
  CHECK(cycles);
}

TEST_CASE("Hopf run files: bad input is a clear error", "[cli][hopf]") {
  auto error_of = [](const std::string& text) {
    const fs::path dir = scratch("hopf-bad");
    fs::create_directories(dir);
    const fs::path file = dir / "bad.json";
    std::ofstream(file) << text;
    const Run r = run_saltus({"continue", file.string(), "--out", (dir / "out").string()});
    CHECK(r.code != 0);
    return r.err;
  };
  const std::string base =
      R"("unknowns": ["x", "y"], "parameters": {"mu": -1}, "equations": ["y", "-x + (mu - x^2)*y"],
                             "start": {"x": 0, "y": 0}, "continuation": {"parameter": "mu", "bounds": {"mu": [-1, 1]}})";
  // HB asked without equilibria.
  CHECK_THAT(error_of("{" + base + R"(, "hopf_cycles": {}})"), Catch::Contains("set \"equilibria\": true"));
  // Cycles from an HB the branch does not have.
  CHECK_THAT(error_of("{" + base + R"(, "equilibria": true, "hopf_cycles": {"from": 2}})"),
             Catch::Contains("'hopf_cycles.from' = 2, but the first branch has 1 HB point(s)"));
  // A non-positive amplitude.
  CHECK_THAT(error_of("{" + base + R"(, "equilibria": true, "hopf_cycles": {"amplitude": -1}})"),
             Catch::Contains("'hopf_cycles.amplitude' = -1 must be > 0"));
  // An eigenvalue count on a small system, and one out of range.
  CHECK_THAT(error_of("{" + base + R"(, "equilibria": {"count": 1}})"),
             Catch::Contains("'equilibria.count' is for large sparse systems; with 2 unknowns use"));
  CHECK_THAT(error_of(R"({"model": "brusselator_1d", "model_options": {"n": 10}, "equilibria": {"count": 19},
                          "continuation": {"parameter": "b"}})"),
             Catch::Contains("'equilibria.count' = 19 must be in 1..18"));
  // Equilibria with a periodic study.
  CHECK_THAT(error_of("{" + base + R"(, "equilibria": true, "periodic": {"period": 6}})"),
             Catch::Contains("give one of them"));
  // Cycles from a degenerate HB (the classical van der Pol, l1 = 0).
  const std::string classical =
      R"({"unknowns": ["x", "y"], "parameters": {"mu": -1}, "equations": ["y", "-x + mu*(1 - x^2)*y"],
          "start": {"x": 0, "y": 0}, "equilibria": true, "hopf_cycles": {},
          "continuation": {"parameter": "mu", "bounds": {"mu": [-1, 1]}}})";
  CHECK_THAT(error_of(classical), Catch::Contains("degenerate"));
}

// The friction oscillator m x'' + c x' + k x = F(v_b - x'), F(w) = N tanh(w/eps)
// (mu_k + dmu exp(-(w/v_s)^2)), dmu = mu_s - mu_k. At the equilibrium
// (x = F(v_b)/k, v = 0) A = [[0, 1], [-k/m, -(c + F'(v_b))/m]]: a Hopf point
// where c + F'(v_b) = 0 with omega = sqrt(k/m). For w/eps >> 1 (here above
// 200, where tanh(w/eps) = 1 and its derivatives vanish in double),
// F'(w) = -2 N dmu (w/v_s^2) exp(-s), s = (w/v_s)^2, so the condition is
// sqrt(s) exp(-s) = kappa/v_s, kappa = c v_s^2 / (2 N dmu), i.e.
// s = -W(-2 kappa^2 / v_s^2) / 2 on both real branches W_0, W_-1 of the
// Lambert function. The only nonlinearity is g(v) = F(v_b - v)/m in v';
// Kuznetsov's formula (3.20) with q = (1, i omega)/sqrt(1 + omega^2)
// (evaluated symbolically) gives l1 = -F'''(v_b) sqrt(k) / (4 sqrt(m) (k + m)),
// the quadratic terms cancelling, with F'''(w) = N dmu exp(-s)
// (12 w / v_s^4 - 8 w^3 / v_s^6): supercritical exactly when s < 3/2.
TEST_CASE("examples/friction_oscillator.json: the two Hopf points of the Stribeck slope, l1 in closed form",
          "[cli][hopf][friction]") {
  const fs::path out = scratch("friction");
  const json summary = continue_json(example("friction_oscillator.json"), out);
  const json& p = summary["branches"][0]["special_points"][0]["parameters"];
  const double m = p["m"], k = p["k"], c = p["c"], N = p["N"], v_s = p["v_s"];
  const double dmu = p["mu_s"].get<double>() - p["mu_k"].get<double>();
  const double kappa = c * v_s * v_s / (2 * N * dmu);
  std::vector<double> expected;  // upper (W_-1) first: the branch goes down in v_b
  for (const double W : {boost::math::lambert_wm1(-2 * kappa * kappa / (v_s * v_s)),
                         boost::math::lambert_w0(-2 * kappa * kappa / (v_s * v_s))})
    expected.push_back(v_s * std::sqrt(-W / 2));
  const auto hb = of_type(summary, "HB");
  REQUIRE(hb.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    const double w = expected[i], s = w * w / (v_s * v_s);
    CHECK(std::abs(hb[i]["parameters"]["v_b"].get<double>() - w) < 1e-10);
    CHECK(std::abs(hb[i]["frequency"].get<double>() - std::sqrt(k / m)) < 1e-9);
    const double F3 =
        N * dmu * std::exp(-s) * (12 * w / std::pow(v_s, 4) - 8 * std::pow(w, 3) / std::pow(v_s, 6));
    const double l1 = -F3 * std::sqrt(k) / (4 * std::sqrt(m) * (k + m));
    CHECK(std::abs(hb[i]["l1"].get<double>() - l1) < 1e-8);
    CHECK(hb[i]["criticality"] == (s < 1.5 ? "supercritical" : "subcritical"));
  }
  // The upper point is subcritical: its unstable cycles go to faster belts,
  // fold (LPC) into stable cycles, which start to stick after the fold and
  // are followed down to v_b = 0.2.
  const auto cycles = read_csv(out / "cycles.csv");
  REQUIRE(cycles.size() > 10);
  CHECK(std::stod(cycles.back().at("v_b")) == Approx(0.2).margin(1e-9));
  double lpc = 0, stick = 0;
  for (const auto& s : summary["special_points"]) {
    if (s["branch"] != "cycles") continue;
    if (s["type"] == "LPC") lpc = s["parameters"]["v_b"];
    if (s["name"] == "stick") stick = s["parameters"]["v_b"];
    if (s["type"] == "EP") CHECK(std::abs(s["multipliers"][0][0].get<double>()) < 1.0);  // stable at the end
  }
  CHECK(lpc > expected[0]);
  CHECK(stick > 0.2);
  CHECK(stick < lpc);
}

// The 1-D Brusselator with n = 500 points per species (1000 unknowns):
// along the homogeneous state, the Hopf points of the sine modes k = 1, 2 at
// b = 1 + a^2 + (d1 + d2) mu_k, mu_k = 4 (n + 1)^2 sin^2(k pi / (2 (n + 1)))
// (models/brusselator_1d.h), frequency sqrt(det J_k) there, found by the
// sparse path (10 eigenvalues of smallest modulus, shift-invert Arnoldi).
TEST_CASE("examples/brusselator_1d.json: the Hopf points of the first two modes by the sparse path",
          "[cli][hopf][sparse]") {
  const json summary = continue_json(example("brusselator_1d.json"), scratch("brusselator-1d"));
  const auto hb = of_type(summary, "HB");
  REQUIRE(hb.size() == 2);
  const double a = 2, d1 = 0.008, d2 = 0.004, n = 500;
  for (int k = 1; k <= 2; ++k) {
    const double s = std::sin(k * M_PI / (2 * (n + 1)));
    const double mu = 4 * (n + 1) * (n + 1) * s * s;
    const double b = 1 + a * a + (d1 + d2) * mu;
    const double det = (b - 1 - d1 * mu) * (-a * a - d2 * mu) + a * a * b;
    CHECK(std::abs(hb[k - 1]["parameters"]["b"].get<double>() - b) < 1e-10);
    CHECK(std::abs(hb[k - 1]["frequency"].get<double>() - std::sqrt(det)) < 1e-9);
    CHECK(hb[k - 1]["criticality"] == "supercritical");
    CHECK(hb[k - 1]["eigenvalues"].size() == 10);
  }
}
