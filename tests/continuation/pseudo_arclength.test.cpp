#include "continuation/pseudo_arclength.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <map>

#include "continuation/autodiff_system.h"
#include "continuation/branch_switching.h"
#include "models/bratu.h"
#include "models/normal_forms.h"
#include "testfunctions/branch_point.h"
#include "testfunctions/fold.h"
#include "testfunctions/user_value.h"

using namespace saltus;

namespace {
std::vector<SpecialPoint> of_type(const Branch& b, const std::string& type) {
  std::vector<SpecialPoint> out;
  for (const auto& s : b.special_points)
    if (s.type == type) out.push_back(s);
  return out;
}

// The cusp normal form (mu, lambda) = (-2, 1) with mu free, and a point near
// its lower branch x^3 - x = mu at mu = -2 (x = -1.5214).
ContinuationProblem cusp_in_mu() {
  Vector p(2);
  p << -2.0, 1.0;  // mu, lambda
  return ContinuationProblem(make_system(models::Cusp{}), p, {"mu"});
}
Vector lower_start() {
  Vector y0(2);
  y0 << -1.5, -2.0;
  return y0;
}
}  // namespace

TEST_CASE("cusp normal form: both folds located to 1e-10", "[continuation]") {
  const ContinuationProblem problem = cusp_in_mu();
  const Vector y0 = lower_start();
  ContinuationOptions options;
  options.bounds["mu"] = {-2.0, 2.0};
  const Branch branch = continue_branch(problem, y0, options, {std::make_shared<FoldTest>()});
  REQUIRE(branch.usable());
  CHECK(branch.stop_reason == StopReason::kBound);
  const auto folds = of_type(branch, "LP");
  REQUIRE(folds.size() == 2);
  const double mu_fold = 2.0 / (3.0 * std::sqrt(3.0));
  CHECK(std::abs(folds[0].y[1] - mu_fold) < 1e-10);  // lower branch turns at mu = +2/(3 sqrt 3)
  CHECK(std::abs(folds[0].y[0] + 1.0 / std::sqrt(3.0)) < 1e-5);
  CHECK(std::abs(folds[1].y[1] + mu_fold) < 1e-10);
  for (const auto& f : folds) {
    CHECK(f.status == EventStatus::kLocated);
    CHECK(f.precision <= options.event_tolerance);
  }
  // The branch ends at the bound mu = 2 on the upper branch, solved for
  // (mu fixed at 2 in the corrector), not bracketed.
  CHECK(std::abs(branch.points.back().y[1] - 2.0) < 1e-14);
  CHECK(branch.points.back().label == "EP");
  CHECK(branch.special_points.back().status == EventStatus::kLocated);
  CHECK(branch.special_points.back().precision == 0.0);
}

TEST_CASE("cusp: the fold curve from an LP passes through the cusp at (0, 0)", "[continuation]") {
  const ContinuationProblem problem = cusp_in_mu();
  const Vector y0 = lower_start();
  ContinuationOptions options;
  options.bounds["mu"] = {-2.0, 2.0};
  const Branch branch = continue_branch(problem, y0, options, {std::make_shared<FoldTest>()});
  const auto folds = of_type(branch, "LP");
  REQUIRE(!folds.empty());

  const FoldCurve curve = fold_curve(problem.system_ptr(), problem.u(folds[0].y), {"mu", "lambda"});
  ContinuationOptions fold_options;
  fold_options.direction = -1;  // towards mu = 0
  fold_options.bounds["lambda"] = {-1.0, 2.0};
  const Branch fc = continue_branch(*curve.problem, curve.start, fold_options, {curve.cusp});
  REQUIRE(fc.usable());
  const auto cusps = of_type(fc, "CP");
  REQUIRE(cusps.size() == 1);
  CHECK(cusps[0].status == EventStatus::kLocated);
  CHECK(std::abs(cusps[0].y[0]) < 1e-8);  // x
  CHECK(std::abs(cusps[0].y[1]) < 1e-8);  // mu
  CHECK(std::abs(cusps[0].y[2]) < 1e-8);  // lambda
  // Every point of the fold curve satisfies mu = +-2 (lambda/3)^(3/2).
  for (const auto& pt : fc.points) {
    const double lambda = pt.y[2];
    if (lambda <= 0) continue;
    CHECK(std::abs(std::abs(pt.y[1]) - 2.0 * std::pow(lambda / 3.0, 1.5)) < 1e-9);
  }
}

