#include "continuation/periodic/cycle_curve.h"

#include <Eigen/LU>
#include <Eigen/SVD>
#include <stdexcept>

namespace saltus::periodic {

std::string to_string(CycleBifurcation kind) { return kind == CycleBifurcation::kFold ? "LPC" : "PD"; }

Matrix monodromy_derivative(const ShootingSystem& shooting, const flow::HybridSystem& lifted, const Vector& u,
                            const Vector& v) {
  const int n = static_cast<int>(v.size()), N = n + 2;  // the hybrid state (x, p1, p2)
  const int m = shooting.state_size();                  // n, or n + 1 with T
  const ShootingOptions& options = shooting.options();
  const double t0 = shooting.start_time(u), t1 = t0 + shooting.period(u);
  Vector zw = Vector::Zero(2 * N);
  zw.head(N) = shooting.hybrid_state(u);
  zw.segment(N, n) = v;
  flow::SimulationOptions simulation = options.simulation;
  simulation.variational = true;
  simulation.constant_components = 0;  // the lifted parameters (p, 0) sit in the middle
  const flow::Trajectory tr = flow::simulate(lifted, options.mode, t0, zw, t1, simulation);
  if (!tr.ok()) throw std::runtime_error("cycle curve: the tangent-lifted period failed: " + tr.message);
  const Matrix L = tr.transition_matrix.bottomLeftCorner(N, N);
  Matrix D = Matrix::Zero(n, m + 2);
  D.leftCols(n) = L.topLeftCorner(n, n);
  D.rightCols(2) = L.topRightCorner(n, 2);
  if (options.autonomous || options.period_of) {
    Vector at_end;
    lifted.field(tr.mode_end, tr.t_end, tr.x_end, &at_end);
    const Vector d_t1 = at_end.segment(N, n);  // f_z(x(t1)) Phi v: the end moving
    if (options.autonomous) {
      D.col(n) = d_t1;
    } else {
      // The cut and the end move with T(p): t0 = phase T, t1 = (phase + 1) T.
      Vector dT_dp, at_start;
      options.period_of(u.tail(2), &dT_dp);
      lifted.field(options.mode, t0, zw, &at_start);
      const Matrix Phi = tr.transition_matrix.topLeftCorner(N, N);
      const Vector d_t0 = -(L * at_start.head(N) + Phi * at_start.tail(N)).head(n);
      D.rightCols(2) += ((options.phase + 1.0) * d_t1 + options.phase * d_t0) * dT_dp.transpose();
    }
  }
  return D;
}

CycleCurveSystem::CycleCurveSystem(const ShootingSystem& shooting, CycleBifurcation kind, const Vector& u0)
    : kind_(kind) {
  if (shooting.parameter_size() != 2)
    throw std::invalid_argument("an LPC or PD curve needs two carried parameters, the shooting problem has " +
                                std::to_string(shooting.parameter_size()));
  m_ = shooting.state_size();
  n_ = shooting.options().autonomous ? m_ - 1 : m_;
  if (u0.size() != m_ + 2 || !u0.allFinite())
    throw std::invalid_argument(std::string("cycle curve: the start point must be a finite (x, ") +
                                (shooting.options().autonomous ? "T, " : "") + "p1, p2) of size " +
                                std::to_string(m_ + 2));
  Vector reference;  // an autonomous orbit's phase plane: through u0
  if (shooting.options().autonomous) reference = shooting.hybrid_state(u0);
  shooting_ = std::make_shared<ShootingSystem>(shooting.hybrid(), 2, shooting.options(), reference);
  lifted_ = shooting.hybrid()->tangent_lifted();
  // The first borders: A's singular vectors of its smallest singular value.
  const Matrix A = singular_block(u0);
  const int a = static_cast<int>(A.rows());
  const Eigen::JacobiSVD<Matrix> svd(A, Eigen::ComputeFullU | Eigen::ComputeFullV);
  b_ = svd.matrixU().col(a - 1);
  c_ = svd.matrixV().col(a - 1);
}

Matrix CycleCurveSystem::singular_block(const Vector& u) const {
  if (kind_ == CycleBifurcation::kFold) {
    // The shooting Jacobian's state block: M - I, or with T [[M - I, f], [f_ref^T, 0]].
    Matrix Js;
    shooting_->jacobian(u.data(), &Js);
    return Js.leftCols(m_);
  }
  Matrix A = shooting_->monodromy(u);
  A.diagonal().array() += 1.0;
  return A;
}

std::vector<std::string> CycleCurveSystem::state_names() const {
  auto names = shooting_->state_names();
  names.push_back(shooting_->parameter_names().front());
  return names;
}

std::vector<std::string> CycleCurveSystem::parameter_names() const {
  return {shooting_->parameter_names().back()};
}

BorderedSingular CycleCurveSystem::bordered(const Vector& u) const {
  const Matrix A = singular_block(u);
  const int a = static_cast<int>(A.rows());
  Matrix B = Matrix::Zero(a + 1, a + 1);
  B.topLeftCorner(a, a) = A;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    B.col(a).head(a) = b_;
    B.row(a).head(a) = c_.transpose();
  }
  const Eigen::PartialPivLU<Matrix> lu(B);
  Vector e = Vector::Zero(a + 1);
  e[a] = 1.0;
  const Vector right = lu.solve(e);
  const Vector left = lu.transpose().solve(e);
  if (!right.allFinite() || !left.allFinite())
    throw std::runtime_error("cycle curve: the bordered matrix is singular (a double multiplier?)");
  return {right[a], right.head(a), left.head(a)};
}

