#include "continuation/periodic/period_map_forms.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace saltus::periodic {

namespace {

// The field f(x) (first n components) of an autonomous orbit at its point u
// (the normal of its section), checked to be nonzero.
Vector section_normal(const ShootingSystem& shooting, const Vector& u) {
  const int n = shooting.options().autonomous ? shooting.state_size() - 1 : shooting.state_size();
  Vector f;
  shooting.hybrid()->field(shooting.options().mode, shooting.start_time(u), shooting.hybrid_state(u), &f);
  const Vector normal = f.head(n);
  if (!(normal.norm() > 0) || !normal.allFinite())
    throw std::invalid_argument("the Poincare map of an autonomous orbit needs a nonzero field at its point");
  return normal;
}

// The projection G onto the section {n . (z - x1) = 0} along the flow near
// the return point x1, to third order (the header's derivation): f, A, the
// section's normal and nu = n . f.
struct LocalFlow {
  Vector f, n;
  Matrix A;
  double nu = 0.0;
  Eigen::RowVectorXd r1() const { return -n.transpose() / nu; }  // tau1(b) = r1 b
};

// dR2(a)[b] as a matrix in b: R2(y) = tau1 A y + tau1^2 A f / 2, so
// dR2(a)[b] = tau1(b) (A a + tau1(a) A f) + tau1(a) A b. D^2 G(a, b) = Pi dR2(a)[b].
Matrix second_order(const LocalFlow& s, const Vector& a) {
  const double t1 = -s.n.dot(a) / s.nu;
  return (s.A * a + t1 * (s.A * s.f)) * s.r1() + t1 * s.A;
}

// dR3(a)[b] as a matrix in b, Ha = H(a, .) and Hf = H(f, .): the derivative
// of R3 = tau2 A y + tau1 H(y, y) / 2 + tau1 tau2 A f + tau1^2 (H(f, y) + A^2
// y) / 2 + tau1^3 (H(f, f) + A^2 f) / 6 term by term, with tau1' = r1 b,
// tau2' = r2 b, r2 = -n^T dR2(a) / nu. D^3 G(a, a, b) = 2 Pi dR3(a)[b].
Matrix third_order(const LocalFlow& s, const Vector& a, const Matrix& Ha, const Matrix& Hf) {
  const double t1 = -s.n.dot(a) / s.nu;
  const Vector R2 = t1 * (s.A * a) + 0.5 * t1 * t1 * (s.A * s.f);
  const double t2 = -s.n.dot(R2) / s.nu;
  const Eigen::RowVectorXd r1 = s.r1();
  const Eigen::RowVectorXd r2 = -s.n.transpose() * second_order(s, a) / s.nu;
  const Matrix A2 = s.A * s.A;
  const Vector Af = s.A * s.f;
  return (s.A * a) * r2 + t2 * s.A + 0.5 * (Ha * a) * r1 + t1 * Ha + Af * (t2 * r1 + t1 * r2) +
         t1 * (Hf * a + A2 * a) * r1 + 0.5 * t1 * t1 * (Hf + A2) + 0.5 * t1 * t1 * (Hf * s.f + A2 * s.f) * r1;
}

}  // namespace

Matrix poincare_jacobian(const ShootingSystem& shooting, const Vector& u, const Matrix& M) {
  if (!shooting.options().autonomous) return M;
  const Vector f = section_normal(shooting, u);
  const int n = static_cast<int>(f.size());
  return (Matrix::Identity(n, n) - f * f.transpose() / f.squaredNorm()) * M;
}

PeriodMapForms period_map_forms(const ShootingSystem& shooting, const flow::HybridSystem& twice_lifted,
                                const Vector& u, const Vector& q) {
  const bool autonomous = shooting.options().autonomous;
  const int n = autonomous ? shooting.state_size() - 1 : shooting.state_size(),
            N = n + shooting.parameter_size();
  if (q.size() != n || !q.allFinite())
    throw std::invalid_argument("period map forms: the direction must be finite of size " +
                                std::to_string(n));
  if (twice_lifted.dimension() != 4 * N)
    throw std::invalid_argument("period map forms: the lifted system has dimension " +
                                std::to_string(twice_lifted.dimension()) +
                                ", not 4 (n + parameters) = " + std::to_string(4 * N));
  // (z, w, z', w') = (x0 with its parameters, q, q, 0).
  Vector Z = Vector::Zero(4 * N);
  Z.head(N) = shooting.hybrid_state(u);
  Z.segment(N, n) = q;
  Z.segment(2 * N, n) = q;
  const ShootingOptions& options = shooting.options();
  flow::SimulationOptions simulation = options.simulation;
  simulation.variational = true;
  simulation.constant_components = 0;  // the parameters sit inside each block
  // The steps follow the lifted state (z, w, z', w'), which already carries
  // B(q, q); the transition matrix (for C) rides on them (internal
  // differentiation, SimulationOptions::transition_error_control).
  simulation.transition_error_control = false;
  const double t0 = shooting.start_time(u), t1 = t0 + shooting.period(u);
  const flow::Trajectory tr = flow::simulate(twice_lifted, options.mode, t0, Z, t1, simulation);
  if (!tr.ok()) throw std::runtime_error("period map forms: the twice-lifted period failed: " + tr.message);
  const Matrix& Psi = tr.transition_matrix;
  PeriodMapForms forms;
  forms.M = Psi.topLeftCorner(n, n);
  forms.Bqq = tr.x_end.segment(3 * N, n);
  forms.Bq = Psi.block(3 * N, 2 * N, n, n);
  forms.Cqq = Psi.block(3 * N, 0, n, n);
  if (!autonomous) return forms;

  // The Poincare map P = G o Phi (the header): f, A at the return point x1
  // and H(Mq, .), H(f, .) from the twice-lifted field's Jacobian at (x1, w,
  // 0, 0), whose block (2, 1) is d(f_z w)/dz = H(w, .).
  LocalFlow s;
  s.n = section_normal(shooting, u);
  const Vector Mq = forms.M * q;
  auto hessian_along = [&](const Vector& w, Vector* f, Matrix* A) {
    Vector X = Vector::Zero(4 * N), F;
    X.head(N) = tr.x_end.head(N);
    X.segment(N, n) = w;
    Matrix J;
    twice_lifted.field_and_jacobian(tr.mode_end, tr.t_end, X, &F, &J);
    if (f) *f = F.head(n);
    if (A) *A = J.topLeftCorner(n, n);
    return Matrix(J.block(N, 0, n, n));
  };
  const Matrix Ha = hessian_along(Mq, &s.f, &s.A);
  const Matrix Hf = hessian_along(s.f, nullptr, nullptr);
  s.nu = s.n.dot(s.f);
  if (!(std::abs(s.nu) > 1e-3 * s.n.norm() * s.f.norm()))
    throw std::runtime_error(
        "the Poincare map of an autonomous orbit: its field at the return point is nearly tangent to the "
        "section through its start (the orbit does not close)");
  const Matrix Pi = Matrix::Identity(n, n) - s.f * s.n.transpose() / s.nu;
  const Matrix D2a = second_order(s, Mq), D2b = second_order(s, forms.Bqq);
  PeriodMapForms P;
  P.M = Pi * forms.M;
  P.Bqq = Pi * (D2a * Mq + forms.Bqq);
  P.Bq = Pi * (D2a * forms.M + forms.Bq);
  P.Cqq =
      Pi * (2.0 * third_order(s, Mq, Ha, Hf) * forms.M + D2b * forms.M + 2.0 * D2a * forms.Bq + forms.Cqq);
  return P;
}

}  // namespace saltus::periodic
