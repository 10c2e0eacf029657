// The Poincare map's forms of autonomous orbits (continuation/periodic/
// period_map_forms.h: P = G o Phi, the return time's variation in G)
// against differences of the Poincare map computed here by simulation and
// return-time root finding, and the fold, cusp and flip coefficients
// (testfunctions/cycle_normal_form.h) against closed forms; the CPC located
// on an LPC curve of autonomous orbits where the closed form puts it.
//
// RadialCusp, the state (x, y, z), rho = x^2 + y^2, e = rho - 1:
//
//   r' = r g,  g = a + b e + e^3 + gamma z,   theta' = w = 1 + kappa e,
//   z' = -z + delta e     (kappa = delta = 1/2; in (x, y): g (x, y) + w (-y, x)).
//
// Its cycles are circles r^2 = 1 + e*, z* = delta e*, with a + (b + gamma
// delta) e* + e*^3 = 0 and period T0 = 2 pi / (1 + kappa e*). With gamma =
// 0, r is a scalar ODE r' = h(r) = r g(r^2) and the section through (r*, 0,
// z*) normal to the field is theta = 0. Its Poincare map in r is r(T(r0))
// with the return time T(r0) = T0 + O(r0 - r*) (theta' depends on r: a
// radial shift comes back shifted along the orbit, so M has a Jordan block
// and M q has a component along f, the tau terms of G at work). Where h(r*)
// = h'(r*) = 0 (a fold), r(t) = r0 + t h(r0) + t^2 h h' / 2 + ..., so with y
// = r0 - r*:
//
//   y -> y + T0 h''/2 y^2 + (T0 h'''/6 + T'(0) h''/2 + T0^2 h''^2 / 4) y^3 + ...
//
// and at a cusp (h'' = 0 too) y -> y + T0 h'''/6 y^3. g(e*) = g'(e*) = 0 is
// the LPC curve e* = s, b = -3 s^2, a = 2 s^3; there h'' = 4 r^3 g'' = 24 r*^3
// s. The z-block gives the center direction q = (1, 0, 2 delta r*) / sqrt(1
// + 4 delta^2 r*^2) = (q_r, 0, q_z) (the null vector of [[0, 0], [2 delta
// r*, -1]], (r, z)'s Jacobian), and in the coordinate eta along q the
// radial coordinate is q_r eta (+ O(eta^2), which changes the cubic
// coefficient only where b != 0). Hence
//
//   b = 12 T0 r*^3 s q_r   (q oriented with q_x > 0),
//   c = T0 h'''/6 q_r^2 = 8 T0 / (1 + 4 delta^2) = 8 pi   at the CPC s = 0 (a = b = 0, r* = 1, T0 = 2 pi)
//
// (h = r (r^2 - 1)^3 = 8 (r - 1)^3 + O((r - 1)^4) there, h''' = 48).
//
// KickedCusp: RadialCusp (gamma = 0.7) with a kick where x falls through 0,
// identity on the cycle r = 1, z = 0 (a = 0): a hybrid autonomous orbit,
// its forms against differences only.
//
// FlipCycle, the state (X, Y, a, b): r' = r (p2 - r^2 + mu (a^2 + b^2)),
// theta' = 1 + r^2, and (a, b) = R(theta / 2) (xi, eta) with xi' = (p1 - r^4
// - xi^2 - eta^2) xi, eta' = -eta (tests/continuation/periodic/
// autonomous_cycle_curve.test.cpp's PD model with a cubic term): the PD
// curve p1 = p2^2 at r*^2 = p2, T = 2 pi / (1 + p2). With mu = 0 the
// center manifold is (r*, eta = 0), on it xi' = -xi^3 over T and R(pi) = -I:
// P(xi) = -(xi - T xi^3 + ...), so c = T (Kuznetsov's c = a^2 + d of P(x) =
// -x + a x^2 + d x^3). mu != 0 couples r to xi^2 (the second-order terms
// and the return time then enter c): checked by differences. With the
// cubic term's coefficient k0 + k1 r^2 instead of 1 (mu = 0), c = T (k0 +
// k1 p2) on the PD curve: k0 = -0.8, k1 = 1 puts a GPD at p2 = 0.8, p1 =
// 0.64, T = 2 pi / 1.8.
//
// Tolerances: orbits integrated to 1e-12; differences of the Poincare map
// simulated to 1e-13 (Newton on the return time to 1e-14) with eps = 0.01,
// 0.005 and 0.0025, Richardson-extrapolated twice (truncation ~eps^6:
// measured 3e-3 relative for B at eps = 0.01 alone, 6e-6 after one level,
// 1e-9 after two; rounding ~1e-13 / eps^3 ~ 1e-5 absolute for C): 1e-5
// relative. Closed forms: 1e-8.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "continuation/flow/hybrid_system.h"
#include "continuation/periodic/cycle_curve.h"
#include "continuation/periodic/period_map_forms.h"
#include "continuation/pseudo_arclength.h"
#include "models/lorenz.h"
#include "testfunctions/cycle_codim2.h"
#include "testfunctions/cycle_normal_form.h"

