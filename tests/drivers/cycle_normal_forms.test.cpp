// The cusp of cycles (CPC) on an LPC curve and the generalized period
// doubling (GPD) on a PD curve (testfunctions/cycle_normal_form.h), against
// closed forms derived here, for examples/cusp_of_cycles_curves.json and
// examples/generalized_flip_curves.json (forced orbits: the period map), and
// for examples/autonomous_cusp_of_cycles.json (autonomous orbits: the
// Poincare map, its closed forms derived in tests/continuation/periodic/
// poincare_map_forms.test.cpp).
//
// Both are normal forms in a frame moved by the forcing (the idea of
// examples/rotating_frame_curves.json): (u, v) = eps (cos wt, sin wt) +
// R(theta(t)) (eta, zeta), R the rotation, the frame's own system autonomous.
// The orbit's deviation at t0 = 0 (R = I) is (eta, zeta) itself, and one
// period T = 2 pi / w later it is R(theta(T)) Phi_T(eta, zeta), Phi the
// frame's flow: the period map is Phi_T for a full turn (theta = wt) and
// -Phi_T for half a turn (theta = wt / 2). w = 1, T = 2 pi below. The
// normal-form coefficients are those of Kuznetsov 2004, Sec. 5.4 (maps),
// with |q| = 1 and <p, q> = 1.
//
// Fold (full turn): eta' = g(eta) = a + b eta + beta eta^2 + gamma eta^3,
// zeta' = -zeta + delta eta^2 (beta = 0.3, gamma = 1, delta = 0.5). Period-T
// orbits are the frame's equilibria (eta*, delta eta*^2); a fold of them is
// a double root of g: g(eta*) = g'(eta*) = 0, so the LPC curve is, in eta*,
//   b = -2 beta eta* - 3 gamma eta*^2,   a = beta eta*^2 + 2 gamma eta*^3,
// with u(0) = eps + eta*, v(0) = delta eta*^2. The linearization there is
// [[0, 0], [2 delta eta*, -1]] (g' = 0), so M = exp(T J) = [[1, 0], [m, E]],
// E = e^-T: q = (1, 2 delta eta*) / sqrt(1 + 4 delta^2 eta*^2) = (q1, q2),
// and p = (1 / q1, 0) (p^T (M - I) = 0 forces p2 = 0). eta's equation does
// not see zeta, so the eta-component of the map is the scalar flow
// phi_T(eta), and at an equilibrium with g' = 0 the second-order variation
// eta2' = g'' eta1^2 / 2 (eta1 = q1 constant) gives phi'' = T g''. Hence
//   b = <p, B(q, q)> / 2 = (1 / q1) T g''(eta*) q1^2 / 2
//     = T (beta + 3 gamma eta*) / sqrt(1 + 4 delta^2 eta*^2)
// (up to q's orientation, one sign along the whole curve). It vanishes at
// the CPC eta* = -beta / (3 gamma) = -0.1: a = 0.001, b = 0.03. There g'' =
// 0 too, so B(q, .)'s eta-component (phi'' q1 h_eta) vanishes and the cusp
// coefficient is <p, C(q, q, q)> / 6 = (1 / q1) 6 T gamma q1^3 / 6 = T gamma /
// (1 + 4 delta^2 eta*^2) = 2 pi / 1.01 (phi''' = 6 T gamma from eta' =
// gamma (eta - eta*)^3).
//
// Flip (half turn): eta' = alpha eta + beta eta^2 + b eta^3 + sigma eta
// zeta, zeta' = -zeta + delta eta^2, alpha = a - b^2 (beta = 0.7, sigma = 1,
// delta = 0.5). The orbit is (eta, zeta) = 0 for all (a, b); the
// multipliers -e^(alpha T) and -E, so the PD curve is a = b^2, where M =
// -diag(1, E), q = p = (1, 0). With P = -Phi_T: B = -B_Phi, C = -C_Phi, and
// the variations of Phi (x = s y1 + s^2 y2 + s^3 y3, y1 = (1, 0)):
//   zeta2' = -zeta2 + delta:  zeta2(T) = delta (1 - E);  eta2' = beta: eta2(T) = beta T;
//   eta3' = 2 beta eta2 + b + sigma zeta2:  eta3(T) = beta^2 T^2 + b T + sigma delta (T - 1 + E);
//   the mixed d^2 Phi_eta / d eta d zeta = int_0^T sigma e^-t dt = sigma (1 - E).
// So B(q, q) = -2 (beta T, delta (1 - E)), h = (I - M)^-1 B(q, q) = -(beta T,
// 2 delta (1 - E) / (1 + E)), <p, B(q, h)> = 2 beta^2 T^2 + 2 sigma delta (1 -
// E)^2 / (1 + E), <p, C(q, q, q)> = -6 eta3(T), and
//   c = <p, C(q, q, q)> / 6 + <p, B(q, h)> / 2
//     = -b T - sigma delta (T - 1 + E - (1 - E)^2 / (1 + E))
//     = -b T - sigma delta (T - 2 tanh(T / 2)),
// beta dropping out (the (I - M)^-1 term cancels it: a test of that term).
// GPD: b = -sigma delta (1 - 2 tanh(T/2) / T) = -0.5 (1 - tanh(pi) / pi),
// a = b^2.
//
// Tolerances: the orbits are integrated to 1e-10 (the simulation's default)
// and the curves corrected to the corrector's tolerance, so the states and
// parameters are good to ~1e-10 and the coefficients (one more integration
// of the lifted system at the same tolerance, of size ~5) to ~1e-9: 1e-8
// for both, and 1e-8 for the located parameters (located in arclength to
// the engine's event tolerance).

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "run_cli.h"

