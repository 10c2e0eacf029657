#include "models/wheel_turntable.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "models/filippov.h"

using namespace saltus;
using models::TyreModel;
using models::WheelTurntable;

namespace {

Vector vec(double a, double b, double c) {
  Vector x(3);
  x << a, b, c;
  return x;
}

// A point of h = 0 at (r, omega): v from h = 0 (as (9)).
Vector on_surface(const WheelTurntable& w, double r, double omega) {
  const double s = std::sin(w.gamma), c = std::cos(w.gamma);
  return vec(r, (omega - w.omega0) * (w.d - r * c / s), omega);
}

// (31)-(33) AS PRINTED (R1 + F cos(gamma), R2 - F cos(gamma)), solved for
// (r'', phi'', R1): to show that they do not give (2)-(3).
Eigen::Vector3d printed_newton_euler(const WheelTurntable& w, const Vector& x, double F, double M) {
  const double r = x[0], v = x[1], omega = x[2], c = std::cos(w.gamma);
  const double R2 = w.k2 * (w.r0 - r) - w.c2 * v;
  Eigen::Matrix3d A;
  Eigen::Vector3d b;
  A.row(0) << 0.0, -w.m * r, -1.0;
  b[0] = -w.m * w.d * omega * omega + 2.0 * w.m * v * omega + F * c;
  A.row(1) << w.m, -w.m * w.d, 0.0;
  b[1] = R2 - F * c + w.m * r * omega * omega;
  A.row(2) << 0.0, w.beta * w.beta * w.m, -r;
  b[2] = -w.c1 * omega + w.d * R2 + M;
  return A.fullPivLu().solve(b);
}

// App. B, rederived: the stretched string (sigma = 0) with q = (a - x) tan(phi)
// and pressure k q capped at delta, slipping at rho delta, integrated
// piecewise with Simpson's rule (exact for these polynomials of degree <= 2):
// F = int p dx, M = -int x p dx over [-a, a].
void appendix_b(double kappa, double phi, double* F, double* M) {
  const double k = 1.0 / (3.0 * kappa), delta = k, a = 3.0 * kappa, rho = 2.0 / 3.0;
  const double xs = std::max(-a, a - delta / (k * std::tan(phi)));  // the stick-slip point x_s
  const auto simpson = [](auto f, double lo, double hi) {
    const int n = 64;
    const double h = (hi - lo) / n;
    double sum = f(lo) + f(hi);
    for (int i = 1; i < n; ++i) sum += f(lo + i * h) * (i % 2 ? 4.0 : 2.0);
    return sum * h / 3.0;
  };
  // Each piece on its own interval (p jumps at x_s).
  const auto slip = [&](double x) { return rho * delta + 0.0 * x; };
  const auto stick = [&](double x) { return k * (a - x) * std::tan(phi); };
  *F = simpson(slip, -a, xs) + simpson(stick, xs, a);
  *M = -simpson([&](double x) { return x * slip(x); }, -a, xs) -
       simpson([&](double x) { return x * stick(x); }, xs, a);
}

}  // namespace

TEST_CASE("wheel: (1)-(3) follow from (31)-(33) with the corrected friction terms, not as printed",
          "[wheel]") {
  for (auto tyre : {TyreModel::kStretchedString, TyreModel::kSticking}) {
    WheelTurntable w = WheelTurntable::paper();
    w.tyre = tyre;
    WheelTurntable physical = w;
    physical.rescaled_time = false;
    const Vector states[] = {vec(0.1859, -0.03, -1.037), vec(0.3, 0.4, -0.5), vec(-0.2, -0.7, 1.3),
                             vec(0.05, 0.1, -2.0)};
    for (const Vector& x : states) {
      const double h = w.switching(x.data());
      const double lambda = h > 0 ? w.mu : -w.mu;  // (12) off the surface
      double Fh, Mh;
      w.tyre_factors(x.data(), &Fh, &Mh);
      const double F = lambda * Fh, M = lambda * Mh;
      const Eigen::Vector3d acc = w.newton_euler(x, F, M);  // (r'', phi'', R1)
      const Vector f = filippov::field(w, x, lambda);
      const double scale = w.m * (w.beta * w.beta + x[0] * x[0]);  // the time scaling of (1)-(3)
      INFO("x = " << x.transpose() << ", F = " << F << ", M = " << M);
      CHECK(f[0] / scale == Approx(x[1]).epsilon(1e-13));  // (1): r' = m (beta^2 + r^2) v
      CHECK(f[1] / scale == Approx(acc[0]).epsilon(1e-12));
      CHECK(f[2] / scale == Approx(acc[1]).epsilon(1e-12));
      const Vector g = filippov::field(physical, x, lambda);
      CHECK(g[0] == Approx(x[1]).epsilon(1e-13));
      CHECK(g[1] == Approx(acc[0]).epsilon(1e-12));
      CHECK(g[2] == Approx(acc[1]).epsilon(1e-12));
      // With the printed signs (+F cos(gamma) in (31), -F cos(gamma) in (32)) the
      // friction force enters differently: the accelerations differ by O(F).
      const Eigen::Vector3d printed = printed_newton_euler(w, x, F, M);
      CHECK(std::abs(printed[0] - acc[0]) + std::abs(printed[1] - acc[1]) > 1e-2 * std::abs(F));
    }
  }
}

