#include "models/filippov_hybrid.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "continuation/flow/lyapunov.h"
#include "continuation/flow/simulate.h"
#include "models/wheel_turntable.h"
#include "tests/continuation/flow/finite_differences.h"
#include "tests/drivers/run_cli.h"

using namespace saltus;
using namespace saltus::filippov;

namespace {

// The planar example. Sigma: y = 0, and
//
//   f(x, y, lambda) = (1, x - s lambda),   h = y,
//
// so x = x0 + t in every mode, h_x . f(., 0) = x and h_x . f_lambda = -s.
// With s = +1 (friction-like): lambda_eq = x; F+- = (1, x -+ mu), H+- = x -+ mu;
// sliding for |x| < mu (17), crossing downwards for x < -mu and upwards for
// x > mu, F_s = (1, 0). With s = -1: H+- = x +- mu, escaping for |x| < mu (18).
struct Planar {
  double mu = 1.0;
  double s = 1.0;
  int state_size() const { return 2; }
  std::vector<std::string> state_names() const { return {"x", "y"}; }
  template <class T>
  T switching(const T* z) const {
    return z[1];
  }
  template <class T>
  void field(const T* z, const T& lambda, T* f) const {
    f[0] = T(1.0);
    f[1] = z[0] - s * lambda;
  }
};

// The orbit from (x0, y0), y0 > 0, in F+ with mu = 1 and the stick bound b.
// Closed forms (x = x0 + t throughout):
//   F+:  y = y0 + (x0 - mu) t + t^2 / 2 hits y = 0 first at
//        t1 = (mu - x0) - sqrt((mu - x0)^2 - 2 y0),  x_c = x0 + t1;
//        for x_c < -mu both H+- < 0: it crosses downwards;
//   F-:  y = (x_c + mu) s + s^2 / 2 (s = t - t1) is zero again at
//        s = -2 (x_c + mu), i.e. t2 = t1 - 2 (x_c + mu), x_e = -x_c - 2 mu,
//        inside (-mu, mu) for -3 mu < x_c < -mu: it enters sliding;
//   slide: x' = 1, y = 0 until lambda_eq = x reaches b: t3 = t2 + b - x_e;
//   F+:  y = (x - mu)^2 / 2 - (b - mu)^2 / 2 + (b - mu)(x - b) ... written
//        as y(t) = (b - mu) u + u^2 / 2 with u = t - t3.
struct PlanarOrbit {
  double mu = 1.0, b = 1.0, x0 = -4.0, y0 = 7.0;
  double t1() const { return (mu - x0) - std::sqrt((mu - x0) * (mu - x0) - 2 * y0); }
  double xc() const { return x0 + t1(); }
  double t2() const { return t1() - 2 * (xc() + mu); }
  double xe() const { return -xc() - 2 * mu; }
  double t3() const { return t2() + b - xe(); }
  Vector end(double t) const {
    const double u = t - t3();
    Vector z(2);
    z << x0 + t, (b - mu) * u + 0.5 * u * u;
    return z;
  }
};

// A field whose Jacobians are not constant, so that the variational
// equations and the exact guard gradient of H(x, +-b) matter:
//   f = (1 + 0.3 y + 0.1 sin x, x - 0.5 y^2 - lambda (1 + 0.2 x^2)),  h = y - 0.1 sin x.
struct Curved {
  double mu = 1.0;
  int state_size() const { return 2; }
  template <class T>
  T switching(const T* z) const {
    using std::sin;
    return z[1] - 0.1 * sin(z[0]);
  }
  template <class T>
  void field(const T* z, const T& lambda, T* f) const {
    using std::sin;
    f[0] = 1.0 + 0.3 * z[1] + 0.1 * sin(z[0]);
    f[1] = z[0] - 0.5 * z[1] * z[1] - lambda * (1.0 + 0.2 * z[0] * z[0]);
  }
};

Vector point(double x, double y) {
  Vector z(2);
  z << x, y;
  return z;
}

}  // namespace

