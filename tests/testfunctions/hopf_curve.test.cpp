#include "testfunctions/hopf_curve.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "continuation/eigenvalues.h"
#include "continuation/pseudo_arclength.h"
#include "models/expression_system.h"
#include "testfunctions/hopf.h"

using namespace saltus;

TEST_CASE("the bialternate product 2A(.)I has the eigenvalues lambda_i + lambda_j, i < j", "[hopf-curve]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> uniform(-1, 1);
  Matrix A(5, 5);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) A(i, j) = uniform(rng);
  const Eigen::VectorXcd lambda = Eigen::EigenSolver<Matrix>(A).eigenvalues();
  std::vector<std::complex<double>> sums;
  for (int i = 0; i < 5; ++i)
    for (int j = i + 1; j < 5; ++j) sums.push_back(lambda[i] + lambda[j]);
  const Eigen::VectorXcd mu = Eigen::EigenSolver<Matrix>(bialternate(A)).eigenvalues();
  REQUIRE(mu.size() == 10);
  for (const auto& s : sums) CHECK((mu.array() - s).abs().minCoeff() < 1e-12);
}

namespace {

struct Curve {
  Branch branch;
  std::vector<SpecialPoint> points;  // BT, ZH, HH, GH
};

// The Hopf curve of x' = F(x, p) through the Hopf point (x0, p0), free in (p1, p2).
Curve hopf_curve_of(const std::vector<std::string>& unknowns, const std::vector<std::string>& parameters,
                    const std::vector<std::string>& rates, const Vector& u0, int direction, double until,
                    double from = -10) {
  const auto system = models::make_expression_system(unknowns, parameters, rates);
  HopfCurve curve = hopf_curve(system, u0, {parameters[0], parameters[1]});
  ContinuationOptions options;
  options.eigenvalues = true;
  options.ds = 0.01;
  options.ds_max = 0.05;
  options.direction = direction;
  options.event_tolerance = 1e-12;
  options.max_points = 400;
  options.bounds[parameters[1]] = Bound{from, until};
  Curve c{continue_branch(*curve.problem, curve.start, options, curve.tests), {}};
  for (const auto& s : c.branch.special_points)
    if (s.type != "EP") c.points.push_back(s);
  INFO(c.branch.message << "; " << c.branch.points.size() << " points");
  CHECK(c.branch.stop_reason == StopReason::kBound);
  return c;
}

Vector u_of(std::initializer_list<double> values) {
  Vector u(static_cast<int>(values.size()));
  int k = 0;
  for (double v : values) u[k++] = v;
  return u;
}

}  // namespace

TEST_CASE("Hopf function: its gradient agrees with central differences", "[hopf-curve]") {
  const auto system = models::make_expression_system(
      {"x", "y", "z"}, {"a", "b"},
      {"a*x - y + x*y - x^3 + b*z", "x + a*y + x^2 - b*x*y*z", "-z + x^2 + y^2 + a*z^2"});
  const Vector u = u_of({0.1, -0.2, 0.05, 0.02, 0.3});
  HopfFunction g(*system, u_of({0, 0, 0, 0, 0.3}));
  Vector gradient;
  g.evaluate(*system, u, &gradient);
  for (int j = 0; j < u.size(); ++j) {
    Vector up = u, down = u;
    up[j] += 1e-6, down[j] -= 1e-6;
    const double fd = (g.evaluate(*system, up, nullptr) - g.evaluate(*system, down, nullptr)) / 2e-6;
    CHECK(gradient[j] == Approx(fd).margin(1e-7));
  }
}

// Bogdanov-Takens normal form x' = y, y' = b1 + b2 y + x^2 - x y
// (Kuznetsov 2004, Sec. 8.4, s = -1): at the equilibrium x0 = -sqrt(-b1),
// tr A = b2 - x0, det A = -2 x0, so the Hopf curve is b2 = x0, i.e.
// b1 = -b2^2, b2 < 0, meeting the saddle's neutral-saddle curve at the BT
// point b = (0, 0), where kappa = det A = 0.
TEST_CASE("Hopf curve of the Bogdanov-Takens normal form: BT at the origin", "[hopf-curve]") {
  const Curve c =
      hopf_curve_of({"x", "y"}, {"b1", "b2"}, {"y", "b1 + b2*y + x^2 - x*y"}, u_of({-1, 0, -1, -1}), +1, 0.5);
  for (const auto& p : c.branch.points) {  // on the curve b1 = -b2^2
    const double b1 = c.branch.component(p.y, "b1"), b2 = c.branch.component(p.y, "b2");
    CHECK(std::abs(b1 + b2 * b2) < 1e-9);
  }
  REQUIRE(c.points.size() == 1);
  CHECK(c.points[0].type == "BT");
  CHECK(std::abs(c.branch.component(c.points[0].y, "b1")) < 1e-8);
  CHECK(std::abs(c.branch.component(c.points[0].y, "b2")) < 1e-8);
}

