// The simulator's step cap, guard values inside a step (event_samples) and
// the two economies of the variational equations (constant components,
// state-only step-size control).

#include <catch2/catch.hpp>
#include <cmath>

#include "continuation/flow/simulate.h"

using namespace saltus;
using namespace saltus::flow;

namespace {

// x' = -sign(x) with no guard at x = 0: from x = 1 the solution reaches 0
// at t = 1, and from there every step straddles the discontinuity. The error
// estimate of a step of size h is then of order h, so the step collapses to
// the tolerance: the run could not reach t = 2 in any reasonable time.
struct SignWithoutGuard {
  int dimension() const { return 1; }
  template <class T>
  void field(int, const T&, const T* x, T* f) const {
    f[0] = x[0] > 0.0 ? T(-1.0) : T(1.0);
  }
};

// The elastic wall of simulate.test.cpp with its frequency w carried as a
// third state component (w' = 0, unchanged by the reset): x' = y,
// y' = -w^2 x, and y -> -y when x falls through 0.
struct ElasticWallWithFrequency {
  int dimension() const { return 3; }
  int guard_count(int) const { return 1; }
  template <class T>
  void field(int, const T&, const T* x, T* f) const {
    f[0] = x[1];
    f[1] = -x[2] * x[2] * x[0];
    f[2] = T(0.0);
  }
  template <class T>
  T guard(int, int, const T&, const T* x) const {
    return x[0];
  }
  int next_mode(int mode, int, double, const double*) const { return mode; }
  template <class T>
  void reset(int, int, int, const T&, const T* x, T* xp) const {
    xp[0] = x[0];
    xp[1] = -x[1];
    xp[2] = x[2];
  }
};

// x' = 1 from x = 0, and a guard negative only on a dip of width 0.02 around
// x = 5: h = (x - 5)^2 - 0.01^2, falling at t = 4.99. The field is exact for
// every Runge-Kutta method, so the steps grow to max_step and straddle the dip.
struct NarrowDip {
  int dimension() const { return 1; }
  int guard_count(int mode) const { return mode == 0 ? 1 : 0; }
  template <class T>
  void field(int, const T&, const T*, T* f) const {
    f[0] = T(1.0);
  }
  template <class T>
  T guard(int, int, const T&, const T* x) const {
    return (x[0] - 5.0) * (x[0] - 5.0) - 1e-4;
  }
  int next_mode(int, int, double, const double*) const { return 1; }
  template <class T>
  void reset(int, int, int, const T&, const T* x, T* xp) const {
    xp[0] = x[0];
  }
};

}  // namespace

TEST_CASE("event_samples: a guard that dips through zero and back within one step is seen", "[flow]") {
  auto system = make_hybrid(NarrowDip{});
  SimulationOptions options;
  options.method = GENERATE(IntegrationMethod::kDopri5, IntegrationMethod::kDop853);
  INFO("method " << to_string(options.method));
  options.max_step = 2.0;
  options.variational = false;
  const Vector x0 = Vector::Zero(1);
  // By default the guard is searched inside every step (continuation/flow/
  // guard_search.h): the dip, 0.02 wide inside a step of 2, is seen and
  // located.
  const Trajectory searched = simulate(*system, 0, 0.0, x0, 10.0, options);
  REQUIRE(searched.ok());
  REQUIRE(searched.events.size() == 1);
  CHECK(searched.events[0].t == Approx(4.99).margin(1e-12));
  CHECK(searched.mode_end == 1);
  // The guards at the step ends alone (guard_search off): the dip is unseen.
  options.guard_search = false;
  const Trajectory ends = simulate(*system, 0, 0.0, x0, 10.0, options);
  REQUIRE(ends.ok());
  CHECK(ends.events.empty());
  // 200 values per step (at most 0.01 apart): seen without the search too.
  options.event_samples = 200;
  const Trajectory inside = simulate(*system, 0, 0.0, x0, 10.0, options);
  REQUIRE(inside.ok());
  REQUIRE(inside.events.size() == 1);
  CHECK(inside.events[0].t == Approx(4.99).margin(1e-12));
  CHECK(inside.mode_end == 1);
  options.event_samples = 0;
  CHECK_THROWS_WITH(simulate(*system, 0, 0.0, x0, 10.0, options), Catch::Contains("event_samples = 0"));
}