TEST_CASE("filippov flow: crossing, entering and leaving sliding at the closed-form times",
          "[filippov-flow]") {
  for (double b : {1.0, 1.5}) {
    const PlanarOrbit orbit{1.0, b};
    REQUIRE(orbit.xc() < -1.0);
    REQUIRE(orbit.xc() > -3.0);
    FlowOptions options;
    options.stick_bound = b;
    const auto system = make_filippov_flow(Planar{}, options);
    const double t_end = orbit.t3() + 1.0;
    const Vector start = point(orbit.x0, orbit.y0);
    REQUIRE(system->functor().initial_mode(start) == kPlusMode);
    const flow::Trajectory tr = flow::simulate(*system, kPlusMode, 0.0, start, t_end);
    INFO("b = " << b << ": " << tr.message);
    REQUIRE(tr.ok());
    REQUIRE(tr.events.size() == 3);
    CHECK(tr.events[0].mode_before == kPlusMode);
    CHECK(tr.events[0].mode_after == kMinusMode);    // crossing
    CHECK(tr.events[1].mode_after == kSlidingMode);  // entering sliding
    CHECK(tr.events[2].mode_after == kPlusMode);     // leaving at lambda_eq = b
    CHECK(tr.events[0].t == Approx(orbit.t1()).margin(1e-10));
    CHECK(tr.events[1].t == Approx(orbit.t2()).margin(1e-10));
    CHECK(tr.events[2].t == Approx(orbit.t3()).margin(1e-10));
    CHECK(std::abs(tr.events[1].x_after[0] - orbit.xe()) < 1e-10);
    CHECK(std::abs(tr.events[2].x_after[0] - b) < 1e-10);
    CHECK((tr.x_end - orbit.end(t_end)).norm() < 1e-10);
    // The mode column marks the sliding segment: every sample between the
    // entry and the exit is in the sliding mode, on y = 0.
    int sliding_samples = 0;
    for (std::size_t i = 0; i < tr.t.size(); ++i)
      if (tr.mode[i] == kSlidingMode) {
        ++sliding_samples;
        CHECK(tr.t[i] >= orbit.t2() - 1e-10);
        CHECK(tr.t[i] <= orbit.t3() + 1e-10);
        CHECK(std::abs(tr.x[i][1]) < 1e-12);
      }
    CHECK(sliding_samples >= 2);
    CHECK(system->mode_name(kSlidingMode) == "sliding");

    // The whole transition matrix in closed form: x' = 1 carries dx0 to the
    // end unchanged; entering sliding forgets y (the rank-one saltation), and
    // after the exit y = (b - mu) u + u^2 / 2 with u = t - t3 = x - b, so
    // dy_end/dx0 = b - mu + u (the exit time moves with x0, the
    // sliding entry does not remember y0).
    const double u = t_end - orbit.t3();
    Matrix expected(2, 2);
    expected << 1.0, 0.0, (b - orbit.mu) + u, 0.0;
    INFO("Phi =\n" << tr.transition_matrix);
    CHECK((tr.transition_matrix - expected).norm() < 1e-8);
  }
}

