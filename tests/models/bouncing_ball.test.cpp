#include "models/bouncing_ball.h"

#include <boost/math/tools/toms748_solve.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <iomanip>
#include <limits>
#include <random>
#include <sstream>
#include <string>

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

// Issue 34, item 5: a ball on a table shaken harder than gravity bounces
// chaotically, and some rebounds are slow: the ball leaves the table barely
// faster than it, and the table, decelerating at up to A omega^2 > g, comes
// back up to meet it within a fraction of its period. The flight is a
// parabola, which the Runge-Kutta methods integrate exactly, so their error
// control never shortens a step: the table's motion is only in the guard.
// Guards checked at the step ends alone let such a re-impact pass unseen
// inside a long step (the gap positive at both ends, negative in between),
// and the ball flew on through the table.
namespace {

struct Fuzz {
  int runs = 0;
  long impacts = 0;
  double deepest = 0.0;  // the lowest gap in flight or at an impact (below the flight's start)
  std::string where;     // the run and time of it
  double drift = 0.0;    // the largest |gap| / tolerance riding the table (mode 1)
  std::size_t fewest_events = std::numeric_limits<std::size_t>::max();  // in one run
};

// Many flights over several tables, tolerances, starts and both methods,
// with the guard searched inside every step (guard_search) or not.
Fuzz fuzz_shaken_tables(bool guard_search) {
  struct Table {
    double A, omega, e;
  };
  // All shaken harder than gravity (A omega^2 = 11.8, 13.3, 12.3 > g = 9.81):
  // sustained chaotic bouncing, with slow rebounds among the fast ones.
  const Table tables[] = {{0.3, 2 * M_PI, 0.9}, {0.15, 3 * M_PI, 0.8}, {0.05, 5 * M_PI, 0.95}};
  const double tolerances[] = {1e-6, 1e-7, 3e-8, 1e-8};
  Fuzz fuzz;
  std::mt19937 rng(34);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (const IntegrationMethod method : {IntegrationMethod::kDop853, IntegrationMethod::kDopri5})
    for (const Table& table : tables)
      for (const double tolerance : tolerances)
        for (int start = 0; start < 3; ++start) {
          models::BouncingBall ball;
          ball.A = table.A;
          ball.omega = table.omega;
          ball.e = table.e;
          auto system = make_hybrid(ball);
          Vector x0(2);
          x0 << table.A + 0.5 * unit(rng), -1.0 + 3.0 * unit(rng);
          SimulationOptions options;
          options.method = method;
          options.absolute_tolerance = options.relative_tolerance = tolerance;
          options.output_interval = 0.01;
          options.guard_search = guard_search;
          options.variational = start == 0;  // Phi rides along or not: the steps of x are the same
          const Trajectory tr = simulate(*system, 0, 0.0, x0, 60.0, options);
          std::ostringstream run;
          run << to_string(method) << ", A = " << table.A << ", omega = " << table.omega
              << ", e = " << table.e << ", tolerance " << tolerance << std::setprecision(17) << ", x0 = ("
              << x0[0] << ", " << x0[1] << ")";
          INFO(run.str() << ": " << tr.message);
          REQUIRE(tr.ok());
          fuzz.fewest_events = std::min(fuzz.fewest_events, tr.events.size());
          auto gap = [&](double t, const Vector& x) { return x[0] - ball.table(t); };
          // Riding the table (mode 1, the end of a Zeno sequence of bounces)
          // the ball integrates q'' = T''(t) from q = T: its gap there is the
          // integration's own error, within the tolerance, and a flight
          // after a take-off starts from it (the reset keeps q). That offset
          // is the contact's, not an impact stepped over: it is the flight's
          // zero below.
          for (std::size_t i = 0; i < tr.t.size(); ++i)
            if (tr.mode[i] == models::BouncingBall::kContact)
              fuzz.drift = std::max(fuzz.drift, std::abs(gap(tr.t[i], tr.x[i])) / tolerance);
          auto offset_at = [&](double t) {  // the gap the flight at t started with, when below the table
            double offset = 0.0;
            for (const Event& e : tr.events) {
              if (e.t > t) break;
              offset =
                  e.mode_before == models::BouncingBall::kContact ? std::min(0.0, gap(e.t, e.x_after)) : 0.0;
            }
            return offset;
          };
          auto note = [&](double t, double g) {
            if (g >= fuzz.deepest) return;
            fuzz.deepest = g;
            std::ostringstream w;
            w << run.str() << " at t = " << t;
            fuzz.where = w.str();
          };
          // Every output point in flight, and every impact (x- at the event).
          for (std::size_t i = 0; i < tr.t.size(); ++i)
            if (tr.mode[i] == models::BouncingBall::kFlight)
              note(tr.t[i], gap(tr.t[i], tr.x[i]) - offset_at(tr.t[i]));
          for (const Event& e : tr.events)
            if (e.mode_before == models::BouncingBall::kFlight)
              note(e.t, gap(e.t, e.x_before) - offset_at(e.t));
          ++fuzz.runs;
          fuzz.impacts += static_cast<long>(tr.events.size());
        }
  return fuzz;
}

}  // namespace

TEST_CASE("bouncing ball on a shaken table: no re-impact is stepped over at loose tolerances",
          "[flow][bouncing_ball][guard_search]") {
  // The gap q - A sin(omega t) is >= -1e-9 at every output point in flight
  // and at every impact: the flight is a parabola, the table's position is
  // exact, and an event is located on the side before the guard.
  const Fuzz fuzz = fuzz_shaken_tables(true);
  INFO(fuzz.runs << " runs, " << fuzz.impacts << " impacts; deepest below the table " << fuzz.deepest << " ("
                 << fuzz.where << ")");
  CHECK(fuzz.runs == 72);
  CHECK(fuzz.fewest_events > 20);  // bouncing all along
  CHECK(fuzz.deepest >= -1e-9);
  CHECK(fuzz.drift <= 10.0);
}

TEST_CASE(
    "bouncing ball on a shaken table: with the guards checked at the step ends alone, a ball passes through",
    "[flow][bouncing_ball][guard_search]") {
  // The same runs with SimulationOptions::guard_search = false, as the
  // simulator was before issue 34 item 5: the fuzz above is fine enough to
  // see the defect (some ball ends up centimetres below the table).
  const Fuzz fuzz = fuzz_shaken_tables(false);
  INFO(fuzz.runs << " runs, " << fuzz.impacts << " impacts; deepest below the table " << fuzz.deepest << " ("
                 << fuzz.where << ")");
  CHECK(fuzz.deepest < -1e-6);
}
