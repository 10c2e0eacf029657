#include "continuation/flow/mechanical.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "continuation/flow/simulate.h"
#include "finite_differences.h"
#include "models/bouncing_ball.h"
#include "models/triple_pendulum.h"

using namespace saltus;
using namespace saltus::flow;

namespace {

// The bouncing ball written as a mechanical system: M = 1, f = -g,
// h = q - A sin(omega t) (the table's motion in the constraint). Its sizes
// are compile-time constants, so that flow::Mechanical instantiates one set
// of matrix sizes, not one per size it might meet at run time.
struct BallOnTable {
  double g = 9.81, A = 0.05, omega = 2 * M_PI, e = 0.9;
  static constexpr int dof() { return 1; }
  static constexpr int constraint_count() { return 1; }
  double restitution(int) const { return e; }
  template <class T>
  void mass(const T*, const T&, T* M) const {
    M[0] = T(1.0);
  }
  template <class T>
  void force(const T*, const T*, const T&, T* f) const {
    f[0] = T(-g);
  }
  template <class T>
  T constraint(int, const T* q, const T& t) const {
    using std::sin;
    return q[0] - A * sin(omega * t);
  }
};

}  // namespace

TEST_CASE("mechanical builder: the ball on a table matches the hand-written hybrid model",
          "[flow][mechanical]") {
  BallOnTable ball;
  auto mechanical = make_mechanical(ball);
  models::BouncingBall reference;
  reference.A = ball.A;
  reference.e = ball.e;
  auto hand = make_hybrid(reference);
  Vector x0(2);
  x0 << 0.3, 0.5;
  SimulationOptions options;
  options.method = GENERATE(IntegrationMethod::kDopri5, IntegrationMethod::kDop853);
  INFO("method " << to_string(options.method));
  const Trajectory a = simulate(*mechanical, 0, 0.0, x0, 2.5, options);
  const Trajectory b = simulate(*hand, 0, 0.0, x0, 2.5, options);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  REQUIRE(a.events.size() == b.events.size());
  REQUIRE(a.events.size() >= 3);
  for (std::size_t i = 0; i < a.events.size(); ++i) CHECK(std::abs(a.events[i].t - b.events[i].t) < 1e-10);
  CHECK((a.transition_matrix - b.transition_matrix).cwiseAbs().maxCoeff() < 1e-7);
}

TEST_CASE("triple pendulum: energy conserved with e = 1, no damping, no torque",
          "[flow][mechanical][pendulum]") {
  models::TriplePendulum p;
  p.c1 = p.c2 = p.c3 = 0.0;
  p.q1 = 0.0;
  p.e = 1.0;
  auto system = make_mechanical(p);
  Vector x0(6);
  x0 << 1.8, 1.0, 2.0, 1.5, -1.0, 2.0;
  Mechanical<models::TriplePendulum>{p}.check(0.0, x0);
  const double E0 = p.energy(x0.data());
  SimulationOptions options;
  options.output_interval = 0.01;
  const Trajectory tr = simulate(*system, 0, 0.0, x0, 20.0, options);
  REQUIRE(tr.ok());
  INFO("events: " << tr.events.size());
  REQUIRE(tr.events.size() >= 3);
  double worst = 0;
  for (const auto& x : tr.x) worst = std::max(worst, std::abs(p.energy(x.data()) - E0));
  CHECK(worst < 1e-8);
}

TEST_CASE("triple pendulum: energy balance with torque and damping between impacts",
          "[flow][mechanical][pendulum]") {
  models::TriplePendulum p;  // c_i = 0.8, q1 = 1
  p.q1 = 1.5;
  auto system = make_mechanical(p);
  Vector x0(6);
  x0 << 1.8, 1.0, 2.0, 3.0, 3.0, 1.5;  // impacts from t = 1.57 on, then a Zeno sequence
  Mechanical<models::TriplePendulum>{p}.check(0.0, x0);
  SimulationOptions options;
  options.output_interval = 2.5e-4;
  const Trajectory tr = simulate(*system, 0, 0.0, x0, 1.9, options);
  REQUIRE(tr.ok());
  // E(t) - E(s) = q1 (psi1(t) - psi1(s)) - int_s^t psi'^T C psi' on each
  // stretch between events; the integral by Simpson's rule on the samples.
  int checked = 0;
  std::size_t start = 0;
  for (std::size_t k = 1; k <= tr.t.size(); ++k) {
    const bool end = k == tr.t.size() || tr.t[k] == tr.t[k - 1];  // an event repeats its time
    if (!end) continue;
    if (start > 0) ++start;  // from the first grid sample after the event's x+ sample
    std::size_t last = k - 1;
    if ((last - start) % 2) --last;  // Simpson needs an even number of intervals
    if (last >= start + 20) {
      const double h = tr.t[start + 1] - tr.t[start];
      double integral = 0;
      bool uniform = true;
      for (std::size_t j = start; j < last; j += 2) {
        uniform &= std::abs((tr.t[j + 2] - tr.t[j]) - 2 * h) < 1e-9;
        integral += h / 3 *
                    (p.dissipation(tr.x[j].data()) + 4 * p.dissipation(tr.x[j + 1].data()) +
                     p.dissipation(tr.x[j + 2].data()));
      }
      if (uniform) {
        const double lhs = p.energy(tr.x[last].data()) - p.energy(tr.x[start].data());
        const double rhs = p.q1 * (tr.x[last][0] - tr.x[start][0]) - integral;
        INFO("stretch " << tr.t[start] << " .. " << tr.t[last] << " (" << last - start << " intervals)");
        CHECK(std::abs(lhs - rhs) < 1e-8);
        ++checked;
      }
    }
    start = k;
  }
  CHECK(checked >= 3);
}

