#include "models/bouncing_ball.h"

#include <boost/math/tools/toms748_solve.hpp>
#include <catch2/catch.hpp>
#include <cmath>

#include "../continuation/flow/finite_differences.h"
#include "continuation/flow/simulate.h"

using namespace saltus;
using namespace saltus::flow;

namespace {

// The next impact after (t0, q0, v0) on the exact parabola, found
// independently of the simulator: scan for the first sign change of the gap
// q0 + v0 (t - t0) - g (t - t0)^2 / 2 - A sin(omega t), then toms748.
double next_impact(const models::BouncingBall& b, double t0, double q0, double v0) {
  auto gap = [&](double t) {
    const double s = t - t0;
    return q0 + v0 * s - 0.5 * b.g * s * s - b.A * std::sin(b.omega * t);
  };
  const double dt = 1e-4;
  double a = t0 + 1e-9;
  while (gap(a + dt) > 0) a += dt;
  boost::uintmax_t it = 200;
  auto r =
      boost::math::tools::toms748_solve(gap, a, a + dt, boost::math::tools::eps_tolerance<double>(60), it);
  return 0.5 * (r.first + r.second);
}

}  // namespace

TEST_CASE("bouncing ball: impact times agree with the parabola to 1e-10 (both methods)",
          "[flow][bouncing_ball]") {
  models::BouncingBall ball;
  ball.A = 0.05;
  ball.omega = 2 * M_PI;
  ball.e = 0.9;
  auto system = make_hybrid(ball);
  Vector x0(2);
  x0 << 0.3, 0.0;
  SimulationOptions options;
  options.method = GENERATE(IntegrationMethod::kDopri5, IntegrationMethod::kDop853);
  INFO("method " << to_string(options.method));
  const Trajectory tr = simulate(*system, 0, 0.0, x0, 3.0, options);
  REQUIRE(tr.ok());
  REQUIRE(tr.events.size() >= 5);
  // The chain of analytic impacts from the same start.
  double t = 0.0, q = x0[0], v = x0[1];
  for (std::size_t i = 0; i < 5; ++i) {
    const double te = next_impact(ball, t, q, v);
    const double s = te - t;
    const double v_minus = v - ball.g * s;
    const double vt = ball.table_velocity(te);
    INFO("impact " << i);
    CHECK(std::abs(tr.events[i].t - te) < 1e-10);
    t = te;
    q = ball.table(te);
    v = vt - ball.e * (v_minus - vt);
  }
}

TEST_CASE("bouncing ball: a ball coming to rest stops bouncing and rides the table",
          "[flow][bouncing_ball]") {
  models::BouncingBall ball;
  ball.A = 0.01;  // A omega^2 = 0.39 < g: the table never throws the ball off
  ball.e = 0.5;
  auto system = make_hybrid(ball);
  Vector x0(2);
  x0 << 0.2, 0.0;
  const Trajectory tr = simulate(*system, 0, 0.0, x0, 5.0);
  INFO(tr.message);
  REQUIRE(tr.ok());
  // Finitely many bounces (e^k v0 < stick_velocity after about 25), then contact for good.
  CHECK(tr.events.size() < 60);
  CHECK(tr.events.back().mode_after == models::BouncingBall::kContact);
  CHECK(tr.mode_end == models::BouncingBall::kContact);
  CHECK(std::abs(tr.x_end[0] - ball.table(tr.t_end)) < 1e-9);
  CHECK(std::abs(tr.x_end[1] - ball.table_velocity(tr.t_end)) < 1e-9);
}

TEST_CASE("bouncing ball: a table shaken harder than g throws the ball off again", "[flow][bouncing_ball]") {
  models::BouncingBall ball;
  ball.A = 0.3;  // A omega^2 = 11.8 > g
  ball.e = 0.0;  // every impact sticks
  auto system = make_hybrid(ball);
  Vector x0(2);
  x0 << 0.5, 0.0;
  const Trajectory tr = simulate(*system, 0, 0.0, x0, 3.0);
  REQUIRE(tr.ok());
  int take_offs = 0;
  for (const auto& e : tr.events)
    if (e.mode_before == models::BouncingBall::kContact) {
      ++take_offs;
      // Take-off where the contact force vanishes: g + T''(t) = 0.
      CHECK(std::abs(ball.g + ball.table_acceleration(e.t)) < 1e-9);
    }
  CHECK(take_offs >= 2);
}

TEST_CASE("bouncing ball: the saltation-corrected transition matrix matches finite differences",
          "[flow][bouncing_ball]") {
  models::BouncingBall ball;
  ball.A = 0.05;
  ball.e = 0.8;
  auto system = make_hybrid(ball);
  Vector x0(2);
  x0 << 0.3, 0.4;
  const double t1 = 1.3;
  const Trajectory tr = simulate(*system, 0, 0.0, x0, t1);
  REQUIRE(tr.ok());
  REQUIRE(tr.events.size() >= 3);  // impacts inside the interval
  const Matrix fd = testing::transition_by_differences(*system, 0, 0.0, x0, t1, tr.events.size());
  INFO("Phi =\n" << tr.transition_matrix << "\nfinite differences =\n" << fd);
  CHECK((tr.transition_matrix - fd).cwiseAbs().maxCoeff() < 1e-6 * (1 + fd.cwiseAbs().maxCoeff()));
  // Without saltation (the product of the smooth flows and G_x alone) it would be wrong.
  CHECK(std::abs(tr.transition_matrix.determinant() - fd.determinant()) <
        1e-5 * (1 + std::abs(fd.determinant())));
}

TEST_CASE("bouncing ball: bad restitution is refused with its value", "[flow][bouncing_ball]") {
  models::BouncingBall ball;
  ball.e = -0.1;
  CHECK_THROWS_WITH(ball.check(), Catch::Contains("e = -0.1"));
  ball.e = 1.5;
  CHECK_THROWS_WITH(ball.check(), Catch::Contains("must be in [0, 1]"));
}
