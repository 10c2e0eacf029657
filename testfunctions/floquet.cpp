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
  // An autonomous orbit always has the multiplier 1 (along the flow); with it
  // the factors (1 mu_j - 1) vanish wherever another multiplier passes +1, so
  // every fold of cycles would also read as an NS. The product runs over the
  // other multipliers only.
  const auto* shooting = dynamic_cast<const periodic::ShootingSystem*>(&point.problem.system());
  const Matrix M = monodromy(point);
  const Eigen::VectorXcd mu = shooting && shooting->options().autonomous
                                  ? periodic::nontrivial_multipliers(M)
                                  : Eigen::VectorXcd(Eigen::EigenSolver<Matrix>(M).eigenvalues());
  std::complex<double> product = 1.0;
  for (int i = 0; i < mu.size(); ++i)
    for (int j = i + 1; j < mu.size(); ++j) product *= mu[i] * mu[j] - 1.0;
  return product.real();  // real: the factors come in conjugate pairs
}

}  // namespace saltus
