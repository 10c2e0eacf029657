#include "continuation/periodic/cycle_curve.h"

#include <Eigen/LU>
#include <Eigen/SVD>
#include <stdexcept>

namespace saltus::periodic {

std::string to_string(CycleBifurcation kind) { return kind == CycleBifurcation::kFold ? "LPC" : "PD"; }

Matrix monodromy_derivative(const ShootingSystem& shooting, const flow::HybridSystem& lifted, const Vector& u,
                            const Vector& v) {
  const int n = shooting.state_size(), N = n + 2;  // the hybrid state (x, p1, p2): u itself
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
  Matrix D = L.topRows(n);
  if (options.period_of) {
    // The cut and the end move with T(p): t0 = phase T, t1 = (phase + 1) T.
    Vector dT_dp;
    options.period_of(u.tail(2), &dT_dp);
    Vector at_end, at_start;
    lifted.field(tr.mode_end, tr.t_end, tr.x_end, &at_end);
    lifted.field(options.mode, t0, zw, &at_start);
    const Matrix Phi = tr.transition_matrix.topLeftCorner(N, N);
    const Vector d_t1 = at_end.segment(N, n);
    const Vector d_t0 = -(L * at_start.head(N) + Phi * at_start.tail(N)).head(n);
    D.rightCols(2) += ((options.phase + 1.0) * d_t1 + options.phase * d_t0) * dT_dp.transpose();
  }
  return D;
}

CycleCurveSystem::CycleCurveSystem(const ShootingSystem& shooting, CycleBifurcation kind, const Vector& u0)
    : kind_(kind) {
  if (shooting.options().autonomous)
    throw std::invalid_argument(
        "LPC and PD curves of autonomous orbits are not built yet (forced orbits only)");
  if (shooting.parameter_size() != 2)
    throw std::invalid_argument("an LPC or PD curve needs two carried parameters, the shooting problem has " +
                                std::to_string(shooting.parameter_size()));
  shooting_ = std::make_shared<ShootingSystem>(shooting.hybrid(), 2, shooting.options());
  lifted_ = shooting.hybrid()->tangent_lifted();
  n_ = shooting.state_size();
  if (u0.size() != n_ + 2 || !u0.allFinite())
    throw std::invalid_argument("cycle curve: the start point must be a finite (x, p1, p2) of size " +
                                std::to_string(n_ + 2));
  // The first borders: A's singular vectors of its smallest singular value.
  Matrix A = shooting_->monodromy(u0);
  A.diagonal().array() += kind_ == CycleBifurcation::kFold ? -1.0 : 1.0;
  const Eigen::JacobiSVD<Matrix> svd(A, Eigen::ComputeFullU | Eigen::ComputeFullV);
  b_ = svd.matrixU().col(n_ - 1);
  c_ = svd.matrixV().col(n_ - 1);
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
  Matrix B = Matrix::Zero(n_ + 1, n_ + 1);
  B.topLeftCorner(n_, n_) = shooting_->monodromy(u);
  B.topLeftCorner(n_, n_).diagonal().array() += kind_ == CycleBifurcation::kFold ? -1.0 : 1.0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    B.col(n_).head(n_) = b_;
    B.row(n_).head(n_) = c_.transpose();
  }
  const Eigen::PartialPivLU<Matrix> lu(B);
  Vector e = Vector::Zero(n_ + 1);
  e[n_] = 1.0;
  const Vector right = lu.solve(e);
  const Vector left = lu.transpose().solve(e);
  if (!right.allFinite() || !left.allFinite())
    throw std::runtime_error("cycle curve: the bordered matrix is singular (a double multiplier?)");
  return {right[n_], right.head(n_), left.head(n_)};
}

void CycleCurveSystem::residual(const double* u, double* f) const {
  shooting_->residual(u, f);
  f[n_] = bordered(Eigen::Map<const Vector>(u, size())).g;
}

Matrix CycleCurveSystem::monodromy_derivative(const Vector& u, const Vector& v) const {
  return periodic::monodromy_derivative(*shooting_, *lifted_, u, v);
}

void CycleCurveSystem::jacobian(const double* u, Matrix* J) const {
  const Vector uu = Eigen::Map<const Vector>(u, size());
  Matrix Js;
  shooting_->jacobian(u, &Js);
  const BorderedSingular s = bordered(uu);
  J->resize(n_ + 1, n_ + 2);
  J->topRows(n_) = Js;
  J->row(n_) = -(s.w.transpose() * monodromy_derivative(uu, s.v));
}

void CycleCurveSystem::second_derivative(const double*, const double*, Matrix*) const {
  throw std::logic_error("second derivatives of an LPC or PD curve's defining system are not available");
}

void CycleCurveSystem::accept(const Vector& u) const {
  const BorderedSingular s = bordered(u);
  if (!(s.v.norm() > 0) || !(s.w.norm() > 0)) return;
  std::lock_guard<std::mutex> lock(mutex_);
  c_ = s.v.normalized();
  b_ = s.w.normalized();
}

}  // namespace saltus::periodic