using namespace saltus;
using namespace saltus::periodic;

namespace {

constexpr double kKappa = 0.5, kDelta = 0.5;

template <class P = double>
struct RadialCusp {
  P a = P(0.0), b = P(0.0);
  double gamma = 0.0;
  template <class Self, class Visit>
  static void parameters(Self& s, Visit&& visit) {
    visit("a", s.a, "");
    visit("b", s.b, "");
  }
  template <class Q>
  RadialCusp<Q> cast() const {
    auto out = flow::cast_parameters<RadialCusp<Q>>(*this);
    out.gamma = gamma;
    return out;
  }
  static constexpr bool tangent_liftable = true;
  int dimension() const { return 3; }
  template <class T>
  void field(int, const T&, const T* x, T* f) const {
    const T e = x[0] * x[0] + x[1] * x[1] - 1.0;
    const T g = a + b * e + e * e * e + gamma * x[2], w = 1.0 + kKappa * e;
    f[0] = g * x[0] - w * x[1];
    f[1] = g * x[1] + w * x[0];
    f[2] = -x[2] + kDelta * e;
  }
};

// RadialCusp (gamma = 0.7) with a kick where x falls through 0 (theta =
// pi / 2): y+ = y (1 + 0.6 z + 0.3 e), z+ = z + 0.4 e + 0.5 z^2, the
// identity on the cycle r = 1, z = 0 (a = 0), so that the cycle stays and
// its Poincare map's forms carry the kick's saltation and its second and
// third derivatives (the event's time moving with the state).
template <class P = double>
struct KickedCusp {
  P a = P(0.0), b = P(-0.5);
  template <class Self, class Visit>
  static void parameters(Self& s, Visit&& visit) {
    visit("a", s.a, "");
    visit("b", s.b, "");
  }
  template <class Q>
  KickedCusp<Q> cast() const {
    return flow::cast_parameters<KickedCusp<Q>>(*this);
  }
  static constexpr bool tangent_liftable = true;
  int dimension() const { return 3; }
  template <class T>
  void field(int, const T&, const T* x, T* f) const {
    const T e = x[0] * x[0] + x[1] * x[1] - 1.0;
    const T g = a + b * e + e * e * e + 0.7 * x[2], w = 1.0 + kKappa * e;
    f[0] = g * x[0] - w * x[1];
    f[1] = g * x[1] + w * x[0];
    f[2] = -x[2] + kDelta * e;
  }
  // Mode 0 (x > 0 half) ends where x falls through 0, mode 1 where it rises
  // again (theta = 3 pi / 2, no kick): the same field in both.
  int guard_count(int) const { return 1; }
  flow::Crossing crossing(int mode, int) const {
    return mode == 0 ? flow::Crossing::kFalling : flow::Crossing::kRising;
  }
  template <class T>
  T guard(int, int, const T&, const T* x) const {
    return x[0];
  }
  int next_mode(int mode, int, double, const double*) const { return 1 - mode; }
  template <class T>
  void reset(int mode, int, int, const T&, const T* x, T* x_plus) const {
    const T e = x[0] * x[0] + x[1] * x[1] - 1.0;
    x_plus[0] = x[0];
    x_plus[1] = mode == 0 ? T(x[1] * (1.0 + 0.6 * x[2] + 0.3 * e)) : x[1];
    x_plus[2] = mode == 0 ? T(x[2] + 0.4 * e + 0.5 * x[2] * x[2]) : x[2];
  }
};

template <class P = double>
struct FlipCycle {
  P p1 = P(0.0), p2 = P(1.0);
  double mu = 0.0;
  double k0 = 1.0, k1 = 0.0;  // the cubic term's coefficient k0 + k1 r^2
  template <class Self, class Visit>
  static void parameters(Self& s, Visit&& visit) {
    visit("p1", s.p1, "");
    visit("p2", s.p2, "");
  }
  template <class Q>
  FlipCycle<Q> cast() const {
    auto out = flow::cast_parameters<FlipCycle<Q>>(*this);
    out.mu = mu;
    out.k0 = k0;
    out.k1 = k1;
    return out;
  }
  static constexpr bool tangent_liftable = true;
  int dimension() const { return 4; }
  template <class T>
  void field(int, const T&, const T* x, T* f) const {
    using std::sqrt;
    const T s = x[0] * x[0] + x[1] * x[1], w = 1.0 + s, ab = x[2] * x[2] + x[3] * x[3];
    const T g = p2 - s + mu * ab;
    f[0] = g * x[0] - w * x[1];
    f[1] = g * x[1] + w * x[0];
    // (a, b)' = (w / 2) J (a, b) + R(theta / 2) diag(l1, -1) R(-theta / 2) (a, b).
    const T r = sqrt(s), c = x[0] / r, sn = x[1] / r;
    const T l1 = p1 - s * s - (k0 + k1 * s) * ab, l2 = T(-1.0), mean = 0.5 * (l1 + l2),
            half = 0.5 * (l1 - l2);
    f[2] = (mean + half * c) * x[2] + (half * sn - 0.5 * w) * x[3];
    f[3] = (half * sn + 0.5 * w) * x[2] + (mean - half * c) * x[3];
  }
};

ShootingOptions autonomous_options() {
  ShootingOptions options;
  options.autonomous = true;
  options.simulation.absolute_tolerance = options.simulation.relative_tolerance = 1e-12;
  return options;
}

std::shared_ptr<const flow::HybridSystem> radial(double gamma, std::vector<std::string> free = {"a", "b"}) {
  RadialCusp<> m;
  m.gamma = gamma;
  return flow::make_hybrid(m)->with_parameters_in_state(free);
}

std::shared_ptr<const flow::HybridSystem> flip(double mu, double k0 = 1.0, double k1 = 0.0) {
  FlipCycle<> m;
  m.mu = mu;
  m.k0 = k0;
  m.k1 = k1;
  return flow::make_hybrid(m)->with_parameters_in_state({"p1", "p2"});
}

// RadialCusp's cycle at e*: (x, y, z, T, a, b).
Vector radial_cycle(double e, double b, double gamma) {
  Vector u(6);
  u << std::sqrt(1 + e), 0.0, kDelta * e, 2 * M_PI / (1 + kKappa * e), -(b + gamma * kDelta) * e - e * e * e,
      b;
  return u;
}

// FlipCycle's cycle on the PD curve: (X, Y, a, b, T, p1, p2).
Vector flip_cycle(double p2) {
  Vector u(7);
  u << std::sqrt(p2), 0.0, 0.0, 0.0, 2 * M_PI / (1 + p2), p2 * p2, p2;
  return u;
}

ShootingSystem shooting(std::shared_ptr<const flow::HybridSystem> hybrid, const Vector& u) {
  const int n = static_cast<int>(u.size()) - 3;
  Vector reference(n + 2);
  reference << u.head(n), u.tail(2);
  return ShootingSystem(std::move(hybrid), 2, autonomous_options(), reference);
}

// The Poincare map P(x) on the plane normal . (z - x0) = 0 (x0 the cycle's
// point, normal = f(x0): period_map_forms' section), independently of it:
// the flow from x to tau, Newton on the return time tau near T0, s(tau) =
// normal . (x(tau) - x0) with s' = normal . f(x(tau)), each iterate a fresh
// simulation; the last step's first-order correction x(tau) - step f is
// exact to step^2 < 1e-28.
struct SimulatedPoincareMap {
  const ShootingSystem& shooting;
  Vector u;  // the cycle
  int n = 0;
  Vector x0, normal;
  SimulatedPoincareMap(const ShootingSystem& s, const Vector& cycle) : shooting(s), u(cycle) {
    n = s.state_size() - 1;
    x0 = u.head(n);
    Vector f;
    s.hybrid()->field(0, 0.0, s.hybrid_state(u), &f);
    normal = f.head(n);
  }
  Vector operator()(const Vector& x) const {
    const flow::HybridSystem& hybrid = *shooting.hybrid();
    Vector z = shooting.hybrid_state(u);
    z.head(n) = x;
    flow::SimulationOptions options;
    options.absolute_tolerance = options.relative_tolerance = 1e-13;
    options.variational = false;
    options.record_steps = false;
    double tau = shooting.period(u);
    for (int it = 0; it < 30; ++it) {
      const flow::Trajectory tr = flow::simulate(hybrid, 0, 0.0, z, tau, options);
      INFO(tr.message);
      REQUIRE(tr.ok());
      Vector f;
      hybrid.field(0, tau, tr.x_end, &f);
      const double step = normal.dot(tr.x_end.head(n) - x0) / normal.dot(f.head(n));
      if (std::abs(step) < 1e-14) return tr.x_end.head(n) - step * f.head(n);
      tau -= step;
    }
    FAIL("the return time did not converge");
    return {};
  }
};

// M, B(q, q), B(q, .) and C(q, q, .) by differences of P: f(s, t) = P(x0 +
// s q + t e_j), central differences of second and third order, each
// Richardson-extrapolated from eps and eps / 2.
PeriodMapForms differenced_forms(const SimulatedPoincareMap& P, const Vector& q, double eps = 0.01) {
  const int n = P.n;
  auto f = [&](double s, const Vector& w, double t) { return Vector(P(P.x0 + s * q + t * w)); };
  // Two levels: D(eps) = D + K2 eps^2 + K4 eps^4 + O(eps^6).
  auto richardson = [](const auto& D, double eps) -> Vector {
    const Vector d1 = D(eps), d2 = D(eps / 2), d4 = D(eps / 4);
    const Vector r1 = (4.0 * d2 - d1) / 3.0, r2 = (4.0 * d4 - d2) / 3.0;
    return (16.0 * r2 - r1) / 15.0;
  };
  const Vector zero = Vector::Zero(n), f00 = f(0, zero, 0);
  PeriodMapForms forms;
  forms.M.resize(n, n);
  forms.Bq.resize(n, n);
  forms.Cqq.resize(n, n);
  const double h = 1e-5;
  for (int j = 0; j < n; ++j) {
    const Vector e = Vector::Unit(n, j);
    forms.M.col(j) = (f(0, e, h) - f(0, e, -h)) / (2 * h);
    forms.Bq.col(j) = richardson(
        [&](double d) -> Vector {
          return (f(d, e, d) - f(d, e, -d) - f(-d, e, d) + f(-d, e, -d)) / (4 * d * d);
        },
        eps);
    forms.Cqq.col(j) = richardson(
        [&](double d) -> Vector {
          return (f(d, e, d) - 2 * f(0, e, d) + f(-d, e, d) - f(d, e, -d) + 2 * f(0, e, -d) - f(-d, e, -d)) /
                 (2 * d * d * d);
        },
        eps);
  }
  forms.Bqq = richardson(
      [&](double d) -> Vector { return (f(d, zero, 0) - 2 * f00 + f(-d, zero, 0)) / (d * d); }, eps);
  return forms;
}

void check_close(const char* what, const Matrix& exact, const Matrix& differenced, double tolerance = 1e-5) {
  INFO(what << ": exact\n" << exact << "\ndifferences\n" << differenced);
  CHECK((exact - differenced).norm() < tolerance * (1 + differenced.norm()));
}

}  // namespace

