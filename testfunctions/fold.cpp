#include "testfunctions/fold.h"

#include <sstream>
#include <stdexcept>

namespace saltus {

double FoldTest::value(const PointContext& point) const { return point.tangent[point.problem.state_size()]; }

FoldFunction::FoldFunction(const System& system, const Vector& u, double max_sigma) {
  const int n = system.state_size();
  const Matrix Fx = system.jacobian(u).leftCols(n);
  Eigen::JacobiSVD<Matrix> svd(Fx, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const auto& sigma = svd.singularValues();
  if (sigma[n - 1] > max_sigma * std::max(1.0, sigma[0])) {
    std::ostringstream msg;
    msg << "fold curve: F_x is not singular at the start point (smallest singular value " << sigma[n - 1]
        << ", largest " << sigma[0] << "); start from a located LP";
    throw std::invalid_argument(msg.str());
  }
  c_ = svd.matrixV().col(n - 1);
  b_ = svd.matrixU().col(n - 1);
}

double FoldFunction::null_vectors(const System& system, const Vector& u, Vector* v, Vector* w) const {
  const int n = system.state_size();
  Matrix M = Matrix::Zero(n + 1, n + 1);
  M.topLeftCorner(n, n) = system.jacobian(u).leftCols(n);
  M.topRightCorner(n, 1) = b_;
  M.bottomLeftCorner(1, n) = c_.transpose();
  Eigen::PartialPivLU<Matrix> lu(M);
  Vector e = Vector::Zero(n + 1);
  e[n] = 1.0;
  const Vector vg = lu.solve(e);
  if (v) *v = vg.head(n);
  if (w) *w = Eigen::PartialPivLU<Matrix>(M.transpose()).solve(e).head(n);
  return vg[n];
}

double FoldFunction::evaluate(const System& system, const Vector& u, Vector* gradient) const {
  Vector v, w;
  const double g = null_vectors(system, u, &v, gradient ? &w : nullptr);
  if (gradient) {
    const int n = system.state_size();
    Vector d = Vector::Zero(system.size());
    d.head(n) = v;
    Matrix H(n, system.size());
    system.second_derivative(u.data(), d.data(), &H);  // (F_x v)_u
    *gradient = -(w.transpose() * H).transpose();
  }
  return g;
}

void FoldFunction::accept(const System& system, const Vector& u) {
  Vector v, w;
  null_vectors(system, u, &v, &w);
  c_ = v.normalized();
  b_ = w.normalized();
}

double CuspTest::value(const PointContext& point) const {
  const System& system = point.problem.system();
  const Vector u = point.problem.u(point.y);
  const int n = system.state_size();
  Vector v, w;
  fold_->null_vectors(system, u, &v, &w);
  Vector d = Vector::Zero(system.size());
  d.head(n) = v;
  Matrix H(n, system.size());
  system.second_derivative(u.data(), d.data(), &H);
  return w.dot(H.leftCols(n) * v) / (v.squaredNorm() * w.norm());
}

FoldCurve fold_curve(std::shared_ptr<const System> system, const Vector& u,
                     const std::vector<std::string>& free) {
  if (free.size() != 2)
    throw std::invalid_argument("a fold curve needs two free parameters, got " + std::to_string(free.size()));
  FoldCurve curve;
  curve.fold = std::make_shared<FoldFunction>(*system, u);
  curve.cusp = std::make_shared<CuspTest>(curve.fold);
  const Vector p = u.tail(system->parameter_size());
  curve.problem = std::make_shared<ContinuationProblem>(
      system, p, free, std::vector<std::shared_ptr<DefiningFunction>>{curve.fold});
  curve.start = curve.problem->y(u);
  return curve;
}

}  // namespace saltus
