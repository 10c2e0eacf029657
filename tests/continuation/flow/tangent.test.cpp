// HybridSystem::field_and_tangent: f and the top m rows of A Phi for
// Phi = (P; 0 I), checked against field_and_jacobian() times Phi, and its
// in-place form (and field_in_place) against it, bit for bit. The
// override of AutoDiffHybrid seeds its Jets with the columns of Phi; the
// default multiplies. Both are exact, so they agree to rounding: 1e-13
// relative in the Frobenius norm (the product sums at most n = 20 terms of
// entries of order one here).

#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "continuation/flow/hybrid_system.h"
#include "continuation/flow/mechanical.h"
#include "models/filippov_hybrid.h"
#include "models/lorenz.h"
#include "models/stick_slip.h"
#include "models/triple_pendulum.h"
#include "models/wheel_turntable.h"

using namespace saltus;

namespace {

// Uniform entries in [-1, 1], reproducible.
Matrix random_matrix(int rows, int cols, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Matrix P(rows, cols);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) P(i, j) = u(engine);
  return P;
}

// A random P with the last `constant` components constant: the tangent of
// the system in `mode` at (t, x) agrees with (A Phi).topRows(m).
void check_tangent(const flow::HybridSystem& system, int mode, double t, const Vector& x, int constant,
                   unsigned seed = 1) {
  const int n = system.dimension();
  const int m = n - constant;
  const Matrix P = random_matrix(m, n, seed);
  Vector f_ref;
  Matrix A;
  system.field_and_jacobian(mode, t, x, &f_ref, &A);
  Matrix Phi = Matrix::Identity(n, n);
  Phi.topRows(m) = P;
  const Matrix expected = (A * Phi).topRows(m);

  Vector f;
  Matrix dP = Matrix::Constant(m, n, NAN);  // every entry must be written
  system.field_and_tangent(mode, t, x, P, &f, dP);
  INFO("mode " << mode << ", n = " << n << ", m = " << m << "\nA Phi =\n"
               << expected << "\ntangent =\n"
               << dP);
  REQUIRE(f.size() == n);
  CHECK((f - f_ref).norm() <= 1e-15 * f_ref.norm());
  REQUIRE(dP.allFinite());
  REQUIRE(expected.norm() > 0.0);
  CHECK((dP - expected).norm() <= 1e-13 * expected.norm());

  // The simulator's entries on raw arrays: the same values bit for bit.
  Vector f_in_place(n), f_alone(n), f_field;
  Matrix dP_in_place = Matrix::Constant(m, n, NAN);
  system.field_and_tangent_in_place(mode, t, x.data(), m, P.data(), f_in_place.data(), dP_in_place.data());
  CHECK((f_in_place.array() == f.array()).all());
  CHECK((dP_in_place.array() == dP.array()).all());
  system.field_in_place(mode, t, x.data(), f_alone.data());
  system.field(mode, t, x, &f_field);
  CHECK((f_alone.array() == f_field.array()).all());
}

// The same system without its field_and_tangent override: HybridSystem's
// default (field_and_jacobian and the product).
class Plain : public flow::HybridSystem {
 public:
  explicit Plain(const flow::HybridSystem& s) : s_(s) {}
  int dimension() const override { return s_.dimension(); }
  void field(int mode, double t, const Vector& x, Vector* f) const override { s_.field(mode, t, x, f); }
  void field_jacobian(int mode, double t, const Vector& x, Matrix* A) const override {
    s_.field_jacobian(mode, t, x, A);
  }
  void field_and_jacobian(int mode, double t, const Vector& x, Vector* f, Matrix* A) const override {
    s_.field_and_jacobian(mode, t, x, f, A);
  }
  int guard_count(int mode) const override { return s_.guard_count(mode); }
  double guard(int mode, int k, double t, const Vector& x) const override { return s_.guard(mode, k, t, x); }
  void guard_gradient(int mode, int k, double t, const Vector& x, Vector* h_x, double* h_t) const override {
    s_.guard_gradient(mode, k, t, x, h_x, h_t);
  }
  int next_mode(int mode, int k, double t, const Vector& x) const override {
    return s_.next_mode(mode, k, t, x);
  }
  void reset(int mode, int k, int next, double t, const Vector& x, Vector* x_plus, Matrix* G_x,
             Vector* G_t) const override {
    s_.reset(mode, k, next, t, x, x_plus, G_x, G_t);
  }

 private:
  const flow::HybridSystem& s_;
};