TEST_CASE("pitchfork: BP at lambda = 0 and switching onto x^2 = lambda", "[continuation]") {
  auto system = make_system(models::Pitchfork{});
  Vector p(1);
  p << -1.0;
  ContinuationProblem problem(system, p, {"lambda"});
  Vector y0(2);
  y0 << 0.0, -1.0;
  ContinuationOptions options;
  options.bounds["lambda"] = {-1.0, 1.0};
  const Branch trivial = continue_branch(problem, y0, options,
                                         {std::make_shared<FoldTest>(), std::make_shared<BranchPointTest>()});
  const auto bps = of_type(trivial, "BP");
  REQUIRE(bps.size() == 1);
  CHECK(bps[0].status == EventStatus::kLocated);
  CHECK(std::abs(bps[0].y[1]) < 1e-10);
  CHECK(of_type(trivial, "LP").empty());

  ContinuationOptions switch_options = options;
  switch_options.bounds["x"] = {-1.0, 1.0};
  const Branch other = switch_branch(problem, bps[0], switch_options, {std::make_shared<BranchPointTest>()});
  REQUIRE(other.usable());
  REQUIRE(other.points.size() > 10);
  for (const auto& pt : other.points) CHECK(std::abs(pt.y[0] * pt.y[0] - pt.y[1]) < 1e-9);
  CHECK(other.points.back().y[0] == Approx(1.0).margin(1e-12));  // left at the bound x = 1
  CHECK(of_type(other, "BP").empty());                           // the start point is not reported again
}

TEST_CASE("user values: UZ located, and a stopping one ends the branch", "[continuation]") {
  const ContinuationProblem problem = cusp_in_mu();
  const Vector y0 = lower_start();
  ContinuationOptions options;
  auto at = [](double v) { return [v](const Vector& u) { return u[1] - v; }; };
  const Branch branch = continue_branch(
      problem, y0, options,
      {std::make_shared<UserTest>("mu=-1", at(-1.0)), std::make_shared<UserTest>("mu=0.1", at(0.1), true)});
  CHECK(branch.stop_reason == StopReason::kUserStop);
  const auto uz = of_type(branch, "UZ");
  REQUIRE(uz.size() == 2);
  CHECK(std::abs(uz[0].y[1] + 1.0) < 1e-12);
  CHECK(std::abs(uz[1].y[1] - 0.1) < 1e-12);
  CHECK(branch.points.back().y[1] == Approx(0.1).margin(1e-12));
}

TEST_CASE("a test function that changes sign by a jump is reported as a jump, not located",
          "[continuation]") {
  // A shooting branch whose orbit gains an impact makes test functions jump
  // (a PD test from -307 to +17); here a step function of mu does, beside a
  // smooth zero and a square-root one, which stay located.
  const ContinuationProblem problem = cusp_in_mu();
  const Vector y0 = lower_start();
  ContinuationOptions options;
  options.bounds["mu"] = {-2.0, -0.2};
  const auto step = [](const Vector& u) { return u[1] < -1.0 ? -3.0 : 2.0; };
  const auto smooth = [](const Vector& u) { return u[1] + 0.5; };
  const auto root = [](const Vector& u) {
    return u[1] < -0.7 ? -std::sqrt(-0.7 - u[1]) : std::sqrt(u[1] + 0.7);
  };
  const Branch branch =
      continue_branch(problem, y0, options,
                      {std::make_shared<UserTest>("step", step), std::make_shared<UserTest>("smooth", smooth),
                       std::make_shared<UserTest>("root", root)});
  REQUIRE(branch.usable());
  std::map<std::string, SpecialPoint> found;
  for (const auto& s : branch.special_points) found[s.name] = s;
  REQUIRE(found.count("step"));
  CHECK(found["step"].status == EventStatus::kJump);
  CHECK(to_string(found["step"].status) == "jump");
  CHECK(found["step"].label() == "UZ (jump)");
  CHECK(std::abs(found["step"].y[1] + 1.0) < 1e-8);  // where it jumps, still to the bracket's width
  REQUIRE(found.count("smooth"));
  CHECK(found["smooth"].status == EventStatus::kLocated);
  CHECK(found["smooth"].label() == "UZ");
  REQUIRE(found.count("root"));
  CHECK(found["root"].status == EventStatus::kLocated);
  CHECK(std::abs(found["root"].y[1] + 0.7) < 1e-8);
}

