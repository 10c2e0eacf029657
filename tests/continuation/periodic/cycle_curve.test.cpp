#include "continuation/periodic/cycle_curve.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "bouncing_ball_closed_form.h"
#include "continuation/flow/hybrid_system.h"
#include "continuation/pseudo_arclength.h"
#include "models/bouncing_ball.h"

using namespace saltus;
using namespace saltus::periodic;

namespace {

// The ball's orbits with (A, omega) carried, the forcing period 2 pi / omega
// following omega and the cut at the phase 0.55 of it (t0 = 0.55 at omega = 2 pi).
ShootingSystem ball_in_A_omega(double e) {
  models::BouncingBall ball;
  ball.e = e;
  ShootingOptions options;
  options.phase = 0.55;
  options.period_of = [](const Vector& p, Vector* dT_dp) {
    if (dT_dp) *dT_dp = Eigen::Vector2d(0.0, -2 * M_PI / (p[1] * p[1]));
    return 2 * M_PI / p[1];
  };
  options.simulation.absolute_tolerance = options.simulation.relative_tolerance = 1e-12;
  return ShootingSystem(flow::make_hybrid(ball)->with_parameters_in_state({"A", "omega"}), 2, options);
}

Vector start(const testing::BallClosedForm& an, double A) {
  Vector u(4);
  u << an.state(A, 0.55), A, an.omega;
  return u;
}

}  // namespace

TEST_CASE("cycle curve: the exact Jacobian of the LPC and PD systems against differences",
          "[periodic][cycle_curve]") {
  const testing::BallClosedForm an;
  const ShootingSystem shooting = ball_in_A_omega(an.e);
  for (const auto kind : {CycleBifurcation::kFold, CycleBifurcation::kPeriodDoubling}) {
    // Off the curve (A 3% above it, omega 2% off), where every block moves.
    const double A = 1.03 * (kind == CycleBifurcation::kFold ? an.A_fold() : an.A_pd());
    Vector u = start(an, A);
    u[3] *= 1.02;
    const CycleCurveSystem system(shooting, kind, u);
    Matrix J;
    system.jacobian(u.data(), &J);
    Matrix fd(3, 4);
    const double h = 1e-6;
    for (int j = 0; j < 4; ++j) {
      Vector up = u, um = u, fp(3), fm(3);
      up[j] += h;
      um[j] -= h;
      system.residual(up.data(), fp.data());
      system.residual(um.data(), fm.data());
      fd.col(j) = (fp - fm) / (2 * h);
    }
    INFO(to_string(kind) << ": exact\n" << J << "\ndifferences\n" << fd);
    // Differences of 1e-12-accurate residuals at h = 1e-6: ~1e-6 absolute.
    CHECK((J - fd).norm() < 1e-5 * (1 + fd.norm()));
    CHECK(std::abs(J(2, 3)) > 1e-3);  // the g row's omega entry carries the moving cut
  }
}

TEST_CASE("cycle curve: the bouncing ball's PD curve in (A, omega) is the closed form",
          "[periodic][cycle_curve]") {
  testing::BallClosedForm an;
  const ShootingSystem shooting = ball_in_A_omega(an.e);
  const Vector u0 = start(an, an.A_pd());
  auto system = std::make_shared<CycleCurveSystem>(shooting, CycleBifurcation::kPeriodDoubling, u0);
  const ContinuationProblem problem(system, Vector::Constant(1, u0[3]), {"omega"});
  ContinuationOptions options;
  options.ds = 0.05;
  options.ds_max = 0.2;
  options.max_points = 12;
  const Branch curve = continue_branch(problem, u0, options);
  INFO(curve.message);
  REQUIRE(curve.points.size() >= 10);
  double worst = 0.0;
  for (const auto& p : curve.points) {
    an.omega = p.y[3];
    worst = std::max(worst, std::abs(p.y[2] - an.A_pd()));
  }
  CHECK(std::abs(curve.points.back().y[3] - 2 * M_PI) > 0.3);
  CHECK(worst < 1e-8);
}
