// Matrix-free shooting (continuation/periodic/monodromy_operator.h,
// newton_krylov.h) against the dense monodromy on a forced impact chain of
// N masses written here in C++ (the run file of scripts/impact_chain with
// other parameter values: stiffer springs, a closer stop, another
// frequency): the product M v of one lifted period against the dense M times
// v, Arnoldi's largest multipliers against the dense eigenvalues, and the
// orbit found by Newton-Krylov against the one found densely, at N = 8 and 32.

#include "continuation/periodic/newton_krylov.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "continuation/flow/hybrid_system.h"
#include "continuation/flow/parameters.h"
#include "continuation/periodic/find_orbit.h"
#include "continuation/periodic/monodromy_operator.h"
#include "continuation/periodic/shooting.h"
#include "models/lorenz.h"

using namespace saltus;
using namespace saltus::periodic;

namespace {

// x_i'' = -k0 x_i - c0 x_i' + k (x_{i-1} - 2 x_i + x_{i+1}) + c (same on v)
// [+ F cos(w t) on the last], free ends; a stop at x_1 = d, v_1+ = -r v_1-.
template <class P = double>
struct ChainT {
  int n = 8;
  P k = P(1.5), c = P(0.3), k0 = P(0.3), c0 = P(0.15), F = P(1.2), w = P(0.9), d = P(0.05), r = P(0.7);

  template <class Self, class Visit>
  static void parameters(Self& self, Visit&& visit) {
    visit("k", self.k, "spring between neighbours");
    visit("c", self.c, "damper between neighbours");
    visit("k0", self.k0, "ground spring");
    visit("c0", self.c0, "ground damper");
    visit("F", self.F, "forcing amplitude on the last mass");
    visit("w", self.w, "forcing frequency");
    visit("d", self.d, "the stop on the first mass");
    visit("r", self.r, "restitution");
  }
  template <class Q>
  ChainT<Q> cast() const {
    ChainT<Q> out = flow::cast_parameters<ChainT<Q>>(*this);
    out.n = n;
    return out;
  }
  static constexpr bool tangent_liftable = true;

  int dimension() const { return 2 * n; }
  int guard_count(int) const { return 1; }
  template <class T>
  void field(int, const T& t, const T* x, T* f) const {
    using std::cos;
    const T* v = x + n;
    for (int i = 0; i < n; ++i) {
      f[i] = v[i];
      T a = -T(k0) * x[i] - T(c0) * v[i];
      if (i > 0) a += T(k) * (x[i - 1] - x[i]) + T(c) * (v[i - 1] - v[i]);
      if (i + 1 < n) a += T(k) * (x[i + 1] - x[i]) + T(c) * (v[i + 1] - v[i]);
      if (i + 1 == n) a += T(F) * cos(T(w) * t);
      f[n + i] = a;
    }
  }
  template <class T>
  T guard(int, int, const T&, const T* x) const {
    return T(d) - x[0];
  }
  int next_mode(int mode, int, double, const double*) const { return mode; }
  template <class T>
  void reset(int, int, int, const T&, const T* x, T* x_plus) const {
    for (int i = 0; i < 2 * n; ++i) x_plus[i] = x[i];
    x_plus[n] = -T(r) * x[n];
  }
};

// The shooting problem of the chain of n masses with F carried in the state,
// and the state after a transient of 4 forcing periods (the guess: the
// orbit attracts, but not yet to 1e-3).
struct Problem {
  std::shared_ptr<ShootingSystem> shooting;
  Vector guess;  // (x, F)
};

Problem chain(int n) {
  ChainT<> model;
  model.n = n;
  const auto hybrid = flow::make_hybrid(model)->with_parameters_in_state({"F"});
  ShootingOptions options;
  options.period = 2 * M_PI / model.w;
  options.simulation.absolute_tolerance = options.simulation.relative_tolerance = 1e-11;
  options.simulation.max_step = 0.1;
  Problem p;
  p.shooting = std::make_shared<ShootingSystem>(hybrid, 1, options);
  Vector z = Vector::Zero(2 * n + 1);
  z[2 * n] = model.F;
  flow::SimulationOptions warm;
  warm.variational = false;
  warm.record_steps = false;
  const flow::Trajectory tr = flow::simulate(*hybrid, 0, 0.0, z, 4 * options.period, warm);
  REQUIRE(tr.ok());
  p.guess = tr.x_end;
  return p;
}

// The largest distance from a multiplier of `few` to the nearest of `all`.
double farthest(const Eigen::VectorXcd& few, const Eigen::VectorXcd& all) {
  double worst = 0.0;
  for (int i = 0; i < few.size(); ++i) {
    double nearest = HUGE_VAL;
    for (int j = 0; j < all.size(); ++j) nearest = std::min(nearest, std::abs(few[i] - all[j]));
    worst = std::max(worst, nearest);
  }
  return worst;
}

}  // namespace

