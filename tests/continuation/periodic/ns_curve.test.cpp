#include "continuation/periodic/ns_curve.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "continuation/flow/hybrid_system.h"

using namespace saltus;
using namespace saltus::periodic;

namespace {

// The rotating-frame system of examples/rotating_frame_curves.json (derived
// in tests/drivers/ns_curves.test.cpp): (u, v) = eps (cos wt, sin wt) +
// R(wt/2) eta, eta' = K eta + (0, eta1^2), K = [[a - b^2, 1], [b, a - b^2]],
// z' = -z + cos wt pulling u by k (z - z*(t)). Its forced orbit is
// (eps cos wt, eps sin wt, z*(t)) with the multipliers -exp(T (a - b^2 +-
// sqrt b)) and e^-T, T = 2 pi / w.
template <class P = double>
struct RotatingFrame {
  P a = P(0.0), b = P(-0.1), eps = P(0.5), k = P(0.3), w = P(1.0);
  template <class Self, class Visit>
  static void parameters(Self& s, Visit&& visit) {
    visit("a", s.a, "trace / 2 plus b^2");
    visit("b", s.b, "K's lower-left entry");
    visit("eps", s.eps, "forcing radius");
    visit("k", s.k, "coupling of z into u");
    visit("w", s.w, "forcing frequency");
  }
  template <class Q>
  RotatingFrame<Q> cast() const {
    return flow::cast_parameters<RotatingFrame<Q>>(*this);
  }
  static constexpr bool tangent_liftable = true;
  int dimension() const { return 3; }
  template <class T>
  void field(int, const T& t, const T* x, T* f) const {
    using std::cos;
    using std::sin;
    const T c = cos(w * t), s = sin(w * t), cf = cos(0.5 * w * t), sf = sin(0.5 * w * t);
    const T du = x[0] - eps * c, dv = x[1] - eps * s;
    const T e1 = cf * du + sf * dv, e2 = -sf * du + cf * dv, alpha = T(a - b * b);
    const T k1 = alpha * e1 + e2, k2 = b * e1 + alpha * e2 + e1 * e1;
    const T zs = (c + w * s) / T(1.0 + w * w);
    f[0] = -eps * w * s - 0.5 * w * dv + cf * k1 - sf * k2 + k * (x[2] - zs);
    f[1] = eps * w * c + 0.5 * w * du + sf * k1 + cf * k2;
    f[2] = -x[2] + c;
  }
};

ShootingSystem rotating_in_a_b() {
  ShootingOptions options;
  options.period = 2 * M_PI;
  options.simulation.absolute_tolerance = options.simulation.relative_tolerance = 1e-12;
  return ShootingSystem(flow::make_hybrid(RotatingFrame<>{})->with_parameters_in_state({"a", "b"}), 2,
                        options);
}

// The orbit at t = 0 with (a, b): (eps, 0, 1 / (1 + w^2)).
Vector orbit(double a, double b) {
  Vector u(5);
  u << 0.5, 0.0, 0.5, a, b;
  return u;
}

}  // namespace

TEST_CASE("NS curve: the exact Jacobian of the bordered NS system against differences",
          "[periodic][ns_curve]") {
  const ShootingSystem shooting = rotating_in_a_b();
  const NeimarkSackerCurveSystem system(shooting, orbit(0.01, -0.1));  // b^2 = 0.01: on the curve
  // kappa = -cos(2 pi sqrt(0.1)) (tests/drivers/ns_curves.test.cpp).
  CHECK(std::abs(system.start()[4] - (-std::cos(2 * M_PI * std::sqrt(0.1)))) < 1e-8);
  // Off the curve in every unknown: x, a, kappa and b moved.
  Vector u = system.start();
  u.head(3) += Eigen::Vector3d(0.01, -0.02, 0.01);
  u[3] += 0.003, u[4] += 0.05, u[5] -= 0.004;
  Matrix J;
  system.jacobian(u.data(), &J);
  Matrix fd(5, 6);
  const double h = 1e-6;
  for (int j = 0; j < 6; ++j) {
    Vector up = u, um = u, fp(5), fm(5);
    up[j] += h;
    um[j] -= h;
    system.residual(up.data(), fp.data());
    system.residual(um.data(), fm.data());
    fd.col(j) = (fp - fm) / (2 * h);
  }
  INFO("exact\n" << J << "\ndifferences\n" << fd);
  // Differences of 1e-12-accurate residuals at h = 1e-6: ~1e-6 absolute.
  CHECK((J - fd).norm() < 1e-5 * (1 + fd.norm()));
  CHECK(J.bottomRows(2).norm() > 1e-2);
}

TEST_CASE("NS curve: a start without a pair of multipliers of product 1 is refused", "[periodic][ns_curve]") {
  const ShootingSystem shooting = rotating_in_a_b();
  // a = 0.1, b = -0.1: -exp(T (0.09 +- i sqrt 0.1)), product exp(2 T 0.09) = 3.1.
  CHECK_THROWS_WITH(NeimarkSackerCurveSystem(shooting, orbit(0.1, -0.1)),
                    Catch::Contains("no Neimark-Sacker point"));
  CHECK_THROWS_WITH(NeimarkSackerCurveSystem(shooting, orbit(0.1, -0.1).head(4)),
                    Catch::Contains("start point must be a finite"));
}
