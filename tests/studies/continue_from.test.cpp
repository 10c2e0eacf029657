// studies::continue_from for every special point it accepts, each against a
// closed form (or, for the period doublings of the Lorenz cascade, AUTO-07p's
// values and an independent check that the curve's orbits have a multiplier
// -1). The systems are JSON descriptions, as a user's run file would be.
//
// The closed forms:
//   cusp  f = mu + lambda x - x^3: fold curve mu = -+2 (lambda/3)^(3/2),
//         cusp CP at mu = lambda = 0;
//   pitchfork  f = lambda x - x^3: BP at 0, the other branch x^2 = lambda;
//   Brusselator  x' = a - (b + 1) x + x^2 y, y' = b x - x^2 y: the
//         equilibrium (a, b/a) has trace b - 1 - a^2 and determinant a^2,
//         so its Hopf curve is b = 1 + a^2, frequency a;
//   Bogdanov-Takens normal form  x' = y, y' = b1 + b2 x + x^2 + x y: the
//         equilibria (x, 0) with x^2 + b2 x + b1 = 0 have trace x and
//         determinant -(b2 + 2x): the fold curve b1 = b2^2/4 (x = -b2/2),
//         the Hopf curve b1 = 0 (x = 0) for b2 < 0, BT at the origin;
//   Bautin-type rates  x' = x g - y, y' = y g + x, g = mu + nu r - r^2,
//         r = x^2 + y^2: the cycles r = R with mu + nu R - R^2 = 0, period
//         2 pi, fold where nu = 2R: the LPC curve mu = -nu^2/4;
//   two Hopf normal forms, the second driven by the first's amplitude,
//         r1' = r1 (mu1 - r1^2), theta1' = 1, r2' = r2 (mu2 + r1^2 - r2^2),
//         theta2' = sqrt 2: the cycle r1 = sqrt(mu1), r2 = 0 (period 2 pi)
//         has the multipliers exp(2 pi (mu2 + mu1) +- 2 pi sqrt(2) i) in the
//         second plane: NS where mu2 = -mu1 (sqrt 2 irrational: no resonance).

#include <catch2/catch.hpp>
#include <cmath>

#include "studies/study.h"

using namespace saltus;
using studies::Json;

namespace {

studies::BranchResult first(const Json& description) {
  return studies::continue_run(studies::load_description(description, "test"));
}

double at(const studies::BranchResult& r, const BranchPoint& p, const std::string& name) {
  return r.branch.component(p.y, name);
}

ContinuationOptions curve_options(double ds_max, int max_points, std::map<std::string, Bound> bounds) {
  ContinuationOptions o;
  o.ds = 0.01;
  o.ds_max = ds_max;
  o.max_points = max_points;
  o.bounds = std::move(bounds);
  return o;
}

const Json kBogdanovTakens = {
    {"unknowns", {"x", "y"}},
    {"parameters", {{"b1", -1.0}, {"b2", -1.0}}},
    {"equations", {"y", "b1 + b2*x + x^2 + x*y"}},
    {"start", {{"x", (1 - std::sqrt(5.0)) / 2}, {"y", 0}}},  // x^2 - x - 1 = 0
    {"equilibria", true},
    {"continuation", {{"parameter", "b1"}, {"ds", 0.01}, {"ds_max", 0.02}, {"bounds", {{"b1", {-1, 1}}}}}}};

}  // namespace

TEST_CASE("continue_from LP: the fold curve of the cusp, with its cusp point", "[studies]") {
  const auto branch = first({{"unknowns", {"x"}},
                             {"parameters", {{"mu", -2}, {"lambda", 1}}},
                             {"equations", {"mu + lambda*x - x^3"}},
                             {"start", {{"x", -1.5}}},
                             {"continuation", {{"parameter", "mu"}, {"bounds", {{"mu", {-2, 2}}}}}}});
  REQUIRE(branch.kind == studies::BranchKind::kSolutions);
  ContinuationOptions o = curve_options(0.05, 400, {{"lambda", {-0.5, 1.5}}});
  o.direction = -1;
  const auto curve = studies::continue_from(branch, "LP1", {.parameters = {"mu", "lambda"}, .options = o});
  REQUIRE(curve.kind == studies::BranchKind::kFoldCurve);
  REQUIRE(curve.branch.points.size() > 20);
  for (const auto& p : curve.branch.points) {
    const double lambda = at(curve, p, "lambda");
    if (lambda > 0) CHECK(std::abs(at(curve, p, "mu")) == Approx(2 * std::pow(lambda / 3, 1.5)).margin(1e-8));
  }
  const SpecialPoint& cp = studies::special_point(curve, "CP1");
  CHECK(std::abs(curve.branch.component(cp.y, "mu")) < 1e-9);
  CHECK(std::abs(curve.branch.component(cp.y, "lambda")) < 1e-9);
}

