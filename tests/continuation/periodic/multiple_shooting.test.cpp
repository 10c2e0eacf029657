#include "continuation/periodic/multiple_shooting.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "continuation/flow/hybrid_system.h"
#include "continuation/periodic/find_orbit.h"
#include "continuation/pseudo_arclength.h"
#include "models/lorenz.h"

using namespace saltus;
using namespace saltus::periodic;

namespace {

// x' = -omega y + lambda x (r^2 - 1), y' = omega x + lambda y (r^2 - 1): in
// polar form r' = lambda r (r^2 - 1), theta' = omega, so the circle r = 1 is
// a periodic orbit of period 2 pi / omega, unstable for lambda > 0: the
// linearization dr' = 2 lambda dr gives its nontrivial multiplier
// exp(2 lambda T) = exp(4 pi lambda / omega). Off the circle (r > 1) the
// radius blows up in finite time.
struct Cycle {
  int dimension() const { return 4; }  // x, y, omega, lambda
  template <class T>
  void field(int, const T&, const T* u, T* f) const {
    const T s = u[0] * u[0] + u[1] * u[1] - 1.0;
    f[0] = -u[2] * u[1] + u[3] * u[0] * s;
    f[1] = u[2] * u[0] + u[3] * u[1] * s;
    f[2] = f[3] = T(0.0);
  }
};

ShootingOptions autonomous(double tolerance) {
  ShootingOptions o;
  o.autonomous = true;
  o.simulation.absolute_tolerance = o.simulation.relative_tolerance = tolerance;
  return o;
}

// The multiplier of largest modulus other than the trivial one.
std::complex<double> leading(const Matrix& M) { return nontrivial_multipliers(M)[0]; }

}  // namespace

TEST_CASE("multiple shooting: the Jacobian's blocks against central differences of the residual",
          "[periodic][multiple-shooting]") {
  const auto cycle = flow::make_hybrid(Cycle{});
  Vector ref(4);
  ref << 1.1, 0.1, 1.0, 0.3;
  MultipleShootingOptions options;
  options.segments = 3;
  options.shooting = autonomous(1e-12);
  MultipleShootingSystem ms(cycle, 2, options, ref);
  Vector u(ms.size());
  u << 1.1, 0.1, -0.4, 0.9, -0.5, -0.8, 6.0, 1.0, 0.3;  // not an orbit: every block is exercised
  const Matrix J = ms.jacobian(u);
  SparseMatrix S;
  ms.sparse_jacobian(u.data(), &S);
  CHECK((Matrix(S) - J).norm() == 0.0);
  CHECK(S.nonZeros() < J.size());  // block bidiagonal, not dense
  const double h = 1e-6;
  Matrix fd(ms.state_size(), ms.size());
  for (int j = 0; j < ms.size(); ++j) {
    Vector up = u, um = u;
    up[j] += h;
    um[j] -= h;
    fd.col(j) = (ms.residual(up) - ms.residual(um)) / (2 * h);
  }
  CHECK((fd - J).lpNorm<Eigen::Infinity>() < 1e-6 * (1 + J.lpNorm<Eigen::Infinity>()));
}

TEST_CASE("multiple shooting: the same Floquet multipliers as single shooting where both converge",
          "[periodic][multiple-shooting]") {
  SECTION("the mildly unstable cycle, lambda = 0.1: exp(4 pi lambda)") {
    const auto cycle = flow::make_hybrid(Cycle{});
    Vector ref(4);
    ref << 1.02, 0.0, 1.0, 0.1;
    ShootingSystem single(cycle, 2, autonomous(1e-12), ref);
    Vector u1(5);
    u1 << 1.02, 0.0, 6.3, 1.0, 0.1;
    const OrbitSearch s1 = find_orbit(single, u1);
    INFO(s1.message);
    REQUIRE(s1.ok());
    MultipleShootingOptions options;
    options.segments = 5;
    options.shooting = autonomous(1e-12);
    MultipleShootingSystem ms(cycle, 2, options, ref);
    const Vector um = MultipleShootingSystem::from_single(*cycle, 2, &options, u1);
    const OrbitSearch sm = find_orbit(ms, um);
    INFO(sm.message);
    REQUIRE(sm.ok());
    const std::complex<double> mu1 = leading(single.monodromy(s1.u)), mum = leading(ms.monodromy(sm.u));
    CHECK(std::abs(mu1 - mum) < 1e-8);
    CHECK(std::abs(mum.real() - std::exp(4 * M_PI * 0.1)) < 1e-8);
    CHECK(std::abs(sm.u[5 * 2] - 2 * M_PI) < 1e-9);
  }
  SECTION("Lorenz at rho = 280") {
    const auto lorenz = models::lorenz_flow();
    Vector ref;
    const double T = models::lorenz_periodic_orbit(280.0, &ref);
    ShootingSystem single(lorenz, 3, autonomous(1e-11), ref);
    Vector u1(7);
    u1 << ref.head(3), T, ref.tail(3);
    const OrbitSearch s1 = find_orbit(single, u1);
    REQUIRE(s1.ok());
    MultipleShootingOptions options;
    options.segments = 4;
    options.shooting = autonomous(1e-11);
    MultipleShootingSystem ms(lorenz, 3, options, ref);
    const Vector um = MultipleShootingSystem::from_single(*lorenz, 3, &options, u1);
    const OrbitSearch sm = find_orbit(ms, um);
    INFO(sm.message);
    REQUIRE(sm.ok());
    const Eigen::VectorXcd a = nontrivial_multipliers(single.monodromy(s1.u));
    const Eigen::VectorXcd b = nontrivial_multipliers(ms.monodromy(sm.u));
    for (int i = 0; i < 2; ++i) CHECK(std::abs(a[i] - b[i]) < 1e-8);
    CHECK(std::abs(s1.u[3] - sm.u[4 * 3]) < 1e-9);  // the same period
  }
}