using saltus::testing::example;
using saltus::testing::read_csv;
using saltus::testing::run_saltus;
using saltus::testing::scratch;

namespace {

constexpr double kT = 2 * M_PI;
constexpr double kPi = M_PI;

struct Run {
  std::filesystem::path out;
  nlohmann::json curve;
  std::vector<std::map<std::string, std::string>> rows;
};

Run run_example(const std::string& name) {
  Run r{scratch(name), {}, {}};
  const auto result = run_saltus({"periodic", example(name + ".json").string(), "--out", r.out.string()});
  INFO(result.out << result.err);
  REQUIRE(result.code == 0);
  const auto summary = nlohmann::json::parse(std::ifstream(r.out / "summary.json"));
  REQUIRE(summary["curves"].size() == 1);
  r.curve = summary["curves"][0];
  r.rows = read_csv(r.out / "curve_1.csv");
  return r;
}

double number(const std::map<std::string, std::string>& row, const std::string& name) {
  return std::stod(row.at(name));
}

// The one located point of the type.
nlohmann::json the_point(const nlohmann::json& curve, const std::string& type) {
  std::vector<nlohmann::json> found;
  for (const auto& sp : curve["special_points"])
    if (sp["type"] == type) found.push_back(sp);
  INFO(curve["special_points"].dump());
  REQUIRE(found.size() == 1);
  CHECK(found[0]["status"] == "located");
  return found[0];
}

}  // namespace

TEST_CASE(
    "saltus periodic examples/cusp_of_cycles_curves.json: the LPC curve, its fold coefficient and the CPC "
    "at a = 0.001, b = 0.03 with the cusp coefficient 2 pi / 1.01",
    "[cli][periodic][curve][normal_form]") {
  const double beta = 0.3, gamma = 1.0, delta = 0.5, eps = 0.5;
  const Run r = run_example("cusp_of_cycles_curves");
  REQUIRE(r.curve["kind"] == "LPC");
  REQUIRE(r.rows.size() >= 20);
  // q's orientation: one sign along the curve, taken from the first row.
  const double sign = number(r.rows.front(), "test_CPC") > 0 ? 1.0 : -1.0;
  double worst = 0.0, lo = 1e300, hi = -1e300;
  for (const auto& row : r.rows) {
    const double eta = number(row, "u") - eps;
    const double b = -2 * beta * eta - 3 * gamma * eta * eta,
                 a = beta * eta * eta + 2 * gamma * eta * eta * eta;
    const double fold = sign * kT * (beta + 3 * gamma * eta) / std::sqrt(1 + 4 * delta * delta * eta * eta);
    worst =
        std::max({worst, std::abs(number(row, "b") - b), std::abs(number(row, "a") - a),
                  std::abs(number(row, "v") - delta * eta * eta), std::abs(number(row, "test_CPC") - fold)});
    lo = std::min(lo, eta), hi = std::max(hi, eta);
  }
  INFO("LPC curve over eta* in [" << lo << ", " << hi << "]: worst " << worst);
  CHECK(worst < 1e-8);
  CHECK(lo < -0.3);  // past the CPC at eta* = -0.1
  CHECK(hi > 0.17);
  const auto cpc = the_point(r.curve, "CPC");
  CHECK(std::abs(cpc["parameters"]["b"].get<double>() - 0.03) < 1e-8);
  CHECK(std::abs(cpc["state"]["a"].get<double>() - 0.001) < 1e-8);
  CHECK(std::abs(cpc["state"]["u"].get<double>() - (eps - 0.1)) < 1e-8);
  CHECK(std::abs(cpc["fold_coefficient"].get<double>()) < 1e-8);
  CHECK(std::abs(cpc["cusp_coefficient"].get<double>() - kT * gamma / 1.01) < 1e-8);
  CHECK(cpc["multipliers"].size() == 2);
  std::filesystem::remove_all(r.out);
}