TEST_CASE("continue_from BP: the other branch of the pitchfork", "[studies]") {
  const auto branch = first({{"unknowns", {"x"}},
                             {"parameters", {{"lambda", -1}}},
                             {"equations", {"lambda*x - x^3"}},
                             {"start", {{"x", 0}}},
                             {"continuation", {{"parameter", "lambda"}, {"bounds", {{"lambda", {-1, 1}}}}}}});
  const auto other = studies::continue_from(branch, "BP1");
  REQUIRE(other.branch.points.size() > 10);
  double largest = 0;
  for (const auto& p : other.branch.points) {
    const double x = at(other, p, "x");
    largest = std::max(largest, std::abs(x));
    CHECK(x * x == Approx(at(other, p, "lambda")).margin(1e-9));
  }
  CHECK(largest > 0.1);
}

TEST_CASE("continue_from HB: the Hopf curve of the Brusselator, b = 1 + a^2", "[studies]") {
  const auto equilibria = first({{"unknowns", {"x", "y"}},
                                 {"parameters", {{"a", 1}, {"b", 1.5}}},
                                 {"equations", {"a - (b + 1)*x + x^2*y", "b*x - x^2*y"}},
                                 {"start", {{"x", 1}, {"y", 1.5}}},
                                 {"equilibria", true},
                                 {"continuation", {{"parameter", "b"}, {"bounds", {{"b", {1.5, 3}}}}}}});
  const SpecialPoint& hb = studies::special_point(equilibria, "HB1");
  CHECK(equilibria.branch.component(hb.y, "b") == Approx(2).margin(1e-10));
  const auto curve = studies::continue_from(
      equilibria, hb,
      {.to = "curve", .parameters = {"b", "a"}, .options = curve_options(0.1, 40, {{"a", {0.3, 3}}})});
  REQUIRE(curve.kind == studies::BranchKind::kHopfCurve);
  REQUIRE(curve.branch.points.size() > 10);
  for (const auto& p : curve.branch.points) {
    const double a = at(curve, p, "a");
    CHECK(at(curve, p, "b") == Approx(1 + a * a).margin(1e-8));
    CHECK(at(curve, p, "x") == Approx(a).margin(1e-8));
  }
}

TEST_CASE("continue_from HB: the cycles, and at an LPC of them the LPC curve mu = -nu^2/4", "[studies]") {
  const auto equilibria =
      first({{"unknowns", {"x", "y"}},
             {"parameters", {{"mu", -0.5}, {"nu", 1}}},
             {"equations",
              {"x*(mu + nu*(x^2 + y^2) - (x^2 + y^2)^2) - y", "y*(mu + nu*(x^2 + y^2) - (x^2 + y^2)^2) + x"}},
             {"start", {{"x", 0}, {"y", 0}}},
             {"equilibria", true},
             {"continuation", {{"parameter", "mu"}, {"ds", 0.05}, {"bounds", {{"mu", {-0.5, 0.5}}}}}}});
  const SpecialPoint& hb = studies::special_point(equilibria, "HB1");
  CHECK(equilibria.branch.component(hb.y, "mu") == Approx(0).margin(1e-10));
  CHECK(hb.data.at("l1").get<double>() > 0);  // subcritical: the cycles exist for mu < 0
  ContinuationOptions o = curve_options(0.05, 200, {{"mu", {-1, 1}}});
  const auto cycles = studies::continue_from(equilibria, hb, {.options = o, .amplitude = 0.05});
  REQUIRE(cycles.kind == studies::BranchKind::kOrbits);
  for (const auto& p : cycles.branch.points) {
    const double x = at(cycles, p, "x"), y = at(cycles, p, "y"), mu = at(cycles, p, "mu");
    const double r = x * x + y * y;
    CHECK(mu + r - r * r == Approx(0).margin(1e-8));
    CHECK(at(cycles, p, "T") == Approx(2 * M_PI).margin(1e-8));
  }
  const SpecialPoint& lpc = studies::special_point(cycles, "LPC1");
  CHECK(cycles.branch.component(lpc.y, "mu") == Approx(-0.25).margin(1e-8));
  const auto curve = studies::continue_from(
      cycles, lpc, {.parameters = {"mu", "nu"}, .options = curve_options(0.1, 12, {{"nu", {0.5, 2}}})});
  REQUIRE(curve.kind == studies::BranchKind::kCycleCurve);
  REQUIRE(curve.branch.points.size() >= 5);
  for (const auto& p : curve.branch.points) {
    const double nu = at(curve, p, "nu");
    CHECK(at(curve, p, "mu") == Approx(-nu * nu / 4).margin(1e-7));
  }
  CHECK(std::abs(at(curve, curve.branch.points.back(), "nu") - 1) > 0.2);
}

