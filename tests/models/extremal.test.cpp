// The extremal-point problem of Damerau & Low, eq. (3): the closed-form
// Jacobian (8)-(10) against the automatic one, solution counts (two circles,
// the paper's fold and cusp examples of Sec. 4.4 on both sides of their
// degenerate poses), folds located by continuation, and bad input.

#include "models/extremal.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <numbers>
#include <random>
#include <string>

#include "continuation/pseudo_arclength.h"
#include "testfunctions/fold.h"

using namespace saltus;
using namespace saltus::models;

namespace {

constexpr double kPi = std::numbers::pi;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

std::vector<SpecialPoint> of_type(const Branch& b, const std::string& type) {
  std::vector<SpecialPoint> out;
  for (const auto& s : b.special_points)
    if (s.type == type) out.push_back(s);
  return out;
}

// Eq. (31) (Sec. 4.4.1): c1 = -(s1, s1^4), c2 = (s2, s2^3); degenerate at
// s = 0, (x, y, phi) = 0 with kappa1 = kappa2 = 0.
ExtremalProblem example_441() {
  return make_extremal_problem(ParametricPolynomial{.x = {0, -1}, .y = {0, 0, 0, 0, -1}, .name = "c1"},
                               ParametricPolynomial{.x = {0, 1}, .y = {0, 0, 0, 1}, .name = "c2"});
}

// Eq. (40) (Sec. 4.4.4): c1 = -(sin s1, cos s1), the unit circle run clockwise
// (body 1 is its outside: a round hole, kappa1 = -1), c2 = (s2, s2^2) (kappa2 = 2
// at the tip), degenerate at y = -1/2. Run-time shapes, as a run file gives them.
ExtremalProblem example_444() {
  return make_extremal_problem(AnyShape{ExpressionCurve::make("-sin(s)", "-cos(s)", "c1", 1.0, 2 * kPi)},
                               AnyShape{PolynomialGraph{.p = {0, 0, 1}, .name = "c2"}});
}

}  // namespace

TEST_CASE("extremal: Jacobian (8) everywhere and det (10) at extremal points, random poses",
          "[models][extremal]") {
  // An ellipse (body 1) and a polar cam (body 2), both non-unit-speed, posed
  // at random with their centres 4.5..6 apart: the bodies (radii <= 2 and
  // <= 1.43) are separated, so the extremal points are the critical points of
  // the distance on the torus (s1, s2): at least a minimum, a maximum and, by
  // Morse theory (Euler characteristic 0), as many saddles, so an even count >= 4.
  const auto problem =
      make_extremal_problem(Ellipse{.a = 2.0, .b = 1.0, .phase = 0.1},
                            FourierProfile{.r0 = 1.0, .a = {0.2, 0.1}, .b = {0.05, 0.0, 0.08}});
  std::mt19937 rng(20160822);
  std::uniform_real_distribution<double> angle(-kPi, kPi), distance(4.5, 6.0);
  ExtremalSearchOptions options;
  options.half_width = kPi;  // a full period of both curves
  options.grid = 40;
  int checked = 0;
  for (int trial = 0; trial < 8; ++trial) {
    const double rho = distance(rng), theta = angle(rng), phi = angle(rng);
    const Eigen::Vector3d pose(rho * std::cos(theta), rho * std::sin(theta), phi);
    INFO("pose " << pose.transpose());
    // (8) holds at any (s1, s2), not only at solutions: compare entrywise.
    for (int k = 0; k < 4; ++k) {
      const ExtremalGeometry g = extremal_geometry(problem, extremal_u(angle(rng), angle(rng), pose));
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
          CHECK(g.jacobian_arclength(i, j) ==
                Approx(g.jacobian_closed_form(i, j)).epsilon(1e-12).margin(1e-13));
    }
    const ExtremalPoints found = find_extremal_points(problem, pose, options);
    CHECK(found.count >= 4);
    CHECK(found.count % 2 == 0);
    CHECK(found.opposing_count >= 2);  // the closest and the farthest pair
    for (const auto& p : found.solutions) {
      const ExtremalGeometry& g = p.geometry;
      CHECK(std::abs(std::abs(g.epsilon) - 1.0) < 1e-12);  // tangents parallel
      CHECK(p.residual <= options.residual_tolerance);
      CHECK(g.det == Approx(g.det_arclength * g.speed1 * g.speed2).epsilon(1e-12));
      CHECK(g.det_arclength == Approx(g.det_closed_form).epsilon(1e-10));
      if (g.opposing()) {
        // Eq. (10) and the trace of (11).
        CHECK(g.det_arclength == Approx(g.det_eq10).epsilon(1e-10));
        CHECK(g.trace_arclength == Approx(-1.0 - g.kappa1 * g.d + g.kappa2).epsilon(1e-10));
      } else {
        // Co-oriented tangents: (10) with kappa2 -> -kappa2.
        CHECK(g.det_arclength == Approx(-g.kappa1 + g.kappa2 + g.kappa1 * g.kappa2 * g.d).epsilon(1e-10));
      }
      ++checked;
    }
  }
  CHECK(checked >= 32);
}