TEST_CASE("wheel: kappa (10) and k2 (11) make (r*, v*(9), omega*) a two-fold", "[wheel]") {
  const WheelTurntable base;  // Sec. V's constants, kappa and k2 unset
  CHECK_THROWS_WITH(base.check(), Catch::Contains("kappa is not set"));
  const double r = 0.1859, omega = -1.037;
  const auto design = base.design_two_fold(r, omega);
  const double s = std::sin(base.gamma), c = std::cos(base.gamma), b2 = base.beta * base.beta;
  CHECK(design.v == Approx((omega - base.omega0) * (base.d - r * c / s)).epsilon(1e-15));  // (9)
  CHECK(design.g > 0.0);  // the text's case: M = kappa lambda on h = 0
  // (10) as printed.
  CHECK(design.kappa ==
        Approx(-(2.0 * r * r + b2 * (1.0 - std::cos(2.0 * base.gamma))) / (2.0 * r * c)).epsilon(1e-15));
  CHECK(design.kappa > 0.0);

  // Independently: h_x . f_lambda is affine in kappa and h_x . f(x,0) in k2
  // (sticking tyre); their roots are (10) and (11).
  const Vector xs = vec(design.r, design.v, design.omega);
  WheelTurntable probe = base;
  probe.tyre = TyreModel::kSticking;
  const auto lie = [&](double kappa, double k2, bool lambda_part) {
    probe.kappa = kappa;
    probe.k2 = k2;
    double l0, ll;
    filippov::split_lie_derivatives(probe, xs.data(), &l0, &ll);
    return lambda_part ? ll : l0;
  };
  const double kappa_root = -lie(0.0, 1.0, true) / (lie(1.0, 1.0, true) - lie(0.0, 1.0, true));
  const double k2_root = -lie(1.0, 0.0, false) / (lie(1.0, 1.0, false) - lie(1.0, 0.0, false));
  CHECK(design.kappa == Approx(kappa_root).epsilon(1e-12));
  CHECK(design.k2 == Approx(k2_root).epsilon(1e-12));

  // Both tyre models: h = 0 and (19) at x*.
  for (auto tyre : {TyreModel::kStretchedString, TyreModel::kSticking}) {
    WheelTurntable w = base.with_two_fold_at(r, omega);
    w.tyre = tyre;
    REQUIRE_NOTHROW(w.check());
    double l0, ll;
    filippov::split_lie_derivatives(w, xs.data(), &l0, &ll);
    CHECK(std::abs(w.switching(xs.data())) <= 1e-15);
    CHECK(std::abs(l0) <= 1e-14);
    CHECK(std::abs(ll) <= 1e-14);
  }
  // paper() is this design.
  const WheelTurntable paper = WheelTurntable::paper();
  CHECK(paper.kappa == design.kappa);
  CHECK(paper.k2 == design.k2);
}

