#include <catch2/catch.hpp>

#include "continuation/flow/hybrid_system.h"
#include "continuation/periodic/find_orbit.h"
#include "models/lorenz.h"

using namespace saltus;
using namespace saltus::periodic;

namespace {

// A ball dropped on a fixed floor, v+ = -e v-, with no sticking threshold:
// its bounces accumulate at the Zeno time sqrt(2 h / g) (1 + e) / (1 - e).
struct ZenoBall {
  double g = 9.81, e = 0.5;
  int dimension() const { return 2; }
  int guard_count(int) const { return 1; }
  template <class T>
  void field(int, const T&, const T* u, T* f) const {
    f[0] = u[1];
    f[1] = T(-g);
  }
  template <class T>
  T guard(int, int, const T&, const T* u) const {
    return u[0];
  }
  int next_mode(int mode, int, double, const double*) const { return mode; }
  template <class T>
  void reset(int, int, int, const T&, const T* u, T* y) const {
    y[0] = u[0];
    y[1] = -e * u[1];
  }
};

}  // namespace

TEST_CASE("find_orbit: Lorenz at rho = 280 from the simulated guess converges, its residual tiny",
          "[periodic][bad-input]") {
  Vector reference;
  const double period = models::lorenz_periodic_orbit(280.0, &reference);
  ShootingOptions options;
  options.autonomous = true;
  options.simulation.absolute_tolerance = options.simulation.relative_tolerance = 1e-10;
  ShootingSystem shooting(models::lorenz_flow(), 3, options, reference);
  Vector u(7);
  u << reference.head(3), period, reference.tail(3);
  const OrbitSearch s = find_orbit(shooting, u);
  INFO(s.message);
  CHECK(s.ok());
  CHECK(s.residual_norm < 1e-9 * (1 + s.u.head(3).lpNorm<Eigen::Infinity>()));
  CHECK(std::abs(s.u[3] - 0.4345) < 1e-3);  // the period of AUTO-07p's lor start orbit
}

TEST_CASE("find_orbit: a guess far from any orbit ends with a status and the last residual",
          "[periodic][bad-input]") {
  ShootingOptions options;
  options.autonomous = true;
  Vector reference(6);
  reference << 1, 1, 1, 10, 280, 8.0 / 3;  // far below the orbit (z ~ 140..360)
  ShootingSystem shooting(models::lorenz_flow(), 3, options, reference);
  Vector u(7);
  u << 1, 1, 1, 0.2, 10, 280, 8.0 / 3;
  const OrbitSearch s = find_orbit(shooting, u);
  INFO(s.message);
  CHECK(s.status == OrbitStatus::kNotConverged);
  CHECK(std::isfinite(s.residual_norm));
  CHECK(s.residual_norm > 1.0);
  CHECK_THAT(s.message, Catch::Contains("|F| ="));
  CHECK_THAT(s.message, Catch::Contains("Start closer to an orbit"));
}

TEST_CASE("find_orbit: an orbit that runs into a Zeno point is reported, not looped on",
          "[periodic][bad-input]") {
  ShootingOptions options;
  options.period = 2.0;  // past the Zeno time 3 sqrt(2 / g) = 1.35 of a drop from 1 m
  ShootingSystem shooting(flow::make_hybrid(ZenoBall{}), 0, options);
  Vector u(2);
  u << 1.0, 0.0;
  const OrbitSearch s = find_orbit(shooting, u);
  INFO(s.message);
  CHECK(s.status == OrbitStatus::kSimulationFailed);
  CHECK_THAT(s.message, Catch::Contains("Zeno"));
  CHECK(s.iterations == 0);
}

TEST_CASE("find_orbit: bad options and guesses throw with the bad value named", "[periodic][bad-input]") {
  ShootingOptions options;
  options.period = 2.0;
  ShootingSystem shooting(flow::make_hybrid(ZenoBall{}), 0, options);
  CHECK_THROWS_WITH(find_orbit(shooting, Vector::Zero(3)), Catch::Contains("3 components"));
  CHECK_THROWS_WITH(find_orbit(shooting, Vector::Constant(2, NAN)), Catch::Contains("not finite"));
  OrbitSearchOptions bad;
  bad.max_iterations = 0;
  CHECK_THROWS_WITH(find_orbit(shooting, Vector::Ones(2), bad), Catch::Contains("max_iterations = 0"));
}