TEST_CASE("extremal: two circles have four extremal points, two of them opposing", "[models][extremal]") {
  // Circles R1 (centre 0) and R2 (centre r = (x, y)). f1 = 0 puts c2 - c1 on
  // the normal n1 = u1 (the radial unit vector of c1); f2 = 0 makes n2 = +-u1;
  // then c2 - c1 = r + (+-R2 - R1) u1 is parallel to u1 only for u1 = +-r/|r|:
  // four points (s1, s2) for r != 0. With theta = arg r (c2 = A(phi) R2 (cos s2,
  // sin s2) + r has normal angle s2 + phi):
  //   s1 = theta,      s2 = theta + pi - phi: eps = -1, d = |r| - R1 - R2   (closest)
  //   s1 = theta + pi, s2 = theta - phi:      eps = -1, d = -(|r| + R1 + R2) (farthest)
  //   s1 = theta,      s2 = theta - phi:      eps = +1, d = |r| + R2 - R1
  //   s1 = theta + pi, s2 = theta + pi - phi: eps = +1, d = -(|r| + R1 - R2)
  // and det J = -|r|/(R1 R2), +, +, - (from (10) and its eps = +1 form).
  const double R1 = 1.0, R2 = 0.5;
  const auto problem = make_extremal_problem(Circle{.radius = R1}, Circle{.radius = R2});
  const Eigen::Vector3d pose(3.0, 1.0, 0.7);
  const double r = std::hypot(3.0, 1.0), theta = std::atan2(1.0, 3.0), phi = 0.7;
  ExtremalSearchOptions options;
  options.s1_centre = 1.0;  // no root on the box boundary
  options.s2_centre = 1.0;
  options.half_width = kPi;
  const ExtremalPoints found = find_extremal_points(problem, pose, options);
  REQUIRE(found.count == 4);
  CHECK(found.opposing_count == 2);
  CHECK_THAT(found.message, Catch::StartsWith("4 extremal points (2 opposing)"));
  struct Expected {
    double s1, s2, eps, d, det;
  };
  const double det = r / (R1 * R2);
  const Expected expected[] = {{theta, theta + kPi - phi, -1, r - R1 - R2, -det},
                               {theta + kPi, theta - phi, -1, -(r + R1 + R2), det},
                               {theta, theta - phi, 1, r + R2 - R1, det},
                               {theta + kPi, theta + kPi - phi, 1, -(r + R1 - R2), -det}};
  auto wrap = [](double a) { return std::remainder(a, 2 * kPi); };
  for (const Expected& e : expected) {
    int matches = 0;
    for (const auto& p : found.solutions) {
      if (std::abs(wrap(p.s1 - e.s1)) > 1e-10 || std::abs(wrap(p.s2 - e.s2)) > 1e-10) continue;
      ++matches;
      CHECK(p.geometry.epsilon == Approx(e.eps).epsilon(1e-14));
      CHECK(p.geometry.d == Approx(e.d).epsilon(1e-13));
      CHECK(p.geometry.det_arclength == Approx(e.det).epsilon(1e-12));
      CHECK(!p.degenerate);
    }
    CHECK(matches == 1);
  }
}