TEST_CASE(
    "saltus periodic examples/generalized_flip_curves.json: the PD curve a = b^2, its flip coefficient "
    "-b T - sigma delta (T - 2 tanh(T/2)) and the GPD where it vanishes",
    "[cli][periodic][curve][normal_form]") {
  const double sigma = 1.0, delta = 0.5;
  const double flip_b = -sigma * delta * (1 - 2 * std::tanh(kT / 2) / kT);
  const Run r = run_example("generalized_flip_curves");
  REQUIRE(r.curve["kind"] == "PD");
  REQUIRE(r.rows.size() >= 20);
  double worst = 0.0, lo = 1e300, hi = -1e300;
  for (const auto& row : r.rows) {
    const double b = number(row, "b");
    const double c = -b * kT - sigma * delta * (kT - 2 * std::tanh(kT / 2));
    worst = std::max({worst, std::abs(number(row, "a") - b * b), std::abs(number(row, "u") - 0.5),
                      std::abs(number(row, "v")), std::abs(number(row, "test_GPD") - c)});
    lo = std::min(lo, b), hi = std::max(hi, b);
  }
  INFO("PD curve over b in [" << lo << ", " << hi << "]: worst " << worst);
  CHECK(worst < 1e-8);
  CHECK(lo < -0.49);  // past the GPD
  CHECK(hi > 0.09);
  const auto gpd = the_point(r.curve, "GPD");
  CHECK(std::abs(gpd["parameters"]["b"].get<double>() - flip_b) < 1e-8);
  CHECK(std::abs(gpd["state"]["a"].get<double>() - flip_b * flip_b) < 1e-8);
  CHECK(std::abs(gpd["flip_coefficient"].get<double>()) < 1e-8);
  CHECK(gpd["multipliers"].size() == 2);
  std::filesystem::remove_all(r.out);
}

TEST_CASE(
    "saltus periodic examples/autonomous_cusp_of_cycles.json: the LPC curve of autonomous cycles, the "
    "Poincare "
    "map's fold coefficient and the CPC at a = b = 0 with the cusp coefficient 8 pi",
    "[cli][periodic][curve][normal_form][autonomous]") {
  // LPC curve e = s: a = 2 s^3, b = -3 s^2, r^2 = 1 + s, z = delta s, T = 2
  // pi / (1 + kappa s); fold coefficient 12 T r^3 s / sqrt(1 + 4 delta^2
  // r^2) (one sign along the curve); at the CPC 8 T / (1 + 4 delta^2) = 8 pi.
  const double kappa = 0.5, delta = 0.5;
  const Run r = run_example("autonomous_cusp_of_cycles");
  REQUIRE(r.curve["kind"] == "LPC");
  REQUIRE(r.rows.size() >= 20);
  const double sign = number(r.rows.front(), "test_CPC") > 0 ? 1.0 : -1.0;
  double worst = 0.0, lo = 1e300, hi = -1e300;
  for (const auto& row : r.rows) {
    const double x = number(row, "x"), y = number(row, "y"), r2 = x * x + y * y, s = r2 - 1;
    const double T = 2 * kPi / (1 + kappa * s);
    const double fold = sign * 12 * T * r2 * std::sqrt(r2) * s / std::sqrt(1 + 4 * delta * delta * r2);
    REQUIRE(std::isfinite(number(row, "test_CPC")));  // NaN before the Poincare map's forms were built
    worst = std::max({worst, std::abs(number(row, "a") - 2 * s * s * s),
                      std::abs(number(row, "b") + 3 * s * s), std::abs(number(row, "z") - delta * s),
                      std::abs(number(row, "T") - T), std::abs(number(row, "test_CPC") - fold)});
    lo = std::min(lo, s), hi = std::max(hi, s);
  }
  INFO("LPC curve over s in [" << lo << ", " << hi << "]: worst " << worst);
  CHECK(worst < 1e-8);
  CHECK(lo < -0.25);  // past the CPC at s = 0
  CHECK(hi > 0.29);
  const auto cpc = the_point(r.curve, "CPC");
  CHECK(std::abs(cpc["parameters"]["b"].get<double>()) < 1e-8);
  CHECK(std::abs(cpc["state"]["a"].get<double>()) < 1e-8);
  CHECK(std::abs(cpc["state"]["x"].get<double>() - 1) < 1e-8);
  CHECK(std::abs(cpc["fold_coefficient"].get<double>()) < 1e-8);
  CHECK(std::abs(std::abs(cpc["cusp_coefficient"].get<double>()) - 8 * kPi) < 1e-8);
  CHECK(cpc["multipliers"].size() == 2);  // the nontrivial ones: 1 and e^-T
  std::filesystem::remove_all(r.out);
}
