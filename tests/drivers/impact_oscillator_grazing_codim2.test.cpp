// Where the impact oscillator's PD and LPC curves meet its grazing curve
// (examples/user/impact_oscillator_curves.json; testfunctions/grazing_codim2.h).
//
// The closed form: on the grazing curve F = d D(w), D(w) = sqrt((1 - w^2)^2 +
// (2 zeta w)^2), the grazing orbit is the forced response with monodromy
// E(T) = e^(AT), T = 2 pi / w, and the test value is c = -(M_g)_12 = -e^(-zeta
// T) sin(wd T) / wd (wd = sqrt(1 - zeta^2); the header's derivation with h_x
// = (-1, 0), q = (0, (1 + r) a), a = -w^2 d < 0 at the peak of the forced
// response). c = 0 at w* = 2 wd, F* = d D(w*), where both multipliers of the
// grazing orbit are -e^(-zeta pi / wd).
//
// The mechanism, independently: at w = w* + delta the impacting period-1
// orbit is followed in F by one-parameter continuation (saltus periodic)
// down to its grazing. Beside the grazing it has a PD for delta > 0 and an
// LPC (fold) for delta < 0, at a distance from the grazing curve that
// shrinks like delta^2 (the orbit's impact speed is v ~ (F - F_g) / c and
// its trace ~ c / v). Each located point is checked against the closed form
// of impact_oscillator_closed_form.h, parametrized by the impact time s: the
// period-1 condition is affine in F, so F(s) is explicit; the PD is the root
// of det(M(s) + I) by bisection in s, the fold the minimum of F(s) (golden
// section in s; F is quadratic there, so s to 1e-9 gives F to ~1e-16).

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>

#include "impact_oscillator_closed_form.h"
#include "run_cli.h"

using saltus::testing::Oscillator;

namespace {

constexpr double kZeta = 0.05, kD = 0.1, kR = 0.8;  // examples/user/impact_oscillator_curves.json

double wd() { return std::sqrt(1 - kZeta * kZeta); }
double grazing_F(double w) { return kD * std::hypot(1 - w * w, 2 * kZeta * w); }

// The F at which the period-1 orbit impacts at time s (the condition of
// impact_oscillator_closed_form.h is affine in F).
double F_of(double w, double s) {
  Oscillator o{kZeta, 0.0, kD, kR};
  const double c0 = o.condition(w, s);
  o.F = 1.0;
  return -c0 / (o.condition(w, s) - c0);
}

Oscillator::Orbit orbit_at(double w, double s) { return Oscillator{kZeta, F_of(w, s), kD, kR}.orbit(w, s); }

// The impact time of the grazing orbit: the peak of the forced response, -arg X / w.
double grazing_time(double w) {
  const double T = 2 * M_PI / w;
  const double s = -std::arg(1.0 / std::complex<double>(1 - w * w, 2 * kZeta * w)) / w;
  return std::fmod(std::fmod(s, T) + T, T);
}

// The PD of the impacting orbit beside the grazing (impact speed v > 0 for
// s < s_g): det(M(s) + I) = 0 by bisection in s on [s_g - 0.1, s_g - 1e-6].
double closed_form_pd(double w) {
  const auto flip = [&](double s) {
    return (orbit_at(w, s).monodromy + Eigen::Matrix2d::Identity()).determinant();
  };
  double a = grazing_time(w) - 0.1, b = grazing_time(w) - 1e-6;
  REQUIRE(flip(a) > 0);
  REQUIRE(flip(b) < 0);
  for (int i = 0; i < 100; ++i) (flip(0.5 * (a + b)) > 0 ? a : b) = 0.5 * (a + b);
  return F_of(w, 0.5 * (a + b));
}

// The fold: the minimum of F(s) on [s_g - 0.2, s_g] (golden section).
double closed_form_fold(double w) {
  double a = grazing_time(w) - 0.2, b = grazing_time(w);
  const double g = 0.5 * (std::sqrt(5.0) - 1);
  for (int i = 0; i < 80; ++i) {
    const double c = b - g * (b - a), d = a + g * (b - a);
    (F_of(w, c) < F_of(w, d) ? b : a) = (F_of(w, c) < F_of(w, d) ? d : c);
  }
  return F_of(w, 0.5 * (a + b));
}

// `saltus periodic` on the example at w, in F downwards from the closed-form
// orbit impacting at s_g - 0.25; the first located special point of `type`.
nlohmann::json one_parameter(double w, const std::string& type) {
  auto run =
      nlohmann::json::parse(std::ifstream(saltus::testing::example("user/impact_oscillator_curves.json")));
  const double s = grazing_time(w) - 0.25, F = F_of(w, s);
  const Eigen::Vector2d x0 = orbit_at(w, s).at(Oscillator{kZeta, F, kD, kR}, w, 0.0);
  run["parameters"]["w"] = w;
  run["parameters"]["F"] = F;
  run["initial"] = {{"x", x0[0]}, {"v", x0[1]}};
  // Slow impacts near the grazing dip past the stop for about 2 v / |a|
  // (a ~ -w^2 d): guard samples every 2.5e-3 resolve v down to ~1e-3.
  run["simulation"] = {{"max_step", 0.02}, {"event_samples", 8}};
  auto& p = run["periodic"];
  p.erase("curve");
  p.erase("transient");
  p["parameter"] = "F";
  p["direction"] = -1;
  p["ds"] = 0.002;
  p["ds_max"] = 0.01;
  p["max_points"] = 200;
  p["bounds"] = {{"F", {grazing_F(w) - 0.05, F + 0.01}}};
  const auto dir = saltus::testing::scratch("impact-oscillator-codim2-one");
  std::filesystem::create_directories(dir);
  { std::ofstream(dir / "run.json") << run.dump(2); }
  const auto result =
      saltus::testing::run_saltus({"periodic", (dir / "run.json").string(), "--out", (dir / "out").string()});
  INFO(result.out << result.err);
  REQUIRE(result.code == 0);
  const auto summary = nlohmann::json::parse(std::ifstream(dir / "out" / "summary.json"));
  std::filesystem::remove_all(dir);
  for (const auto& sp : summary["special_points"])
    if (sp["type"] == type && sp["status"] == "located") return sp;
  INFO(summary["special_points"].dump(1));
  FAIL("no located " << type << " at w = " << w);
  return {};
}

}  // namespace