TEST_CASE("Poincare map forms of an autonomous orbit: M, B and C against differences of the simulated map",
          "[periodic][normal_form][autonomous][poincare]") {
  // A generic cycle (gamma couples z back into r), directions off the
  // section and mixing all states.
  const double gamma = 0.7;
  const Vector u = radial_cycle(0.2, -0.5, gamma);
  const ShootingSystem s = shooting(radial(gamma), u);
  Vector res(4);
  s.residual(u.data(), res.data());
  REQUIRE(res.norm() < 1e-10);
  const auto lifted = s.hybrid()->tangent_lifted()->tangent_lifted();
  const Vector q = Eigen::Vector3d(0.6, 0.3, -0.7).normalized();
  const PeriodMapForms exact = period_map_forms(s, *lifted, u, q);
  const SimulatedPoincareMap P(s, u);
  const PeriodMapForms fd = differenced_forms(P, q);
  check_close("M_P", exact.M, fd.M);
  check_close("B(q, q)", exact.Bqq, fd.Bqq);
  check_close("B(q, .)", exact.Bq, fd.Bq);
  check_close("C(q, q, .)", exact.Cqq, fd.Cqq);
  CHECK((poincare_jacobian(s, u, s.monodromy(u)) - fd.M).norm() < 1e-5);
  // The section's return-time terms matter: without them (the time-T0 map's
  // forms, projected) the second-order form is off by O(1).
  CHECK(fd.Bqq.norm() > 0.1);
  CHECK(fd.Cqq.norm() > 0.1);
}

