#include "continuation/periodic/shooting.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "continuation/flow/hybrid_system.h"
#include "continuation/periodic/period_doubling.h"
#include "continuation/pseudo_arclength.h"
#include "models/bouncing_ball.h"
#include "testfunctions/floquet.h"
#include "testfunctions/fold.h"

using namespace saltus;
using namespace saltus::periodic;

namespace {

// The period-1 orbit of the ball on a table moving as A sin(omega t): one
// impact per forcing period tau = 2 pi / omega, at phase phi with
//
//   cos(phi) = (1 - e) g pi / ((1 + e) A omega^2)            (V* = A omega cos phi)
//
// (the ball leaves with u = g tau / 2 and returns with -g tau / 2, and
// Newton's law u - V = -e (-g tau / 2 - V) fixes the table velocity V*).
// The impact map (t_k, u_k) -> (t_{k+1}, u_{k+1}) has at the orbit the
// Jacobian (derived by implicit differentiation of the flight equation
// X(t_k) + u s - g s^2 / 2 = X(t_k + s))
//
//   J = [ 1            a                                ]
//       [ (1 + e) alpha  -e + a ((1 + e) alpha + e g) ],   a = (1 + e) / g,
//
// alpha = -A omega^2 sin(phi) the table acceleration at impact; det J = e^2.
// Its eigenvalues are the orbit's Floquet multipliers (the period map is
// conjugate to the impact map). A multiplier +1 needs alpha = 0 (phi = 0:
// the existence boundary, a fold of cycles at A omega = V*), -1 needs
// A omega^2 sin(phi) = 2 g (1 + e^2) / (1 + e)^2 (period doubling).
struct Analytic {
  double g = 9.81, e = 0.5, omega = 2 * M_PI;
  double tau() const { return 2 * M_PI / omega; }
  double V() const { return (1 - e) * g * tau() / (2 * (1 + e)); }
  double phi(double A) const { return std::acos(V() / (A * omega)); }  // the stable one: sin phi > 0
  Eigen::Matrix2d jacobian(double A) const {
    const double alpha = -A * omega * omega * std::sin(phi(A)), a = (1 + e) / g;
    Eigen::Matrix2d J;
    J << 1, a, (1 + e) * alpha, -e + a * ((1 + e) * alpha + e * g);
    return J;
  }
  double A_fold() const { return V() / omega; }
  double A_pd() const {
    const double s = 2 * g * (1 + e * e) / ((1 + e) * (1 + e)) / (omega * omega);
    return std::hypot(s, V() / omega);
  }
  // The state at t0 (mid-flight) on the orbit.
  Vector state(double A, double t0) const {
    const double t_impact = phi(A) / omega, u = g * tau() / 2, s = t0 - t_impact;
    Vector x(3);
    x << A * std::sin(phi(A)) + u * s - g * s * s / 2, u - g * s, A;
    return x;
  }
};

std::shared_ptr<ShootingSystem> ball_orbits(const Analytic& an, double t0) {
  models::BouncingBall ball;
  ball.g = an.g;
  ball.e = an.e;
  ball.omega = an.omega;
  ShootingOptions options;
  options.t0 = t0;
  options.period = an.tau();
  return std::make_shared<ShootingSystem>(flow::make_hybrid(ball)->with_parameters_in_state({"A"}), 1,
                                          options);
}

}  // namespace

TEST_CASE("bouncing ball: the period-1 orbit by shooting, its multipliers analytic", "[periodic]") {
  const Analytic an;
  const double t0 = 0.55, A = 0.3;
  auto system = ball_orbits(an, t0);
  ContinuationProblem problem(system, Vector::Constant(1, A), {"A"});
  Vector guess = an.state(A, t0);
  guess[0] += 2e-3;  // a nearby guess, corrected by Newton on the shooting map
  guess[1] -= 1e-2;
  ContinuationOptions options;
  options.max_points = 1;
  const Branch b = continue_branch(problem, guess, options);
  REQUIRE(b.usable());
  const Vector orbit = b.points[0].y;
  CHECK((orbit - an.state(A, t0)).norm() < 1e-9);
  const Eigen::VectorXcd mu = floquet_multipliers(system->monodromy(orbit));
  Eigen::VectorXcd expected = Eigen::EigenSolver<Eigen::Matrix2d>(an.jacobian(A)).eigenvalues();
  INFO("multipliers " << mu.transpose() << ", analytic " << expected.transpose());
  // A complex pair: compare moduli, and the pair as a set.
  for (int i = 0; i < 2; ++i) {
    const double d = std::min(std::abs(mu[i] - expected[0]), std::abs(mu[i] - expected[1]));
    CHECK(d < 1e-8);
  }
  CHECK(std::abs(std::abs(mu[0] * mu[1]) - an.e * an.e) < 1e-9);  // det = e^2
}

