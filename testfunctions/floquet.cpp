#include "testfunctions/floquet.h"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <complex>
#include <limits>

#include "continuation/periodic/shooting.h"
#include "testfunctions/hopf.h"

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

// The multipliers of the NS test. An autonomous orbit always has the
// multiplier 1 (along the flow); with it the factors (1 mu_j - 1) vanish
// wherever another multiplier passes +1, so every fold of cycles would also
// read as an NS. The test runs over the other multipliers only.
Eigen::VectorXcd ns_multipliers(const PointContext& point) {
  const auto* shooting = dynamic_cast<const periodic::ShootingSystem*>(&point.problem.system());
  if (shooting && shooting->matrix_free()) {  // the leading ones (floquet.h)
    const Eigen::VectorXcd mu = shooting->leading_multipliers(point.problem.u(point.y));
    return shooting->options().autonomous ? periodic::without_trivial(mu) : mu;
  }
  const Matrix M = monodromy(point);
  return shooting && shooting->options().autonomous
             ? periodic::nontrivial_multipliers(M)
             : Eigen::VectorXcd(Eigen::EigenSolver<Matrix>(M).eigenvalues());
}
}  // namespace

double PeriodDoublingTest::value(const PointContext& point) const {
  const auto* shooting = dynamic_cast<const periodic::ShootingSystem*>(&point.problem.system());
  if (shooting && shooting->matrix_free()) {  // the leading multipliers (floquet.h)
    std::complex<double> product = 1.0;
    for (const auto& mu : shooting->leading_multipliers(point.problem.u(point.y))) product *= 1.0 + mu;
    return product.real();  // real: the factors come in conjugate pairs
  }
  const Matrix M = monodromy(point);
  return (M + Matrix::Identity(M.rows(), M.cols())).determinant();
}

double NeimarkSackerTest::value(const PointContext& point) const {
  const Eigen::VectorXcd mu = ns_multipliers(point);
  std::complex<double> product = 1.0;
  for (int i = 0; i < mu.size(); ++i)
    for (int j = i + 1; j < mu.size(); ++j) product *= mu[i] * mu[j] - 1.0;
  const auto* shooting = dynamic_cast<const periodic::ShootingSystem*>(&point.problem.system());
  if (shooting && shooting->matrix_free()) {
    // The leading multipliers only: the sign the product has with all of
    // them inside the unit circle, (-1)^(r (r - 1) / 2 + c) for r real ones
    // and c complex pairs, divided out (floquet.h), so that a multiplier
    // entering or leaving the leading set does not flip it.
    long real = 0;
    for (const auto& m : mu) real += is_real(m) ? 1 : 0;
    const long pairs = (mu.size() - real) / 2;
    if ((real * (real - 1) / 2 + pairs) % 2 == 1) product = -product;
  }
  return product.real();  // real: the factors come in conjugate pairs
}

bool NeimarkSackerTest::describe(const PointContext& point, SpecialPoint*) const {
  // The critical pair: the factor of the product nearest zero. An NS only if
  // it is a complex conjugate pair (then |mu|^2 = 1 at the zero); a real pair
  // (mu, 1/mu) is a neutral saddle (floquet.h).
  const Eigen::VectorXcd mu = ns_multipliers(point);
  int a = -1, b = -1;
  double smallest = std::numeric_limits<double>::infinity();
  for (int i = 0; i < mu.size(); ++i)
    for (int j = i + 1; j < mu.size(); ++j)
      if (const double f = std::abs(mu[i] * mu[j] - 1.0); f < smallest) smallest = f, a = i, b = j;
  if (a < 0 || is_real(mu[a]) || is_real(mu[b])) return false;
  // Over the leading multipliers the test can also jump, where the set
  // changes (floquet.h): a located zero is an NS only if its factor is zero.
  const auto* shooting = dynamic_cast<const periodic::ShootingSystem*>(&point.problem.system());
  if (shooting && shooting->matrix_free() && !(smallest <= 1e-4)) return false;
  return std::abs(mu[b] - std::conj(mu[a])) <= 1e-6 * std::abs(mu[a]);
}

}  // namespace saltus