// The Bautin normal form z' = (b1 + i) z + b2 z |z|^2 - z |z|^4 in real
// coordinates: the Hopf curve is b1 = 0, and with <q, q> = 1 its first
// Lyapunov coefficient is l1 = 2 b2 (as in hopf.test.cpp, z = sqrt(2) w):
// the generalized Hopf point GH is b = (0, 0).
TEST_CASE("Hopf curve of the Bautin normal form: GH where l1 = 2 b2 vanishes", "[hopf-curve]") {
  const Curve c = hopf_curve_of(
      {"x", "y"}, {"b1", "b2"},
      {"b1*x - y + b2*x*(x^2 + y^2) - x*(x^2 + y^2)^2", "x + b1*y + b2*y*(x^2 + y^2) - y*(x^2 + y^2)^2"},
      u_of({0, 0, 0, -1}), +1, 0.5);
  REQUIRE(c.points.size() == 1);
  CHECK(c.points[0].type == "GH");
  CHECK(std::abs(c.branch.component(c.points[0].y, "b2")) < 1e-8);
  CHECK(std::abs(c.branch.component(c.points[0].y, "b1")) < 1e-10);
  CHECK(c.points[0].data["frequency"].get<double>() == Approx(1.0).epsilon(1e-9));
  // l2 = Re(4 c2) / omega with c2 = -1 (w = sqrt(2) z: z' = ... - 4 z|z|^4).
  CHECK(std::abs(c.points[0].data["l2"].get<double>() - (-4.0)) < 1e-7);
}

// A Hopf pair (frequency 1, real part b1) beside w' = b2 - w^2: along the
// Hopf curve b1 = 0 the equilibrium w = sqrt(b2) meets w = -sqrt(b2) at the
// fold b2 = 0, where its eigenvalue -2w is zero: a zero-Hopf point at
// b = (0, 0).
TEST_CASE("Hopf curve meeting a fold: ZH at the origin", "[hopf-curve]") {
  const Curve c = hopf_curve_of({"x", "y", "w"}, {"b1", "b2"},
                                {"b1*x - y - x*(x^2 + y^2)", "x + b1*y - y*(x^2 + y^2)", "b2 - w^2"},
                                u_of({0, 0, 1, 0, 1}), -1, 2);
  REQUIRE(!c.points.empty());
  CHECK(c.points[0].type == "ZH");
  CHECK(std::abs(c.branch.component(c.points[0].y, "b2")) < 1e-8);
  CHECK(std::abs(c.branch.component(c.points[0].y, "w")) < 1e-6);  // w = sqrt(b2)
}

// Two Hopf pairs, frequencies 1 and 2, with real parts b1 and b2: on the
// Hopf curve b1 = 0 of the first the second crosses at b2 = 0: a double
// Hopf point HH at b = (0, 0), both pairs imaginary there.
TEST_CASE("two Hopf pairs: HH where the second crosses", "[hopf-curve]") {
  const Curve c = hopf_curve_of({"x", "y", "u", "v"}, {"b1", "b2"},
                                {"b1*x - y - x*(x^2 + y^2)", "x + b1*y - y*(x^2 + y^2)",
                                 "b2*u - 2*v - u*(u^2 + v^2)", "2*u + b2*v - v*(u^2 + v^2)"},
                                u_of({0, 0, 0, 0, 0, -1}), +1, 0.5);
  REQUIRE(c.points.size() == 1);
  CHECK(c.points[0].type == "HH");
  CHECK(std::abs(c.branch.component(c.points[0].y, "b2")) < 1e-8);
  const auto& f = c.points[0].data["frequencies"];
  CHECK(std::min(f[0].get<double>(), f[1].get<double>()) == Approx(1.0).epsilon(1e-9));
  CHECK(std::max(f[0].get<double>(), f[1].get<double>()) == Approx(2.0).epsilon(1e-9));
}

