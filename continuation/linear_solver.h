#pragma once
// The bordered Jacobian A = [G_y; r^T] of pseudo-arclength continuation, factored
// once and used for the Newton corrector, the tangent and the branch-point
// determinant. Dense LU for small systems. For large sparse ones, A is
//
//   [ F_x  C ]   F_x the sparse n x n state block, C the parameter columns,
//   [ R    D ]   R, D the dense rows (the tangent, defining functions),
//
// and a sparse LU of the whole of A is slow: the dense rows fill it in (70
// times the cost of factoring F_x alone for Bratu with n = 1000). So it is
// solved by block elimination on a sparse LU of F_x with a small dense Schur
// complement, and one step of iterative refinement on A restores the accuracy
// lost when F_x is ill-conditioned (near a fold, or on a fold curve, where
// the sparse LU of F_x still succeeds in floating point; checked against a
// dense LU of A to 5e-14 on Bratu near its fold). Only when the LU of F_x
// reports failure, or the Schur complement is singular, does it fall back to
// the sparse LU of A. Reusing one
// BorderedJacobian for a sequence of factorizations keeps the fill-reducing
// ordering of F_x while its sparsity pattern stays the same.

#include <Eigen/SparseLU>
#include <memory>

#include "continuation/system.h"

namespace saltus {

class BorderedJacobian {
 public:
  // Factor A = [J; r^T]. False when A is numerically singular.
  bool factor(const Matrix& J, const Vector& r);
  // n: the size of the sparse state block F_x (the leading n x n of J).
  bool factor(const SparseMatrix& J, const Vector& r, int n);
  Vector solve(const Vector& b) const;
  // A itself, from its dense factors (dense path only).
  Matrix dense_matrix() const { return dense_.reconstructedMatrix(); }
  // det(A), the branch-point test function; saturates at +-DBL_MAX rather
  // than overflowing for very large systems (its sign is what matters there).
  double determinant() const { return determinant_; }
  bool sparse() const { return sparse_; }
  // Sparse path with F_x regular: F_x has its own LU, and solve_state(b) =
  // F_x^{-1} b uses it (the shift-invert eigensolver of
  // continuation/eigenvalues.h reuses the engine's factorization).
  bool state_factored() const { return sparse_ && blocked_; }
  Vector solve_state(const Vector& b) const;
  // F_x^{-1} B for many right-hand sides in one pass over the LU's
  // supernodes (about 3x cheaper a column than one solve at a time on the
  // 1-D Brusselator), and F_x itself; both only when state_factored().
  Matrix solve_state(const Matrix& B) const;
  const SparseMatrix& state_matrix() const { return Fx_; }

 private:
  using SparseLU = Eigen::SparseLU<SparseMatrix, Eigen::COLAMDOrdering<int>>;
  Vector apply(const Vector& x) const;  // A x, for refinement
  Vector solve_blocks(const Vector& b) const;

  bool sparse_ = false;
  bool blocked_ = false;  // block elimination (else a whole-matrix LU)
  Eigen::PartialPivLU<Matrix> dense_;
  std::unique_ptr<SparseLU> fx_lu_;     // of F_x; its ordering is kept while the pattern is
  std::unique_ptr<SparseLU> whole_lu_;  // of A, when F_x is singular
  SparseMatrix Fx_;
  Matrix C_, R_, D_, X_;               // X = F_x^{-1} C
  Eigen::PartialPivLU<Matrix> schur_;  // of D - R X
  double determinant_ = 0.0;
};

}  // namespace saltus