TEST_CASE("filippov flow: saltation matrices against closed forms and differences of the simulation",
          "[filippov-flow]") {
  // Each event alone: from 0.1 before it to 0.1 after, the saltation-
  // corrected transition matrix against central differences of the end
  // state (1e-6: differences with step 1e-6 of a piecewise-quadratic flow).
  // Closed forms, with S = I + (F_out - F_in) g_x^T / (g_x . F_in):
  //   crossing at x_c:  diag(1, (x_c + mu) / (x_c - mu));
  //   entering sliding: diag(1, 0) (y forgotten);
  //   leaving at b:     [[1, 0], [b - mu, 1]] (g = x - b, F_out - F_s = (0, b - mu)).
  for (double b : {1.0, 1.5}) {
    const PlanarOrbit orbit{1.0, b};
    FlowOptions options;
    options.stick_bound = b;
    const auto system = make_filippov_flow(Planar{}, options);
    const double times[3] = {orbit.t1(), orbit.t2(), orbit.t3()};
    Matrix saltation[3] = {Matrix::Identity(2, 2), Matrix::Identity(2, 2), Matrix::Identity(2, 2)};
    saltation[0](1, 1) = (orbit.xc() + 1.0) / (orbit.xc() - 1.0);
    saltation[1](1, 1) = 0.0;
    saltation[2](1, 0) = b - 1.0;
    for (int e = 0; e < 3; ++e) {
      INFO("b = " << b << ", event " << e);
      const double ta = times[e] - 0.1, tb = times[e] + 0.1;
      const flow::Trajectory lead = flow::simulate(*system, kPlusMode, 0.0, point(orbit.x0, orbit.y0), ta);
      REQUIRE(lead.ok());
      const flow::Trajectory window = flow::simulate(*system, lead.mode_end, ta, lead.x_end, tb);
      REQUIRE(window.ok());
      REQUIRE(window.events.size() == 1);
      CHECK((window.events[0].saltation - saltation[e]).norm() < 1e-9);
      const Matrix fd = testing::transition_by_differences(*system, lead.mode_end, ta, lead.x_end, tb, 1);
      INFO("Phi =\n" << window.transition_matrix << "\ndifferences =\n" << fd);
      CHECK((window.transition_matrix - fd).norm() < 1e-6);
    }
  }
}

TEST_CASE("filippov flow: a nonlinear orbit through crossing, sliding and exit against differences",
          "[filippov-flow]") {
  // Curved (above): Jacobians that are not constant, so that the variational
  // equations and the exact guard gradient of H(x, +-b) matter.
  // lambda_eq on Sigma is about x / (1 + 0.2 x^2), at most 1.118: b = 1.05
  // still lets the orbit leave.
  for (double b : {1.0, 1.05}) {
    FlowOptions options;
    options.stick_bound = b;
    const auto system = make_filippov_flow(Curved{}, options);
    const Vector start = point(-3.0, 3.0);
    const flow::Trajectory tr = flow::simulate(*system, kPlusMode, 0.0, start, 6.0);
    INFO("b = " << b << ": " << tr.message);
    std::ostringstream events;
    for (const auto& e : tr.events)
      events << e.t << ": " << e.mode_before << " -> " << e.mode_after << " at " << e.x_after.transpose()
             << "\n";
    INFO(events.str());
    REQUIRE(tr.ok());
    REQUIRE(tr.events.size() == 3);
    CHECK(tr.events[0].mode_after == kMinusMode);
    CHECK(tr.events[1].mode_after == kSlidingMode);
    CHECK(tr.events[2].mode_after == kPlusMode);
    const Matrix fd = testing::transition_by_differences(*system, kPlusMode, 0.0, start, 6.0, 3);
    INFO("Phi =\n" << tr.transition_matrix << "\ndifferences =\n" << fd);
    CHECK((tr.transition_matrix - fd).norm() < 1e-6 * (1.0 + fd.norm()));
    // Entering sliding makes the transition matrix singular: h_x^T S = 0.
    CHECK(std::abs(tr.transition_matrix.determinant()) < 1e-9);
  }
}