TEST_CASE("triple pendulum: the transition matrix across impacts matches finite differences",
          "[flow][mechanical][pendulum]") {
  models::TriplePendulum p;
  p.q1 = 1.5;
  auto system = make_mechanical(p);
  Vector x0(6);
  x0 << 1.8, 1.0, 2.0, 3.0, -3.0, 1.5;  // one impact of the third link, at t = 3.31
  const double t1 = 3.5;
  SimulationOptions options;
  options.method = GENERATE(IntegrationMethod::kDopri5, IntegrationMethod::kDop853);
  INFO("method " << to_string(options.method));
  const Trajectory tr = simulate(*system, 0, 0.0, x0, t1, options);
  REQUIRE(tr.ok());
  INFO("events " << tr.events.size());
  REQUIRE(tr.events.size() >= 1);
  const Matrix fd =
      testing::transition_by_differences(*system, 0, 0.0, x0, t1, tr.events.size(), 1e-6, options);
  INFO("Phi =\n" << tr.transition_matrix << "\nFD =\n" << fd);
  CHECK((tr.transition_matrix - fd).cwiseAbs().maxCoeff() < 1e-6 * (1 + fd.cwiseAbs().maxCoeff()));
}

TEST_CASE("mechanical systems: bad input names the value", "[flow][mechanical]") {
  models::TriplePendulum p;
  Vector x(6);
  x << 0.0, 0.0, 0.0, 0, 0, 0;  // hanging straight down: the second link's end at depth 2 > eta
  Mechanical<models::TriplePendulum> m{p};
  CHECK_THROWS_WITH(m.check(0.0, x), Catch::Contains("violates constraint 2"));
  x << 1.5, 1.5, 1.5, 0, 0, 0;
  p.e = 1.3;
  CHECK_THROWS_WITH((Mechanical<models::TriplePendulum>{p}.check(0.0, x)), Catch::Contains("e = 1.3"));
  p.e = 0.8;
  p.beta2 = p.v12 * p.v12;  // M singular when psi1 = psi2 (a rank-one 2x2 block)
  p.beta3 = 1.0;
  p.v13 = p.v23 = 0.0;
  CHECK_THROWS_WITH((Mechanical<models::TriplePendulum>{p}.check(0.0, x)),
                    Catch::Contains("not symmetric positive definite"));
}

TEST_CASE("Mechanical's substitutions keep a Jet's derivative where its value is exactly zero",
          "[flow][mechanical]") {
  // A x = b with b = (0 + 1 eps, 1): x' = A^-1 (1, 0) = (3/5, -1/5). Eigen's
  // own triangular solves of dynamic size skip a row whose right-hand side
  // compares equal to zero, which for a Jet means its value alone.
  using J = ceres::Jet<double, 1>;
  Eigen::Matrix<J, Eigen::Dynamic, Eigen::Dynamic> A(2, 2);
  A << J(2.0), J(1.0), J(1.0), J(3.0);
  Eigen::Matrix<J, Eigen::Dynamic, 1> b(2);
  b << J(0.0, 0), J(1.0);
  const Eigen::LLT<Eigen::Matrix<J, Eigen::Dynamic, Eigen::Dynamic>> llt(A);
  REQUIRE(llt.info() == Eigen::Success);
  for (const auto& x : {detail::cholesky_solve(llt.matrixLLT(), b), detail::lu_solve(A.partialPivLu(), b)}) {
    CHECK(x[0].a == Approx(-0.2));
    CHECK(x[1].a == Approx(0.4));
    CHECK(x[0].v[0] == Approx(0.6));
    CHECK(x[1].v[0] == Approx(-0.2));
  }
}
