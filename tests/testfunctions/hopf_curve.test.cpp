#include "testfunctions/hopf_curve.h"

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
                    const std::vector<std::string>& rates, const Vector& u0, int direction, double until) {
  const auto system = models::make_expression_system(unknowns, parameters, rates);
  HopfCurve curve = hopf_curve(system, u0, {parameters[0], parameters[1]});
  ContinuationOptions options;
  options.eigenvalues = true;
  options.ds = 0.01;
  options.ds_max = 0.05;
  options.direction = direction;
  options.event_tolerance = 1e-12;
  options.max_points = 400;
  options.bounds[parameters[1]] = Bound{-10, until};
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