// x^2 + p^2 = 1: a branch of curvature 1.
struct UnitCircle {
  int state_size() const { return 1; }
  int parameter_size() const { return 1; }
  std::vector<std::string> state_names() const { return {"x"}; }
  std::vector<std::string> parameter_names() const { return {"p"}; }
  template <class T>
  void operator()(const T* u, T* f) const {
    f[0] = u[0] * u[0] + u[1] * u[1] - 1.0;
  }
};

// With the curvature term of the predictor (predictor.h) the corrector's
// hyperplane t0.(y - y_pred) = 0 lies at t0.(y - y0) = ds + t0.bend, beyond
// ds (t0.bend = ds^2 / (2 ds_last) (1 - t0.t_before) > 0). An event whose zero
// lies between ds and there was bracketed in [0, ds] with the next point's
// value put at ds: the corrected points near ds are on the near side of the
// zero, the next point on the far side, and the sign change closed on ds as
// a jump (a double Hopf point of Lorenz-84 at G = 0.2, located 2e-4 off as
// 'HH (jump)'). Here a linear function of y whose zero is placed in that
// gap of one step must be located.
TEST_CASE("an event beyond ds on a curved branch, before the next point, is located", "[continuation]") {
  const ContinuationProblem problem(make_system(UnitCircle{}), Vector::Zero(1), {"p"});
  Vector y0(2);
  y0 << 1.0, 0.0;
  ContinuationOptions options;
  options.ds = options.ds_max = 0.25;
  options.event_tolerance = 1e-12;
  options.bounds["x"] = {-0.5, 2.0};
  const Branch plain = continue_branch(problem, y0, options);
  REQUIRE(plain.points.size() > 6);
  const int k = 3;  // a step with the curvature term
  const Vector ya = plain.points[k].y, ta = plain.points[k].tangent, yb = plain.points[k + 1].y;
  const double s_next = ta.dot(yb - ya);
  INFO("the next point at s = " << s_next << ", ds = " << plain.points[k + 1].ds);
  REQUIRE(s_next > plain.points[k + 1].ds + 1e-3);
  const double target = 0.5 * (plain.points[k + 1].ds + s_next);
  const auto across = [=](const Vector& u) { return ta.dot(u - ya) - target; };
  const Branch branch = continue_branch(problem, y0, options, {std::make_shared<UserTest>("across", across)});
  const auto uz = of_type(branch, "UZ");
  REQUIRE(uz.size() == 1);
  CHECK(uz[0].status == EventStatus::kLocated);
  CHECK(std::abs(across(problem.u(uz[0].y))) < 1e-10);
  CHECK(std::abs(uz[0].y.squaredNorm() - 1.0) < 1e-10);
}

// x^2 + 1 + p^2 = 0 has no real solution.
struct NoSolution {
  int state_size() const { return 1; }
  int parameter_size() const { return 1; }
  template <class T>
  void operator()(const T* u, T* f) const {
    f[0] = u[0] * u[0] + 1.0 + u[1] * u[1];
  }
};

TEST_CASE("a start point far from any solution is a stop reason, not a throw", "[continuation]") {
  auto system = make_system(NoSolution{});
  ContinuationProblem problem(system, Vector::Zero(1), {"p0"});
  const Branch branch = continue_branch(problem, Vector::Ones(2), ContinuationOptions{});
  CHECK(branch.stop_reason == StopReason::kStartNotConverged);
  CHECK_THAT(branch.message, Catch::Contains("not near a solution"));
  CHECK(!branch.usable());
}

TEST_CASE("invalid options throw with the field named", "[continuation]") {
  auto system = make_system(models::Pitchfork{});
  ContinuationProblem problem(system, Vector::Zero(1), {"lambda"});
  ContinuationOptions options;
  options.ds_max = -1.0;
  CHECK_THROWS_WITH(continue_branch(problem, Vector::Zero(2), options), Catch::Contains("ds_max"));
  options = {};
  options.bounds["nope"] = {0.0, 1.0};
  CHECK_THROWS_WITH(continue_branch(problem, Vector::Zero(2), options), Catch::Contains("'nope'"));
  CHECK_THROWS_WITH(ContinuationProblem(system, Vector::Zero(1), {"mu"}), Catch::Contains("'mu'"));
}