TEST_CASE("continue_from BT: the Hopf curve b1 = 0 of the Bogdanov-Takens normal form", "[studies]") {
  const auto equilibria = first(kBogdanovTakens);
  CHECK(equilibria.branch.component(studies::special_point(equilibria, "HB1").y, "b1") ==
        Approx(0).margin(1e-10));
  CHECK(equilibria.branch.component(studies::special_point(equilibria, "LP1").y, "b1") ==
        Approx(0.25).margin(1e-10));
  ContinuationOptions o = curve_options(0.05, 200, {{"b2", {-1.5, 1.5}}, {"b1", {-1, 1}}});
  o.direction = -1;
  const auto fold = studies::continue_from(equilibria, "LP1", {.parameters = {"b1", "b2"}, .options = o});
  for (const auto& p : fold.branch.points) {
    const double b2 = at(fold, p, "b2");
    CHECK(at(fold, p, "b1") == Approx(b2 * b2 / 4).margin(1e-8));
  }
  const SpecialPoint& bt = studies::special_point(fold, "BT1");
  CHECK(std::abs(fold.branch.component(bt.y, "b2")) < 1e-8);
  const auto hopf = studies::continue_from(fold, bt, {.options = curve_options(0.05, 30, {{"b2", {-1, 1}}})});
  REQUIRE(hopf.kind == studies::BranchKind::kHopfCurve);
  REQUIRE(hopf.branch.points.size() > 5);
  for (const auto& p : hopf.branch.points) {
    CHECK(std::abs(at(hopf, p, "b1")) < 1e-9);
    CHECK(at(hopf, p, "b2") < 1e-9);  // into the Hopf side
  }
}

TEST_CASE("continue_from PD: the doubled branches and the PD curve of the Lorenz orbits", "[studies]") {
  const auto run = studies::load(SALTUS_SOURCE_DIR "/examples/lorenz.json");
  const auto orbits = studies::continue_run(run);
  const auto doubled = studies::continue_from(orbits, "PD1");
  REQUIRE(doubled.name == "doubled1");
  const SpecialPoint& pd1 = studies::special_point(orbits, "PD1");
  const SpecialPoint& pd2 = studies::special_point(doubled, "PD1");
  // AUTO-07p's lor demo: the first two PDs at rho = 229.4067086, 218.2101278.
  CHECK(orbits.branch.component(pd1.y, "rho") == Approx(229.4067086).margin(1e-6));
  CHECK(doubled.branch.component(pd2.y, "rho") == Approx(218.2101278).margin(1e-6));
  CHECK(doubled.branch.component(pd2.y, "T") == Approx(2 * orbits.branch.component(pd1.y, "T")).epsilon(0.1));

  const auto curve = studies::continue_from(orbits, pd1,
                                            {.to = "curve",
                                             .parameters = {"rho", "sigma"},
                                             .options = curve_options(0.5, 4, {{"sigma", {9, 11}}})});
  REQUIRE(curve.kind == studies::BranchKind::kCycleCurve);
  REQUIRE(curve.branch.points.size() == 4);
  // Each curve point's orbit, refound at its own (rho, sigma) as the first
  // branch of a run of one point, has a multiplier -1.
  Json lorenz = studies::read_json(SALTUS_SOURCE_DIR "/examples/lorenz.json");
  const BranchPoint& end = curve.branch.points.back();
  CHECK(std::abs(at(curve, end, "sigma") - 10) > 1e-3);
  lorenz["parameters"]["rho"] = at(curve, end, "rho");
  lorenz["parameters"]["sigma"] = at(curve, end, "sigma");
  for (const char* x : {"x", "y", "z"}) lorenz["start"][x] = at(curve, end, x);
  lorenz["periodic"].erase("from_simulation");
  lorenz["periodic"].erase("period_doubling");
  lorenz["periodic"]["period"] = at(curve, end, "T");
  lorenz["continuation"]["max_points"] = 1;
  const auto again = studies::continue_run(studies::load_description(lorenz, "lorenz at the curve's end"));
  REQUIRE(again.branch.points.size() == 1);
  const Eigen::VectorXcd mu = studies::multipliers(again, again.branch.points[0].y);
  CHECK((mu.array() + 1.0).abs().minCoeff() < 1e-6);
}