TEST_CASE("extremal: example 4.4.1, eq. (31): 2 extremal points for phi < 0, 0 for phi > 0",
          "[models][extremal]") {
  // Rederived: with x = y = 0, f1 = 0 gives s1 = -s2 + O(s^4) and f2 = 0
  // reads phi + 3 s2^2 - 4 s1^3 + ... = 0, i.e. 3 s2^2 + 4 s2^3 + phi = 0:
  // two roots s2 ~ +-sqrt(-phi/3) for phi < 0, none for phi > 0 (the third
  // root, near s2 = -3/4, is outside the box). This is (33)'s
  // 0 = phi/3 + p^2 + ...: the fold of Fig. 3.
  const auto problem = example_441();
  ExtremalSearchOptions options;
  options.half_width = 0.3;
  const ExtremalPoints before = find_extremal_points(problem, {0.0, 0.0, -0.01}, options);
  REQUIRE(before.count == 2);
  CHECK(before.opposing_count == 2);
  for (const auto& p : before.solutions) {
    // 3 s2^2 + 4 s2^3 = 0.01 to the order kept: |s2| within 10% of sqrt(0.01/3).
    CHECK(std::abs(p.s2) == Approx(std::sqrt(0.01 / 3)).epsilon(0.1));
    CHECK(p.s1 == Approx(-p.s2).epsilon(1e-3));
    CHECK(!p.degenerate);
  }
  CHECK(before.solutions[0].geometry.det_arclength * before.solutions[1].geometry.det_arclength < 0);
  CHECK(find_extremal_points(problem, {0.0, 0.0, 0.01}, options).count == 0);
  // At the degenerate pose: one root, flagged degenerate, det (10) = 0.
  const ExtremalPoints at = find_extremal_points(problem, {0.0, 0.0, 0.0}, options);
  REQUIRE(at.count == 1);
  CHECK(at.solutions[0].degenerate);
  CHECK(std::abs(at.solutions[0].s2) < 1e-8);
  // y does not enter (33): the counts do not change with a small y.
  CHECK(find_extremal_points(problem, {0.0, 0.05, -0.01}, options).count == 2);
  CHECK(find_extremal_points(problem, {0.0, 0.05, 0.01}, options).count == 0);
}

TEST_CASE("extremal: example 4.4.4, eq. (40): 1 extremal point above y = -1/2, 3 below",
          "[models][extremal]") {
  // Rederived: the circle's normals all pass through its centre (0, 0), so at
  // x = phi = 0 the extremal points are the feet of the normals from the
  // origin to the parabola (s2, s2^2 + y): s2 = 0 and s2^2 = -(1 + 2y)/2,
  // real for y < -1/2: three roots below the cusp at y = -1/2 (the
  // parabola's centre of curvature at the tip reaches the circle's centre),
  // one above, as (42) 0 = ... + (9/4)(y + 1/2) p + p^3 says.
  const auto problem = example_444();
  ExtremalSearchOptions options;
  const ExtremalPoints three = find_extremal_points(problem, {0.0, -0.55, 0.0}, options);
  REQUIRE(three.count == 3);
  CHECK(three.opposing_count == 3);
  const double s2 = std::sqrt(0.05);
  CHECK(three.solutions[0].s2 == Approx(s2).epsilon(1e-12));
  CHECK(std::abs(three.solutions[1].s2) < 1e-12);
  CHECK(three.solutions[2].s2 == Approx(-s2).epsilon(1e-12));
  // s1: c1(s1) = -(sin s1, cos s1) is the unit vector towards (s2, s2^2 - 0.55).
  CHECK(three.solutions[0].s1 == Approx(std::atan2(-s2, 0.5)).epsilon(1e-12));
  CHECK(three.solutions[0].geometry.d == Approx(1.0 - std::hypot(s2, 0.5)).epsilon(1e-12));
  CHECK(find_extremal_points(problem, {0.0, -0.45, 0.0}, options).count == 1);
  // At the cusp itself: one (triple) root, degenerate: kappa1 = -1, kappa2 = 2,
  // d = 1/2 give det (10) = 1 - 2 + 1 = 0.
  const ExtremalGeometry g = extremal_geometry(problem, extremal_u(0.0, 0.0, {0.0, -0.5, 0.0}));
  CHECK(g.kappa1 == Approx(-1.0).epsilon(1e-15));
  CHECK(g.kappa2 == 2.0);
  CHECK(g.d == Approx(0.5).epsilon(1e-15));
  CHECK(std::abs(g.det_eq10) < 1e-15);
  CHECK(std::abs(g.det) < 1e-15);
}

TEST_CASE("extremal: eq. (43) as printed is not degenerate at y = 1/4, the corrected c1 is",
          "[models][extremal]") {
  // At s = 0, pose (0, 1/4, 0): c1 = (-s, k s^2 + 2 s^4) has kappa1 = -2k, c2 =
  // (s, 2 s^2 + 24 s^4 + 50 s^5) has kappa2 = 4, d = 1/4. (10): det =
  // 2k - 4 + 2k = 4k - 4: 4 for the printed k = 2, 0 for k = 1 (NOTES.md).
  const PolynomialGraph c2{.p = {0, 0, 2, 0, 24, 50}, .name = "c2"};
  for (double k : {1.0, 2.0}) {
    const auto problem = make_extremal_problem(ParametricPolynomial{.x = {0, -1}, .y = {0, 0, k, 0, 2}}, c2);
    const ExtremalGeometry g = extremal_geometry(problem, extremal_u(0.0, 0.0, {0.0, 0.25, 0.0}));
    CHECK(g.residual.norm() == 0.0);  // an extremal point
    CHECK(g.epsilon == -1.0);
    CHECK(g.det_eq10 == 4 * k - 4);
    CHECK(g.det == Approx(4 * k - 4).margin(1e-15));
    CHECK(g.trace_arclength == Approx(-1.0 + 2 * k * 0.25 + 4.0).epsilon(1e-15));  // (11)
  }
}

