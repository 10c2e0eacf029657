// Neimark-Sacker curves of forced orbits and the codimension-2 points on NS,
// LPC and PD curves, against closed forms (examples/forced_bt_curves.json,
// examples/rotating_frame_curves.json).
//
// forced_bt_curves: (u, v) = (U, V) + eps (cos wt, sin wt) with
// U' = V, V' = b1 + b U + U^2 + s U V (the Bogdanov-Takens normal form,
// b1 = a - b^2) and z' = -z + cos wt, u' also pulled by k (z - z*(t)). The
// field vanishes on (U, V) = (U*, 0), z = z*(t) = (cos wt + w sin wt) /
// (1 + w^2), U*^2 + b U* + b1 = 0, so that is the period-T orbit (T = 2 pi /
// w = 2 pi); its linearization is constant, block triangular, with the
// (u, v) block J = [[0, 1], [b + 2 U*, s U*]] and -1 for z: the multipliers
// are exp(T lambda(J)) and e^-T. A pair on the unit circle (or a real pair
// mu, 1/mu): tr J = s U* = 0, so U* = 0, b1 = 0: the NS curve is a = b^2,
// with J = [[0, 1], [b, 0]], lambda = +-sqrt(b): kappa = cos(T sqrt(-b))
// for b < 0 and cosh(T sqrt(b)) for b > 0 (neutral saddles). Resonances
// (theta = T sqrt(-b)): 1:4 at theta = pi/2, b = -1/16; 1:3 at 2 pi/3,
// b = -1/9; 1:1 at b = 0 (J nilpotent: a Jordan block at +1). The 1:2 point
// b = -1/4 is no crossing here (exp(T J) of a constant J is -I there, kappa
// touches -1 and turns back), so the curve is started above it. The LPC
// curve: a double root U*, b^2 = 4 b1, a = 5 b^2 / 4, U* = -b/2,
// J = [[0, 1], [0, -s b/2]]: multipliers 1, exp(-pi s b), e^-T; the second
// reaches 1 at b = 0 (R1, where the LPC and NS curves meet).
//
// rotating_frame_curves: (u, v) = eps (cos wt, sin wt) + R(wt/2) eta with
// eta' = K eta + (0, eta1^2), K = [[alpha, 1], [b, alpha]], alpha = a - b^2,
// z as above. The orbit is eta = 0 at every (a, b) and over one period the
// frame turns by R(pi) = -I, so the (u, v) block of the monodromy is
// -exp(T K): multipliers -exp(T (alpha +- sqrt b)) and e^-T. NS curve
// alpha = 0, a = b^2: for b < 0 -exp(+-i T sqrt(-b)), kappa = -cos(T
// sqrt(-b)); for b > 0 kappa = -cosh(T sqrt b). 1:2 at b = 0 (K nilpotent:
// -(I + T K), a Jordan block at -1), 1:3 at kappa = -1/2, T sqrt(-b) =
// pi/3, b = -1/36; 1:4 at kappa = 0, b = -1/16. PD curve: an eigenvalue
// alpha +- sqrt b = 0, (a - b^2)^2 = b, the other multiplier -exp(2 T
// alpha) passes -1 at alpha = 0, b = 0 (R2 again). The branch the curves
// start from is continued in b at a = 0.04: for b < 0 the pair
// -exp(T alpha) exp(+-i T sqrt(-b)) is on the unit circle at alpha = 0, b =
// -0.2 (the NS, -exp(+-i T sqrt(0.2))); for b > 0 -exp(T (alpha -
// sqrt b)) passes -1 where 0.04 - b^2 = sqrt b (the PD, b = 0.0015997...),
// and at b = 0.2 (alpha = 0) the pair is the real -exp(+-T sqrt(0.2)),
// product 1: a neutral saddle, where the NS test changes sign too, and no NS
// (testfunctions/floquet.h).
//
// Tolerances: the orbits are computed at the simulation's default
// tolerances (1e-10 relative) and the equations solved to the corrector's;
// 1e-8 for every point and located parameter.

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

constexpr double kT = 2 * M_PI;  // w = 1

struct Run {
  std::filesystem::path out;
  nlohmann::json summary;
};