// A Hopf pair whose l1 has a pole at a zero-Hopf point and a zero beside it:
//
//   x' = (b1 + w) x - y - x r^2,  y' = x + (b1 + w) y - y r^2,
//   w' = b2 - w^2 + r^2,          r^2 = x^2 + y^2.
//
// At x = y = 0, w^2 = b2, the pair is b1 + w +- i: the Hopf curve is
// b1 = -w, b2 = w^2, a zero-Hopf point at w = 0 (the eigenvalue -2w of w).
// In polar coordinates r' = r (b1 + w - r^2), w' = b2 - w^2 + r^2 do not see
// the angle; on the Hopf curve the centre manifold w = w0 + h1 rho + h2
// rho^2 + ..., rho = r^2, is invariant when h'(rho) 2 rho (h - rho) = -2 w0 h
// - h^2 + rho: h1 = 1 / (2 w0), h2 = -(3 h1^2 - 2 h1) / (2 w0), and on it
// r' = (h1 - 1) r^3 + h2 r^5, rotationally symmetric, so already the normal
// form: with r^2 = 2 |z|^2 (<q, q> = 1), Re c1 = 2 (h1 - 1), Re c2 = 4 h2,
// and (omega = 1)
//
//   l1 = 1 / w0 - 2,   zero at w0 = 1/2: a GH at (b1, b2) = (-1/2, 1/4),
//   l2 = 4 h2 = -4 there (h1 = 1, h2 = -1);
//
// at w0 = 0 l1 jumps from +infinity to -infinity (the pole of A^{-1}): a ZH,
// never a GH (hopf_curve.h).
TEST_CASE("GH test: the zero of l1 is a GH, its pole at a ZH is not, either way along the curve",
          "[hopf-curve][gh]") {
  const std::vector<std::string> rates = {"(b1 + w)*x - y - x*(x^2 + y^2)", "x + (b1 + w)*y - y*(x^2 + y^2)",
                                          "b2 - w^2 + x^2 + y^2"};
  const auto system = models::make_expression_system({"x", "y", "w"}, {"b1", "b2"}, rates);
  for (const double w : {0.8, 0.3, -0.4}) {  // l1 = 1/w - 2 off the GH
    const HopfPoint h = hopf_point(*system, u_of({0, 0, w, -w, w * w}));
    CHECK(h.l1 == Approx(1 / w - 2).epsilon(1e-10));
  }
  // From w = 1 down through the GH and the ZH to w = -1.2, and back.
  const double w0 = GENERATE(1.0, -1.2);
  const Curve c = hopf_curve_of({"x", "y", "w"}, {"b1", "b2"}, rates, u_of({0, 0, w0, -w0, w0 * w0}),
                                w0 > 0 ? +1 : -1, 1.5);
  INFO("from w = " << w0);
  std::vector<const SpecialPoint*> gh, zh;
  for (const auto& p : c.points) {
    INFO(p.type << " " << to_string(p.status) << " at b1 = " << c.branch.component(p.y, "b1"));
    CHECK((p.type == "GH" || p.type == "ZH"));
    CHECK(p.status == EventStatus::kLocated);
    (p.type == "GH" ? gh : zh).push_back(&p);
  }
  REQUIRE(gh.size() == 1);
  REQUIRE(zh.size() == 1);
  CHECK(std::abs(c.branch.component(gh[0]->y, "b1") + 0.5) < 1e-10);
  CHECK(std::abs(c.branch.component(gh[0]->y, "b2") - 0.25) < 1e-10);
  CHECK(gh[0]->data["l2"].get<double>() == Approx(-4.0).epsilon(1e-7));
  CHECK(std::abs(c.branch.component(zh[0]->y, "b1")) < 1e-10);
  CHECK(std::abs(c.branch.component(zh[0]->y, "w")) < 1e-10);
  // The GH test is continuous through the ZH: ((4 w - 2) / (2 |w| + 1) on this
  // curve, omega = 1), no jump of l1's pole left in it.
  const std::size_t k =
      std::find(c.branch.test_names.begin(), c.branch.test_names.end(), "GH") - c.branch.test_names.begin();
  for (const auto& p : c.branch.points) {
    const double w = c.branch.component(p.y, "w");
    if (std::isfinite(p.tests[k]))
      CHECK(p.tests[k] == Approx((4 * w - 2) / (2 * std::abs(w) + 1)).margin(1e-8));
  }
}

// The Bogdanov-Takens normal form with s = +1, x' = y, y' = b1 + b2 y + x^2
// + x y (Kuznetsov 2004, Sec. 8.4): at x0 = -sqrt(-b1), tr A = b2 + x0 and
// det A = -2 x0, so the Hopf curve is b2 = -x0 > 0, b1 = -b2^2, with omega^2
// = 2 b2, ending at the BT b = (0, 0) where it goes on as the neutral
// saddles of b2 < 0. Along it l1 grows like 1 / omega^3 (hopf_curve.h) and
// does not change sign: the curve through the BT, either way, has the BT and
// no GH, and omega^3 l1 (the GH test, n = 2) stays bounded on the Hopf side.
TEST_CASE("GH test: no GH where the Hopf curve runs into a BT, either way", "[hopf-curve][gh]") {
  const std::vector<std::string> rates = {"y", "b1 + b2*y + x^2 + x*y"};
  const double b20 = GENERATE(0.5, -0.5);  // from the Hopf side, and from the neutral saddles
  const Curve c =
      hopf_curve_of({"x", "y"}, {"b1", "b2"}, rates, u_of({-b20, 0, -b20 * b20, b20}), +1, 0.8, -0.8);
  INFO("from b2 = " << b20);
  REQUIRE(c.points.size() == 1);
  CHECK(c.points[0].type == "BT");
  CHECK(c.points[0].status == EventStatus::kLocated);
  CHECK(std::abs(c.branch.component(c.points[0].y, "b2")) < 1e-10);
  const std::size_t k =
      std::find(c.branch.test_names.begin(), c.branch.test_names.end(), "GH") - c.branch.test_names.begin();
  for (const auto& p : c.branch.points) {
    const double b2 = c.branch.component(p.y, "b2");
    if (b2 > 1e-6) CHECK(std::isfinite(p.tests[k]));
    if (b2 > 1e-6) CHECK(std::abs(p.tests[k]) < 10.0);
    if (b2 < -1e-6) CHECK(std::isnan(p.tests[k]));  // l1 has no value on the neutral saddles
  }
}