TEST_CASE("a run that cannot finish within max_steps at its pace ends early", "[flow]") {
  // Stalled at the discontinuity the steps are about 1e-12 long: the second
  // of span left would take 1e12 steps. The pace is checked every 1e5 steps,
  // so the run ends after 2e5 of the default 1e7, not at the budget.
  auto system = make_hybrid(SignWithoutGuard{});
  Vector x0(1);
  x0 << 1.0;
  const Trajectory tr = simulate(*system, 0, 0.0, x0, 2.0, SimulationOptions{});
  INFO(tr.message);
  CHECK(tr.status == SimulationStatus::kTooManySteps);
  CHECK_THAT(tr.message,
             Catch::Contains("at the pace of the last steps") && Catch::Contains("max_steps = 10000000"));
  CHECK(tr.t_end == Approx(1.0).margin(1e-3));
  CHECK(tr.t.size() <= 200001);
}

TEST_CASE("a collapsing step size ends the run at max_steps", "[flow]") {
  auto system = make_hybrid(SignWithoutGuard{});
  SimulationOptions options;
  options.max_steps = 10000;  // milliseconds; 1e12 steps would be needed past t = 1
  Vector x0(1);
  x0 << 1.0;
  const Trajectory tr = simulate(*system, 0, 0.0, x0, 2.0, options);
  INFO(tr.message);
  CHECK(tr.status == SimulationStatus::kTooManySteps);
  CHECK(to_string(tr.status) == "too_many_steps");
  CHECK_THAT(tr.message, Catch::Contains("max_steps = 10000") && Catch::Contains("step size"));
  // Stalled at the discontinuity, x = 0 at t = 1 (to the chattering's amplitude).
  CHECK(tr.t_end == Approx(1.0).margin(1e-3));
  CHECK(std::abs(tr.x_end[0]) < 1e-3);

  SimulationOptions bad;
  bad.max_steps = 0;
  CHECK_THROWS_WITH(simulate(*system, 0, 0.0, x0, 2.0, bad), Catch::Contains("max_steps"));
}

TEST_CASE("constant components: Phi's rows (0 I) are not integrated, Phi is the same", "[flow]") {
  auto system = make_hybrid(ElasticWallWithFrequency{});
  Vector x0(3);
  x0 << 0.5, 0.3, 1.3;
  SimulationOptions full;
  full.absolute_tolerance = full.relative_tolerance = 1e-10;
  SimulationOptions reduced = full;
  reduced.constant_components = 1;
  const Trajectory a = simulate(*system, 0, 0.0, x0, 7.0, full);
  const Trajectory b = simulate(*system, 0, 0.0, x0, 7.0, reduced);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  REQUIRE(a.events.size() >= 2);  // the saltation matrices take part
  REQUIRE(b.transition_matrix.rows() == 3);
  // The constant rows add nothing to the error norm (their errors are zero),
  // so both runs take the same steps: the same Phi up to rounding.
  CHECK(b.events.size() == a.events.size());
  CHECK((a.transition_matrix - b.transition_matrix).cwiseAbs().maxCoeff() <
        1e-12 * a.transition_matrix.norm());
  CHECK(b.transition_matrix.row(2).isApprox(Eigen::RowVector3d(0, 0, 1)));

  SimulationOptions too_many = full;
  too_many.constant_components = 4;
  CHECK_THROWS_WITH(simulate(*system, 0, 0.0, x0, 7.0, too_many), Catch::Contains("constant_components"));
}

TEST_CASE("state-only step-size control: Phi to the accuracy of the state", "[flow]") {
  // The harmonic oscillator away from the wall (x > 0 throughout): Phi's
  // (x, y) block is the rotation by t, exactly.
  auto system = make_hybrid(ElasticWallWithFrequency{});
  Vector x0(3);
  x0 << 1.0, 1.0, 1.0;  // x = sqrt(2) sin(t + pi/4) > 0 on [0, 2)
  SimulationOptions options;
  options.absolute_tolerance = options.relative_tolerance = 1e-10;
  options.transition_error_control = false;
  options.constant_components = 1;
  const double t = 2.0;
  const Trajectory tr = simulate(*system, 0, 0.0, x0, t, options);
  REQUIRE(tr.ok());
  REQUIRE(tr.events.empty());
  Matrix R(2, 2);
  R << std::cos(t), std::sin(t), -std::sin(t), std::cos(t);
  // Phi obeys the state's own (linear) equation on the state's steps: its
  // error is the state's, a few tolerances over the run.
  CHECK((tr.transition_matrix.topLeftCorner(2, 2) - R).cwiseAbs().maxCoeff() < 1e-8);
  // d(x, y)/dw at w = 1: x = x0 cos(w t) + y0/w sin(w t) differentiated in w.
  CHECK(tr.transition_matrix(0, 2) == Approx(-t * std::sin(t) - std::sin(t) + t * std::cos(t)).margin(1e-8));
}
