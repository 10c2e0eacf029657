// Planar curves: orientation conventions, curvature against closed forms, its
// arc-length derivatives against closed forms (ellipse, parabola, logarithmic
// spiral, polar cam) and finite differences, non-regular points and bad input.

#include "models/planar_curve.h"

#include <ceres/jet.h>

#include <boost/math/differentiation/autodiff.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>
#include <string>

using namespace saltus::models;

namespace {

constexpr double kPi = std::numbers::pi;

double factorial(int k) {
  double f = 1.0;
  for (int j = 2; j <= k; ++j) f *= j;
  return f;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("planar curve: circle and hole, orientation, normal and curvature 1/R", "[models][curve]") {
  const double R = 2.5, cx = 1.0, cy = -2.0;
  const auto disc = make_curve(Circle{.radius = R, .cx = cx, .cy = cy, .phase = 0.3});
  const auto hole = make_curve(Circle{.radius = R, .cx = cx, .cy = cy, .orientation = -1, .name = "hole"});
  for (double s : {-2.0, 0.0, 0.4, 1.7, 3.0}) {
    INFO("s = " << s);
    const Eigen::Vector2d centre(cx, cy);
    // Disc: counter-clockwise, the outward normal points away from the centre.
    const Eigen::Vector2d radial = (disc->point(s) - centre) / R;
    CHECK((disc->normal(s) - radial).norm() < 1e-15);
    CHECK(disc->tangent(s).dot(Eigen::Vector2d(-radial.y(), radial.x())) == Approx(1.0).epsilon(1e-15));
    CHECK(disc->speed(s) == Approx(R).epsilon(1e-15));
    CHECK(disc->curvature(s) == Approx(1.0 / R).epsilon(1e-14));
    // Hole: clockwise, the normal (away from the body) points to the centre.
    const Eigen::Vector2d hole_radial = (hole->point(s) - centre) / R;
    CHECK((hole->normal(s) + hole_radial).norm() < 1e-15);
    CHECK(hole->curvature(s) == Approx(-1.0 / R).epsilon(1e-14));
    // All arc-length derivatives of a constant curvature vanish (to rounding:
    // the k-th is built from k-th Taylor coefficients of size R / k!).
    const auto dk = disc->curvature_derivatives(s, 8);
    REQUIRE(dk.size() == 9);
    for (int k = 1; k <= 8; ++k) CHECK(std::abs(dk[k]) < 1e-11);
  }
  CHECK(disc->name() == "circle");
  CHECK(hole->name() == "hole");
  CHECK(disc->period() == Approx(2 * kPi));
}

TEST_CASE("planar curve: ellipse curvature at the vertices and its arc-length derivatives",
          "[models][curve]") {
  const double a = 3.0, b = 1.5;
  const auto e = make_curve(Ellipse{.a = a, .b = b});
  // Vertices: a/b^2 on the major axis, b/a^2 on the minor axis.
  CHECK(e->curvature(0.0) == Approx(a / (b * b)).epsilon(1e-14));
  CHECK(e->curvature(kPi / 2) == Approx(b / (a * a)).epsilon(1e-14));
  CHECK(e->curvature(kPi) == Approx(a / (b * b)).epsilon(1e-14));
  // At a vertex the odd derivatives vanish by symmetry.
  CHECK(std::abs(e->curvature_derivatives(0.0, 1)[1]) < 1e-14);

  // Closed forms at a generic s. With W = a^2 sin^2 s + b^2 cos^2 s = |c'|^2:
  //   kappa = a b W^(-3/2),  dkappa/dsigma = W^(-1/2) dkappa/ds = -(3/2) a b W^(-3) W',
  //   d2kappa/dsigma2 = W^(-1/2) d/ds(-(3/2) a b W^(-3) W')
  //                   = -(3/2) a b W^(-1/2) (W'' W^(-3) - 3 W'^2 W^(-4)),
  //   W' = (a^2 - b^2) sin 2s,  W'' = 2 (a^2 - b^2) cos 2s.
  for (double s : {0.3, 0.7, 2.0, -1.1}) {
    INFO("s = " << s);
    const double W = a * a * std::sin(s) * std::sin(s) + b * b * std::cos(s) * std::cos(s);
    const double W1 = (a * a - b * b) * std::sin(2 * s);
    const double W2 = 2 * (a * a - b * b) * std::cos(2 * s);
    const double k0 = a * b * std::pow(W, -1.5);
    const double k1 = -1.5 * a * b * std::pow(W, -3.0) * W1;
    const double k2 =
        -1.5 * a * b * std::pow(W, -0.5) * (W2 * std::pow(W, -3.0) - 3 * W1 * W1 * std::pow(W, -4.0));
    const auto dk = e->curvature_derivatives(s, 4);
    CHECK(dk[0] == Approx(k0).epsilon(1e-13));
    CHECK(dk[1] == Approx(k1).epsilon(1e-13));
    CHECK(dk[2] == Approx(k2).epsilon(1e-12));
    // Orders 3 and 4 by central differences of the order below in s, divided
    // by the speed: truncation O(h^2) ~ 1e-8 relative with h = 1e-4, rounding
    // ~ 1e-16 / h ~ 1e-12.
    const double h = 1e-4;
    for (int k = 3; k <= 4; ++k) {
      const double fd =
          (e->curvature_derivatives(s + h, k - 1)[k - 1] - e->curvature_derivatives(s - h, k - 1)[k - 1]) /
          (2 * h) / e->speed(s);
      CHECK(dk[k] == Approx(fd).epsilon(1e-6).margin(1e-9));
    }
  }
}

TEST_CASE("planar curve: logarithmic spiral, kappa = 1/sigma, all orders", "[models][curve]") {
  // c(s) = e^s (cos s, sin s): |c'| = sqrt(2) e^s, so the arc length from the
  // pole is sigma = sqrt(2) e^s and kappa = 1/(sqrt(2) e^s) = 1/sigma. Hence
  // d^k kappa/dsigma^k = (-1)^k k! / sigma^(k+1), a closed form to any order
  // for a curve that is not unit-speed.
  const auto spiral = make_curve(ExpressionCurve::make("exp(s)*cos(s)", "exp(s)*sin(s)", "spiral"));
  for (double s : {-0.5, 0.0, 0.3}) {
    const double sigma = std::sqrt(2.0) * std::exp(s);
    const auto dk = spiral->curvature_derivatives(s, 12);
    for (int k = 0; k <= 12; ++k) {
      INFO("s = " << s << ", k = " << k);
      const double expected = (k % 2 ? -1.0 : 1.0) * factorial(k) / std::pow(sigma, k + 1);
      CHECK(dk[k] == Approx(expected).epsilon(1e-11));
    }
  }
  // Orders above 13 take the larger Taylor capacity; it agrees at order 20.
  const double sigma = std::sqrt(2.0);
  CHECK(spiral->curvature_derivatives(0.0, 20)[20] ==
        Approx(factorial(20) / std::pow(sigma, 21)).epsilon(1e-9));
}

TEST_CASE("planar curve: parabola graph, polar cam and the paper's polynomial curves", "[models][curve]") {
  // y = s^2: the body is above, the normal points down; kappa = 2 / (1 + 4 s^2)^(3/2),
  // dkappa/dsigma = (dkappa/ds) / sqrt(1 + 4 s^2) = -24 s / (1 + 4 s^2)^3.
  const auto parabola = make_curve(PolynomialGraph{.p = {0, 0, 1}});
  for (double s : {-0.8, 0.0, 0.25, 1.5}) {
    INFO("s = " << s);
    const double q = 1 + 4 * s * s;
    CHECK((parabola->normal(s) - Eigen::Vector2d(2 * s, -1) / std::sqrt(q)).norm() < 1e-15);
    const auto dk = parabola->curvature_derivatives(s, 1);
    CHECK(dk[0] == Approx(2 / std::pow(q, 1.5)).epsilon(1e-14));
    CHECK(dk[1] == Approx(-24 * s / std::pow(q, 3)).epsilon(1e-13).margin(1e-15));
  }
  // Polar curve r(s): kappa = (r^2 + 2 r'^2 - r r'') / (r^2 + r'^2)^(3/2).
  const FourierProfile cam{.r0 = 2.0, .a = {0.3, 0.0, -0.05}, .b = {0.1, 0.02}};
  const auto c = make_curve(cam);
  for (double s : {0.0, 1.0, 2.5, 4.0}) {
    INFO("s = " << s);
    const double r =
        2.0 + 0.3 * std::cos(s) - 0.05 * std::cos(3 * s) + 0.1 * std::sin(s) + 0.02 * std::sin(2 * s);
    const double r1 =
        -0.3 * std::sin(s) + 0.15 * std::sin(3 * s) + 0.1 * std::cos(s) + 0.04 * std::cos(2 * s);
    const double r2 =
        -0.3 * std::cos(s) + 0.45 * std::cos(3 * s) - 0.1 * std::sin(s) - 0.08 * std::sin(2 * s);
    CHECK(c->curvature(s) ==
          Approx((r * r + 2 * r1 * r1 - r * r2) / std::pow(r * r + r1 * r1, 1.5)).epsilon(1e-13));
    CHECK(c->speed(s) == Approx(std::hypot(r, r1)).epsilon(1e-14));
  }
  // Eq. (31): c1 = -(s, s^4), c2 = (s, s^3): flat at 0; kappa2 = 6 s / (1 + 9 s^4)^(3/2)
  // has dkappa2/dsigma = 6 at s = 0 (unit speed there).
  const auto c1 = make_curve(ParametricPolynomial{.x = {0, -1}, .y = {0, 0, 0, 0, -1}, .name = "c1"});
  const auto c2 = make_curve(ParametricPolynomial{.x = {0, 1}, .y = {0, 0, 0, 1}, .name = "c2"});
  CHECK(c1->curvature(0.0) == 0.0);
  CHECK(c1->normal(0.0).isApprox(Eigen::Vector2d(0, 1)));   // body 1 below, normal up
  CHECK(c2->normal(0.0).isApprox(Eigen::Vector2d(0, -1)));  // body 2 above, normal down
  CHECK(c2->curvature_derivatives(0.0, 1)[1] == Approx(6.0).epsilon(1e-14));
  CHECK(c2->curvature(0.5) == Approx(3.0 / std::pow(1 + 9.0 / 16, 1.5)).epsilon(1e-14));
  // c1 = -(s, s^4) bounds the cap y < -x^4 (convex): kappa1 = +12 s^2 / (1 + 16 s^6)^(3/2),
  // d2kappa1/dsigma2 = 24 at 0.
  CHECK(c1->curvature_derivatives(0.0, 2)[2] == Approx(24.0).epsilon(1e-14));
  CHECK(c1->curvature(0.5) == Approx(3.0 / std::pow(1 + 16.0 / 64, 1.5)).epsilon(1e-14));
  // Eq. (43), corrected: c1 = (-s, s^2 + 2 s^4) has kappa1 = -2 (concave), the
  // printed c1 = (-s, 2 s^2 + 2 s^4) has -4; c2 = (s, 2 s^2 + ...) has 4.
  CHECK(make_curve(ParametricPolynomial{.x = {0, -1}, .y = {0, 0, 1, 0, 2}})->curvature(0.0) == -2.0);
  CHECK(make_curve(ParametricPolynomial{.x = {0, -1}, .y = {0, 0, 2, 0, 2}})->curvature(0.0) == -4.0);
  CHECK(make_curve(PolynomialGraph{.p = {0, 0, 2, 0, 24, 50}})->curvature(0.0) == 4.0);
}

TEST_CASE("planar curve: a non-regular point is an error naming s", "[models][curve]") {
  // (x, y) = ((s - 0.5)^2, (s - 0.5)^3): a cusp at s = 0.5, c'(0.5) = 0 exactly.
  const auto cusp =
      make_curve(ParametricPolynomial{.x = {0.25, -1, 1}, .y = {-0.125, 0.75, -1.5, 1}, .name = "cusp"});
  CHECK(!cusp->is_regular(0.5));
  CHECK(cusp->is_regular(0.6));
  CHECK(cusp->point(0.5).norm() == 0.0);  // the point itself is fine
  const std::string expected = "curve 'cusp' is not regular at s = 0.5: |c'(s)| = 0;";
  CHECK_THAT(error_of([&] { cusp->tangent(0.5); }), Catch::StartsWith(expected));
  CHECK_THAT(error_of([&] { cusp->normal(0.5); }), Catch::StartsWith(expected));
  CHECK_THAT(error_of([&] { cusp->curvature(0.5); }), Catch::StartsWith(expected));
  CHECK_THAT(error_of([&] { cusp->curvature_derivatives(0.5, 3); }), Catch::StartsWith(expected));
  CHECK_THAT(error_of([&] { cusp->check_regular(0.5); }), Catch::Contains("1e-12 * scale = 5.25e-12"));
  // A constant curve is nowhere regular (scale 0).
  CHECK_THAT(error_of([] { make_curve(ParametricPolynomial{.x = {1}, .y = {2}})->curvature(3.0); }),
             Catch::StartsWith("curve 'polynomial' is not regular at s = 3: |c'(s)| = 0"));
}

TEST_CASE("planar curve: invalid shapes and orders throw naming the bad value", "[models][curve]") {
  CHECK_THAT(error_of([] { make_curve(Circle{.radius = -1}); }),
             Catch::Contains("circle 'circle': radius = -1 must be positive"));
  CHECK_THAT(error_of([] { make_curve(Circle{.orientation = 2}); }), Catch::Contains("orientation = 2"));
  CHECK_THAT(error_of([] { make_curve(Ellipse{.a = 1, .b = 0, .name = "e"}); }),
             Catch::Contains("ellipse 'e': b = 0 must be positive"));
  CHECK_THAT(error_of([] { make_curve(FourierProfile{.r0 = 0, .a = {}, .b = {}}); }),
             Catch::Contains("r0 = 0"));
  CHECK_THAT(error_of([] {
               make_curve(FourierProfile{.r0 = 1, .a = {0.1, NAN}, .b = {}});
             }),
             Catch::Contains("a[1] = nan"));
  CHECK_THAT(error_of([] { make_curve(ParametricPolynomial{.x = {}}); }),
             Catch::Contains("x has no coefficients"));
  CHECK_THAT(error_of([] {
               make_curve(PolynomialGraph{.p = {0, INFINITY}});
             }),
             Catch::Contains("p[1] = inf"));
  CHECK_THAT(error_of([] { ExpressionCurve::make("cos(t)", "sin(s)"); }),
             Catch::Contains("unknown name 't'"));
  CHECK_THAT(error_of([] { ExpressionCurve::make("cos(s", "sin(s)"); }), Catch::Contains("cos(s"));
  CHECK_THAT(error_of([] { ExpressionCurve::make("s", "s", "line", -2.0); }), Catch::Contains("scale = -2"));
  CHECK_THAT(error_of([] { make_curve(ExpressionCurve{}); }), Catch::Contains("single variable s"));
  const auto c = make_curve(Circle{});
  CHECK_THAT(error_of([&] { c->curvature_derivatives(0.0, 62); }),
             Catch::Contains("k = 62 is outside 0..61"));
  CHECK_THAT(error_of([&] { c->taylor(0.0, 64); }), Catch::Contains("Taylor order 64 is outside 0..63"));
}

TEST_CASE("planar curve: run-time shapes and scalar types", "[models][curve]") {
  const Ellipse ellipse{.a = 2.0, .b = 0.5, .phase = 0.2, .name = "e"};
  const auto direct = make_curve(ellipse);
  const auto any = make_curve(AnyShape{ellipse});
  CHECK(any->name() == "e");
  CHECK(any->period() == Approx(2 * kPi));
  const auto d1 = direct->curvature_derivatives(0.9, 5), d2 = any->curvature_derivatives(0.9, 5);
  for (int k = 0; k <= 5; ++k) CHECK(d1[k] == d2[k]);
  // An expression curve reproduces the built-in circle to rounding.
  const auto circle = make_curve(ExpressionCurve::make("2*cos(s)", "2*sin(s)"));
  CHECK(circle->curvature(0.4) == Approx(0.5).epsilon(1e-14));

  // The same eval on ceres::Jet and Boost.Math fvar: c'(s) of the circle.
  const Circle shape{.radius = 2.0, .phase = 0.1};
  using Jet = ceres::Jet<double, 1>;
  Jet xy[2];
  shape.eval(Jet(0.5, 0), xy);
  CHECK(xy[0].v[0] == Approx(-2.0 * std::sin(0.6)).epsilon(1e-15));
  CHECK(xy[1].v[0] == Approx(2.0 * std::cos(0.6)).epsilon(1e-15));
  namespace ad = boost::math::differentiation;
  using F = ad::detail::fvar<double, 2>;
  F fxy[2];
  AnyShape{shape}.eval(ad::make_fvar<double, 2>(0.5), fxy);
  CHECK(fxy[0].derivative(2) == Approx(-2.0 * std::cos(0.6)).epsilon(1e-15));
}