TEST_CASE("filippov flow: escaping points are left, never reached", "[filippov-flow]") {
  // s = -1: H+- = x +- mu, escaping for |x| < mu. F_s = (1, 0); from (x0, 0)
  // in the escaping mode the sliding flow reaches x = mu (where H- = 0) at
  // t = mu - x0 and leaves upwards into F+ (both H+- > 0 beyond).
  const auto system = make_filippov_flow(Planar{1.0, -1.0});
  const auto& flow_functor = system->functor();
  CHECK(flow_functor.initial_mode(point(-0.5, 0.0)) == kEscapingMode);
  CHECK(flow_functor.initial_mode(point(2.0, 0.0)) == kPlusMode);    // crossing upwards
  CHECK(flow_functor.initial_mode(point(-2.0, 0.0)) == kMinusMode);  // crossing downwards
  const flow::Trajectory tr = flow::simulate(*system, kEscapingMode, 0.0, point(-0.5, 0.0), 2.0);
  REQUIRE(tr.ok());
  REQUIRE(tr.events.size() == 1);
  CHECK(tr.events[0].t == Approx(1.5).margin(1e-10));
  CHECK(tr.events[0].mode_after == kPlusMode);
  // y = (x + mu)^2/2 - 2 = u (2 mu) + u^2 / 2 after the exit (u = t - 1.5): y' = x + mu.
  CHECK(tr.x_end[1] == Approx(2.0 * 0.5 + 0.125).margin(1e-10));
  // From below (F-: y' = x - mu) an orbit reaches y = 0 only where x >= mu,
  // outside the escaping region, and crosses: (x0, y0) = (0, -1) arrives at
  // x = 1 + sqrt(3) (y = t^2/2 - t - 1).
  const flow::Trajectory up = flow::simulate(*system, kMinusMode, 0.0, point(0.0, -1.0), 4.0);
  REQUIRE(up.ok());
  REQUIRE(up.events.size() == 1);
  CHECK(up.events[0].t == Approx(1.0 + std::sqrt(3.0)).margin(1e-10));
  CHECK(up.events[0].mode_after == kPlusMode);
  for (int m : up.mode) CHECK(m != kEscapingMode);
}

TEST_CASE("filippov flow: bad input is named", "[filippov-flow]") {
  FlowOptions low;
  low.stick_bound = 0.5;
  CHECK_THROWS_WITH(make_filippov_flow(Planar{}, low),
                    Catch::Contains("b = 0.5") && Catch::Contains("mu = 1"));
  CHECK_THROWS_WITH(make_filippov_flow(Planar{-1.0}), Catch::Contains("mu = -1"));
  const auto system = make_filippov_flow(Planar{});
  const auto& f = system->functor();
  CHECK_THROWS_WITH(f.check_mode(kSlidingMode, point(0.0, 0.5)), Catch::Contains("h = 0.5"));
  CHECK_THROWS_WITH(f.check_mode(kSlidingMode, point(2.0, 0.0)), Catch::Contains("cannot hold"));
  CHECK_THROWS_WITH(f.check_mode(kPlusMode, point(0.0, -0.5)), Catch::Contains("h >= 0"));
  CHECK_NOTHROW(f.check_mode(kSlidingMode, point(0.5, 0.0)));
  CHECK_THROWS_WITH(flow::simulate(*system, 7, 0.0, point(0.0, 1.0), 1.0), Catch::Contains("mode 7"));
}

