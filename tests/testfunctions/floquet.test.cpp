#include "testfunctions/floquet.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <memory>
#include <utility>

#include "continuation/flow/hybrid_system.h"
#include "continuation/periodic/shooting.h"
#include "continuation/pseudo_arclength.h"
#include "testfunctions/fold.h"

using namespace saltus;

namespace {

// The normal form of a saddle-node of cycles, r' = r (mu + 2 r^2 - r^4),
// theta' = 1, in Cartesian coordinates, with a decoupled contracting
// direction z' = -z (so that an autonomous orbit has two nontrivial
// multipliers and the NS product has a factor) and mu in the state:
//
//   x' = x g - y,  y' = y g + x,  z' = -z,  mu' = 0,  g = mu + 2 r^2 - r^4.
//
// Cycles r^2 = 1 +- sqrt(1 + mu), period 2 pi, fold at mu = -1 (r = 1);
// the radial multiplier exp(2 pi r dg/dr) = exp(8 pi r^2 (1 - r^2)) passes +1
// there, the z multiplier is exp(-2 pi) throughout: no Neimark-Sacker.
struct SaddleNodeOfCycles {
  int dimension() const { return 4; }
  std::vector<std::string> state_names() const { return {"x", "y", "z", "mu"}; }
  template <class T>
  void field(int, const T&, const T* u, T* f) const {
    const T r2 = u[0] * u[0] + u[1] * u[1];
    const T g = u[3] + 2.0 * r2 - r2 * r2;
    f[0] = u[0] * g - u[1];
    f[1] = u[1] * g + u[0];
    f[2] = -u[2];
    f[3] = T(0.0);
  }
};

// A stable limit cycle (r' = r (1 - r^2), theta' = 1: period 2 pi, radial
// multiplier exp(-4 pi)) with a linear oscillator beside it,
//
//   u' = mu u - omega v,  v' = omega u + mu v,
//
// whose multipliers on the orbit u = v = 0 are exp(2 pi (mu +- i omega)): the
// pair crosses the unit circle at mu = 0 with angle +-2 pi omega, a
// Neimark-Sacker point (a torus is born; omega = 0.3 is far from the strong
// resonances 1, 1/2, 1/3, 1/4).
struct NeimarkSackerOfCycles {
  double omega = 0.3;
  int dimension() const { return 5; }
  std::vector<std::string> state_names() const { return {"x", "y", "u", "v", "mu"}; }
  template <class T>
  void field(int, const T&, const T* s, T* f) const {
    const T g = 1.0 - (s[0] * s[0] + s[1] * s[1]);
    f[0] = s[0] * g - s[1];
    f[1] = s[1] * g + s[0];
    f[2] = s[4] * s[2] - omega * s[3];
    f[3] = omega * s[2] + s[4] * s[3];
    f[4] = T(0.0);
  }
};

// The same stable limit cycle with a saddle beside it instead of a focus,
//
//   u' = (mu + c) u,  v' = (mu - c) v:
//
// on the orbit u = v = 0 the multipliers are exp(2 pi (mu +- c)), real, with
// the product exp(4 pi mu): at mu = 0 they are the real reciprocal pair
// exp(+-2 pi c) (1.1339 and 0.8819 for c = 0.02), a neutral saddle of the
// cycle, where the NS product has the factor exp(4 pi mu) - 1 changing
// sign, and no multiplier is on the unit circle (no NS, floquet.h).
struct NeutralSaddleOfCycles {
  double c = 0.02;
  int dimension() const { return 5; }
  std::vector<std::string> state_names() const { return {"x", "y", "u", "v", "mu"}; }
  template <class T>
  void field(int, const T&, const T* s, T* f) const {
    const T g = 1.0 - (s[0] * s[0] + s[1] * s[1]);
    f[0] = s[0] * g - s[1];
    f[1] = s[1] * g + s[0];
    f[2] = (s[4] + c) * s[2];
    f[3] = (s[4] - c) * s[3];
    f[4] = T(0.0);
  }
};

// The branch of the orbit (1, 0, 0, 0), period 2 pi, of `model` in mu from
// mu0, with the LPC, PD and NS tests, and its shooting system.
template <class Model>
std::pair<Branch, std::shared_ptr<periodic::ShootingSystem>> circle_branch(const Model& model, double mu0,
                                                                           Bound bound) {
  Vector reference(5);
  reference << 1.0, 0.0, 0.0, 0.0, mu0;
  periodic::ShootingOptions shooting;
  shooting.autonomous = true;
  shooting.simulation.absolute_tolerance = shooting.simulation.relative_tolerance = 1e-11;
  auto system = std::make_shared<periodic::ShootingSystem>(flow::make_hybrid(model), 1, shooting, reference);
  ContinuationProblem problem(system, Vector::Constant(1, mu0), {"mu"});
  Vector y(6);
  y << 1.0, 0.0, 0.0, 0.0, 2 * M_PI, mu0;
  ContinuationOptions options;
  options.ds = 0.05;
  options.ds_max = 0.05;
  options.max_points = 100;
  options.event_tolerance = 1e-12;
  options.bounds["mu"] = bound;
  Branch b = continue_branch(problem, y, options,
                             {std::make_shared<FoldTest>("LPC"), std::make_shared<PeriodDoublingTest>(),
                              std::make_shared<NeimarkSackerTest>()});
  return {std::move(b), system};
}

}  // namespace

