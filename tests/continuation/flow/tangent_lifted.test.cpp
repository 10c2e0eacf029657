#include "continuation/flow/tangent_lifted.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "continuation/flow/simulate.h"
#include "models/bouncing_ball.h"

using namespace saltus;

namespace {

// The ball (e = 0.5, omega = 2 pi) with A and omega riding in the state,
// near its period-1 orbit at A = 0.3 (tests/continuation/periodic/
// shooting.test.cpp: mid-flight at t0 = 0.55), so that two forcing periods
// hold two impacts, each with a saltation depending on (q, v, A, omega).
std::shared_ptr<const flow::HybridSystem> ball() {
  models::BouncingBall b;
  b.e = 0.5;
  b.omega = 2 * M_PI;
  return flow::make_hybrid(b)->with_parameters_in_state({"A", "omega"});
}

flow::SimulationOptions tight() {
  flow::SimulationOptions o;
  o.absolute_tolerance = o.relative_tolerance = 1e-13;
  return o;
}

}  // namespace

TEST_CASE("tangent-lifted system: its w carries Phi w, its Phi the second derivative of the flow",
          "[flow][lifted]") {
  const auto system = ball();
  const auto lifted = system->tangent_lifted();
  REQUIRE(lifted->dimension() == 8);
  CHECK(lifted->state_names()[5] == "dv");
  const double t0 = 0.55, t1 = t0 + 2.0;
  Vector z0(4), w0(4);
  z0 << 1.37, 0.32, 0.3, 2 * M_PI;
  w0 << 0.3, -0.7, 0.2, 0.05;
  Vector zw(8);
  zw << z0, w0;

  // The lifted end: (phi(z0), Phi(z0) w0) with Phi the simulator's
  // saltation-corrected state-transition matrix of the ball itself.
  const flow::Trajectory plain = flow::simulate(*system, 0, t0, z0, t1, tight());
  const flow::Trajectory lift = flow::simulate(*lifted, 0, t0, zw, t1, tight());
  REQUIRE(plain.ok());
  REQUIRE(lift.ok());
  REQUIRE(plain.events.size() == 2);
  REQUIRE(lift.events.size() == 2);
  CHECK((lift.x_end.head(4) - plain.x_end).norm() < 1e-12);
  const Vector Phi_w = plain.transition_matrix * w0;
  INFO("Phi w0 = " << Phi_w.transpose() << ", lifted " << lift.x_end.tail(4).transpose());
  CHECK((lift.x_end.tail(4) - Phi_w).norm() < 1e-9 * (1 + Phi_w.norm()));

  // The lifted Phi's lower-left block, d(Phi(z0) w0)/dz0, against central
  // differences of the plain system's Phi w0 (step 1e-5: truncation
  // ~1e-10 times the third derivative, rounding ~1e-13 / 1e-5 = 1e-8).
  const Matrix second = lift.transition_matrix.bottomLeftCorner(4, 4);
  const Matrix first = lift.transition_matrix.bottomRightCorner(4, 4);
  CHECK((first - plain.transition_matrix).norm() < 1e-9 * plain.transition_matrix.norm());
  Matrix fd(4, 4);
  const double h = 1e-5;
  for (int j = 0; j < 4; ++j) {
    Vector zp = z0, zm = z0;
    zp[j] += h;
    zm[j] -= h;
    const flow::Trajectory a = flow::simulate(*system, 0, t0, zp, t1, tight());
    const flow::Trajectory b = flow::simulate(*system, 0, t0, zm, t1, tight());
    REQUIRE(a.events.size() == 2);
    REQUIRE(b.events.size() == 2);
    fd.col(j) = (a.transition_matrix - b.transition_matrix) * w0 / (2 * h);
  }
  INFO("exact\n" << second << "\ndifferences\n" << fd);
  CHECK((second - fd).norm() < 1e-6 * (1 + fd.norm()));
  // Not trivially small: the impacts make the second derivative large.
  CHECK(fd.norm() > 1.0);
}

TEST_CASE("tangent-lifted system: lifted twice (third derivatives), not three times", "[flow][lifted]") {
  const auto twice = ball()->tangent_lifted()->tangent_lifted();
  CHECK(twice->dimension() == 4 * ball()->dimension());
  CHECK_THROWS_AS(twice->tangent_lifted(), std::logic_error);
}