TEST_CASE("Poincare map forms of an autonomous hybrid orbit (a kick per period) against differences",
          "[periodic][normal_form][autonomous][poincare]") {
  Vector u(6);
  u << 1.0, 0.0, 0.0, 2 * M_PI, 0.0, -0.5;
  const ShootingSystem s =
      shooting(flow::make_hybrid(KickedCusp<>{})->with_parameters_in_state({"a", "b"}), u);
  Vector res(4);
  s.residual(u.data(), res.data());
  REQUIRE(res.norm() < 1e-10);
  REQUIRE(s.trajectory(u)->events.size() == 2);
  const auto lifted = s.hybrid()->tangent_lifted()->tangent_lifted();
  const Vector q = Eigen::Vector3d(0.6, 0.3, -0.7).normalized();
  const PeriodMapForms exact = period_map_forms(s, *lifted, u, q);
  const PeriodMapForms fd = differenced_forms(SimulatedPoincareMap(s, u), q);
  check_close("M_P", exact.M, fd.M);
  check_close("B(q, q)", exact.Bqq, fd.Bqq);
  check_close("B(q, .)", exact.Bq, fd.Bq);
  check_close("C(q, q, .)", exact.Cqq, fd.Cqq);
  CHECK(fd.Bqq.norm() > 0.1);
  CHECK(fd.Cqq.norm() > 0.1);
}