TEST_CASE("multiple shooting converges on a strongly unstable orbit where single shooting cannot",
          "[periodic][multiple-shooting]") {
  // lambda = 3: the multiplier exp(12 pi) = 2.6e16. A guess 5% off the circle.
  const double lambda = 3.0;
  const auto cycle = flow::make_hybrid(Cycle{});
  Vector ref(4);
  ref << 1.05, 0.0, 1.0, lambda;
  ShootingSystem single(cycle, 2, autonomous(1e-12), ref);
  Vector u1(5);
  u1 << 1.05, 0.0, 2 * M_PI, 1.0, lambda;
  const OrbitSearch s1 = find_orbit(single, u1);
  INFO("single shooting: " << s1.message);
  CHECK(!s1.ok());

  const int m = 24;
  MultipleShootingOptions options;
  options.segments = m;
  options.shooting = autonomous(1e-12);
  MultipleShootingSystem ms(cycle, 2, options, ref);
  Vector um(ms.size());
  for (int i = 0; i < m; ++i) {  // the same poor guess, sampled at the segment starts
    const double theta = 2 * M_PI * i / m;
    um.segment(2 * i, 2) << 1.05 * std::cos(theta), 1.05 * std::sin(theta);
  }
  um.tail(3) << 2 * M_PI, 1.0, lambda;
  const OrbitSearch sm = find_orbit(ms, um);
  INFO("multiple shooting: " << sm.message);
  REQUIRE(sm.ok());
  for (int i = 0; i < m; ++i) CHECK(std::abs(sm.u.segment(2 * i, 2).norm() - 1.0) < 1e-9);
  CHECK(std::abs(sm.u[2 * m] - 2 * M_PI) < 1e-9);
  const std::complex<double> mu = leading(ms.monodromy(sm.u));
  CHECK(std::abs(mu.real() / std::exp(4 * M_PI * lambda) - 1.0) < 1e-6);
}

TEST_CASE("multiple shooting as a System: continue_branch follows the cycle in lambda (sparse path)",
          "[periodic][multiple-shooting]") {
  const auto cycle = flow::make_hybrid(Cycle{});
  Vector ref(4);
  ref << 1.0, 0.0, 1.0, 0.5;
  MultipleShootingOptions options;
  options.segments = 6;
  options.shooting = autonomous(1e-11);
  auto ms = std::make_shared<MultipleShootingSystem>(cycle, 2, options, ref);
  Vector u1(5);
  u1 << 1.0, 0.0, 2 * M_PI, 1.0, 0.5;
  const Vector u = MultipleShootingSystem::from_single(*cycle, 2, &options, u1);
  ContinuationProblem problem(ms, u.tail(2), {"x3"});
  Vector y(problem.size());
  y << u.head(ms->state_size()), 0.5;
  ContinuationOptions copt;
  copt.ds = 0.1;
  copt.max_points = 6;
  const Branch b = continue_branch(problem, y, copt);
  INFO(b.message);
  REQUIRE(b.points.size() == 6);
  for (const auto& p : b.points) {
    CHECK(std::abs(p.y.head(2).norm() - 1.0) < 1e-9);
    CHECK(std::abs(p.y[ms->state_size() - 1] - 2 * M_PI) < 1e-9);
  }
  CHECK(b.points.back().y[ms->state_size()] > 0.6);  // lambda moved
}
