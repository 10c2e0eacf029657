// The period map's second and third derivatives from the twice-lifted
// system (continuation/periodic/period_map_forms.h) against differences of
// the exact monodromy matrix, for a smooth forced model and the impacting
// bouncing ball; and the fold and flip normal-form coefficients
// (testfunctions/cycle_normal_form.h) against their closed forms.
//
// The models are the run files examples/cusp_of_cycles_curves.json and
// examples/generalized_flip_curves.json in C++ (their closed forms are
// derived in tests/drivers/cycle_normal_forms.test.cpp):
//   FullTurnFold: (u, v) = eps (cos t, sin t) + R(t) (eta, zeta), eta' = a +
//     b eta + beta eta^2 + gamma eta^3, zeta' = -zeta + delta eta^2; at an
//     LPC eta* (b = -2 beta eta* - 3 gamma eta*^2, a = beta eta*^2 + 2 gamma
//     eta*^3) the fold coefficient is +-T (beta + 3 gamma eta*) / sqrt(1 +
//     4 delta^2 eta*^2), and at the CPC eta* = -beta / (3 gamma) the cusp
//     coefficient is T gamma / (1 + 4 delta^2 eta*^2).
//   HalfTurnFlip: R(t/2) instead, eta' = (a - b^2) eta + beta eta^2 + b
//     eta^3 + sigma eta zeta; on the PD curve a = b^2 the flip coefficient is
//     c = -b T - sigma delta (T - 2 tanh(T/2)).
// T = 2 pi. The orbits are integrated to 1e-12, the differences taken with
// h = 1e-5 (truncation ~h^2, rounding ~1e-12 / h), hence 1e-6 relative for
// the differences and 1e-8 for the closed forms.

#include "continuation/periodic/period_map_forms.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "bouncing_ball_closed_form.h"
#include "continuation/branch.h"
#include "continuation/flow/hybrid_system.h"
#include "continuation/periodic/cycle_curve.h"
#include "models/bouncing_ball.h"
#include "testfunctions/cycle_normal_form.h"

using namespace saltus;
using namespace saltus::periodic;