TEST_CASE(
    "Poincare map of an autonomous orbit: the fold and cusp coefficients against closed forms and "
    "differences",
    "[periodic][normal_form][autonomous][poincare]") {
  const auto hybrid = radial(0.0);
  for (const double e : {0.3, 0.1, 0.0, -0.2}) {
    const Vector u = radial_cycle(e, -3 * e * e, 0.0);
    const ShootingSystem s = shooting(hybrid, u);
    const auto lifted = s.hybrid()->tangent_lifted()->tangent_lifted();
    Vector q, p;
    critical_vectors(poincare_jacobian(s, u, s.monodromy(u)), 1.0, Eigen::Vector3d(1.0, 0.0, 0.0), &q, &p);
    const FoldNormalForm nf = fold_normal_form(period_map_forms(s, *lifted, u, q), q, p);
    const double r = std::sqrt(1 + e), T0 = 2 * M_PI / (1 + kKappa * e);
    const double qr = 1 / std::sqrt(1 + 4 * kDelta * kDelta * r * r);
    const double b = 12 * T0 * r * r * r * e * qr;
    INFO("e* = " << e << ": b = " << nf.b << ", closed form " << b << "; c = " << nf.c);
    CHECK(std::abs(nf.b - b) < 1e-8);
    if (e == 0.0) CHECK(std::abs(nf.c - 8 * M_PI) < 1e-8);
    if (e == 0.3 || e == 0.0) {
      // The same coefficients from the differenced map (q and p its own).
      const SimulatedPoincareMap P(s, u);
      const PeriodMapForms fd0 = differenced_forms(P, q);
      Vector qd, pd;
      critical_vectors(fd0.M, 1.0, Eigen::Vector3d(1.0, 0.0, 0.0), &qd, &pd);
      const FoldNormalForm fd = fold_normal_form(differenced_forms(P, qd), qd, pd);
      INFO("differences: b = " << fd.b << ", c = " << fd.c);
      CHECK(std::abs(fd.b - nf.b) < 1e-5 * (1 + std::abs(nf.b)));
      if (e == 0.0) CHECK(std::abs(fd.c - nf.c) < 1e-5 * (1 + std::abs(nf.c)));
    }
  }
}