TEST_CASE("bouncing ball: continuation in A locates the fold of cycles and the period doubling",
          "[periodic]") {
  const Analytic an;
  const double t0 = 0.55, A = 0.3;
  auto system = ball_orbits(an, t0);
  ContinuationProblem problem(system, Vector::Constant(1, A), {"A"});
  ContinuationOptions options;
  options.ds = 0.005;
  options.ds_max = 0.02;
  options.max_points = 200;
  options.event_tolerance = 1e-12;
  const TestFunctions tests = {std::make_shared<FoldTest>("LPC"), std::make_shared<PeriodDoublingTest>()};

  SECTION("down to the existence boundary") {
    options.direction = -1;
    options.bounds["A"] = {0.2, 0.5};
    const Branch b = continue_branch(problem, an.state(A, t0), options, tests);
    INFO(b.message);
    const SpecialPoint* lpc = nullptr;
    for (const auto& s : b.special_points)
      if (s.type == "LPC") lpc = &s;
    REQUIRE(lpc);
    CHECK(lpc->status == EventStatus::kLocated);
    CAPTURE(lpc->y[2] - an.A_fold(), an.A_fold());
    CHECK(std::abs(lpc->y[2] - an.A_fold()) < 1e-8);
  }
  SECTION("up to the period doubling") {
    options.direction = +1;
    options.bounds["A"] = {0.2, 0.45};
    const Branch b = continue_branch(problem, an.state(A, t0), options, tests);
    INFO(b.message);
    const SpecialPoint* pd = nullptr;
    for (const auto& s : b.special_points)
      if (s.type == "PD") pd = &s;
    REQUIRE(pd);
    CHECK(pd->status == EventStatus::kLocated);
    CAPTURE(pd->y[2] - an.A_pd(), an.A_pd());
    CHECK(std::abs(pd->y[2] - an.A_pd()) < 1e-8);
    // At the PD a multiplier is -1.
    const Eigen::VectorXcd mu = floquet_multipliers(system->monodromy(pd->y));
    CHECK(std::abs(mu[0] + 1.0) < 1e-6);
  }
}

TEST_CASE(
    "bouncing ball: the cascade switches at the PD onto the period-2 orbit (forced: the period doubles)",
    "[periodic]") {
  const Analytic an;
  const double t0 = 0.55, A = 0.3;
  auto system = ball_orbits(an, t0);
  ContinuationProblem problem(system, Vector::Constant(1, A), {"A"});
  ContinuationOptions options;
  options.direction = +1;
  options.ds = 0.005;
  options.ds_max = 0.005;
  options.max_points = 200;
  options.event_tolerance = 1e-12;
  options.bounds["A"] = {0.2, an.A_pd() + 0.02};
  const auto levels = period_doubling_cascade(system, problem, an.state(A, t0), options,
                                              {std::make_shared<PeriodDoublingTest>()}, 2);
  INFO(levels[0].branch.message);
  REQUIRE(levels.size() == 2);
  REQUIRE(levels[0].pd);
  CHECK(std::abs(levels[0].pd->y[2] - an.A_pd()) < 1e-8);
  // The doubled problem shoots over two forcing periods.
  CHECK(levels[1].system != system);
  CHECK(levels[1].system->options().period == Approx(2 * an.tau()).epsilon(1e-15));
  const Branch& doubled = levels[1].branch;
  INFO(doubled.message);
  REQUIRE(doubled.points.size() > 5);
  // Past the PD the orbit is a genuine period-2 orbit: after one forcing
  // period it is elsewhere, by an amount growing like sqrt(A - A_PD), and it
  // returns after two.
  const Vector& y = doubled.points.back().y;
  const double A2 = y[2];
  CHECK(A2 > an.A_pd() + 0.01);
  const auto half = flow::simulate(*system->hybrid(), 0, t0, y, t0 + an.tau());
  const auto whole = flow::simulate(*system->hybrid(), 0, t0, y, t0 + 2 * an.tau());
  REQUIRE(half.ok());
  REQUIRE(whole.ok());
  CHECK(half.events.size() == 1);
  CHECK(whole.events.size() == 2);
  CAPTURE(A2, half.x_end.transpose(), y.transpose());
  CHECK((half.x_end.head(2) - y.head(2)).norm() > 1e-3);
  CHECK((whole.x_end.head(2) - y.head(2)).norm() < 1e-8);
}
