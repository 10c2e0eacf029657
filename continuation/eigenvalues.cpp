#include "continuation/eigenvalues.h"

#include <Spectra/GenEigsRealShiftSolver.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

namespace saltus {

namespace {

// F_x^{-1} as Spectra's operator for the real shift 0: y = F_x^{-1} x.
class InverseOperator {
 public:
  using Scalar = double;
  InverseOperator(Eigen::Index n, std::function<Vector(const Vector&)> solve)
      : n_(n), solve_(std::move(solve)) {}
  Eigen::Index rows() const { return n_; }
  Eigen::Index cols() const { return n_; }
  void set_shift(double sigma) {
    if (sigma != 0.0) throw std::logic_error("InverseOperator: only the shift 0");
  }
  void perform_op(const double* x_in, double* y_out) const {
    Eigen::Map<Vector>(y_out, n_) = solve_(Eigen::Map<const Vector>(x_in, n_));
  }

 private:
  Eigen::Index n_;
  std::function<Vector(const Vector&)> solve_;
};

Eigen::VectorXcd smallest_modulus(const ContinuationProblem& problem, const Vector& y, int count,
                                  const BorderedJacobian* factored, EigenvalueWarmStart* warm) {
  const int n = problem.state_size();
  if (count > n - 2)
    throw std::invalid_argument("eigenvalue_count = " + std::to_string(count) + " must be at most n - 2 = " +
                                std::to_string(n - 2) + " (0 computes them all, dense)");
  using LU = Eigen::SparseLU<SparseMatrix, Eigen::COLAMDOrdering<int>>;
  std::shared_ptr<LU> own;
  std::function<Vector(const Vector&)> solve;
  if (factored && factored->state_factored()) {
    solve = [factored](const Vector& b) { return factored->solve_state(b); };
  } else {
    const SparseMatrix Fx = problem.sparse_jacobian(y).leftCols(n);
    own = std::make_shared<LU>(Fx);
    if (own->info() != Eigen::Success)
      throw std::runtime_error("F_x is singular: no shift-invert eigenvalues at 0");
    solve = [own](const Vector& b) { return Vector(own->solve(b)); };
  }
  InverseOperator op(n, solve);
  // One Arnoldi run with ncv vectors from `start` (random when empty); the
  // Ritz vectors' sum is kept in *warm for the next point.
  auto arnoldi = [&](int ncv, const Vector& start, int restarts) -> std::optional<Eigen::VectorXcd> {
    Spectra::GenEigsRealShiftSolver<InverseOperator> eigs(op, count, std::min(n, ncv), 0.0);
    if (start.size() == n)
      eigs.init(start.data());
    else
      eigs.init();
    eigs.compute(Spectra::SortRule::LargestMagn, restarts, 1e-10);
    if (eigs.info() != Spectra::CompInfo::Successful) return std::nullopt;
    if (warm) {
      const Eigen::MatrixXcd v = eigs.eigenvectors(count);
      warm->vector = v.real().rowwise().sum() + v.imag().rowwise().sum();
    }
    return eigs.eigenvalues();
  };
  std::optional<Eigen::VectorXcd> lambda;
  // Every tenth call starts afresh (random), so that an eigenvalue the warm
  // start lacks cannot stay missed for long.
  if (warm && warm->vector.size() == n && ++warm->calls % 10 != 0)
    lambda = arnoldi(count + 4, warm->vector, 100);
  if (!lambda) lambda = arnoldi(std::max(2 * count + 1, 20), Vector(), 1000);
  if (!lambda)
    throw std::runtime_error(
        "the shift-invert eigensolver did not converge (eigenvalue_count = " + std::to_string(count) + ")");
  return *lambda;
}

}  // namespace

Eigen::VectorXcd equilibrium_eigenvalues(const ContinuationProblem& problem, const Vector& y, int count,
                                         const BorderedJacobian* factored, EigenvalueWarmStart* warm) {
  Eigen::VectorXcd lambda;
  if (count > 0 && problem.is_sparse()) {
    lambda = smallest_modulus(problem, y, count, factored, warm);
  } else {
    const int n = problem.state_size();
    const Matrix J = problem.system().jacobian(problem.u(y));
    Eigen::EigenSolver<Matrix> solver(J.leftCols(n), /*computeEigenvectors=*/false);
    if (solver.info() != Eigen::Success) throw std::runtime_error("the eigenvalues of F_x did not converge");
    lambda = solver.eigenvalues();
  }
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