TEST_CASE("Poincare map of an autonomous orbit: the flip coefficient against its closed form and differences",
          "[periodic][normal_form][autonomous][poincare]") {
  for (const double mu : {0.0, 0.5}) {
    const auto hybrid = flip(mu);
    for (const double p2 : {1.0, 0.5}) {
      const Vector u = flip_cycle(p2);
      const ShootingSystem s = shooting(hybrid, u);
      const auto lifted = s.hybrid()->tangent_lifted()->tangent_lifted();
      Vector q, p;
      critical_vectors(poincare_jacobian(s, u, s.monodromy(u)), -1.0, Vector(), &q, &p);
      const double c = flip_normal_form(period_map_forms(s, *lifted, u, q), q, p);
      const SimulatedPoincareMap P(s, u);
      const PeriodMapForms fd0 = differenced_forms(P, q);
      Vector qd, pd;
      critical_vectors(fd0.M, -1.0, Vector(), &qd, &pd);
      const double cd = flip_normal_form(differenced_forms(P, qd), qd, pd);
      INFO("mu = " << mu << ", p2 = " << p2 << ": c = " << c << ", differences " << cd);
      CHECK(std::abs(cd - c) < 1e-5 * (1 + std::abs(c)));
      if (mu == 0.0) CHECK(std::abs(c - 2 * M_PI / (1 + p2)) < 1e-8);
      if (mu != 0.0) CHECK(std::abs(c - 2 * M_PI / (1 + p2)) > 0.1);  // the coupling matters
    }
  }
}

