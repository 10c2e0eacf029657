#include "continuation/newton.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>

using namespace saltus;

namespace {

// F(x) = (x0^2 + x1^2 - 4, x0 - x1): the root (sqrt 2, sqrt 2) from (1, 2).
NewtonProblem circle_and_line() {
  NewtonProblem p;
  p.residual = [](const Vector& x, Vector* F) {
    F->resize(2);
    (*F) << x[0] * x[0] + x[1] * x[1] - 4.0, x[0] - x[1];
  };
  p.jacobian = [](const Vector& x, Matrix* J) {
    J->resize(2, 2);
    *J << 2 * x[0], 2 * x[1], 1.0, -1.0;
  };
  return p;
}

// F(x) = atan(x): plain Newton from |x| > 1.39 diverges, the damped one does not.
NewtonProblem arctangent() {
  NewtonProblem p;
  p.residual = [](const Vector& x, Vector* F) { *F = Vector::Constant(1, std::atan(x[0])); };
  p.jacobian = [](const Vector& x, Matrix* J) { *J = Matrix::Constant(1, 1, 1.0 / (1.0 + x[0] * x[0])); };
  return p;
}

Vector point(std::initializer_list<double> v) {
  Vector x(static_cast<int>(v.size()));
  int i = 0;
  for (double c : v) x[i++] = c;
  return x;
}

}  // namespace

TEST_CASE("damped Newton: converges quadratically to a regular root", "[continuation][newton]") {
  NewtonOptions o;
  o.residual_tolerance = 1e-14;
  const NewtonResult r = damped_newton(circle_and_line(), point({1.0, 2.0}), o);
  REQUIRE(r.converged());
  CHECK(r.message.empty());
  CHECK(std::abs(r.x[0] - std::sqrt(2.0)) < 1e-14);
  CHECK(std::abs(r.x[1] - std::sqrt(2.0)) < 1e-14);
  CHECK(r.residual <= 1e-14);
  CHECK(r.iterations <= 6);  // quadratic: a handful of steps, not dozens
}

TEST_CASE("damped Newton: the line search reaches the root where the full step diverges",
          "[continuation][newton]") {
  NewtonOptions o;
  o.residual_tolerance = 1e-13;
  const NewtonResult damped = damped_newton(arctangent(), point({3.0}), o);
  REQUIRE(damped.converged());
  CHECK(std::abs(damped.x[0]) < 1e-13);
  o.damping = false;
  o.max_iterations = 8;
  const NewtonResult plain = damped_newton(arctangent(), point({3.0}), o);
  CHECK(!plain.converged());
  CHECK(std::abs(plain.x[0]) > 3.0);  // each full step overshoots further
}

TEST_CASE("damped Newton: every failure is a status with the last iterate", "[continuation][newton]") {
  NewtonOptions o;
  SECTION("no root: a minimum of |F| that is not a zero") {
    NewtonProblem p;
    p.residual = [](const Vector& x, Vector* F) { *F = Vector::Constant(1, x[0] * x[0] + 1.0); };
    p.jacobian = [](const Vector& x, Matrix* J) { *J = Matrix::Constant(1, 1, 2 * x[0]); };
    const NewtonResult r = damped_newton(p, point({0.7}), o);
    CHECK((r.status == NewtonStatus::kNoDescent || r.status == NewtonStatus::kSingular ||
           r.status == NewtonStatus::kNotConverged));
    CHECK(r.residual >= 1.0);
    CHECK(r.x.allFinite());
  }
  SECTION("a singular Jacobian") {
    NewtonProblem p;
    p.residual = [](const Vector& x, Vector* F) { *F = Vector::Constant(1, x[0] * x[0] - 1.0); };
    p.jacobian = [](const Vector& x, Matrix* J) { *J = Matrix::Constant(1, 1, 2 * x[0]); };
    const NewtonResult r = damped_newton(p, point({0.0}), o);
    CHECK(r.status == NewtonStatus::kSingular);
    CHECK(r.iterations == 0);
  }
  SECTION("a residual that cannot be evaluated at the start") {
    NewtonProblem p = arctangent();
    p.residual = [](const Vector&, Vector*) { throw std::runtime_error("the simulation hit a Zeno point"); };
    const NewtonResult r = damped_newton(p, point({1.0}), o);
    CHECK(r.status == NewtonStatus::kEvaluationFailed);
    CHECK_THAT(r.message, Catch::Contains("Zeno point"));
  }
  SECTION("trial steps that cannot be evaluated are shortened, and the last failure is told") {
    NewtonProblem p;  // F = x - 1, evaluable only below 0.5: the root is out of reach
    p.residual = [](const Vector& x, Vector* F) {
      if (x[0] > 0.5) throw std::runtime_error("no simulation beyond 0.5");
      *F = Vector::Constant(1, x[0] - 1.0);
    };
    p.jacobian = [](const Vector&, Matrix* J) { *J = Matrix::Constant(1, 1, 1.0); };
    const NewtonResult r = damped_newton(p, point({-1.0}), o);
    CHECK(r.status == NewtonStatus::kNoDescent);
    CHECK(r.x[0] <= 0.5);
    CHECK(r.x[0] > 0.4);  // the halved steps crept up to the edge
    CHECK_THAT(r.message, Catch::Contains("beyond 0.5"));
  }
  SECTION("an iterate that leaves the caller's domain") {
    NewtonProblem p = arctangent();
    p.admissible = [](const Vector& x) { return x[0] > 0.5; };
    const NewtonResult r = damped_newton(p, point({1.0}), o);
    CHECK(r.status == NewtonStatus::kLeftDomain);
    CHECK(r.iterations == 1);
  }
  SECTION("out of iterations") {
    o.max_iterations = 1;
    o.residual_tolerance = 1e-15;
    const NewtonResult r = damped_newton(circle_and_line(), point({1.0, 2.0}), o);
    CHECK(r.status == NewtonStatus::kNotConverged);
    CHECK(r.iterations == 1);
  }
}

