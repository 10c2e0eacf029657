#include "testfunctions/floquet.h"

#include <Eigen/Eigenvalues>

#include "continuation/periodic/shooting.h"

namespace saltus {

namespace {
// From a ShootingSystem its monodromy; from any other system whose residual
// is phi_T(x) - x, F_x + I.
Matrix monodromy(const PointContext& point) {
  const Vector u = point.problem.u(point.y);
  if (const auto* shooting = dynamic_cast<const periodic::ShootingSystem*>(&point.problem.system()))
    return shooting->monodromy(u);
  const int n = point.problem.state_size();
  return point.problem.system().jacobian(u).leftCols(n) + Matrix::Identity(n, n);
}
}  // namespace

double PeriodDoublingTest::value(const PointContext& point) const {
  const Matrix M = monodromy(point);
  return (M + Matrix::Identity(M.rows(), M.cols())).determinant();
}

double NeimarkSackerTest::value(const PointContext& point) const {
  const Eigen::VectorXcd mu = Eigen::EigenSolver<Matrix>(monodromy(point)).eigenvalues();
  std::complex<double> product = 1.0;
  for (int i = 0; i < mu.size(); ++i)
    for (int j = i + 1; j < mu.size(); ++j) product *= mu[i] * mu[j] - 1.0;
  return product.real();  // real: the factors come in conjugate pairs
}

}  // namespace saltus