TEST_CASE("monodromy operator: M v of one lifted period is the dense monodromy times v, saltations included",
          "[periodic][newton_krylov]") {
  const int n = GENERATE(8, 32);
  const Problem p = chain(n);
  const Matrix M = p.shooting->monodromy(p.guess);
  // The chain of 8 hits its stop in this period (the saltations are in M v);
  // the wave reaching mass 1 of 32 is too weak to.
  const auto events = p.shooting->trajectory(p.guess)->events.size();
  INFO("events " << events);
  CHECK((n == 8 ? events > 0 : events == 0));
  const MonodromyOperator op(*p.shooting, p.guess);
  REQUIRE(op.size() == 2 * n);
  for (int trial = 0; trial < 3; ++trial) {
    const Vector v = trial == 0 ? Vector(Vector::Unit(2 * n, 0)) : Vector(Vector::Random(2 * n));
    const Vector Mv = M * v;
    // Both integrated at 1e-11: they agree to that order relative to |M| |v|.
    CHECK((op.apply(v) - Mv).lpNorm<Eigen::Infinity>() <= 1e-8 * (1.0 + M.norm() * v.norm()));
    // Linear in v: the direction is integrated at unit norm.
    CHECK((op.apply(1e3 * v) - 1e3 * op.apply(v)).lpNorm<Eigen::Infinity>() <= 1e-8 * 1e3 * Mv.norm());
  }
  CHECK(op.products() == 9);
}

TEST_CASE("Arnoldi on the monodromy operator: the largest multipliers are the dense eigenvalues",
          "[periodic][newton_krylov]") {
  const int n = GENERATE(8, 32);
  const Problem p = chain(n);
  const Eigen::VectorXcd dense = floquet_multipliers(p.shooting->monodromy(p.guess));
  const MonodromyOperator op(*p.shooting, p.guess);
  ArnoldiOptions options;
  options.count = 6;
  options.resolve_above = 0.0;  // all six resolved, however they cluster
  const ArnoldiMultipliers a = arnoldi_multipliers(op, options);
  INFO(a.message);
  REQUIRE(a.converged);
  REQUIRE(a.multipliers.size() >= 6);
  CHECK(farthest(a.multipliers, dense) <= 1e-7);
  // The largest modulus first, as the dense list.
  CHECK(std::abs(a.multipliers[0]) == Approx(std::abs(dense[0])).epsilon(1e-7));
  // Fewer products than the dense path's 2N directions at N = 32.
  if (n == 32) CHECK(a.products < 2 * n);
  // By default those clustered inside 0.9 (the chain's long waves, near
  // 0.59 here) may be bounded instead: every dense multiplier among the six
  // largest is resolved or within the bound.
  const ArnoldiMultipliers b = arnoldi_multipliers(op, ArnoldiOptions{.count = 6});
  INFO(b.message);
  REQUIRE(b.converged);
  CHECK(b.multipliers.size() + b.unresolved.size() == 6);
  CHECK(farthest(b.multipliers, dense) <= 1e-7);
  for (int i = 0; i < 6; ++i)
    CHECK((farthest(dense.segment(i, 1), b.multipliers) <= 1e-7 || std::abs(dense[i]) <= b.unresolved_bound));
  CHECK(b.unresolved_bound < 0.9);
  CHECK(b.products <= a.products);
}

