#include "continuation/branch_switching.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace saltus {

Vector crossing_tangent(const ContinuationProblem& problem, const SpecialPoint& bp, int direction) {
  if (bp.type != "BP") throw std::invalid_argument("branch switching needs a BP point, got " + bp.type);
  if (!problem.extras().empty())
    throw std::invalid_argument("branch switching on an augmented system is not supported");
  const int m = problem.equations();
  const Matrix J = problem.jacobian(bp.y);
  Eigen::JacobiSVD<Matrix> svd(J, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const Vector psi = svd.matrixU().col(m - 1);
  // Kernel basis: phi1 along the incoming tangent, phi2 its complement.
  const Matrix K = svd.matrixV().rightCols(2);
  Vector phi1 = K * (K.transpose() * bp.tangent);
  phi1.normalize();
  Vector phi2 = K.col(0) - phi1.dot(K.col(0)) * phi1;
  if (phi2.norm() < 0.5) phi2 = K.col(1) - phi1.dot(K.col(1)) * phi1;
  phi2.normalize();
  const double a11 = psi.dot(problem.second_derivative(bp.y, phi1, phi1));
  const double a12 = psi.dot(problem.second_derivative(bp.y, phi1, phi2));
  const double a22 = psi.dot(problem.second_derivative(bp.y, phi2, phi2));
  // Null directions of the quadratic form Q = [a11 a12; a12 a22]: with
  // eigenvalues l1 < 0 < l2 and eigenvectors e1, e2 they are
  // sqrt(l2) e1 +- sqrt(-l1) e2.
  Eigen::Matrix2d Q;
  Q << a11, a12, a12, a22;
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> eig(Q);
  const double l1 = eig.eigenvalues()[0], l2 = eig.eigenvalues()[1];
  const double scale = std::max(std::abs(l1), std::abs(l2));
  if (!(l1 < -1e-8 * scale && l2 > 1e-8 * scale)) {
    std::ostringstream msg;
    msg << "the branching equation at the BP has no two distinct real roots (a11 = " << a11
        << ", a12 = " << a12 << ", a22 = " << a22 << "): not a simple branch point";
    throw std::invalid_argument(msg.str());
  }
  const Eigen::Vector2d r1 =
      std::sqrt(l2) * eig.eigenvectors().col(0) + std::sqrt(-l1) * eig.eigenvectors().col(1);
  const Eigen::Vector2d r2 =
      std::sqrt(l2) * eig.eigenvectors().col(0) - std::sqrt(-l1) * eig.eigenvectors().col(1);
  // The incoming branch is the root closest to phi1 = (1, 0); take the other.
  const Eigen::Vector2d r = std::abs(r1.normalized()[0]) < std::abs(r2.normalized()[0]) ? r1 : r2;
  Vector t = r[0] * phi1 + r[1] * phi2;
  t.normalize();
  int k = problem.state_size();
  if (std::abs(t[k]) < 1e-8) t.cwiseAbs().maxCoeff(&k);
  if (t[k] * direction < 0) t = -t;
  return t;
}

Branch switch_branch(const ContinuationProblem& problem, const SpecialPoint& bp,
                     const ContinuationOptions& options, const TestFunctions& tests) {
  const Vector t = crossing_tangent(problem, bp, options.direction);
  return continue_branch(problem, bp.y, options, tests, &t);
}

}  // namespace saltus