TEST_CASE("continue_from NS: the Neimark-Sacker curve mu2 = -mu1 of the driven Hopf rates", "[studies]") {
  const std::string g1 = "(mu1 - x1^2 - y1^2)", g2 = "(mu2 + x1^2 + y1^2 - x2^2 - y2^2)",
                    w = "1.4142135623730951";
  const auto orbits =
      first({{"unknowns", {"x1", "y1", "x2", "y2"}},
             {"parameters", {{"mu1", 1}, {"mu2", -1.5}}},
             {"equations",
              {"x1*" + g1 + " - y1", "y1*" + g1 + " + x1", "x2*" + g2 + " - " + w + "*y2",
               "y2*" + g2 + " + " + w + "*x2"}},
             {"start", {{"x1", 1}, {"y1", 0}, {"x2", 0}, {"y2", 0}}},
             {"periodic",
              {{"period", 2 * M_PI},
               {"simulation", {{"absolute_tolerance", 1e-11}, {"relative_tolerance", 1e-11}}}}},
             {"continuation",
              {{"parameter", "mu2"},
               {"ds", 0.05},
               {"ds_max", 0.1},
               {"bounds", {{"mu2", {-1.5, -0.5}}}},
               {"detect", {"NS"}}}}});
  REQUIRE(orbits.kind == studies::BranchKind::kOrbits);
  const SpecialPoint& ns = studies::special_point(orbits, "NS1");
  CHECK(orbits.branch.component(ns.y, "mu2") == Approx(-1).margin(1e-8));
  const Eigen::VectorXcd mu = studies::multipliers(orbits, ns.y);
  CHECK(std::abs(mu[0]) == Approx(1).margin(1e-7));
  CHECK(std::abs(mu[0].imag()) == Approx(std::abs(std::sin(2 * M_PI * std::sqrt(2.0)))).margin(1e-7));
  const auto curve = studies::continue_from(
      orbits, ns, {.parameters = {"mu2", "mu1"}, .options = curve_options(0.1, 10, {{"mu1", {0.5, 2}}})});
  REQUIRE(curve.kind == studies::BranchKind::kCycleCurve);
  REQUIRE(curve.branch.points.size() >= 5);
  for (const auto& p : curve.branch.points) {
    const double mu1 = at(curve, p, "mu1"), x1 = at(curve, p, "x1"), y1 = at(curve, p, "y1");
    CHECK(at(curve, p, "mu2") == Approx(-mu1).margin(1e-7));
    CHECK(x1 * x1 + y1 * y1 == Approx(mu1).margin(1e-7));
  }
}

TEST_CASE("continue_from refuses what does not follow, saying what does", "[studies]") {
  const auto equilibria = first(kBogdanovTakens);
  CHECK_THROWS_WITH(studies::continue_from(equilibria, "PD1"), Catch::Contains("has no PD1"));
  CHECK_THROWS_WITH(studies::continue_from(equilibria, "HB1", {.to = "doubled"}),
                    Catch::Contains("'to' = \"doubled\" is not a follow-up of HB") &&
                        Catch::Contains("HB (cycles, or the Hopf curve"));
  CHECK_THROWS_WITH(studies::continue_from(equilibria, "LP1", {.parameters = {"b2", "b1"}}),
                    Catch::Contains("the branch's parameter 'b1' first"));
  CHECK_THROWS_WITH(studies::special_point(equilibria, "3"), Catch::Contains("not a point label"));
}
