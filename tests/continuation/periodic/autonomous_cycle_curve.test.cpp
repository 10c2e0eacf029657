// LPC, PD and NS curves of autonomous periodic orbits (continuation/
// periodic/cycle_curve.h, ns_curve.h) on a system in polar form whose
// cycle, period and multipliers are known in closed form.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "continuation/flow/hybrid_system.h"
#include "continuation/periodic/cycle_curve.h"
#include "continuation/periodic/ns_curve.h"
#include "continuation/pseudo_arclength.h"
#include "testfunctions/cycle_codim2.h"

using namespace saltus;
using namespace saltus::periodic;

namespace {

enum Kind { kLpc, kPd, kNs };

// The state (X, Y, a, b), r^2 = X^2 + Y^2, theta the angle of (X, Y):
//
//   r' = r g(r^2),   theta' = w = 1 + r^2,   (a, b)' = K (a, b),
//
// i.e. (X, Y)' = g (X, Y) + w (-Y, X). The circle r^2 = s* (g(s*) = 0,
// a = b = 0) is a cycle of period T = 2 pi / (1 + s*). Its monodromy is
// block triangular: (a, b)' is linear in (a, b), so its derivative in
// (X, Y) vanishes on the cycle; (r, theta) is triangular (theta' depends
// on r, r' not on theta). The multipliers are therefore 1 (the flow),
// exp(T d(r g(r^2))/dr) = exp(2 s* g'(s*) T) (radial), and the two of the
// transverse block:
//
//   kLpc: g = p1 + p2 s - s^2, K = -I. Cycles at g(s) = 0; two meet where
//         p2^2 + 4 p1 = 0, at s* = p2 / 2, where the radial multiplier is
//         exp(2 s* (p2 - 2 s*) T) = 1: the LPC curve p1 = -p2^2 / 4,
//         T = 2 pi / (1 + p2 / 2). (A Jordan block: theta' grows with r, so
//         a radial shift comes back shifted along the orbit.) The others:
//         e^-T twice.
//   kPd:  g = p2 - s (s* = p2, radial exp(-2 p2 T)) and, in the frame
//         turning with theta / 2, (xi, eta)' = diag(l1, l2) (xi, eta) with
//         (a, b) = R(theta / 2) (xi, eta): over one period theta gains
//         2 pi, R(pi) = -I, and the multipliers are -exp(l1 T),
//         -exp(l2 T). In (a, b): K = (w / 2) J + R(theta/2) diag(l1, l2)
//         R(-theta/2) = (w / 2) J + (l1 + l2) / 2 I + (l1 - l2) / 2 S,
//         S = [[cos theta, sin theta], [sin theta, -cos theta]], single
//         valued in (X, Y). With l1 = p1 - r^4 - (a^2 + b^2), l2 = -1:
//         the PD curve p1 = p2^2, T = 2 pi / (1 + p2). The cubic term
//         (xi' = (p1 - r^4 - xi^2 - eta^2) xi) gives the flip coefficient
//         c = T of P(xi) = -(xi - T xi^3) on the curve (Kuznetsov's c = a^2
//         + d for P(x) = -x + a x^2 + d x^3; period_map_forms' Poincare
//         map, tests/continuation/periodic/poincare_map_forms.test.cpp):
//         without it the map on the center manifold is linear, c = 0
//         identically, and its rounding would change sign at random.
//   kNs:  g = p2 - s, K = l1 I + nu J, nu = 0.3, l1 = p1 - r^4: the pair
//         exp((l1 +- i nu) T) on the unit circle on the NS curve p1 = p2^2,
//         with kappa = cos(nu T) = cos(0.6 pi / (1 + p2)).
template <int kind, class P = double>
struct PolarCycle {
  P p1 = P(0.0), p2 = P(1.0);
  template <class Self, class Visit>
  static void parameters(Self& s, Visit&& visit) {
    visit("p1", s.p1, "the transverse (LPC: radial) rate");
    visit("p2", s.p2, "the cycle's radius squared (LPC: its growth)");
  }
  template <class Q>
  PolarCycle<kind, Q> cast() const {
    return flow::cast_parameters<PolarCycle<kind, Q>>(*this);
  }
  static constexpr bool tangent_liftable = true;
  int dimension() const { return 4; }
  template <class T>
  void field(int, const T&, const T* x, T* f) const {
    using std::sqrt;
    const T s = x[0] * x[0] + x[1] * x[1], w = 1.0 + s;
    const T g = kind == kLpc ? T(p1 + p2 * s - s * s) : T(p2 - s);
    f[0] = g * x[0] - w * x[1];
    f[1] = g * x[1] + w * x[0];
    if constexpr (kind == kLpc) {
      f[2] = -x[2];
      f[3] = -x[3];
    } else if constexpr (kind == kPd) {
      const T r = sqrt(s), c = x[0] / r, sn = x[1] / r;
      const T l1 = p1 - s * s - x[2] * x[2] - x[3] * x[3], l2 = T(-1.0), mean = 0.5 * (l1 + l2),
              half = 0.5 * (l1 - l2);
      f[2] = (mean + half * c) * x[2] + (half * sn - 0.5 * w) * x[3];
      f[3] = (half * sn + 0.5 * w) * x[2] + (mean - half * c) * x[3];
    } else {
      const T l1 = p1 - s * s;
      f[2] = l1 * x[2] - 0.3 * x[3];
      f[3] = 0.3 * x[2] + l1 * x[3];
    }
  }
};

template <int kind>
ShootingSystem polar_shooting(const Vector& u) {
  ShootingOptions options;
  options.autonomous = true;
  options.simulation.absolute_tolerance = options.simulation.relative_tolerance = 1e-12;
  const auto hybrid = flow::make_hybrid(PolarCycle<kind>{})->with_parameters_in_state({"p1", "p2"});
  Vector reference(6);
  reference << u.head(4), u.tail(2);
  return ShootingSystem(hybrid, 2, options, reference);
}

// The cycle's point on the X axis: (sqrt s*, 0, 0, 0, T, p1, p2).
Vector on_cycle(double s, double p1, double p2) {
  Vector u(7);
  u << std::sqrt(s), 0.0, 0.0, 0.0, 2 * M_PI / (1 + s), p1, p2;
  return u;
}

// Central differences of a system's residual at u.
Matrix differences(const System& system, const Vector& u) {
  const int m = system.state_size();
  Matrix fd(m, u.size());
  const double h = 1e-6;
  for (int j = 0; j < u.size(); ++j) {
    Vector up = u, um = u, fp(m), fm(m);
    up[j] += h;
    um[j] -= h;
    system.residual(up.data(), fp.data());
    system.residual(um.data(), fm.data());
    fd.col(j) = (fp - fm) / (2 * h);
  }
  return fd;
}

// The exact Jacobian at u, checked against central differences (residuals
// accurate to 1e-12 differenced at h = 1e-6: about 1e-6 absolute).
Matrix checked_jacobian(const System& system, const Vector& u) {
  Matrix J;
  system.jacobian(u.data(), &J);
  const Matrix fd = differences(system, u);
  INFO("exact\n" << J << "\ndifferences\n" << fd);
  CHECK((J - fd).norm() < 1e-5 * (1 + fd.norm()));
  return J;
}

}  // namespace