TEST_CASE("extremal: the fold of example 4.4.1 located by continuation in phi", "[models][extremal]") {
  const auto problem = example_441();
  ExtremalSearchOptions search;
  search.half_width = 0.3;
  const ExtremalPoints start = find_extremal_points(problem, {0.0, 0.0, -0.01}, search);
  REQUIRE(start.count == 2);
  ContinuationProblem continuation(problem.system, Eigen::Vector3d(0.0, 0.0, -0.01), {"phi"});
  Vector y0(3);
  y0 << start.solutions[0].s1, start.solutions[0].s2, -0.01;
  ContinuationOptions options;
  options.ds = 1e-3;
  options.ds_max = 1e-2;
  options.bounds["phi"] = {-0.05, 0.05};
  const Branch branch = continue_branch(continuation, y0, options, {std::make_shared<FoldTest>()});
  REQUIRE(branch.usable());
  const auto folds = of_type(branch, "LP");
  REQUIRE(folds.size() == 1);
  CHECK(folds[0].status == EventStatus::kLocated);
  const Vector u = continuation.u(folds[0].y);
  // The fold is the degenerate point of the paper: s = 0, phi = 0 (phi is
  // quadratic in the arclength error there, s linear: event_tolerance 1e-10).
  CHECK(std::abs(u[4]) < 1e-12);
  CHECK(std::abs(u[0]) < 1e-8);
  CHECK(std::abs(u[1]) < 1e-8);
  const ExtremalGeometry g = extremal_geometry(problem, u);
  CHECK(std::abs(g.det) < 1e-8);
  CHECK(g.opposing());
  CHECK(g.det_arclength == Approx(g.det_eq10).margin(1e-10));
  // The branch went around the fold: it ends at phi = -0.05 on the other root.
  CHECK(branch.points.back().y[2] == Approx(-0.05).margin(1e-12));
  CHECK(branch.points.back().y[1] * y0[1] < 0);
}

TEST_CASE("extremal: both folds of example 4.4.4 below the cusp, continued in x", "[models][extremal]") {
  // At y = -0.6, phi = 0 the feet of the normals from the circle's centre to the
  // parabola (s2 + x, s2^2 + y) satisfy x = -s2 (1 + 2y) - 2 s2^3 = 0.2 s2 - 2 s2^3;
  // folds where dx/ds2 = 0: s2 = +-sqrt(1/30), x = +-(2/15) sqrt(1/30). There
  // kappa2 != 0 and d != 0, so (10) is a real check.
  const auto problem = example_444();
  ExtremalSearchOptions search;
  search.half_width = 1.0;
  const ExtremalPoints start = find_extremal_points(problem, {-0.05, -0.6, 0.0}, search);
  REQUIRE(start.count == 1);
  ContinuationProblem continuation(problem.system, Eigen::Vector3d(-0.05, -0.6, 0.0), {"x"});
  Vector y0(3);
  y0 << start.solutions[0].s1, start.solutions[0].s2, -0.05;
  ContinuationOptions options;
  options.ds = 1e-3;
  options.ds_max = 1e-2;
  options.bounds["x"] = {-0.05, 0.05};
  const Branch branch = continue_branch(continuation, y0, options, {std::make_shared<FoldTest>()});
  REQUIRE(branch.usable());
  const auto folds = of_type(branch, "LP");
  REQUIRE(folds.size() == 2);
  const double s_fold = std::sqrt(1.0 / 30.0), x_fold = 2.0 / 15.0 * s_fold;
  for (const auto& fold : folds) {
    CHECK(fold.status == EventStatus::kLocated);
    const Vector u = continuation.u(fold.y);
    INFO("fold at " << u.transpose());
    CHECK(std::abs(u[2]) == Approx(x_fold).epsilon(1e-10));
    CHECK(std::abs(u[1]) == Approx(s_fold).epsilon(1e-8));
    CHECK(u[1] * u[2] > 0);  // x = 0.2 s2 - 2 s2^3 has the sign of s2 at the fold
    const ExtremalGeometry g = extremal_geometry(problem, u);
    CHECK(std::abs(g.det) < 1e-8);
    CHECK(std::abs(g.det_eq10) < 1e-8);
    CHECK(g.det_arclength == Approx(g.det_eq10).margin(1e-10));
    // Not a flat point: kappa1 = -1, kappa2 = 2 / (1 + 4 s2^2)^(3/2) = 2 (15/17)^(3/2),
    // d = 1 - |c2| (the circle's normal runs through its centre), and (10)
    // 1 - kappa2 + kappa2 d = 0 says d = 1 - 1/kappa2: the radius of curvature
    // of the parabola reaches the centre (the evolute).
    CHECK(g.kappa1 == Approx(-1.0).epsilon(1e-14));
    CHECK(g.kappa2 == Approx(2.0 * std::pow(15.0 / 17.0, 1.5)).epsilon(1e-8));
    CHECK(g.d == Approx(1.0 - std::hypot(s_fold + x_fold, s_fold * s_fold - 0.6)).epsilon(1e-8));
    CHECK(g.d == Approx(1.0 - 1.0 / g.kappa2).epsilon(1e-8));
  }
  // Between the folds three extremal points, outside them one.
  CHECK(find_extremal_points(problem, {0.5 * x_fold, -0.6, 0.0}, search).count == 3);
  CHECK(find_extremal_points(problem, {-0.5 * x_fold, -0.6, 0.0}, search).count == 3);
  CHECK(find_extremal_points(problem, {1.5 * x_fold, -0.6, 0.0}, search).count == 1);
}

