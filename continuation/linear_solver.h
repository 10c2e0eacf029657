#pragma once
// The bordered Jacobian A = [G_y; r^T] of pseudo-arclength continuation, factored
// once and used for the Newton corrector, the tangent and the branch-point
// determinant. Dense LU for small systems, sparse LU (Eigen, COLAMD ordering)
// for large ones.

#include <memory>

#include <Eigen/SparseLU>

#include "continuation/system.h"

namespace saltus {

class BorderedJacobian {
 public:
  // Factor A = [J; r^T]. False when A is numerically singular.
  bool factor(const Matrix& J, const Vector& r);
  bool factor(const SparseMatrix& J, const Vector& r);
  Vector solve(const Vector& b) const;
  // det(A), the branch-point test function; saturates at +-DBL_MAX rather
  // than overflowing for very large systems (its sign is what matters there).
  double determinant() const { return determinant_; }
  bool sparse() const { return sparse_; }

 private:
  bool sparse_ = false;
  Eigen::PartialPivLU<Matrix> dense_;
  Eigen::SparseLU<SparseMatrix, Eigen::COLAMDOrdering<int>> sparse_lu_;
  double determinant_ = 0.0;
};

}  // namespace saltus
