#include "continuation/eigenvalues.h"

#include <algorithm>
#include <stdexcept>

namespace saltus {

Eigen::VectorXcd equilibrium_eigenvalues(const ContinuationProblem& problem, const Vector& y) {
  const int n = problem.state_size();
  const Matrix J = problem.system().jacobian(problem.u(y));
  Eigen::EigenSolver<Matrix> solver(J.leftCols(n), /*computeEigenvectors=*/false);
  if (solver.info() != Eigen::Success) throw std::runtime_error("the eigenvalues of F_x did not converge");
  Eigen::VectorXcd lambda = solver.eigenvalues();
  std::sort(lambda.begin(), lambda.end(), [](const std::complex<double>& a, const std::complex<double>& b) {
    return a.real() != b.real() ? a.real() > b.real() : a.imag() > b.imag();
  });
  return lambda;
}

int unstable_count(const Eigen::VectorXcd& eigenvalues) {
  return static_cast<int>(std::count_if(eigenvalues.begin(), eigenvalues.end(),
                                        [](const std::complex<double>& l) { return l.real() > 0.0; }));
}

}  // namespace saltus
