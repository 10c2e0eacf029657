#include "continuation/flow/simulate.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace saltus;
using namespace saltus::flow;

namespace {

// A harmonic oscillator that flips its velocity when x crosses zero
// downwards (a perfectly elastic wall at x = 0): the exact flow is known.
struct ElasticWall {
  int dimension() const { return 2; }
  int guard_count(int) const { return 1; }
  template <class T>
  void field(int, const T&, const T* x, T* f) const {
    f[0] = x[1];
    f[1] = -x[0];
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
  }
};

}  // namespace

TEST_CASE("saltation matrix of a velocity-reversing wall", "[flow]") {
  // At x = 0 with velocity v < 0: S = G_x + (f+ - G_x f-) h_x^T / (h_x f-).
  Matrix G(2, 2);
  G << 1, 0, 0, -1;
  Vector fm(2), fp(2), hx(2);
  fm << -2.0, 0.0;  // (v, -x) at x = 0, v = -2
  fp << 2.0, 0.0;
  hx << 1.0, 0.0;
  const Matrix S = saltation_matrix(G, Vector::Zero(2), fm, fp, hx, 0.0);
  Matrix expected(2, 2);
  expected << -1, 0, 0, -1;
  CHECK((S - expected).norm() < 1e-15);
  CHECK_THROWS_AS(saltation_matrix(G, Vector::Zero(2), Vector::Zero(2), fp, hx, 0.0), std::domain_error);
}

TEST_CASE("elastic wall: events at the exact times, state and transition matrix exact", "[flow]") {
  auto system = make_hybrid(ElasticWall{});
  Vector x0(2);
  x0 << 1.0, 0.0;  // x = cos t until t = pi/2, then reflected
  SimulationOptions options;
  options.method = GENERATE(IntegrationMethod::kDopri5, IntegrationMethod::kDop853);
  INFO("method " << to_string(options.method));
  const Trajectory tr = simulate(*system, 0, 0.0, x0, 10.0, options);
  REQUIRE(tr.ok());
  // Reflections at pi/2 + k pi (x = |cos t| stays >= 0).
  REQUIRE(tr.events.size() == 3);
  for (int k = 0; k < 3; ++k) CHECK(std::abs(tr.events[k].t - (M_PI / 2 + k * M_PI)) < 1e-10);
  CHECK(std::abs(tr.x_end[0] - std::abs(std::cos(10.0))) < 1e-9);
  // The reflected flow is the harmonic flow composed with -I at each event:
  // Phi(10) = (-1)^3 R(10), R the rotation of the oscillator.
  Matrix R(2, 2);
  R << std::cos(10.0), std::sin(10.0), -std::sin(10.0), std::cos(10.0);
  CHECK((tr.transition_matrix + R).cwiseAbs().maxCoeff() < 1e-8);
}

TEST_CASE("simulation input is checked", "[flow]") {
  auto system = make_hybrid(ElasticWall{});
  CHECK_THROWS_WITH(simulate(*system, 0, 0.0, Vector::Zero(3), 1.0), Catch::Contains("3 components"));
  CHECK_THROWS_WITH(simulate(*system, 0, 1.0, Vector::Ones(2), 1.0), Catch::Contains("t1 > t0"));
  SimulationOptions bad;
  bad.initial_step = -1;
  CHECK_THROWS_WITH(simulate(*system, 0, 0.0, Vector::Ones(2), 1.0, bad), Catch::Contains("initial_step"));
  bad = {};
  bad.method = static_cast<IntegrationMethod>(7);
  CHECK_THROWS_WITH(simulate(*system, 0, 0.0, Vector::Ones(2), 1.0, bad), Catch::Contains("method = 7"));
}

TEST_CASE("a step that no longer advances time (t = 1e16) is a failed step, not a root finder's exception",
          "[flow]") {
  auto system = make_hybrid(ElasticWall{});
  Vector x0(2);
  x0 << 1.0, 0.0;
  const Trajectory tr = simulate(*system, 0, 1e16, x0, 1e17);  // doubles are 2 apart there
  CHECK(tr.status == SimulationStatus::kStepFailed);
  CHECK_THAT(tr.message, Catch::Contains("no longer advances time") && Catch::Contains("2 apart"));
}

TEST_CASE("integration methods: names both ways, an unknown name lists the allowed ones", "[flow]") {
  for (auto m : {IntegrationMethod::kDopri5, IntegrationMethod::kDop853})
    CHECK(integration_method_from_string(to_string(m)) == m);
  CHECK_THROWS_WITH(integration_method_from_string("rk4"),
                    Catch::Contains("'rk4'") && Catch::Contains("dopri5") && Catch::Contains("dop853"));
}

TEST_CASE("Poincare sections are located on the dense output", "[flow]") {
  auto system = make_hybrid(ElasticWall{});
  Vector x0(2);
  x0 << 1.0, 0.0;
  std::vector<Section> sections = {
      {[](double, const Vector& x) { return x[0] - 0.5; },
       Crossing::kFalling},  // cos t = 1/2 on the way down
      {[](double t, const Vector&) { return t - 1.2345; }, Crossing::kRising},
  };
  SimulationOptions options;
  options.method = GENERATE(IntegrationMethod::kDopri5, IntegrationMethod::kDop853);
  INFO("method " << to_string(options.method));
  const Trajectory tr = simulate(*system, 0, 0.0, x0, 5.0, options, {}, sections);
  REQUIRE(tr.ok());
  std::vector<SectionHit> falling, timed;
  for (const auto& h : tr.section_hits) (h.section == 0 ? falling : timed).push_back(h);
  // x = |cos t|: falls through 1/2 at pi/3 and (after the reflection at pi/2) at pi + pi/3.
  REQUIRE(falling.size() == 2);
  CHECK(std::abs(falling[0].t - M_PI / 3) < 1e-10);
  CHECK(std::abs(falling[1].t - 4 * M_PI / 3) < 1e-10);
  REQUIRE(timed.size() == 1);
  CHECK(std::abs(timed[0].x[0] - std::abs(std::cos(1.2345))) < 1e-10);
}