void CycleCurveSystem::residual(const double* u, double* f) const {
  shooting_->residual(u, f);
  f[m_] = bordered(Eigen::Map<const Vector>(u, size())).g;
}

Matrix CycleCurveSystem::monodromy_derivative(const Vector& u, const Vector& v) const {
  return periodic::monodromy_derivative(*shooting_, *lifted_, u, v);
}

void CycleCurveSystem::jacobian(const double* u, Matrix* J) const {
  const Vector uu = Eigen::Map<const Vector>(u, size());
  Matrix Js;
  shooting_->jacobian(u, &Js);
  const BorderedSingular s = bordered(uu);
  Matrix D = monodromy_derivative(uu, s.v.head(n_));  // A_u v, (n x (m + 2))
  if (s.v.size() > n_) {
    // An autonomous LPC: A's column f(x(T)) moves too, d f(z(T))/du = f_z (Phi's columns, f at T).
    const auto tr = shooting_->trajectory(uu);
    const flow::HybridSystem& hybrid = *shooting_->hybrid();
    Vector f;
    Matrix fz;
    hybrid.field_and_jacobian(tr->mode_end, tr->t_end, tr->x_end, &f, &fz);
    const Matrix& Phi = tr->transition_matrix;
    const Matrix fz_top = fz.topRows(n_);
    Matrix df(n_, m_ + 2);
    df.leftCols(n_) = fz_top * Phi.leftCols(n_);
    df.col(n_) = fz_top * f;
    df.rightCols(2) = fz_top * Phi.rightCols(2);
    D += s.v[n_] * df;
  }
  J->resize(m_ + 1, m_ + 2);
  J->topRows(m_) = Js;
  J->row(m_) = -(s.w.head(n_).transpose() * D);
}

void CycleCurveSystem::second_derivative(const double*, const double*, Matrix*) const {
  throw std::logic_error("second derivatives of an LPC or PD curve's defining system are not available");
}

void CycleCurveSystem::accept(const Vector& u) const {
  shooting_->accept(u);
  const BorderedSingular s = bordered(u);
  if (!(s.v.norm() > 0) || !(s.w.norm() > 0)) return;
  std::lock_guard<std::mutex> lock(mutex_);
  c_ = s.v.normalized();
  b_ = s.w.normalized();
}

}  // namespace saltus::periodic