TEST_CASE("wheel: with g* < 0 the moment on h = 0 is -kappa lambda and (10) changes sign", "[wheel]") {
  WheelTurntable base;
  base.tyre = TyreModel::kSticking;  // kappa < 0 below: not a stretched-string length
  const double r = 0.15,
               omega = -0.9;  // omega* > omega0, sin(gamma) < 0: g* = r (omega - omega0)/sin(gamma) < 0
  const auto design = base.design_two_fold(r, omega);
  CHECK(design.g < 0.0);
  CHECK(design.g == Approx(r * (omega - base.omega0) / std::sin(base.gamma)).epsilon(1e-14));
  const double printed = -(2.0 * r * r + base.beta * base.beta * (1.0 - std::cos(2.0 * base.gamma))) /
                         (2.0 * r * std::cos(base.gamma));
  CHECK(design.kappa == Approx(-printed).epsilon(1e-15));
  const Vector xs = vec(design.r, design.v, design.omega);
  WheelTurntable w = base.with_two_fold_at(r, omega);
  double l0, ll;
  filippov::split_lie_derivatives(w, xs.data(), &l0, &ll);
  CHECK(std::abs(w.switching(xs.data())) <= 1e-15);
  CHECK(std::abs(l0) <= 1e-14);
  CHECK(std::abs(ll) <= 1e-14);
  // (10) as printed does not put the two-fold there.
  w.kappa = printed;
  filippov::split_lie_derivatives(w, xs.data(), &l0, &ll);
  CHECK(std::abs(ll) > 1e-3);
}

TEST_CASE("wheel: the tyre functions (6)-(7) and App. B", "[wheel]") {
  const WheelTurntable w = WheelTurntable::paper();
  // On h = 0: Fh = 1 and Mh = sign(g) kappa, so F = lambda and M = sign(g) kappa lambda.
  for (double omega : {-1.2, -1.037, -0.8}) {
    const Vector x = on_surface(w, 0.2, omega);
    double Fh, Mh;
    w.tyre_factors(x.data(), &Fh, &Mh);
    const double g = w.rolling(x.data());
    CHECK(Fh == Approx(1.0).epsilon(1e-14));
    CHECK(Mh == Approx((g > 0 ? 1.0 : -1.0) * w.kappa).epsilon(1e-14));
    // One-sided limits lim_{h -> 0+-} F = +-mu, M = +-sign(g) mu kappa: step
    // off the surface along h_x to h = +-1e-10 (the jumps of (6)-(7)).
    const Vector h_x = filippov::gradient(w, x);
    for (double side : {+1.0, -1.0}) {
      const Vector y = x + (side * 1e-10 / h_x.squaredNorm()) * h_x;
      REQUIRE(w.switching(y.data()) * side > 0.0);
      double Fy, My;
      w.tyre_factors(y.data(), &Fy, &My);
      const double lambda = side * w.mu;
      // |F - lambda| ~ |dFh/dpsi| |h / g|, below 1e-6 for |h| = 1e-10, |g| >= 0.01.
      CHECK(lambda * Fy == Approx(side * w.mu).margin(1e-6));
      CHECK(lambda * My == Approx(side * (g > 0 ? 1.0 : -1.0) * w.mu * w.kappa).margin(1e-6));
    }
  }
  // Off the surface, Fh and Mh are App. B's partial-slip branch at the slip
  // angle psi: compare with the integrals of the pressure distribution.
  const double a = 0.5 * M_PI - std::atan(6.0 * w.kappa), scale = std::abs(1.0 - 2.0 * a / M_PI);
  for (const Vector& x : {vec(0.2, 0.1, -0.9), vec(0.1, -0.3, -1.1), vec(0.3, 0.5, -0.2)}) {
    const double h = w.switching(x.data()), g = w.rolling(x.data());
    const double psi = a + scale * std::atan(std::abs(h / g));
    double Fh, Mh, F_int, M_int;
    w.tyre_factors(x.data(), &Fh, &Mh);
    appendix_b(w.kappa, psi, &F_int, &M_int);
    INFO("psi = " << psi);
    CHECK(Fh == Approx(F_int).epsilon(1e-12));
    CHECK(Mh == Approx((g > 0 ? 1.0 : -1.0) * M_int).epsilon(1e-12));
  }
  // At g = 0 (h != 0) psi = pi/2: complete slip, F = 4/3 mu and M = 0
  // (M is continuous where g changes sign).
  const double omega = -0.8, r = 0.2, wv = omega - w.omega0;
  const Vector xg = vec(r, w.d * wv + r * wv * std::tan(w.gamma), omega);
  REQUIRE(std::abs(w.rolling(xg.data())) <= 1e-15);
  double Fh, Mh;
  w.tyre_factors(xg.data(), &Fh, &Mh);
  CHECK(Fh == Approx(4.0 / 3.0).epsilon(1e-12));
  CHECK(std::abs(Mh) <= 1e-12);
}