TEST_CASE(
    "impact oscillator (examples/user/impact_oscillator_curves.json): the grazing curve meets the PD and "
    "LPC curves at w = 2 sqrt(1 - zeta^2), F = d D(w), where -(M_g)_12 changes sign",
    "[user][periodic][impact-oscillator][curve][grazing]") {
  const auto path = saltus::testing::example("user/impact_oscillator_curves.json");
  const auto out = saltus::testing::scratch("impact-oscillator-codim2");
  const auto result = saltus::testing::run_saltus({"periodic", path.string(), "--out", out.string()});
  INFO(result.out << result.err);
  REQUIRE(result.code == 0);
  const auto summary = nlohmann::json::parse(std::ifstream(out / "summary.json"));
  const auto& gr = summary["curves"][0];
  REQUIRE(gr["kind"] == "GR");
  // The test column at every point of the grazing curve: c = -(M_g)_12.
  int points = 0;
  for (const auto& row : saltus::testing::read_csv(out / gr["file"].get<std::string>())) {
    const double w = std::stod(row.at("w")), T = 2 * M_PI / w;
    const double exact = -std::exp(-kZeta * T) * std::sin(wd() * T) / wd();
    INFO("w = " << std::setprecision(12) << w << ": c = " << row.at("test_GR-PD-LPC") << ", exact " << exact);
    CHECK(std::abs(std::stod(row.at("test_GR-PD-LPC")) - exact) < 1e-8);
    ++points;
  }
  CHECK(points >= 15);
  // The point, its grazing orbit's multipliers and the sides of the curves.
  const double w_star = 2 * wd(), F_star = grazing_F(w_star);
  int found = 0;
  for (const auto& sp : gr["special_points"]) {
    if (sp["type"] != "GR-PD-LPC") continue;
    ++found;
    const double w = sp["state"]["w"], F = sp["parameters"]["F"];  // w a state of the grazing system
    INFO(std::setprecision(16) << "GR-PD-LPC at w = " << w << ", F = " << F << "; closed form " << w_star
                               << ", " << F_star);
    CHECK(sp["status"] == "located");
    CHECK(std::abs(w - w_star) < 1e-8);
    CHECK(std::abs(F - F_star) < 1e-8);
    const double mu = -std::exp(-kZeta * M_PI / wd());
    for (const auto& m : sp["multipliers"]) {
      CHECK(std::abs(m[0].get<double>() - mu) < 1e-6);  // a double multiplier: error ~ sqrt(eps)
      CHECK(std::abs(m[1].get<double>()) < 1e-6);
    }
    CHECK(sp["pd_side"].get<std::string>().rfind("w > ", 0) == 0);
    CHECK(sp["lpc_side"].get<std::string>().rfind("w < ", 0) == 0);
  }
  CHECK(found == 1);
  // The PD curve runs towards the point and stops where the impact speed
  // goes to zero (it cannot be followed past v = 0): its last point was
  // 1.03e-3 from (w*, F*), at F - d D(w) = 0.99 * 0.742 (w - w*)^2.
  const auto& pd = summary["curves"][1];
  REQUIRE(pd["kind"] == "PD");
  const auto rows = saltus::testing::read_csv(out / pd["file"].get<std::string>());
  REQUIRE(!rows.empty());
  const double w_last = std::stod(rows.back().at("w")), F_last = std::stod(rows.back().at("F"));
  INFO(std::setprecision(12) << "the PD curve's last point w = " << w_last << ", F = " << F_last);
  CHECK(std::hypot(w_last - w_star, F_last - F_star) < 5e-3);
  CHECK(F_last > grazing_F(w_last));
  std::filesystem::remove_all(out);
}