TEST_CASE("the CPC on the LPC curve of autonomous cycles: located at its closed form a = b = 0",
          "[periodic][normal_form][autonomous][poincare][cycle_curve]") {
  // From e* = 0.3 on the LPC curve (a, b) = (2 s^3, -3 s^2) through the
  // cusp s = 0 to s < 0; the CPC test's values are b's closed form (one
  // sign along the curve, q's orientation carried by the border).
  const Vector u0 = radial_cycle(0.3, -0.27, 0.0);
  const auto system =
      std::make_shared<CycleCurveSystem>(shooting(radial(0.0), u0), CycleBifurcation::kFold, u0);
  const ContinuationProblem problem(system, Vector::Constant(1, u0[5]), {"b"});
  ContinuationOptions options;
  options.ds = 0.02;
  options.ds_max = 0.05;
  options.max_points = 40;
  const Branch curve = continue_branch(problem, u0, options, cycle_curve_tests("LPC"));
  INFO(curve.message);
  REQUIRE(curve.points.size() >= 10);
  int cpc_index = -1;
  for (std::size_t k = 0; k < curve.test_names.size(); ++k)
    if (curve.test_names[k] == "CPC") cpc_index = static_cast<int>(k);
  REQUIRE(cpc_index >= 0);
  const double sign = curve.points.front().tests[cpc_index] > 0 ? 1.0 : -1.0;
  double worst = 0.0, lo = 1e300;
  for (const auto& p : curve.points) {
    const double r2 = p.y[0] * p.y[0] + p.y[1] * p.y[1], e = r2 - 1, r = std::sqrt(r2);
    const double qr = 1 / std::sqrt(1 + 4 * kDelta * kDelta * r2);
    const double T0 = 2 * M_PI / (1 + kKappa * e);
    REQUIRE(std::isfinite(p.tests[cpc_index]));  // NaN before the Poincare map's forms were built
    worst =
        std::max({worst, std::abs(p.y[4] - 2 * e * e * e), std::abs(p.y[5] + 3 * e * e),
                  std::abs(p.y[3] - T0), std::abs(p.tests[cpc_index] - sign * 12 * T0 * r * r * r * e * qr)});
    lo = std::min(lo, e);
  }
  INFO("LPC curve down to e* = " << lo << ": worst " << worst);
  CHECK(worst < 1e-8);
  CHECK(lo < -0.1);
  int found = 0;
  for (const auto& sp : curve.special_points) {
    INFO(sp.type << " " << sp.y.transpose() << " " << sp.data.dump());
    CHECK((sp.type == "CPC" || sp.type == "EP"));
    if (sp.type != "CPC") continue;
    ++found;
    WARN("CPC at a = " << sp.y[4] << ", b = " << sp.y[5] << ", x = " << sp.y[0] << ", fold coefficient "
                       << sp.data["fold_coefficient"] << ", cusp coefficient " << sp.data["cusp_coefficient"]
                       << " (8 pi = " << 8 * M_PI << "); curve worst " << worst);
    CHECK(sp.status == EventStatus::kLocated);
    CHECK(std::abs(sp.y[4]) < 1e-10);  // a
    CHECK(std::abs(sp.y[5]) < 1e-8);   // b
    CHECK(std::abs(sp.y[0] - 1.0) < 1e-8);
    CHECK(std::abs(sp.data["fold_coefficient"].get<double>()) < 1e-8);
    CHECK(std::abs(std::abs(sp.data["cusp_coefficient"].get<double>()) - 8 * M_PI) < 1e-6);
  }
  CHECK(found == 1);
}

