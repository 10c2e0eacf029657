#include "continuation/branch_switching.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "continuation/autodiff_system.h"
#include "continuation/pseudo_arclength.h"
#include "testfunctions/branch_point.h"
#include "testfunctions/user_value.h"

using namespace saltus;

namespace {

// A transcritical bifurcation in two unknowns, moved off the origin and mixed
// by linear maps so that nothing is aligned with the axes: with
// z = A^{-1} (x - x0 - lambda c), the branches are z1 = 0 and
// z1^2 + k z1 = lambda - l0 (with z2 = 0.3 z1^2), crossing at lambda = l0.
struct Transcritical {
  double k = 0.8;
  static constexpr double l0 = 0.41421356237309515;
  int state_size() const { return 2; }
  int parameter_size() const { return 1; }
  std::vector<std::string> parameter_names() const { return {"lambda"}; }  // state names default
  template <class T>
  void operator()(const T* u, T* f) const {
    const T a = u[0] - 1.0 - 0.7 * u[2], b = u[1] - 2.0 + 0.4 * u[2];
    const T z1 = a - b, z2 = -a + 2.0 * b;
    const T g1 = (u[2] - l0) * z1 - k * z1 * z1 - z1 * z1 * z1, g2 = -z2 + 0.3 * z1 * z1;
    f[0] = g1 + 2.0 * g2;
    f[1] = -0.5 * g1 + g2;
  }
  static Vector point(double z1, double lambda) {
    const double z2 = 0.3 * z1 * z1;
    Vector y(3);
    y << 2 * z1 + z2 + 1 + 0.7 * lambda, z1 + z2 + 2 - 0.4 * lambda, lambda;
    return y;
  }
  static double z1_of(const Vector& y) { return (y[0] - 1 - 0.7 * y[2]) - (y[1] - 2 + 0.4 * y[2]); }
};

}  // namespace

TEST_CASE("branch switching from the non-trivial branch of a skewed transcritical point", "[continuation]") {
  auto system = make_system(Transcritical{});
  const double z1 = 0.5, lambda = 0.8 * z1 + z1 * z1 + Transcritical::l0;
  Vector p(1);
  p << lambda;
  ContinuationProblem problem(system, p, {"lambda"});
  CHECK(problem.names()[0] == "x0");  // state names default, parameter names given
  ContinuationOptions options;
  options.direction = -1;
  options.bounds["lambda"] = {-0.6, 1.5};
  const Branch branch = continue_branch(problem, Transcritical::point(z1, lambda), options,
                                        {std::make_shared<BranchPointTest>()});
  REQUIRE(branch.special_points.size() >= 1);
  const SpecialPoint& bp = branch.special_points[0];
  REQUIRE(bp.type == "BP");
  CHECK(bp.status == EventStatus::kLocated);
  CHECK(std::abs(bp.y[2] - Transcritical::l0) < 1e-10);
  for (int direction : {+1, -1}) {
    ContinuationOptions o = options;
    o.direction = direction;
    const Branch other = switch_branch(problem, bp, o);
    REQUIRE(other.points.size() > 5);
    for (const auto& pt : other.points)
      CHECK(std::abs(Transcritical::z1_of(pt.y)) < 1e-9);  // the trivial branch
  }
}

// x - p = 0: the branch is x = p.
struct Line {
  int state_size() const { return 1; }
  int parameter_size() const { return 1; }
  template <class T>
  void operator()(const T* u, T* f) const {
    f[0] = u[0] - u[1];
  }
};

TEST_CASE("events: exact zeros, starts on a bound, unique names, max_points", "[continuation]") {
  // Steps of exactly 0.125 in p (ds = ds_max, no growth).
  auto system = make_system(Line{});
  ContinuationProblem problem(system, Vector::Zero(1), {"p0"});
  ContinuationOptions options;
  options.ds = options.ds_max = 0.125 * std::sqrt(2.0);
  options.max_points = 9;
  auto at = [](double v) { return [v](const Vector& u) { return u[1] - v; }; };
  const Branch branch =
      continue_branch(problem, Vector::Zero(2), options, {std::make_shared<UserTest>("p=0.5", at(0.5))});
  // p = 0.5 is hit exactly by the fourth step, and still reported.
  REQUIRE(branch.special_points.size() == 1);
  CHECK(branch.special_points[0].y[1] == Approx(0.5).margin(1e-14));
  // 9 regular points plus the located one.
  CHECK(branch.points.size() == 10);
  CHECK(branch.stop_reason == StopReason::kMaxPoints);

  // A start exactly on a bound, heading out, stops at once.
  options.bounds["p0"] = {0.0, 1.0};
  options.direction = -1;
  const Branch out = continue_branch(problem, Vector::Zero(2), options);
  CHECK(out.stop_reason == StopReason::kBound);
  CHECK(out.points.size() <= 2);

  CHECK_THROWS_WITH(
      continue_branch(problem, Vector::Zero(2), ContinuationOptions{},
                      {std::make_shared<UserTest>("e", at(0.1)), std::make_shared<UserTest>("e", at(0.2))}),
      Catch::Contains("two test functions are named 'e'"));
}