TEST_CASE("wheel: gamma = 0 (Sec. VI.1), a two-fold where F+ = F-", "[wheel]") {
  // With Sec. V's constants and kappa, k2: v* > 0, so g* = -v* < 0 and the
  // two-fold is at r* = +kappa; with k2 = 0.5, v* < 0 and it is the text's
  // r* = -kappa with the text's v*.
  for (double k2 : {WheelTurntable::paper().k2, 0.5}) {
    WheelTurntable w = WheelTurntable::paper();
    w.gamma = 0.0;
    w.k2 = k2;
    const auto points = w.gamma_zero_two_folds();
    REQUIRE(points.size() == 1);
    const Eigen::Vector3d& p = points[0];
    const double s = p[1] < 0 ? 1.0 : -1.0;  // sign(g*) = sign(-v*)
    CHECK(p[0] == Approx(-s * w.kappa).epsilon(1e-15));
    CHECK(p[2] == w.omega0);
    if (s > 0) {
      const double text =
          (w.d * (w.k2 / w.m * (w.kappa + w.r0) - w.kappa * w.omega0 * w.omega0) - w.c1 / w.m * w.omega0) /
          (w.d * w.c2 / w.m - 2.0 * w.kappa * w.omega0);
      CHECK(p[1] == Approx(text).epsilon(1e-14));
    }
    const Vector x = p;
    double l0, ll;
    Vector f0(3), fl(3);
    filippov::split_lie_derivatives(w, x.data(), &l0, &ll, f0.data(), fl.data());
    CHECK(std::abs(w.switching(x.data())) <= 1e-15);
    CHECK(std::abs(l0) <= 1e-14);
    CHECK(std::abs(ll) <= 1e-15);
    CHECK(fl.lpNorm<Eigen::Infinity>() <= 1e-15);  // the sign(h) terms drop out: F+ = F-
  }
  WheelTurntable w = WheelTurntable::paper();
  CHECK_THROWS_WITH(w.gamma_zero_two_folds(), Catch::Contains("is not 0"));
  w.gamma = 0.0;
  CHECK_THROWS_WITH(w.design_two_fold(0.2, -1.1), Catch::Contains("gamma_zero_two_folds"));
}

TEST_CASE("wheel: gamma = pi/2 (Sec. VI.2), no two-folds and no escaping", "[wheel]") {
  for (auto tyre : {TyreModel::kStretchedString, TyreModel::kSticking}) {
    WheelTurntable w = WheelTurntable::paper();
    w.gamma = 0.5 * M_PI;
    w.tyre = tyre;
    CHECK_THROWS_WITH(w.design_two_fold(0.2, -1.1), Catch::Contains("no two-folds"));
    int sliding = 0, crossing = 0;
    for (int i = 0; i < 15; ++i) {
      for (int k = 0; k < 15; ++k) {
        const double r = -0.5 + i / 14.0, omega = -2.0 + 2.0 * k / 14.0;
        const Vector x = vec(r, w.d * (omega - w.omega0), omega);  // h = d (omega - omega0) - v = 0
        const auto p = filippov::classify(w, x);
        // h_x . f_lambda = -(beta^2 + r^2): never zero, H+ < H- everywhere.
        CHECK(p.lie_lambda == Approx(-(w.beta * w.beta + r * r)).epsilon(1e-13));
        CHECK(p.region != filippov::Region::kEscaping);
        CHECK(p.region != filippov::Region::kTwoFold);
        if (p.region == filippov::Region::kSliding) ++sliding;
        if (p.region == filippov::Region::kCrossing) ++crossing;
      }
    }
    CHECK(sliding > 0);
    CHECK(crossing > 0);
  }
}

TEST_CASE("wheel: bad parameters name the field", "[wheel]") {
  WheelTurntable w = WheelTurntable::paper();
  w.m = 0.0;
  CHECK_THROWS_WITH(w.check(), Catch::Contains("m = 0"));
  w = WheelTurntable::paper();
  w.kappa = -0.1;
  CHECK_THROWS_WITH(w.check(), Catch::Contains("kappa = -0.1"));
  w.tyre = TyreModel::kSticking;
  CHECK_NOTHROW(w.check());
  w = WheelTurntable::paper();
  CHECK_THROWS_WITH(w.design_two_fold(w.r0, -1.1), Catch::Contains("r* = r0"));
  CHECK_THROWS_WITH(w.design_two_fold(0.2, w.omega0), Catch::Contains("g* = 0"));
  CHECK_THROWS_WITH(w.design_two_fold(0.0, -1.1), Catch::Contains("r* = 0"));
}