TEST_CASE("autonomous cycle curves: the exact Jacobians of the LPC, PD and NS systems against differences",
          "[periodic][cycle_curve][autonomous]") {
  // Off the curves in every unknown: x (a, b too), T and both parameters.
  Vector off(7);
  off << 0.01, -0.02, 0.01, -0.015, 0.03, 0.02, -0.03;
  SECTION("LPC") {
    const Vector u0 = on_cycle(0.5, -0.25, 1.0);
    const CycleCurveSystem system(polar_shooting<kLpc>(u0), CycleBifurcation::kFold, u0);
    const Matrix J = checked_jacobian(system, u0 + off);
    CHECK(J.row(5).norm() > 1e-2);
  }
  SECTION("PD") {
    const Vector u0 = on_cycle(1.0, 1.0, 1.0);
    const CycleCurveSystem system(polar_shooting<kPd>(u0), CycleBifurcation::kPeriodDoubling, u0);
    const Matrix J = checked_jacobian(system, u0 + off);
    CHECK(std::abs(J(5, 4)) > 1e-3);  // the g row's T entry: the end moving
  }
  SECTION("NS") {
    const Vector u0 = on_cycle(1.0, 1.0, 1.0);
    const NeimarkSackerCurveSystem system(polar_shooting<kNs>(u0), u0);
    // kappa = cos(nu T) = cos(0.3 pi) at p2 = 1.
    CHECK(std::abs(system.start()[system.kappa_index()] - std::cos(0.3 * M_PI)) < 1e-8);
    Vector u = system.start();
    u.head(6) += off.head(6);
    u[6] += 0.01;  // kappa
    u[7] += off[6];
    const Matrix J = checked_jacobian(system, u);
    CHECK(J.bottomRows(2).norm() > 1e-2);
  }
}