Run run_example(const std::string& name) {
  Run r{scratch(name), {}};
  const auto result = run_saltus({"periodic", example(name + ".json").string(), "--out", r.out.string()});
  INFO(result.out << result.err);
  REQUIRE(result.code == 0);
  r.summary = nlohmann::json::parse(std::ifstream(r.out / "summary.json"));
  return r;
}

// The located special points of a curve of one type.
std::vector<nlohmann::json> points_of(const nlohmann::json& curve, const std::string& type) {
  std::vector<nlohmann::json> found;
  for (const auto& sp : curve["special_points"])
    if (sp["type"] == type) found.push_back(sp);
  return found;
}

double number(const std::map<std::string, std::string>& row, const std::string& name) {
  return std::stod(row.at(name));
}

// Every row's worst error of f(row), and the range of b covered.
template <class F>
double worst_over(const std::vector<std::map<std::string, std::string>>& rows, F f, double* lo, double* hi) {
  double worst = 0.0;
  *lo = 1e300, *hi = -1e300;
  for (const auto& row : rows) {
    worst = std::max(worst, f(row));
    *lo = std::min(*lo, number(row, "b")), *hi = std::max(*hi, number(row, "b"));
  }
  return worst;
}

// A special point's value of a or b: the curve's first parameter is among
// its states, the second among its parameters.
double value_of(const nlohmann::json& point, const std::string& name) {
  return (point["state"].contains(name) ? point["state"] : point["parameters"])[name].get<double>();
}

// One located point of the type at b = b_expected, a = a_expected.
void check_point(const nlohmann::json& curve, const std::string& type, double b_expected, double a_expected) {
  const auto found = points_of(curve, type);
  INFO(type << " at b = " << b_expected << ": " << curve["special_points"].dump());
  REQUIRE(found.size() == 1);
  CHECK(found[0]["status"] == "located");
  CHECK(std::abs(value_of(found[0], "b") - b_expected) < 1e-8);
  CHECK(std::abs(value_of(found[0], "a") - a_expected) < 1e-8);
}

double ns_kappa(double b, double sign) {
  return sign * (b < 0 ? std::cos(kT * std::sqrt(-b)) : std::cosh(kT * std::sqrt(b)));
}

}  // namespace

TEST_CASE(
    "saltus periodic examples/forced_bt_curves.json: the NS curve a = b^2 with kappa, R3, R4 and R1, "
    "the LPC curve a = 5 b^2 / 4 meeting it at R1",
    "[cli][periodic][curve][ns_curve]") {
  const Run r = run_example("forced_bt_curves");
  const auto& curves = r.summary["curves"];
  REQUIRE(curves.size() == 2);
  REQUIRE(curves[0]["kind"] == "NS");
  REQUIRE(curves[1]["kind"] == "LPC");
  double lo = 0, hi = 0;
  const auto ns = read_csv(r.out / "curve_1.csv");
  REQUIRE(ns.size() >= 20);
  const double ns_worst = worst_over(
      ns,
      [](const auto& row) {
        const double a = number(row, "a"), b = number(row, "b");
        // On the curve U* = 0: u(0) = eps, v(0) = 0, z(0) = 1 / (1 + w^2).
        return std::max({std::abs(a - b * b), std::abs(number(row, "kappa") - ns_kappa(b, 1.0)),
                         std::abs(number(row, "u") - 0.5), std::abs(number(row, "v")),
                         std::abs(number(row, "z") - 0.5)});
      },
      &lo, &hi);
  INFO("NS curve over b in [" << lo << ", " << hi << "]: worst " << ns_worst);
  CHECK(ns_worst < 1e-8);
  CHECK(lo < -0.19);
  CHECK(hi > 0.099);
  check_point(curves[0], "R3", -1.0 / 9, 1.0 / 81);
  check_point(curves[0], "R4", -1.0 / 16, 1.0 / 256);
  check_point(curves[0], "R1", 0.0, 0.0);
  CHECK(points_of(curves[0], "R2").empty());  // kappa touches -1 only below the start

  const auto lpc = read_csv(r.out / "curve_2.csv");
  REQUIRE(lpc.size() >= 20);
  const double lpc_worst = worst_over(
      lpc,
      [](const auto& row) {
        const double a = number(row, "a"), b = number(row, "b");
        return std::max(std::abs(a - 1.25 * b * b), std::abs(number(row, "u") - (0.5 - b / 2)));
      },
      &lo, &hi);
  INFO("LPC curve over b in [" << lo << ", " << hi << "]: worst " << lpc_worst);
  CHECK(lpc_worst < 1e-8);
  CHECK(hi > 0.099);
  check_point(curves[1], "R1", 0.0, 0.0);
  CHECK(points_of(curves[1], "LPPD").empty());  // the other multipliers exp(-pi s b), e^-T stay positive
  CHECK(points_of(curves[1], "CPC").empty());   // the fold coefficient's pole at R1 is no CPC
  std::filesystem::remove_all(r.out);
}

