// Leading Floquet multipliers that cluster in modulus (continuation/periodic/
// monodromy_operator.h, ArnoldiOptions::resolve_above; testfunctions/
// floquet.h), on forced linear oscillators whose multipliers are known in
// closed form: x_i'' = -w_i^2 x_i - c_i x_i' + cos(w t), i = 1 .. n, one
// period T = 2 pi / w. Oscillator i's multipliers are exp(lambda T) for
// lambda = -c_i / 2 +- i sqrt(w_i^2 - c_i^2 / 4), of modulus exp(-c_i T / 2):
// every oscillator with the same damping puts its pair on one circle, a
// cluster that Arnoldi cannot resolve multiplier by multiplier without a
// subspace growing with n.

#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <memory>
#include <string>
#include <vector>

#include "continuation/continuation_problem.h"
#include "continuation/flow/hybrid_system.h"
#include "continuation/flow/parameters.h"
#include "continuation/linear_solver.h"
#include "continuation/periodic/monodromy_operator.h"
#include "continuation/periodic/shooting.h"
#include "studies/study.h"
#include "testfunctions/floquet.h"

using namespace saltus;
using namespace saltus::periodic;

namespace {

constexpr double kForcing = 1.3;  // w

template <class P = double>
struct OscillatorsT {
  std::vector<double> stiffness, damping;  // w_i^2, c_i
  P a = P(1.0);                            // the forcing's amplitude

  template <class Self, class Visit>
  static void parameters(Self& self, Visit&& visit) {
    visit("a", self.a, "forcing amplitude");
  }
  template <class Q>
  OscillatorsT<Q> cast() const {
    OscillatorsT<Q> out = flow::cast_parameters<OscillatorsT<Q>>(*this);
    out.stiffness = stiffness, out.damping = damping;
    return out;
  }
  static constexpr bool tangent_liftable = true;
  int dimension() const { return 2 * static_cast<int>(damping.size()); }
  template <class T>
  void field(int, const T& t, const T* x, T* f) const {
    using std::cos;
    const int n = static_cast<int>(damping.size());
    for (int i = 0; i < n; ++i) {
      f[i] = x[n + i];
      f[n + i] = -T(stiffness[i]) * x[i] - T(damping[i]) * x[n + i] + T(a) * cos(T(kForcing) * t);
    }
  }
};
using Oscillators = OscillatorsT<>;

// n oscillators, w_i = 1 + 0.05 i: the first with damping c1, the second
// c2, the rest 0.16 (a cluster of n - 2 pairs on the circle of radius
// exp(-0.08 T) = 0.679).
Oscillators oscillators(int n, double c1, double c2 = 0.02) {
  Oscillators o;
  for (int i = 0; i < n; ++i) {
    o.stiffness.push_back(std::pow(1.0 + 0.05 * i, 2));
    o.damping.push_back(i == 0 ? c1 : i == 1 ? c2 : 0.16);
  }
  return o;
}

double period() { return 2 * M_PI / kForcing; }

Eigen::VectorXcd closed_form(const Oscillators& o) {
  Eigen::VectorXcd mu(o.dimension());
  for (std::size_t i = 0; i < o.damping.size(); ++i) {
    const double c = o.damping[i], omega = std::sqrt(o.stiffness[i] - c * c / 4);
    mu[2 * i] = std::exp(std::complex<double>(-c / 2, omega) * period());
    mu[2 * i + 1] = std::conj(mu[2 * i]);
  }
  return mu;
}

std::shared_ptr<ShootingSystem> shooting(const Oscillators& o) {
  ShootingOptions options;
  options.period = period();
  options.simulation.absolute_tolerance = options.simulation.relative_tolerance = 1e-11;
  options.linear_solver = ShootingLinearSolver::kMatrixFree;
  options.multipliers = 6;
  return std::make_shared<ShootingSystem>(flow::make_hybrid(o)->with_parameters_in_state({"a"}), 1, options);
}

// The distance from mu to the nearest of `all`.
double nearest(std::complex<double> mu, const Eigen::VectorXcd& all) {
  double d = HUGE_VAL;
  for (const auto& m : all) d = std::min(d, std::abs(mu - m));
  return d;
}

// The oscillators of n (c1 = 0.01, c2 = 0.02), their multipliers in closed
// form and their monodromy operator at a state (x = 0, a = 1; the system is
// linear, M is the same everywhere).
struct Setup {
  explicit Setup(int n)
      : o(oscillators(n, 0.01)),
        exact(closed_form(o)),
        s(shooting(o)),
        op(*s, Vector::Unit(2 * n + 1, 2 * n)) {}
  Oscillators o;
  Eigen::VectorXcd exact;
  std::shared_ptr<ShootingSystem> s;
  MonodromyOperator op;
};

}  // namespace