namespace {

// Follows the curve from u0 in p2 with the codim-2 tests of its kind.
Branch follow(const std::shared_ptr<System>& system, const Vector& u0, const std::string& kind) {
  const ContinuationProblem problem(system, Vector::Constant(1, u0[u0.size() - 1]), {"p2"});
  ContinuationOptions options;
  options.ds = 0.05;
  options.ds_max = 0.1;
  options.max_points = 12;
  return continue_branch(problem, u0, options, cycle_curve_tests(kind));
}

// The special points other than the ends.
int codim2_points(const Branch& curve) {
  int count = 0;
  for (const auto& sp : curve.special_points) count += sp.type != "EP";
  return count;
}

}  // namespace

TEST_CASE("autonomous cycle curves: the LPC, PD and NS curves of the polar system are the closed forms",
          "[periodic][cycle_curve][autonomous]") {
  // Along each curve the trivial multiplier 1 stays; deflated, it fires no
  // R1 or LPPD (none of the closed forms' codim-2 points lies in the range).
  SECTION("LPC: p1 = -p2^2 / 4, T = 2 pi / (1 + p2 / 2)") {
    const Vector u0 = on_cycle(0.5, -0.25, 1.0);
    const Branch curve = follow(
        std::make_shared<CycleCurveSystem>(polar_shooting<kLpc>(u0), CycleBifurcation::kFold, u0), u0, "LPC");
    INFO(curve.message);
    REQUIRE(curve.points.size() >= 10);
    double worst = 0.0;
    for (const auto& p : curve.points) {
      const double p2 = p.y[6];
      worst =
          std::max({worst, std::abs(p.y[5] + 0.25 * p2 * p2), std::abs(p.y[4] - 2 * M_PI / (1 + p2 / 2))});
    }
    CHECK(std::abs(curve.points.back().y[6] - 1.0) > 0.3);
    CHECK(worst < 1e-8);
    CHECK(codim2_points(curve) == 0);
  }
  SECTION("PD: p1 = p2^2, T = 2 pi / (1 + p2)") {
    const Vector u0 = on_cycle(1.0, 1.0, 1.0);
    const Branch curve = follow(
        std::make_shared<CycleCurveSystem>(polar_shooting<kPd>(u0), CycleBifurcation::kPeriodDoubling, u0),
        u0, "PD");
    INFO(curve.message);
    REQUIRE(curve.points.size() >= 10);
    const auto gpd = std::find(curve.test_names.begin(), curve.test_names.end(), "GPD");
    REQUIRE(gpd != curve.test_names.end());
    const auto k = gpd - curve.test_names.begin();
    double worst = 0.0;
    for (const auto& p : curve.points) {
      const double p2 = p.y[6], T = 2 * M_PI / (1 + p2);
      REQUIRE(std::isfinite(p.tests[k]));  // c = T: NaN before the Poincare map's forms were built
      worst = std::max({worst, std::abs(p.y[5] - p2 * p2), std::abs(p.y[4] - T), std::abs(p.tests[k] - T)});
    }
    CHECK(std::abs(curve.points.back().y[6] - 1.0) > 0.3);
    CHECK(worst < 1e-8);
    CHECK(codim2_points(curve) == 0);
  }
  SECTION("NS: p1 = p2^2, kappa = cos(0.6 pi / (1 + p2))") {
    const Vector u0 = on_cycle(1.0, 1.0, 1.0);
    const auto system = std::make_shared<NeimarkSackerCurveSystem>(polar_shooting<kNs>(u0), u0);
    const Branch curve = follow(system, system->start(), "NS");
    INFO(curve.message);
    REQUIRE(curve.points.size() >= 10);
    double worst = 0.0;
    for (const auto& p : curve.points) {
      const double p2 = p.y[7];
      worst = std::max({worst, std::abs(p.y[5] - p2 * p2), std::abs(p.y[4] - 2 * M_PI / (1 + p2)),
                        std::abs(p.y[6] - std::cos(0.6 * M_PI / (1 + p2)))});
    }
    CHECK(std::abs(curve.points.back().y[7] - 1.0) > 0.3);
    CHECK(worst < 1e-8);
    CHECK(codim2_points(curve) == 0);
  }
}