TEST_CASE("extremal: second derivatives (Boost.Math fvar through Taylor) match differences of the Jacobian",
          "[models][extremal]") {
  const auto problem = make_extremal_problem(ExpressionCurve::make("cos(s) + 0.1*s^2", "2*sin(s)"),
                                             FourierProfile{.r0 = 1.0, .a = {0.2}, .b = {0.1}});
  Vector u(5), d(5);
  u << 0.4, -1.1, 2.5, 0.3, 0.6;
  d << 0.3, -0.2, 0.5, 0.1, -0.7;
  Matrix H, Jp, Jm;
  problem.system->second_derivative(u.data(), d.data(), &H);
  const double h = 1e-5;
  const Vector up = u + h * d, um = u - h * d;
  problem.system->jacobian(up.data(), &Jp);
  problem.system->jacobian(um.data(), &Jm);
  const Matrix fd = (Jp - Jm) / (2 * h);  // O(h^2) ~ 1e-10 truncation
  CHECK((H - fd).cwiseAbs().maxCoeff() < 1e-7 * (1.0 + H.cwiseAbs().maxCoeff()));
}

TEST_CASE("extremal: bad input throws naming the value", "[models][extremal]") {
  const auto problem = example_441();
  ExtremalSearchOptions options;
  options.half_width = 0.0;
  CHECK_THAT(error_of([&] {
               find_extremal_points(problem, {0, 0, 0}, options);
             }),
             Catch::Contains("half_width = 0 must be positive"));
  options = {};
  options.grid = 0;
  CHECK_THAT(error_of([&] {
               find_extremal_points(problem, {0, 0, 0}, options);
             }),
             Catch::Contains("grid = 0"));
  CHECK_THAT(error_of([&] {
               find_extremal_points(problem, {0, 0, NAN}, {});
             }),
             Catch::Contains("pose phi = nan is not finite"));
  CHECK_THAT(error_of([&] { extremal_geometry(problem, Vector::Zero(3)); }),
             Catch::Contains("u has 3 components"));
  CHECK_THAT(error_of([] { make_extremal_problem(Circle{.radius = 0}, Circle{}); }),
             Catch::Contains("radius = 0"));
  // A curve with a cusp at s = 0.5: the equations themselves (double and jets) say where.
  const auto cusp = make_extremal_problem(
      ParametricPolynomial{.x = {0.25, -1, 1}, .y = {-0.125, 0.75, -1.5, 1}, .name = "cusp"}, Circle{});
  const Vector u = extremal_u(0.5, 0.0, {2.0, 0.0, 0.0});
  Vector f(2);
  Matrix J;
  const std::string expected = "curve 'cusp' is not regular at s = 0.5: |c'(s)| = 0";
  CHECK_THAT(error_of([&] { cusp.system->residual(u.data(), f.data()); }), Catch::StartsWith(expected));
  CHECK_THAT(error_of([&] { cusp.system->jacobian(u.data(), &J); }), Catch::StartsWith(expected));
  CHECK_THAT(error_of([&] { extremal_geometry(cusp, u); }), Catch::StartsWith(expected));
}
