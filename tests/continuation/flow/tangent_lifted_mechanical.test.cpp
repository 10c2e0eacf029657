// The tangent-lifted system of a mechanical model (flow::Mechanical on
// Taylor series): the triple pendulum of examples/triple_pendulum_light.json
// through impacts on its barrier.

#include <catch2/catch.hpp>
#include <cmath>

#include "continuation/flow/mechanical.h"
#include "continuation/flow/simulate.h"
#include "models/triple_pendulum.h"

using namespace saltus;

namespace {

// The light set (eta = 1.8, e = 0.9, c_i = 0.12, q1 = 1.287) with q1 and c2
// riding in the state: z = (psi, psi', q1, c2), eight components.
std::shared_ptr<const flow::HybridSystem> pendulum() {
  models::TriplePendulum p;
  p.q1 = 1.287;
  p.eta = 1.8;
  p.c1 = p.c2 = p.c3 = 0.12;
  p.e = 0.9;
  return flow::make_mechanical(p)->with_parameters_in_state({"q1", "c2"});
}

flow::SimulationOptions tight() {
  flow::SimulationOptions o;
  o.absolute_tolerance = o.relative_tolerance = 1e-12;
  return o;
}

}  // namespace

TEST_CASE("tangent-lifted triple pendulum: d(Phi w)/dz0 through impacts against differences of Phi",
          "[flow][lifted][mechanical]") {
  const auto system = pendulum();
  const auto lifted = system->tangent_lifted();
  REQUIRE(lifted->dimension() == 16);
  // The third link swings into the barrier (h_3 = 1.8 - sum cos psi_i) within
  // the span: the link hangs near the vertical, so every impact of the span
  // is a transversal one of the third constraint.
  Vector z0(8), w0(8);
  z0 << 0.3, -0.2, 0.4, 0.5, -0.3, 1.2, 1.287, 0.12;
  w0 << 0.3, -0.7, 0.2, 0.5, 0.1, -0.4, 0.6, 0.8;
  Vector zw(16);
  zw << z0, w0;
  const double t0 = 0.0, t1 = 6.0;
  const flow::Trajectory plain = flow::simulate(*system, 0, t0, z0, t1, tight());
  const flow::Trajectory lift = flow::simulate(*lifted, 0, t0, zw, t1, tight());
  REQUIRE(plain.ok());
  REQUIRE(lift.ok());
  const int impacts = static_cast<int>(plain.events.size());
  INFO("events: " << impacts);
  REQUIRE(impacts >= 1);
  REQUIRE(lift.events.size() == plain.events.size());

  // (phi(z0), Phi(z0) w0) with Phi the simulator's saltation-corrected
  // state-transition matrix of the pendulum itself.
  CHECK((lift.x_end.head(8) - plain.x_end).norm() < 1e-9 * (1 + plain.x_end.norm()));
  const Vector Phi_w = plain.transition_matrix * w0;
  CHECK((lift.x_end.tail(8) - Phi_w).norm() < 1e-7 * (1 + Phi_w.norm()));

  // The lifted Phi's lower-left block, d(Phi(z0) w0)/dz0, against central
  // differences of Phi w0 (step 1e-5: truncation ~1e-10 times the third
  // derivative, rounding ~1e-12 / 1e-5 = 1e-7 relative).
  const Matrix second = lift.transition_matrix.bottomLeftCorner(8, 8);
  Matrix fd(8, 8);
  const double h = 1e-5;
  for (int j = 0; j < 8; ++j) {
    Vector zp = z0, zm = z0;
    zp[j] += h;
    zm[j] -= h;
    const flow::Trajectory a = flow::simulate(*system, 0, t0, zp, t1, tight());
    const flow::Trajectory b = flow::simulate(*system, 0, t0, zm, t1, tight());
    REQUIRE(a.events.size() == plain.events.size());
    REQUIRE(b.events.size() == plain.events.size());
    fd.col(j) = (a.transition_matrix - b.transition_matrix) * w0 / (2 * h);
  }
  INFO("exact\n" << second << "\ndifferences\n" << fd);
  CHECK((second - fd).norm() < 1e-5 * (1 + fd.norm()));
  CHECK(fd.norm() > 1.0);
}