TEST_CASE(
    "saltus periodic examples/rotating_frame_curves.json: the NS curve through R4, R3 and R2 into "
    "neutral saddles, the PD curve (a - b^2)^2 = b meeting it at R2",
    "[cli][periodic][curve][ns_curve]") {
  const Run r = run_example("rotating_frame_curves");
  // The branch in b at a = 0.04 (above): the NS at b = -0.2, the PD, and past
  // the neutral saddle at b = 0.2 no second NS.
  std::vector<std::string> types;
  for (const auto& sp : r.summary["special_points"]) types.push_back(sp["type"]);
  REQUIRE(types == std::vector<std::string>{"NS", "PD", "EP"});
  const auto& branch_ns = r.summary["special_points"][0];
  CHECK(branch_ns["status"] == "located");
  CHECK(std::abs(branch_ns["parameters"]["b"].get<double>() + 0.2) < 1e-8);
  const double re = branch_ns["multipliers"][0][0].get<double>(),
               im = branch_ns["multipliers"][0][1].get<double>();
  CHECK(std::abs(std::hypot(re, im) - 1.0) < 1e-8);
  CHECK(std::abs(std::atan2(std::abs(im), -re) - kT * std::sqrt(0.2)) < 1e-8);  // -exp(+-i T sqrt(0.2))
  const double b_pd = r.summary["special_points"][1]["parameters"]["b"].get<double>();
  CHECK(std::abs(0.04 - b_pd * b_pd - std::sqrt(b_pd)) < 1e-9);
  CHECK(r.summary["special_points"][2]["parameters"]["b"].get<double>() == Approx(0.25));  // past b = 0.2
  const auto& curves = r.summary["curves"];
  REQUIRE(curves.size() == 2);
  REQUIRE(curves[0]["kind"] == "NS");
  REQUIRE(curves[1]["kind"] == "PD");
  double lo = 0, hi = 0;
  const auto ns = read_csv(r.out / "curve_1.csv");
  REQUIRE(ns.size() >= 20);
  const double ns_worst = worst_over(
      ns,
      [](const auto& row) {
        const double a = number(row, "a"), b = number(row, "b");
        return std::max({std::abs(a - b * b), std::abs(number(row, "kappa") - ns_kappa(b, -1.0)),
                         std::abs(number(row, "u") - 0.5), std::abs(number(row, "v")),
                         std::abs(number(row, "z") - 0.5)});
      },
      &lo, &hi);
  INFO("NS curve over b in [" << lo << ", " << hi << "]: worst " << ns_worst);
  CHECK(ns_worst < 1e-8);
  CHECK(lo < -0.19);
  check_point(curves[0], "R2", 0.0, 0.0);
  check_point(curves[0], "R3", -1.0 / 36, 1.0 / 1296);
  check_point(curves[0], "R4", -1.0 / 16, 1.0 / 256);
  CHECK(points_of(curves[0], "R1").empty());  // b = -1/4 is below the curve's bound

  const auto pd = read_csv(r.out / "curve_2.csv");
  REQUIRE(pd.size() >= 20);
  const double pd_worst = worst_over(
      pd,
      [](const auto& row) {
        const double a = number(row, "a"), b = number(row, "b");
        return std::abs((a - b * b) * (a - b * b) - b);
      },
      &lo, &hi);
  INFO("PD curve over b in [" << lo << ", " << hi << "]: worst " << pd_worst);
  CHECK(pd_worst < 1e-8);
  check_point(curves[1], "R2", 0.0, 0.0);
  CHECK(points_of(curves[1], "LPPD").empty());  // -exp(T (alpha +- sqrt b)) is never +1
  // The flip coefficient passes a pole at R2 (<p, q> = 1 cannot be
  // normalized at the Jordan block): a sign change that is no GPD.
  CHECK(points_of(curves[1], "GPD").empty());
  std::filesystem::remove_all(r.out);
}