// n = 20 coupled states, the last two constant parameters (a, b), time in
// the field: x_i' = x_{i+1} cos(x_i) - a x_i + b x_{i+3}^2 sin(t) (indices
// mod n - 2). Five Jet passes of 4 lanes, the constant components' unit
// seeds in the last one, and past the default's small-product path (16).
struct Ring {
  static constexpr int kSize = 20;
  int dimension() const { return kSize; }
  template <class T>
  void field(int, const T& t, const T* x, T* f) const {
    using std::cos;
    using std::sin;
    constexpr int k = kSize - 2;
    for (int i = 0; i < k; ++i)
      f[i] = x[(i + 1) % k] * cos(x[i]) - x[k] * x[i] + x[k + 1] * x[(i + 3) % k] * x[(i + 3) % k] * sin(t);
    f[k] = f[k + 1] = T(0.0);
  }
};

}  // namespace

TEST_CASE("field_and_tangent: Lorenz, with and without its constant parameters", "[flow][tangent]") {
  const auto lorenz = models::lorenz_flow();
  Vector x(6);
  x << -3.2, 7.5, 251.0, 10.0, 280.0, 8.0 / 3.0;
  for (int constant : {0, 1, 3}) {
    check_tangent(*lorenz, 0, 0.3, x, constant, 10 + constant);
    check_tangent(Plain(*lorenz), 0, 0.3, x, constant, 10 + constant);
  }
}

TEST_CASE("field_and_tangent: the triple pendulum, free and in contact", "[flow][tangent][mechanical]") {
  models::TriplePendulum p;
  p.q1 = 1.03;
  const auto system = flow::make_mechanical(p);
  Vector x(6);
  x << 1.1, -0.4, 2.3, 0.7, -1.2, 0.5;
  // Free flight, then sets of constraints held (mode bits: the saddle-point
  // system (1) with its Taylor kinematics). The field of a mode is defined
  // off its constraints too, which is all this identity needs.
  for (int mode : {0, 1, 2, 4, 3, 6}) {
    check_tangent(*system, mode, 0.0, x, 0, 20 + mode);
    check_tangent(Plain(*system), mode, 0.0, x, 0, 20 + mode);
  }
}

TEST_CASE("field_and_tangent: the triple pendulum with q1 in the state", "[flow][tangent][mechanical]") {
  models::TriplePendulum p;
  p.q1 = 1.03;
  const auto system = flow::make_mechanical(p)->with_parameters_in_state({"q1"}, {0, 1, 2});
  Vector x(7);
  x << 1.1, -0.4, 2.3, 0.7, -1.2, 0.5, 1.03;
  for (int mode : {0, 1, 5}) {
    check_tangent(*system, mode, 0.0, x, 1, 30 + mode);  // q1 constant (the shooting case)
    check_tangent(*system, mode, 0.0, x, 0, 40 + mode);
  }
}

TEST_CASE("field_and_tangent: Filippov builders, off and on the switching surface",
          "[flow][tangent][filippov]") {
  const auto wheel = filippov::make_filippov_flow(models::WheelTurntable::paper());
  Vector x(3);
  x << 0.19, 0.02, -1.03;
  for (int mode : {filippov::kPlusMode, filippov::kMinusMode, filippov::kSlidingMode}) {
    check_tangent(*wheel, mode, 0.0, x, 0, 50 + mode);
    check_tangent(Plain(*wheel), mode, 0.0, x, 0, 50 + mode);
  }
  // The stick-slip oscillator with its stiffness in the state (constant).
  models::StickSlip block;
  const auto stick_slip = models::make_stick_slip_flow(block)->with_parameters_in_state({"k"});
  Vector y(3);
  y << 0.3, 0.8, block.k;
  for (int mode : {filippov::kPlusMode, filippov::kSlidingMode})
    check_tangent(*stick_slip, mode, 0.0, y, 1, 60 + mode);
}

TEST_CASE("field_and_tangent: 20 states in several Jet passes, with constant components", "[flow][tangent]") {
  const auto ring = flow::make_hybrid(Ring{});
  Vector x = random_matrix(Ring::kSize, 1, 7).col(0);
  x[Ring::kSize - 2] = 0.3;
  x[Ring::kSize - 1] = 1.7;
  for (int constant : {0, 2}) {
    check_tangent(*ring, 0, 0.9, x, constant, 70 + constant);
    check_tangent(Plain(*ring), 0, 0.9, x, constant, 70 + constant);
  }
}