TEST_CASE(
    "the flip coefficient on the Lorenz PD curve (examples/user/lorenz_pd_curve.json) against differences of "
    "the simulated Poincare map: c > 0 at both ends, no GPD in between",
    "[periodic][normal_form][autonomous][poincare][lorenz]") {
  // The curve's ends (sigma = 10, rho = 229.4067086, where it starts, and
  // sigma = 9, rho = 192.5448654, its bound) as the example writes them;
  // along it the GPD test (c) stays between 0.0100 and 0.0137 (no sign
  // change: the doubling is supercritical all along, as the cascade below
  // it says). The Lorenz map is far less curved on the orbit's scale (~100)
  // than the models above: eps = 0.5 (measured: 2e-9 apart; 1e-4 at eps =
  // 0.05, where rounding takes over, and O(1) at eps = 1, where Newton on
  // the return time meets another return).
  const auto hybrid =
      flow::make_hybrid(models::LorenzT<double>{})->with_parameters_in_state({"rho", "sigma"});
  Vector start(6), end(6);
  start << 44.979921584684107, 82.326744124245636, 271.37997358696299, 0.48086682031096123,
      229.40670856158141, 10.0;
  end << 43.079473501160322, 59.186204174810896, 249.38805149666018, 0.53675317669234501, 192.54486539342787,
      9.0;
  for (const Vector& u : {start, end}) {
    const ShootingSystem s = shooting(hybrid, u);
    const auto lifted = s.hybrid()->tangent_lifted()->tangent_lifted();
    Vector q, p;
    critical_vectors(poincare_jacobian(s, u, s.monodromy(u)), -1.0, Vector(), &q, &p);
    const double c = flip_normal_form(period_map_forms(s, *lifted, u, q), q, p);
    const SimulatedPoincareMap P(s, u);
    const PeriodMapForms fd0 = differenced_forms(P, q, 0.5);
    Vector qd, pd;
    critical_vectors(fd0.M, -1.0, Vector(), &qd, &pd);
    const double cd = flip_normal_form(differenced_forms(P, qd, 0.5), qd, pd);
    WARN("Lorenz PD curve at rho = " << u[4] << ", sigma = " << u[5] << ": c = " << c << ", differences "
                                     << cd);
    CHECK(std::abs(cd - c) < 1e-5 * std::abs(c));
    CHECK(c > 0.01);
  }
}

TEST_CASE("the GPD on the PD curve of autonomous cycles: located at its closed form p2 = 0.8, p1 = 0.64",
          "[periodic][normal_form][autonomous][poincare][cycle_curve]") {
  const Vector u0 = flip_cycle(1.0);
  const auto system = std::make_shared<CycleCurveSystem>(shooting(flip(0.0, -0.8, 1.0), u0),
                                                         CycleBifurcation::kPeriodDoubling, u0);
  const ContinuationProblem problem(system, Vector::Constant(1, u0[6]), {"p2"});
  ContinuationOptions options;
  options.ds = 0.02;
  options.ds_max = 0.05;
  options.max_points = 25;
  options.direction = -1;
  const Branch curve = continue_branch(problem, u0, options, cycle_curve_tests("PD"));
  INFO(curve.message);
  REQUIRE(curve.points.size() >= 10);
  const auto k =
      std::find(curve.test_names.begin(), curve.test_names.end(), "GPD") - curve.test_names.begin();
  REQUIRE(k < static_cast<long>(curve.test_names.size()));
  double worst = 0.0, lo = 1e300;
  for (const auto& p : curve.points) {
    const double p2 = p.y[6], T = 2 * M_PI / (1 + p2);
    REQUIRE(std::isfinite(p.tests[k]));
    worst = std::max(
        {worst, std::abs(p.y[5] - p2 * p2), std::abs(p.y[4] - T), std::abs(p.tests[k] - T * (p2 - 0.8))});
    lo = std::min(lo, p2);
  }
  INFO("PD curve down to p2 = " << lo << ": worst " << worst);
  CHECK(worst < 1e-8);
  CHECK(lo < 0.7);
  int found = 0;
  for (const auto& sp : curve.special_points) {
    INFO(sp.type << " " << sp.y.transpose() << " " << sp.data.dump());
    CHECK((sp.type == "GPD" || sp.type == "EP"));
    if (sp.type != "GPD") continue;
    ++found;
    WARN("GPD at p1 - 0.64 = " << sp.y[5] - 0.64 << ", p2 - 0.8 = " << sp.y[6] - 0.8 << ", T = " << sp.y[4]
                               << ", flip coefficient " << sp.data["flip_coefficient"]);
    CHECK(sp.status == EventStatus::kLocated);
    CHECK(std::abs(sp.y[6] - 0.8) < 1e-10);
    CHECK(std::abs(sp.y[5] - 0.64) < 1e-10);
    CHECK(std::abs(sp.y[4] - 2 * M_PI / 1.8) < 1e-10);
    CHECK(std::abs(sp.data["flip_coefficient"].get<double>()) < 1e-9);
  }
  CHECK(found == 1);
}