TEST_CASE("filippov flow: the wheel on a turntable slides into its two-fold in finite time",
          "[filippov-flow]") {
  // Szalai & Jeffrey Sec. V: the two-fold x* at (r*, omega*) = (0.1859, -1.037)
  // is case 1 (analyses/two_fold/two_fold.h): sliding orbits near it reach it in
  // finite time. From (0.2, -0.02, -1.05) in F+ the orbit crosses into F-,
  // enters sliding and slides into x*, where the run stops in the two-fold
  // mode (h_x . f_lambda / (|h_x| |f_lambda|) = -1e-6: within about 1e-5 of x*).
  const models::WheelTurntable wheel = models::WheelTurntable::paper();
  const auto design = wheel.design_two_fold(0.1859, -1.037);
  Vector x_star(3);
  x_star << design.r, design.v, design.omega;
  const auto system = make_filippov_flow(wheel);
  Vector start(3);
  start << 0.2, -0.02, -1.05;
  REQUIRE(system->functor().initial_mode(start) == kPlusMode);
  const flow::Trajectory tr = flow::simulate(*system, kPlusMode, 0.0, start, 20.0);
  INFO(tr.message);
  REQUIRE(tr.ok());
  REQUIRE(tr.events.size() == 3);
  CHECK(tr.events[0].mode_after == kMinusMode);
  CHECK(tr.events[1].mode_after == kSlidingMode);
  CHECK(tr.events[2].mode_after == kTwoFoldMode);
  CHECK(tr.events[2].t < 10.0);  // finite time
  INFO("x_end = " << tr.x_end.transpose() << ", x* = " << x_star.transpose());
  CHECK((tr.x_end - x_star).norm() < 1e-4);
  CHECK(system->mode_name(tr.mode_end) == "two-fold");

  // The saltation-corrected transition matrix through the crossing and the
  // entry into sliding (to t = 3, still sliding) against differences. The
  // simulated end state of this model carries a global error of about 1e-10
  // (measured: the differences' error grows as 1/h below h = 1e-5, 4e-5 at
  // h = 1e-6), so the step is 1e-5, where the error was 7e-6 on |Phi| = 7.8;
  // the bound is 2e-6 relative.
  const flow::Trajectory part = flow::simulate(*system, kPlusMode, 0.0, start, 3.0);
  REQUIRE(part.ok());
  REQUIRE(part.events.size() == 2);
  const Matrix fd = testing::transition_by_differences(*system, kPlusMode, 0.0, start, 3.0, 2, 1e-5);
  INFO("Phi =\n" << part.transition_matrix << "\ndifferences =\n" << fd);
  CHECK((part.transition_matrix - fd).norm() < 2e-6 * (1.0 + fd.norm()));
}

TEST_CASE("saltus simulate: the wheel run file slides into the two-fold; a mode that does not fit is named",
          "[filippov-flow][cli]") {
  namespace fs = std::filesystem;
  const fs::path out = testing::scratch("wheel-sliding");
  const testing::Run r =
      testing::run_saltus({"simulate", testing::example("wheel_turntable_sliding.json").string(), "--out",
                           out.string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains(R"("mode_end": "two-fold")"));
  CHECK(fs::exists(out / "trajectory.csv"));
  fs::remove_all(out);

  const fs::path dir = testing::scratch("wheel-bad-mode");
  fs::create_directories(dir);
  std::ofstream(dir / "run.json") << R"({"model": "wheel_turntable", "mode": "sliding", "time": [0, 1],
    "initial": {"r": 0.2, "v": -0.02, "omega": -1.05}})";
  const testing::Run bad =
      testing::run_saltus({"simulate", (dir / "run.json").string(), "--out", (dir / "out").string()});
  CHECK(bad.code != 0);
  CHECK_THAT(bad.err, Catch::Contains("cannot start in mode 'sliding'"));
  CHECK(!fs::exists(dir / "out"));
  fs::remove_all(dir);
}

TEST_CASE("filippov flow: Lyapunov exponents while sliding leave the direction off Sigma out",
          "[filippov-flow][lyapunov]") {
  // The planar example with mu = 100 slides along y = 0 with F_s = (1, 0)
  // for |x| < mu. Its Jacobian is zero, so a frame that may leave Sigma
  // would report (0, 0); on Sigma only dx is admissible: (0, -infinity).
  Planar model;
  model.mu = 100.0;
  const auto system = make_filippov_flow(model);
  Vector start(2);
  start << -50.0, 0.0;
  REQUIRE(system->functor().initial_mode(start) == kSlidingMode);
  flow::LyapunovOptions options;
  options.duration = 20.0;
  options.interval = 1.0;
  const flow::LyapunovResult r = flow::lyapunov_spectrum(*system, kSlidingMode, 0.0, start, options);
  REQUIRE(r.ok());
  REQUIRE(r.events == 0);
  CHECK(std::abs(r.exponents[0]) < 1e-12);
  CHECK(r.exponents[1] == -std::numeric_limits<double>::infinity());
}