TEST_CASE("damped Newton: the step test, the relative residual and the polishing step",
          "[continuation][newton]") {
  NewtonOptions o;
  o.residual_tolerance = std::numeric_limits<double>::infinity();
  o.step_tolerance = 1e-12;
  const NewtonResult by_step = damped_newton(circle_and_line(), point({1.0, 2.0}), o);
  REQUIRE(by_step.converged());
  CHECK(by_step.last_step <= 1e-12 * (1.0 + by_step.x.lpNorm<Eigen::Infinity>()));
  CHECK(std::abs(by_step.x[0] - std::sqrt(2.0)) < 1e-14);

  NewtonOptions loose;
  loose.residual_tolerance = 1e-3;
  const NewtonResult rough = damped_newton(circle_and_line(), point({1.0, 2.0}), loose);
  loose.polish = true;
  const NewtonResult polished = damped_newton(circle_and_line(), point({1.0, 2.0}), loose);
  REQUIRE(rough.converged());
  REQUIRE(polished.converged());
  CHECK(polished.iterations == rough.iterations + 1);
  CHECK(polished.residual < rough.residual * 1e-2);  // one more quadratic step

  // Relative: |F| <= tol (1 + |x|) accepts what the absolute test does not.
  NewtonOptions relative;
  relative.residual_tolerance = 0.05;  // |F(1.4, 1.45)| = 0.0625, 1 + |x| = 2.45
  relative.max_iterations = 0;
  CHECK(!damped_newton(circle_and_line(), point({1.4, 1.45}), relative).converged());
  relative.relative_residual = true;
  CHECK(damped_newton(circle_and_line(), point({1.4, 1.45}), relative).converged());
}

TEST_CASE("damped Newton: invalid options and problems throw, naming the field", "[continuation][newton]") {
  const auto message = [](NewtonOptions o, NewtonProblem p = circle_and_line(),
                          Vector x = point({1.0, 2.0})) {
    try {
      damped_newton(p, x, o);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  NewtonOptions o;
  o.max_iterations = -1;
  CHECK_THAT(message(o), Catch::Contains("max_iterations = -1"));
  o = {};
  o.min_damping = 2;
  CHECK_THAT(message(o), Catch::Contains("min_damping = 2"));
  o = {};
  o.sufficient_decrease = 1;
  CHECK_THAT(message(o), Catch::Contains("sufficient_decrease = 1"));
  o = {};
  o.residual_tolerance = 0;
  CHECK_THAT(message(o), Catch::Contains("residual_tolerance = 0"));
  CHECK_THAT(message({}, NewtonProblem{}), Catch::Contains("needs a residual and a Jacobian"));
  CHECK_THAT(message({}, circle_and_line(), point({NAN, 1.0})), Catch::Contains("not finite"));
}