namespace {

constexpr double kT = 2 * M_PI;

// turns = 1: R(t), the fold model; turns = 0.5: R(t/2), the flip model.
template <class P = double>
struct TurningFrame {
  P a = P(0.0), b = P(0.0), beta = P(0.3), gamma = P(1.0), sigma = P(0.0), delta = P(0.5), eps = P(0.5);
  double turns = 1.0;
  template <class Self, class Visit>
  static void parameters(Self& s, Visit&& visit) {
    visit("a", s.a, "");
    visit("b", s.b, "");
    visit("beta", s.beta, "");
    visit("gamma", s.gamma, "");
    visit("sigma", s.sigma, "");
    visit("delta", s.delta, "");
    visit("eps", s.eps, "");
  }
  template <class Q>
  TurningFrame<Q> cast() const {
    auto out = flow::cast_parameters<TurningFrame<Q>>(*this);
    out.turns = turns;
    return out;
  }
  static constexpr bool tangent_liftable = true;
  int dimension() const { return 2; }
  template <class T>
  void field(int, const T& t, const T* x, T* f) const {
    using std::cos;
    using std::sin;
    const T c = cos(t), s = sin(t), cf = cos(turns * t), sf = sin(turns * t);
    const T du = x[0] - eps * c, dv = x[1] - eps * s;
    const T e1 = cf * du + sf * dv, e2 = -sf * du + cf * dv;
    // The flip model: alpha = a - b^2 and gamma = b; the fold model: a + b eta.
    const bool flip = turns != 1.0;
    const T k1 = flip ? T((a - b * b) * e1 + beta * e1 * e1 + b * e1 * e1 * e1 + sigma * e1 * e2)
                      : T(a + b * e1 + beta * e1 * e1 + gamma * e1 * e1 * e1);
    const T k2 = -e2 + delta * e1 * e1;
    f[0] = -eps * s - turns * dv + cf * k1 - sf * k2;
    f[1] = eps * c + turns * du + sf * k1 + cf * k2;
  }
};

std::shared_ptr<const flow::HybridSystem> frame(double turns, double beta, double sigma) {
  TurningFrame<> m;
  m.turns = turns;
  m.beta = beta;
  m.sigma = sigma;
  return flow::make_hybrid(m)->with_parameters_in_state({"a", "b"});
}

ShootingSystem shooting_of(std::shared_ptr<const flow::HybridSystem> system) {
  ShootingOptions options;
  options.period = kT;
  options.simulation.absolute_tolerance = options.simulation.relative_tolerance = 1e-12;
  return ShootingSystem(std::move(system), 2, options);
}

std::shared_ptr<const flow::HybridSystem> twice(const ShootingSystem& s) {
  return s.hybrid()->tangent_lifted()->tangent_lifted();
}

// B(q, v), B(q, q) and C(q, q, v) against central differences in x along v
// of the exact monodromy (M q) and of the lifted B(q, q).
void check_against_differences(const ShootingSystem& shooting, const Vector& u, const Vector& q,
                               const Vector& v) {
  const auto lifted = twice(shooting);
  const PeriodMapForms forms = period_map_forms(shooting, *lifted, u, q);
  const int n = shooting.state_size();
  const double h = 1e-5;
  auto shifted = [&](const Vector& d, double s) {
    Vector w = u;
    w.head(n) += s * h * d;
    return w;
  };
  const Vector Bqv = (shooting.monodromy(shifted(v, 1)) - shooting.monodromy(shifted(v, -1))) * q / (2 * h);
  const Vector Bqq = (shooting.monodromy(shifted(q, 1)) - shooting.monodromy(shifted(q, -1))) * q / (2 * h);
  const Vector Cqqv = (period_map_forms(shooting, *lifted, shifted(v, 1), q).Bqq -
                       period_map_forms(shooting, *lifted, shifted(v, -1), q).Bqq) /
                      (2 * h);
  INFO("B(q, v) " << (forms.Bq * v).transpose() << " differences " << Bqv.transpose());
  CHECK((forms.Bq * v - Bqv).norm() < 1e-6 * (1 + Bqv.norm()));
  INFO("B(q, q) " << forms.Bqq.transpose() << " differences " << Bqq.transpose());
  CHECK((forms.Bqq - Bqq).norm() < 1e-6 * (1 + Bqq.norm()));
  INFO("C(q, q, v) " << (forms.Cqq * v).transpose() << " differences " << Cqqv.transpose());
  CHECK((forms.Cqq * v - Cqqv).norm() < 1e-6 * (1 + Cqqv.norm()));
  CHECK((forms.M - shooting.monodromy(u)).norm() < 1e-9 * (1 + forms.M.norm()));
  // Not trivially small.
  CHECK(Bqv.norm() > 0.1);
  CHECK(Cqqv.norm() > 0.1);
}

}  // namespace

TEST_CASE("period map forms: B and C of a smooth forced orbit against differences of the monodromy",
          "[periodic][normal_form]") {
  // Off the orbit and off the critical point, in directions mixing both states.
  const ShootingSystem shooting = shooting_of(frame(0.5, 0.7, 1.0));
  Vector u(4);
  u << 0.62, -0.15, 0.02, 0.3;
  check_against_differences(shooting, u, Eigen::Vector2d(0.8, 0.6), Eigen::Vector2d(-0.3, 1.0));
}

TEST_CASE("period map forms: B and C through the impacts of the bouncing ball against differences",
          "[periodic][normal_form]") {
  // The ball's period-1 orbit 3% above its period doubling (tests/continuation/
  // periodic/cycle_curve.test.cpp), cut at t0 = 0.55 (the forcing period is
  // 1 at omega = 2 pi): one impact per period, whose saltation depends on
  // the state.
  const testing::BallClosedForm an;
  models::BouncingBall ball;
  ball.e = an.e;
  ShootingOptions options;
  options.t0 = 0.55;
  options.period = 2 * M_PI / an.omega;
  options.simulation.absolute_tolerance = options.simulation.relative_tolerance = 1e-12;
  const ShootingSystem shooting(flow::make_hybrid(ball)->with_parameters_in_state({"A", "omega"}), 2,
                                options);
  const double A = 1.03 * an.A_pd();
  Vector u(4);
  u << an.state(A, 0.55), A, an.omega;
  check_against_differences(shooting, u, Eigen::Vector2d(0.6, -0.8), Eigen::Vector2d(1.0, 0.4));
}

