#include "continuation/linear_solver.h"

#include <cmath>
#include <limits>

namespace saltus {

bool BorderedJacobian::factor(const Matrix& J, const Vector& r) {
  sparse_ = false;
  Matrix A(J.rows() + 1, J.cols());
  A.topRows(J.rows()) = J;
  A.bottomRows(1) = r.transpose();
  dense_.compute(A);
  determinant_ = dense_.determinant();
  // PartialPivLU never refuses; a tiny reciprocal condition number means the
  // bordered system is singular (a branch point hit exactly, or a bad tangent).
  return std::isfinite(determinant_) && dense_.rcond() > 1e3 * std::numeric_limits<double>::epsilon();
}

bool BorderedJacobian::factor(const SparseMatrix& J, const Vector& r) {
  sparse_ = true;
  const int m = static_cast<int>(J.rows());
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(J.nonZeros() + r.size());
  for (int j = 0; j < J.outerSize(); ++j)
    for (SparseMatrix::InnerIterator it(J, j); it; ++it)
      entries.emplace_back(it.row(), j, it.value());
  for (int j = 0; j < r.size(); ++j)
    if (r[j] != 0.0) entries.emplace_back(m, j, r[j]);
  SparseMatrix A(m + 1, J.cols());
  A.setFromTriplets(entries.begin(), entries.end());
  sparse_lu_.compute(A);
  if (sparse_lu_.info() != Eigen::Success) {
    determinant_ = 0.0;
    return false;
  }
  const double log_abs = sparse_lu_.logAbsDeterminant();
  const double sign = sparse_lu_.signDeterminant();
  determinant_ = log_abs < 700.0 ? sign * std::exp(log_abs) : sign * std::numeric_limits<double>::max();
  return std::isfinite(log_abs);
}

Vector BorderedJacobian::solve(const Vector& b) const {
  if (sparse_) return sparse_lu_.solve(b);
  return dense_.solve(b);
}

}  // namespace saltus
