// The chord corrector's stopping rules (continuation/corrector.cpp): it ends
// without a last residual where the measured contraction predicts one within
// the tolerances, and asks no finer convergence than the system's accuracy
// (System::accuracy, a shooting system's stepping tolerance).

#include "continuation/corrector.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "continuation/autodiff_system.h"
#include "models/normal_forms.h"

using namespace saltus;

namespace {

// The cusp normal form x' = mu + lambda x - x^3 behind a System that prefers
// chord steps (as a shooting system does), counts its residuals and claims
// an accuracy.
class ChordCusp : public System {
 public:
  explicit ChordCusp(double accuracy) : inner_(make_system(models::Cusp{})), accuracy_(accuracy) {}
  int state_size() const override { return 1; }
  int parameter_size() const override { return 2; }
  std::vector<std::string> parameter_names() const override { return inner_->parameter_names(); }
  void residual(const double* u, double* f) const override { inner_->residual(u, f); }
  void residual_alone(const double* u, double* f) const override {
    ++residuals;
    inner_->residual(u, f);
  }
  void jacobian(const double* u, Matrix* J) const override { inner_->jacobian(u, J); }
  void second_derivative(const double* u, const double* d, Matrix* H) const override {
    inner_->second_derivative(u, d, H);
  }
  bool prefers_chord() const override { return true; }
  double accuracy() const override { return accuracy_; }
  mutable int residuals = 0;

 private:
  std::shared_ptr<System> inner_;
  double accuracy_;
};

// The corrector at mu = -1.875 (lambda = 1) from x = -1.45, 0.05 off the
// root x = -1.5: the chord Jacobian at the start is off by 8%, so the steps
// shrink linearly, by about 0.08 each.
struct Corrected {
  Correction c;
  int residuals;
  double error;  // |x - x*|
};
Corrected correct_at(double accuracy, const ContinuationOptions& options) {
  const auto system = std::make_shared<ChordCusp>(accuracy);
  Vector p(2);
  p << -1.875, 1.0;
  const ContinuationProblem problem(system, p, {"mu"});
  Vector y_pred(2), r(2);
  y_pred << -1.45, -1.875;
  r << 0.0, 1.0;  // mu fixed
  Corrected out{correct(problem, y_pred, r, options), 0, 0.0};
  out.residuals = system->residuals;
  out.error = std::abs(out.c.y[0] + 1.5);
  return out;
}

}  // namespace

TEST_CASE("chord corrector: no residual after the last step where the contraction vouches for it",
          "[continuation][corrector]") {
  const ContinuationOptions options;
  const Corrected k = correct_at(0.0, options);
  REQUIRE(k.c.converged);
  CHECK(k.c.iterations >= 4);  // linear convergence from 0.05 to the tolerance
  // One residual per iteration: none at the returned point, whose step and
  // residual the contraction (about 0.08 here) predicts within tolerance.
  CHECK(k.residuals == k.c.iterations);
  // And they are: the exact residual there, and the distance to the root.
  const double scale = 1.0 + k.c.y.lpNorm<Eigen::Infinity>();
  const double x = k.c.y[0], mu = k.c.y[1];
  CHECK(std::abs(mu + x - x * x * x) <= options.residual_tolerance);
  CHECK(k.error <= options.newton_tolerance * scale);
  CHECK(k.c.residual_norm <= options.residual_tolerance);
}

TEST_CASE("chord corrector: no finer convergence than the system's accuracy", "[continuation][corrector]") {
  const ContinuationOptions options;  // newton_tolerance 1e-10, residual_tolerance 1e-8
  const Corrected exact = correct_at(0.0, options), coarse = correct_at(1e-5, options);
  REQUIRE(exact.c.converged);
  REQUIRE(coarse.c.converged);
  CHECK(coarse.residuals < exact.residuals);
  const double scale = 1.0 + coarse.c.y.lpNorm<Eigen::Infinity>();
  CHECK(coarse.error <= 1e-5 * scale);
  CHECK(coarse.error > options.newton_tolerance * scale);  // it did stop early: the test can fail
}

namespace {

// G(x, p) = s (atan(x) - p), whose root at p is x = tan(p). Newton from
// large |x| diverges: atan is flat there, and each step overshoots to a
// larger |x| of the other sign. s scales G against the border row.
struct ScaledAtan {
  double s;
  int state_size() const { return 1; }
  int parameter_size() const { return 1; }
  std::vector<std::string> state_names() const { return {"x"}; }
  std::vector<std::string> parameter_names() const { return {"p"}; }
  template <class T>
  void operator()(const T* u, T* f) const {
    using std::atan;
    f[0] = T(s) * (atan(u[0]) - u[1]);
  }
};

}  // namespace

TEST_CASE("damped corrector: a fixed parameter is exactly the asked value", "[continuation][corrector]") {
  // Issue 34, item 1. With r = e_p the solve is at fixed p; Levenberg-Marquardt
  // on the bordered system [G; r^T (y - y_pred)] traded p - p0 against a
  // heavily weighted G and the polish then held p where it ended.
  const double s = GENERATE(1.0, 1e4);
  const double p0 = 0.3, x0 = GENERATE(12.0, -40.0);
  CAPTURE(s, x0);
  const ContinuationProblem problem(make_system(ScaledAtan{s}), Vector::Constant(1, p0), {"p"});
  Vector y_pred(2), r(2);
  y_pred << x0, p0;
  r << 0.0, 1.0;
  const ContinuationOptions options;
  REQUIRE_FALSE(correct(problem, y_pred, r, options).converged);  // plain Newton diverges
  const Correction c = correct_damped(problem, y_pred, r, options);
  REQUIRE(c.converged);
  CHECK(c.y[1] == p0);                              // exactly, not to a tolerance
  CHECK(std::abs(c.y[0] - std::tan(p0)) <= 1e-12);  // the root at p0 (tan 0.3 = 0.30933624960962...)
}

TEST_CASE("damped corrector: the result lies on the asked hyperplane r . (y - y_pred) = 0",
          "[continuation][corrector]") {
  // A general border (a pseudo-arclength step): the polish after
  // Levenberg-Marquardt solved on the hyperplane through where
  // Levenberg-Marquardt had ended, not through y_pred.
  const ContinuationProblem problem(make_system(ScaledAtan{1e4}), Vector::Constant(1, 0.3), {"p"});
  Vector y_pred(2), r(2);
  y_pred << 12.0, 0.3;
  r << 0.6, 0.8;
  const ContinuationOptions options;
  const Correction c = correct_damped(problem, y_pred, r, options);
  REQUIRE(c.converged);
  CHECK(std::abs(r.dot(c.y - y_pred)) <= 1e-13);
  CHECK(std::abs(std::atan(c.y[0]) - c.y[1]) <= 1e-12);  // and on the solution curve
}