TEST_CASE(
    "impact oscillator beside w* = 2 sqrt(1 - zeta^2): a PD (w > w*) or a fold (w < w*) of the impacting "
    "orbit at F - d D(w) ~ (w - w*)^2, against the closed form",
    "[user][periodic][impact-oscillator][grazing]") {
  const double w_star = 2 * wd();
  std::vector<double> pd_ratio, fold_ratio;
  for (double delta : {0.01, 0.02, 0.04}) {
    const double w = w_star + delta;
    const auto sp = one_parameter(w, "PD");
    const double F = sp["parameters"]["F"], exact = closed_form_pd(w);
    INFO(std::setprecision(16) << "w = " << w << ": PD at F = " << F << ", closed form " << exact
                               << ", grazing " << grazing_F(w));
    CHECK(std::abs(F - exact) < 1e-8);
    CHECK(F > grazing_F(w));
    pd_ratio.push_back((F - grazing_F(w)) / (delta * delta));
  }
  for (double delta : {-0.005, -0.01, -0.02}) {
    const double w = w_star + delta;
    const auto sp = one_parameter(w, "LPC");
    const double F = sp["parameters"]["F"], exact = closed_form_fold(w);
    INFO(std::setprecision(16) << "w = " << w << ": LPC at F = " << F << ", closed form " << exact
                               << ", grazing " << grazing_F(w));
    CHECK(std::abs(F - exact) < 1e-8);
    CHECK(F < grazing_F(w));
    fold_ratio.push_back((F - grazing_F(w)) / (delta * delta));
  }
  // (F - F_g) / delta^2 tends to a constant (halving delta would halve it
  // were the distance linear in delta): 0.742, 0.752, 0.774 and -10.05,
  // -9.91, -9.56 in the closed form.
  INFO("PD ratios " << pd_ratio[0] << " " << pd_ratio[1] << " " << pd_ratio[2] << "; fold ratios "
                    << fold_ratio[0] << " " << fold_ratio[1] << " " << fold_ratio[2]);
  for (int k = 1; k < 3; ++k) {
    CHECK(std::abs(pd_ratio[k] / pd_ratio[0] - 1) < 0.05);
    CHECK(std::abs(fold_ratio[k] / fold_ratio[0] - 1) < 0.06);
  }
}

TEST_CASE(
    "impact oscillator: the trace of the impacting orbit's monodromy near the grazing is c |h_x| |q| / v + "
    "O(1) "
    "(the derivation of testfunctions/grazing_codim2.h, on the closed form)",
    "[user][periodic][impact-oscillator][grazing]") {
  for (double w : {1.9, 1.99, 2.01, 2.2, 3.0}) {
    const double T = 2 * M_PI / w, c = -std::exp(-kZeta * T) * std::sin(wd() * T) / wd();
    const double q = (1 + kR) * w * w * kD;  // |q| = (1 + r) |a|, a = -w^2 d at the peak; |h_x| = 1
    std::vector<double> rest;                // trace M - c |q| / v, at v ~ 1e-4, 1e-5, 1e-6 of the grazing
    for (double ds : {1e-4, 1e-5, 1e-6}) {
      const Oscillator::Orbit o = orbit_at(w, grazing_time(w) - ds);
      INFO("w = " << w << ", v = " << o.v << ": trace " << o.monodromy.trace() << ", c |q| / v "
                  << c * q / o.v);
      CHECK(o.v > 0);
      rest.push_back(o.monodromy.trace() - c * q / o.v);
    }
    // The singular part grows a hundredfold while the rest converges.
    INFO("w = " << w << ": rest " << rest[0] << ", " << rest[1] << ", " << rest[2]);
    CHECK(std::abs(rest[2]) < 10);
    CHECK(std::abs(rest[2] - rest[1]) < 0.1 * std::abs(rest[1] - rest[0]) + 1e-6);
  }
}
