// Folds, cusps and swallowtails of the extremal-point problem located by
// continuation from a start away from them, then classified
// (analyses/contact/continuation.h, models/extremal_degeneracy.h;
// Damerau & Low 2016, Sec. 4.4). Tag [extremal-continue].
#include "analyses/contact/continuation.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>

using namespace saltus;
using namespace saltus::models;

namespace {

// Example 4.4.4, eq. (40): c1 = -(sin s1, cos s1), c2 = (s2, s2^2); a versal cusp at (0, 0, 0, -1/2, 0).
ExtremalProblem example_444() {
  return make_extremal_problem(ExpressionCurve::make("-sin(s)", "-cos(s)", "c1", 1.0, 2 * std::numbers::pi),
                               PolynomialGraph{.p = {0, 0, 1}, .name = "c2"});
}
// Example 4.4.5, eq. (43) corrected: a versal swallowtail at (0, 0, 0, 1/4, 0).
ExtremalProblem example_445() {
  return make_extremal_problem(ParametricPolynomial{.x = {0, -1}, .y = {0, 0, 1, 0, 2}, .name = "c1"},
                               PolynomialGraph{.p = {0, 0, 2, 0, 24, 50}, .name = "c2"});
}

ContactContinuationOptions chain_options() {
  ContactContinuationOptions o;
  for (ContinuationOptions* c : {&o.branch, &o.fold_curve, &o.cusp_curve}) {
    c->ds = 0.005;
    c->ds_max = 0.02;
    c->max_points = 200;
    c->bounds = {{"s1", {-0.5, 0.5}},
                 {"s2", {-0.5, 0.5}},
                 {"x", {-0.5, 0.5}},
                 {"y", {-1.0, 1.0}},
                 {"phi", {-0.5, 0.5}}};
  }
  return o;
}

double distance(const std::array<double, 5>& a, const std::array<double, 5>& b) {
  double d = 0;
  for (int i = 0; i < 5; ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}

}  // namespace

TEST_CASE("degeneracy scalars: the automatic gradient agrees with central differences",
          "[extremal-continue]") {
  // An independent check of the Jets-on-Taylor gradient (differences in tests only).
  const auto problem = example_445();
  Vector u(5);
  u << 0.13, -0.07, 0.02, 0.27, 0.04;  // a generic point, not on any degenerate set
  Eigen::Matrix<double, 3, 5> gradient;
  const Eigen::Vector3d values = problem.degeneracy->evaluate(u, &gradient);
  CHECK((values - problem.degeneracy->evaluate(u)).norm() == Approx(0.0).margin(1e-14));
  const double h = 1e-5;
  for (int j = 0; j < 5; ++j) {
    Vector up = u, um = u;
    up[j] += h;
    um[j] -= h;
    const Eigen::Vector3d fd =
        (problem.degeneracy->evaluate(up) - problem.degeneracy->evaluate(um)) / (2 * h);
    for (int r = 0; r < 3; ++r) {
      INFO("row " << r << " column " << j);
      // central differences: error O(h^2 f''') ~ 1e-10 relative, plus rounding 1e-16/h ~ 1e-11
      CHECK(gradient(r, j) == Approx(fd[r]).epsilon(1e-6).margin(1e-7));
    }
  }
}

TEST_CASE("degeneracy scalars: det is eq. (10) and c2~ vanishes where classify's c_2 does",
          "[extremal-continue]") {
  const auto problem = example_444();
  // At the known cusp (4.4.4): det = 0, c2~ = 0, c3~ != 0 (c_3 = 16/27 there).
  const Eigen::Vector3d at_cusp = problem.degeneracy->evaluate(extremal_u(0, 0, {0, -0.5, 0}));
  CHECK(at_cusp[0] == Approx(0.0).margin(1e-14));
  CHECK(at_cusp[1] == Approx(0.0).margin(1e-14));
  CHECK(std::abs(at_cusp[2]) > 0.1);
  // At a generic extremal point det equals the arc-length determinant of extremal_geometry.
  const Vector u = extremal_u(0, 0, {0, -0.3, 0});
  CHECK(problem.degeneracy->evaluate(u)[0] == Approx(extremal_geometry(problem, u).det_eq10).margin(1e-13));

  // Along the fold curve through the fold at y = -0.55, c_2 (classify, the
  // paper's procedure) and c2~ change sign together at the cusp: their ratio
  // keeps its sign on both sides.
  const auto options = chain_options();
  const auto result = continue_contact_points(problem, {0, 0, 0, -0.55, 0}, "x",
                                              std::array<std::string, 2>{"x", "y"}, false, options);
  REQUIRE(result.fold_curves.size() == 2);
  int checked = 0;
  double ratio_sign = 0;
  for (const Branch& curve : result.fold_curves) {
    for (std::size_t i = 5; i < curve.points.size(); i += 10) {
      const Vector& y = curve.points[i].y;
      const std::array<double, 5> point{y[0], y[1], y[2], y[3], 0.0};
      const double c2_tilde = problem.degeneracy->evaluate(Eigen::Map<const Vector>(point.data(), 5))[1];
      const auto c = classify(problem, point, options.classification);
      if (std::abs(c.c.at(2)) < 1e-6) continue;
      const double sign = (c.c.at(2) / c2_tilde > 0) ? 1.0 : -1.0;
      if (ratio_sign == 0) ratio_sign = sign;
      CHECK(sign == ratio_sign);
      ++checked;
    }
  }
  CHECK(checked >= 4);
}

TEST_CASE("example 4.4.4: fold and cusp located by continuation from y = -0.55, then classified",
          "[extremal-continue]") {
  const auto problem = example_444();
  const auto result = continue_contact_points(problem, {0, 0, 0, -0.55, 0}, "x",
                                              std::array<std::string, 2>{"x", "y"}, false, chain_options());
  INFO(result.message);
  // The x-branch at y = -0.55 folds twice. Closed form: with the circle's
  // centre at the origin and the parabola's vertex at (x, y), the extremal
  // points are the parabola's normals through the centre; they fold on its
  // evolute (X, Y) = (-4 s^3, 1/2 + 3 s^2) relative to the vertex, so at
  // Y = -y = 0.55: s2 = +-1/sqrt(60), x = +-4 (1/60)^(3/2).
  REQUIRE(result.folds.size() == 2);
  for (const auto& fold : result.folds) {
    CHECK(fold.polished);
    CHECK(std::abs(fold.point[2]) == Approx(4.0 * std::pow(1.0 / 60.0, 1.5)).epsilon(1e-12));
    CHECK(std::abs(fold.point[1]) == Approx(1.0 / std::sqrt(60.0)).epsilon(1e-12));
    REQUIRE(fold.classified);
    CHECK(fold.classification.codimension == 1);
    CHECK(fold.classification.type == "fold");
  }
  // The fold curve in (x, y) meets the known cusp (0, 0, 0, -1/2, 0).
  REQUIRE(result.cusps.size() == 1);
  const auto& cusp = result.cusps.front();
  const std::array<double, 5> known{0, 0, 0, -0.5, 0};
  CHECK(distance(cusp.located, known) < 1e-8);  // the continuation's location (toms748 on the test function)
  CHECK(distance(cusp.point, known) < 1e-12);   // after Newton on (f, det, c2~) = 0
  REQUIRE(cusp.classified);
  CHECK(cusp.classification.codimension == 2);
  CHECK(cusp.classification.type == "cusp");
  CHECK(cusp.classification.versal);
  CHECK(cusp.classification.c.at(3) == Approx(16.0 / 27.0).epsilon(1e-8));  // as classify at the known point
}

TEST_CASE("example 4.4.5: fold, cusps and the swallowtail located by continuation from a displaced pose",
          "[extremal-continue]") {
  const auto problem = example_445();
  // Start 0.05 away in y and phi (and 0.02 in x); branch in x, fold curve in
  // (x, y) at phi = 0.05, cusp curve in (x, y, phi).
  const auto result = continue_contact_points(problem, {0, 0, 0.02, 0.30, 0.05}, "x",
                                              std::array<std::string, 2>{"x", "y"}, true, chain_options());
  INFO(result.message);
  REQUIRE_FALSE(result.folds.empty());
  for (const auto& fold : result.folds) {
    REQUIRE(fold.classified);
    CHECK(fold.classification.codimension == 1);
  }
  // Two cusps on the fold curve at phi = 0.05 (the two cusp edges of the
  // swallowtail's fold surface).
  REQUIRE(result.cusps.size() == 2);
  for (const auto& cusp : result.cusps) {
    CHECK(cusp.point[4] == Approx(0.05).margin(1e-15));
    CHECK(std::abs(cusp.scalars[1]) < 1e-12);
    REQUIRE(cusp.classified);
    CHECK(cusp.classification.codimension == 2);
  }
  // The cusp curve meets the known swallowtail (0, 0, 0, 1/4, 0).
  REQUIRE(result.swallowtails.size() == 1);
  const auto& sw = result.swallowtails.front();
  const std::array<double, 5> known{0, 0, 0, 0.25, 0};
  CHECK(distance(sw.located, known) < 1e-8);
  CHECK(distance(sw.point, known) < 1e-12);
  REQUIRE(sw.classified);
  CHECK(sw.classification.codimension == 3);
  CHECK(sw.classification.type == "swallowtail");
  CHECK(sw.classification.rank == 3);
  CHECK(sw.classification.c.at(4) == Approx(16000.0 / 2401.0).epsilon(1e-8));  // the paper's c_4 of (45)
}

TEST_CASE("contact continuation: bad input is a clear error", "[extremal-continue]") {
  const auto problem = example_444();
  CHECK_THROWS_WITH(continue_contact_points(problem, {0, 0, 0, -0.55, 0}, "z", std::nullopt, false),
                    Catch::Contains("unknown pose parameter 'z'") && Catch::Contains("x, y, phi"));
  CHECK_THROWS_WITH(continue_contact_points(problem, {0, 0, 0, -0.55, 0}, "x",
                                            std::array<std::string, 2>{"x", "theta"}, false),
                    Catch::Contains("'theta'"));
  CHECK_THROWS_WITH(continue_contact_points(problem, {0, 0, 0, -0.55, 0}, "x", std::nullopt, true),
                    Catch::Contains("fold-curve parameters"));
  CHECK_THROWS_WITH(extremal_fold_curve(problem, {0, 0, 0, -0.5, 0}, {"x", "x"}, {}),
                    Catch::Contains("both 'x'"));
  CHECK_THROWS_WITH(refine_contact_point(problem, "BT", {0, 0, 0, -0.5, 0}, {}, {}), Catch::Contains("'BT'"));
}

TEST_CASE("example 4.4.3: the branch in x meets the line of cusps (0, 0, 0, y, 0)", "[extremal-continue]") {
  // (37) has kappa1 = kappa2 = 0 at s = 0 on both curves, so for every pose
  // (0, y, 0) the point s1 = s2 = 0 is extremal with det J = -kappa1 - kappa2
  // - kappa1 kappa2 d = 0 (10), and c_2 = (-kappa1' + kappa2') / 2 = 0 (26):
  // the degenerate point of 4.4.3 lies on a line of cusps, not on a fold
  // curve. The x-branch at y = 0.05 turns there (the fold test fires), and
  // the located point classifies as a cusp with c_3 = 17.1 (18 - 18 y, from
  // classify at the exact point).
  const auto problem =
      make_extremal_problem(ParametricPolynomial{.x = {0, -1}, .y = {0, 0, 0, -1, -3}, .name = "c1"},
                            ParametricPolynomial{.x = {0, 1}, .y = {0, 0, 0, 1, 1.5}, .name = "c2"});
  const auto exact = classify(problem, {0, 0, 0, 0.05, 0});
  REQUIRE(exact.codimension == 2);
  CHECK(exact.c.at(3) == Approx(17.1).epsilon(1e-12));
  const auto result =
      continue_contact_points(problem, {0, 0, 0.02, 0.05, 0}, "x", std::nullopt, false, chain_options());
  const auto on_line = std::find_if(result.folds.begin(), result.folds.end(),
                                    [](const LocatedContactPoint& p) { return std::abs(p.point[0]) < 1e-6; });
  REQUIRE(on_line != result.folds.end());
  CHECK(distance(on_line->point, {0, 0, 0, 0.05, 0}) < 1e-9);
  REQUIRE(on_line->classified);
  // Near, not at, vanishing curvature (kappa_i ~ 1e-10 here) the Jordan basis
  // keeps a kernel vector of unit size, so the classification is continuous.
  CHECK(on_line->classification.codimension == 2);
  CHECK(on_line->classification.c.at(3) == Approx(17.1).epsilon(1e-6));
}
