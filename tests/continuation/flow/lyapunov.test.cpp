#include "continuation/flow/lyapunov.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>

#include "models/bouncing_ball.h"

using namespace saltus;
using namespace saltus::flow;

namespace {

// x' = A x, a smooth flow: the exponents are the real parts of
// the eigenvalues of A.
struct Linear {
  int dimension() const { return 3; }
  template <class T>
  void field(int, const T&, const T* x, T* f) const {
    f[0] = -0.5 * x[0] + 2.0 * x[1];
    f[1] = -2.0 * x[0] - 0.5 * x[1];
    f[2] = 0.3 * x[2];
  }
};

}  // namespace

TEST_CASE("a functor without guard members is a smooth flow: no guards, and asking for one is a logic error",
          "[flow][hybrid]") {
  auto system = make_hybrid(Linear{});
  CHECK(system->guard_count(0) == 0);
  CHECK_THROWS_AS(system->guard(0, 0, 0.0, Vector::Ones(3)), std::logic_error);
  Vector x_plus;
  CHECK_THROWS_AS(system->reset_state(0, 0, 0, 0.0, Vector::Ones(3), &x_plus), std::logic_error);
}

TEST_CASE("Lyapunov exponents of a linear flow are the real parts of its eigenvalues", "[flow][lyapunov]") {
  auto system = make_hybrid(Linear{});
  LyapunovOptions options;
  options.duration = 50;
  options.interval = 0.5;
  const LyapunovResult r = lyapunov_spectrum(*system, 0, 0.0, Vector::Ones(3), options);
  REQUIRE(r.ok());
  CHECK(r.exponents[0] == Approx(0.3).margin(1e-8));
  CHECK(r.exponents[1] == Approx(-0.5).margin(1e-8));
  CHECK(r.exponents[2] == Approx(-0.5).margin(1e-8));
  CHECK(r.running.size() == 100);
  // The divergence is tr A = -0.7 everywhere: its integral is exact.
  CHECK(r.divergence_integral == Approx(-0.7 * 50).epsilon(1e-12));
  CHECK(r.contraction() == Approx(r.exponents.sum()).epsilon(1e-8));
}

TEST_CASE("bouncing ball: the exponents sum to the mean log contraction of the impacts", "[flow][lyapunov]") {
  // Free flight preserves phase volume (trace f_x = 0), so the sum of the
  // exponents is the mean of log |det S| over the impacts (Liouville with jumps).
  models::BouncingBall ball;
  ball.A = 0.3;  // A omega^2 = 11.8 > g, e = 0.9: it keeps bouncing, never sticks
  ball.omega = 2 * M_PI;
  ball.e = 0.9;
  auto system = make_hybrid(ball);
  Vector x0(2);
  x0 << 0.2, 1.0;
  LyapunovOptions options;
  options.transient = 20;
  options.duration = 200;
  options.interval = 1.0;
  const LyapunovResult r = lyapunov_spectrum(*system, 0, 0.0, x0, options);
  INFO(r.message);
  REQUIRE(r.ok());
  REQUIRE(r.events > 100);  // about one impact per table period
  const double contraction = r.log_det_saltation / r.time;
  CHECK(r.divergence_integral == 0.0);  // q'' = -g: tr f_x is zero, not just small
  CHECK(r.contraction() == contraction);
  CHECK(std::abs(r.exponents.sum() - contraction) < 1e-6 * (1 + std::abs(contraction)));
  CHECK(contraction < 0);
}

TEST_CASE("Lyapunov options are checked", "[flow][lyapunov]") {
  auto system = make_hybrid(Linear{});
  LyapunovOptions options;
  options.interval = 0;
  CHECK_THROWS_WITH(lyapunov_spectrum(*system, 0, 0.0, Vector::Ones(3), options),
                    Catch::Contains("interval"));
}

TEST_CASE("Lyapunov options: more intervals than kMaxIntervals is an error naming duration and interval",
          "[flow][lyapunov]") {
  LyapunovOptions options;
  options.duration = 1e10;  // 1e13 intervals: their count overflowed an int
  options.interval = 1e-3;
  CHECK_THAT(options.check(), Catch::Contains("duration / interval = 1e+10 / 0.001") &&
                                  Catch::Contains("more than 1e+07 intervals"));
  options.interval = 0.5;
  options.duration = LyapunovOptions::kMaxIntervals * options.interval;
  CHECK(options.check().empty());
}