TEST_CASE("Newton-Krylov shooting finds the dense path's orbit and multipliers",
          "[periodic][newton_krylov]") {
  const int n = GENERATE(8, 32);
  const Problem p = chain(n);
  OrbitSearchOptions options;
  options.residual_tolerance = 1e-11;
  options.linear_solver = ShootingLinearSolver::kDense;
  const OrbitSearch dense = find_orbit(*p.shooting, p.guess, options);
  options.linear_solver = ShootingLinearSolver::kMatrixFree;
  const OrbitSearch free = find_orbit(*p.shooting, p.guess, options);
  INFO(dense.message << "\n" << free.message);
  REQUIRE(dense.ok());
  REQUIRE(free.ok());
  CHECK_FALSE(dense.matrix_free);
  CHECK(free.matrix_free);
  CHECK(free.iterations >= 2);
  CHECK(free.products > 0);
  // The same orbit: both residuals at most 1e-11 (1 + |x|), and (M - I)
  // bounded in inverse (the largest multiplier ~0.6), to 1e-8.
  CHECK((free.u - dense.u).lpNorm<Eigen::Infinity>() <= 1e-8);
  const Eigen::VectorXcd mu = floquet_multipliers(p.shooting->monodromy(dense.u));
  const ArnoldiMultipliers a =
      arnoldi_multipliers(MonodromyOperator(*p.shooting, free.u), ArnoldiOptions{.resolve_above = 0.0});
  REQUIRE(a.multipliers.size() >= 4);
  CHECK(farthest(a.multipliers.head(4), mu) <= 1e-7);
  // Automatic: dense below matrix_free_from states, matrix-free from it.
  options.linear_solver = ShootingLinearSolver::kAuto;
  options.matrix_free_from = 64;
  CHECK(find_orbit(*p.shooting, free.u, options).matrix_free == (2 * n >= 64));
}

TEST_CASE(
    "Newton-Krylov shooting of an autonomous orbit: the bordered system finds the dense path's orbit and "
    "period",
    "[periodic][newton_krylov]") {
  // Lorenz at rho = 280 (the orbit of the find_orbit tests, AUTO-07p's lor
  // start), its guess moved by 1e-3 so that Newton iterates: GMRES on
  // (M - I, f(x(T)); f_ref^T, 0).
  Vector reference;
  const double period = models::lorenz_periodic_orbit(280.0, &reference);
  ShootingOptions shooting_options;
  shooting_options.autonomous = true;
  shooting_options.simulation.absolute_tolerance = shooting_options.simulation.relative_tolerance = 1e-11;
  const ShootingSystem shooting(models::lorenz_flow(), 3, shooting_options, reference);
  Vector u(7);
  u << reference.head(3), period, reference.tail(3);
  u.head(4) += Vector::Constant(4, 1e-3);
  OrbitSearchOptions options;
  options.residual_tolerance = 1e-11;
  options.linear_solver = ShootingLinearSolver::kDense;
  const OrbitSearch dense = find_orbit(shooting, u, options);
  options.linear_solver = ShootingLinearSolver::kMatrixFree;
  const OrbitSearch free = find_orbit(shooting, u, options);
  INFO(dense.message << "\n" << free.message);
  REQUIRE(dense.ok());
  REQUIRE(free.ok());
  CHECK(free.iterations >= 2);
  CHECK(std::abs(free.u[3] - dense.u[3]) <= 1e-9);  // the period
  CHECK((free.u - dense.u).lpNorm<Eigen::Infinity>() <= 1e-8 * (1 + dense.u.lpNorm<Eigen::Infinity>()));
}

namespace {

// The chain's field without the opt-in to Taylor series: no tangent lift.
struct PlainOscillator {
  double w = 1.3;
  int dimension() const { return 2; }
  template <class T>
  void field(int, const T& t, const T* x, T* f) const {
    using std::cos;
    f[0] = x[1];
    f[1] = -x[0] - T(0.2) * x[1] + cos(T(w) * t);
  }
};

}  // namespace

TEST_CASE("matrix-free shooting asked of a system without a tangent lift: a clear error; automatic: dense",
          "[periodic][newton_krylov][bad-input]") {
  ShootingOptions shooting_options;
  shooting_options.period = 2 * M_PI / 1.3;
  const ShootingSystem shooting(flow::make_hybrid(PlainOscillator{}), 0, shooting_options);
  REQUIRE_FALSE(matrix_free_available(shooting));
  OrbitSearchOptions options;
  options.linear_solver = ShootingLinearSolver::kMatrixFree;
  CHECK_THROWS_WITH(find_orbit(shooting, Vector::Zero(2), options),
                    Catch::Contains("matrix-free shooting needs") && Catch::Contains("dense linear solver"));
  options.linear_solver = ShootingLinearSolver::kAuto;
  options.matrix_free_from = 1;
  const OrbitSearch s = find_orbit(shooting, Vector::Zero(2), options);
  CHECK(s.ok());
  CHECK_FALSE(s.matrix_free);
  options.matrix_free_from = 0;
  CHECK_THROWS_WITH(find_orbit(shooting, Vector::Zero(2), options), Catch::Contains("matrix_free_from = 0"));
}