TEST_CASE("Floquet: a neutral saddle of a cycle (a real pair mu and 1/mu) is not an NS",
          "[testfunctions][floquet]") {
  const NeutralSaddleOfCycles model;
  const auto [b, system] = circle_branch(model, -0.2, {-0.3, 0.2});
  INFO(b.message);
  REQUIRE(b.stop_reason == StopReason::kBound);
  for (const auto& s : b.special_points) {
    INFO(s.type << " at mu = " << s.y[5]);
    CHECK(s.type == "EP");
  }
  // The NS product did change sign along the branch (at mu = 0): what the
  // test must not report.
  const std::size_t ns = 2;  // the tests' order: LPC, PD, NS
  REQUIRE(b.test_names[ns] == "NS");
  CHECK(b.points.front().tests[ns] * b.points.back().tests[ns] < 0);
  // At mu = 0 the pair is real and reciprocal, off the unit circle.
  Vector u(6);
  u << 1.0, 0.0, 0.0, 0.0, 2 * M_PI, 0.0;
  const Eigen::VectorXcd mu = periodic::nontrivial_multipliers(system->monodromy(u));
  REQUIRE(mu.size() == 3);
  CHECK(std::abs(mu[0] - std::exp(2 * M_PI * model.c)) < 1e-8);
  CHECK(std::abs(mu[1] - std::exp(-2 * M_PI * model.c)) < 1e-8);
}

TEST_CASE("Floquet: a complex pair crossing the unit circle is located as an NS",
          "[testfunctions][floquet]") {
  const double mu0 = -0.2;
  Vector reference(5);
  reference << 1.0, 0.0, 0.0, 0.0, mu0;
  periodic::ShootingOptions shooting;
  shooting.autonomous = true;
  shooting.simulation.absolute_tolerance = shooting.simulation.relative_tolerance = 1e-11;
  const NeimarkSackerOfCycles model;
  auto system = std::make_shared<periodic::ShootingSystem>(flow::make_hybrid(model), 1, shooting, reference);
  ContinuationProblem problem(system, Vector::Constant(1, mu0), {"mu"});
  Vector y(6);
  y << 1.0, 0.0, 0.0, 0.0, 2 * M_PI, mu0;
  ContinuationOptions options;
  options.ds = 0.05;
  options.ds_max = 0.05;
  options.max_points = 100;
  options.event_tolerance = 1e-12;
  options.bounds["mu"] = {-0.3, 0.2};
  const Branch b = continue_branch(problem, y, options,
                                   {std::make_shared<FoldTest>("LPC"), std::make_shared<PeriodDoublingTest>(),
                                    std::make_shared<NeimarkSackerTest>()});
  INFO(b.message);
  std::vector<const SpecialPoint*> ns;
  for (const auto& s : b.special_points) {
    INFO(s.type << " at mu = " << s.y[5]);
    CHECK((s.type == "NS" || s.type == "EP"));
    if (s.type == "NS") ns.push_back(&s);
  }
  REQUIRE(ns.size() == 1);
  CHECK(ns[0]->status == EventStatus::kLocated);
  CHECK(std::abs(ns[0]->y[5]) < 1e-9);
  // There the pair is exp(+-2 pi i omega) on the unit circle, and the
  // trivial multiplier is reported apart.
  std::complex<double> trivial;
  const Eigen::VectorXcd mu =
      periodic::nontrivial_multipliers(system->monodromy(problem.u(ns[0]->y)), &trivial);
  CHECK(std::abs(trivial - 1.0) < 1e-8);
  REQUIRE(mu.size() == 3);
  CHECK(std::abs(std::abs(mu[0]) - 1.0) < 1e-8);
  CHECK(std::abs(std::abs(std::arg(mu[0])) - 2 * M_PI * model.omega) < 1e-8);
  CHECK(std::abs(mu[0] - std::conj(mu[1])) < 1e-8);
  CHECK(std::abs(mu[2] - std::exp(-4 * M_PI)) < 1e-8);
}