TEST_CASE("Arnoldi: multipliers clustered inside 0.9 are bounded, those above resolved, at a cost fixed in n",
          "[periodic][newton_krylov][multipliers]") {
  const int n = GENERATE(20, 80);
  const Setup setup(n);
  const Eigen::VectorXcd& exact = setup.exact;
  const MonodromyOperator& op = setup.op;
  ArnoldiOptions options;
  options.count = 6;
  const ArnoldiMultipliers a = arnoldi_multipliers(op, options);
  INFO("n = " << n << ": " << a.message);
  REQUIRE(a.converged);
  // The two pairs outside the cluster, exp(-0.005 T) = 0.976 and
  // exp(-0.01 T) = 0.953, both above 0.9: resolved (integrated at 1e-11: 1e-8).
  REQUIRE(a.multipliers.size() >= 4);
  for (int i = 0; i < 4; ++i) CHECK(nearest(a.multipliers[i], exact.head(4)) <= 1e-8);
  for (const auto& mu : a.multipliers) CHECK(nearest(mu, exact) <= 1e-8);
  // The cluster bounded: inside 0.9, and (these oscillators' eigenvectors
  // are well conditioned) above its true radius.
  CHECK(a.multipliers.size() + a.unresolved.size() == 6);
  CHECK(a.unresolved_bound < 0.9);
  CHECK(a.unresolved_bound >= std::exp(-0.08 * period()) - 1e-8);
  // The cost does not grow with n: the small subspace of 20 and its 20
  // restarts at most (its two factorizations and at most 20 new vectors a
  // restart), never the large one of 0.3 n.
  CHECK(a.message.find("subspace 20)") != std::string::npos);
  CHECK(a.products <= 22 * 20);
  // With resolve_above below the cluster (0.5 < 0.679): no acceptance.
  options.resolve_above = 0.5;
  options.max_restarts = 5;
  options.subspace = 20;
  const ArnoldiMultipliers strict = arnoldi_multipliers(op, options);
  INFO(strict.message);
  CHECK_FALSE(strict.converged);
}

TEST_CASE("Arnoldi: a run past its first 4 restarts starts again from the filtered vector, on M itself",
          "[periodic][newton_krylov][multipliers]") {
  // Every wanted multiplier asked resolved (resolve_above = 0) with 20
  // vectors: the cluster keeps the run going into its second stage, whose
  // factorization must be M's. Each multiplier it resolves is one of the
  // closed form's.
  const Setup setup(80);
  const Eigen::VectorXcd& exact = setup.exact;
  ArnoldiOptions options;
  options.count = 6;
  options.resolve_above = 0.0;
  options.subspace = 20;
  options.max_restarts = 20;
  const ArnoldiMultipliers a = arnoldi_multipliers(setup.op, options);
  INFO(a.message);
  // The first stage: 21 products to factorize from a random vector, at most
  // 20 - 6 a restart.
  CHECK(a.products > 21 + 4 * 14);
  REQUIRE(a.multipliers.size() >= 4);
  for (const auto& mu : a.multipliers) CHECK(nearest(mu, exact) <= 1e-8);
  for (int i = 0; i < 4; ++i) CHECK(nearest(a.multipliers[i], exact.head(4)) <= 1e-8);
}

TEST_CASE("matrix-free PD and NS tests over the resolved multipliers: the signs of the closed form",
          "[periodic][multipliers]") {
  // One pair outside the cluster (the second oscillator damped as the
  // rest), so that the resolved set's own sign, (-1)^c = -1 with every
  // multiplier inside, is divided out. c1 = 0.01: every multiplier inside the
  // unit circle; c1 = -0.01: the first pair outside (modulus exp(0.005 T) =
  // 1.024), past an NS. The NS test is positive exactly when no pair is
  // outside, whatever the cluster left out; PD's stays positive (no real
  // multiplier below -1).
  for (const double c1 : {0.01, -0.01}) {
    const int n = 40;
    const auto s = shooting(oscillators(n, c1, 0.16));
    REQUIRE(s->matrix_free());
    const ContinuationProblem problem(s, Vector::Ones(1), {"a"});
    const Vector y = Vector::Unit(2 * n + 1, 2 * n), t = Vector::Unit(2 * n + 1, 0);
    const BorderedJacobian jacobian;
    const Eigen::VectorXcd none;
    const PointContext point{problem, y, t, jacobian, none};
    INFO("c1 = " << c1 << ", leading " << s->leading_multipliers(y).transpose());
    CHECK(s->leading_multipliers(y).size() < 6);  // the cluster left out
    CHECK(PeriodDoublingTest().value(point) > 0);
    CHECK((NeimarkSackerTest().value(point) > 0) == (c1 > 0));
  }
}

TEST_CASE("studies: a large orbit's resolved multipliers and the cluster's bound, in its point data",
          "[periodic][multipliers][studies]") {
  // One pair above 0.9 (c1 = 0.01), the rest a cluster at 0.679: the studies
  // write the pair and the modulus the others lie within.
  const int n = 40;
  const auto s = shooting(oscillators(n, 0.01, 0.16));
  studies::BranchResult r;
  r.name = "branch";
  r.kind = studies::BranchKind::kOrbits;
  r.shooting = s;
  r.problem = std::make_shared<ContinuationProblem>(s, Vector::Ones(1), std::vector<std::string>{"a"});
  const Vector y = Vector::Unit(2 * n + 1, 2 * n);
  r.branch.state_size = 2 * n;
  r.branch.parameters = Vector::Ones(1);
  r.branch.free_parameters = {0};
  BranchPoint point;
  point.y = y;
  r.branch.points.push_back(point);
  double bound = 0.0;
  const Eigen::VectorXcd mu = studies::multipliers(r, y, nullptr, &bound);
  INFO("resolved " << mu.transpose() << ", the rest within " << bound);
  CHECK(mu.size() == 2);
  CHECK(bound >= std::exp(-0.08 * period()) - 1e-8);
  CHECK(bound < 0.9);
  SpecialPoint special;
  special.type = "UZ";
  special.index = 0;
  special.y = y;
  const studies::Json data = studies::point_data(r, special);
  CHECK(data["multipliers"].size() == 2);
  CHECK(data.value("unresolved_multipliers_within", 0.0) == bound);
}