TEST_CASE("cycle normal forms: the fold and cusp coefficients of the turning-frame fold against closed forms",
          "[periodic][normal_form]") {
  const double beta = 0.3, gamma = 1.0, delta = 0.5, eps = 0.5;
  const ShootingSystem shooting = shooting_of(frame(1.0, beta, 0.0));
  const auto lifted = twice(shooting);
  // q oriented along e_u: q = (1, 2 delta eta*) / sqrt(1 + 4 delta^2 eta*^2).
  for (const double eta : {0.17689, 0.05, -0.1, -0.25, -0.37689}) {
    Vector u(4);
    u << eps + eta, delta * eta * eta, beta * eta * eta + 2 * gamma * eta * eta * eta,
        -2 * beta * eta - 3 * gamma * eta * eta;
    Vector q, p;
    critical_vectors(shooting.monodromy(u), 1.0, Eigen::Vector2d(1.0, 0.0), &q, &p);
    const FoldNormalForm nf = fold_normal_form(period_map_forms(shooting, *lifted, u, q), q, p);
    const double q1 = 1 / std::sqrt(1 + 4 * delta * delta * eta * eta);
    const double b = kT * (beta + 3 * gamma * eta) * q1;
    INFO("eta* = " << eta << ": b = " << nf.b << ", closed form " << b);
    CHECK(std::abs(nf.b - b) < 1e-8);
    if (eta == -0.1) CHECK(std::abs(nf.c - kT * gamma * q1 * q1) < 1e-8);
  }
}

TEST_CASE("cycle normal forms: the flip coefficient of the half-turning frame against its closed form",
          "[periodic][normal_form]") {
  const double sigma = 1.0, delta = 0.5, eps = 0.5;
  const ShootingSystem shooting = shooting_of(frame(0.5, 0.7, sigma));
  const auto lifted = twice(shooting);
  for (const double b : {0.1, -0.2, -0.341435, -0.5}) {
    Vector u(4);
    u << eps, 0.0, b * b, b;
    Vector q, p;
    critical_vectors(shooting.monodromy(u), -1.0, Vector(), &q, &p);
    const double c = flip_normal_form(period_map_forms(shooting, *lifted, u, q), q, p);
    const double expected = -b * kT - sigma * delta * (kT - 2 * std::tanh(kT / 2));
    INFO("b = " << b << ": c = " << c << ", closed form " << expected);
    CHECK(std::abs(c - expected) < 1e-8);
  }
}

TEST_CASE("cycle curve tests: one monodromy per point shared by the tests, resonance tests check their curve",
          "[periodic][normal_form]") {
  const ShootingSystem shooting = shooting_of(frame(0.5, 0.7, 1.0));
  Vector u(4);
  u << 0.5, 0.0, 0.01, 0.1;  // on the PD curve a = b^2
  const auto system = std::make_shared<CycleCurveSystem>(shooting, CycleBifurcation::kPeriodDoubling, u);
  const ContinuationProblem problem(system, Vector::Constant(1, 0.1), {"b"});
  const Vector y = u, t = Vector::Unit(4, 2);
  const BorderedJacobian jacobian;
  const Eigen::VectorXcd none;
  const PointContext point{problem, y, t, jacobian, none};
  const auto points = std::make_shared<CycleCurvePoints>();
  const auto first = points->at(point);
  CHECK(points->at(point) == first);  // the same object: computed once
  // -exp(alpha T) = -1 and -e^-T.
  CHECK(std::abs(first->multipliers[0] - std::complex<double>(-1.0, 0.0)) < 1e-8);
  const Vector y2 = y + 1e-3 * t;
  const PointContext other{problem, y2, t, jacobian, none};
  CHECK(points->at(other) != first);
  const ResonanceTest r2("R2", -1.0, points);
  SpecialPoint sp;
  CHECK_THROWS_AS(r2.value(point), std::logic_error);
  CHECK_THROWS_AS(r2.describe(point, &sp), std::logic_error);
  // The GPD test on the PD curve: the flip coefficient of the closed form.
  const CycleNormalFormTest gpd(CycleBifurcation::kPeriodDoubling, points);
  CHECK(std::abs(gpd.value(point) - (-0.1 * kT - 0.5 * (kT - 2 * std::tanh(kT / 2)))) < 1e-8);
  CHECK(gpd.describe(point, &sp));
  CHECK(sp.data.contains("flip_coefficient"));
  const CycleNormalFormTest cpc(CycleBifurcation::kFold, points);
  CHECK_THROWS_AS(cpc.value(point), std::logic_error);  // a PD curve is no LPC curve
}