TEST_CASE("Floquet: the fold of cycles of an autonomous branch is an LPC, not an NS",
          "[testfunctions][floquet]") {
  const double mu0 = -0.75, r0 = std::sqrt(1.0 + std::sqrt(1.0 + mu0));  // the stable (outer) cycle
  Vector reference(4);
  reference << r0, 0.0, 0.0, mu0;
  periodic::ShootingOptions shooting;
  shooting.autonomous = true;
  shooting.simulation.absolute_tolerance = shooting.simulation.relative_tolerance = 1e-11;
  auto system = std::make_shared<periodic::ShootingSystem>(flow::make_hybrid(SaddleNodeOfCycles{}), 1,
                                                           shooting, reference);
  ContinuationProblem problem(system, Vector::Constant(1, mu0), {"mu"});
  Vector y(5);
  y << r0, 0.0, 0.0, 2 * M_PI, mu0;

  ContinuationOptions options;
  options.direction = -1;
  options.ds = 0.02;
  options.ds_max = 0.05;
  options.max_points = 200;
  options.event_tolerance = 1e-9;
  options.bounds["mu"] = {-1.5, -0.5};
  const Branch b = continue_branch(
      problem, y, options, {std::make_shared<FoldTest>("LPC"), std::make_shared<NeimarkSackerTest>()});
  INFO(b.message);
  REQUIRE(b.points.size() > 10);
  int folds = 0;
  for (const auto& s : b.special_points) {
    INFO(s.type << " at mu = " << s.y[4]);
    CHECK(s.type != "NS");
    if (s.type != "LPC") continue;  // the end point "EP" at the bound
    ++folds;
    CHECK(s.status == EventStatus::kLocated);
    CHECK(s.y[4] == Approx(-1.0).margin(1e-6));
    CHECK(std::hypot(s.y[0], s.y[1]) == Approx(1.0).margin(1e-3));  // r - 1 ~ sqrt(mu + 1)
  }
  CHECK(folds == 1);
  // The branch came back on the inner, unstable cycle, period 2 pi throughout.
  const Vector last = b.points.back().y;
  CHECK(last[4] > -1.0);
  CHECK(std::hypot(last[0], last[1]) < 1.0);
  for (const auto& pt : b.points) CHECK(pt.y[3] == Approx(2 * M_PI).epsilon(1e-7));

  // What the fix is about: with the trivial multiplier in, the product has
  // the factor (mu_radial - 1), which changes sign between the two ends.
  const auto all_pairs = [&](const Vector& yy) {
    const Eigen::VectorXcd mu = periodic::floquet_multipliers(system->monodromy(problem.u(yy)));
    std::complex<double> product = 1.0;
    for (int i = 0; i < mu.size(); ++i)
      for (int j = i + 1; j < mu.size(); ++j) product *= mu[i] * mu[j] - 1.0;
    return product.real();
  };
  CHECK(all_pairs(b.points.front().y) * all_pairs(last) < 0);
}
