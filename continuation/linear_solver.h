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
//
// Matrix-free (a large shooting problem, System::matrix_free): G_y is
// known only by its products G_y v, each one direction through one period
// (forming it would cost n directions through every step). A is then never
// formed or factored: solve() runs GMRES (Saad & Schultz 1986; Eigen's
// unsupported IterativeSolvers, restarted, no preconditioner) on the
// products [G_y v; r . v], to the relative residual set by
// set_tolerance() (the corrector's forcing term, continuation/corrector.cpp;
// 1e-10 by default: the tangent). determinant() is NaN there (unknown: a
// branch-point test sees no sign change).

#include <Eigen/SparseLU>
#include <functional>
#include <memory>
#include <string>

#include "continuation/system.h"

namespace saltus {

class BorderedJacobian {
 public:
  // Factor A = [J; r^T]. False when A is numerically singular.
  bool factor(const Matrix& J, const Vector& r);
  // n: the size of the sparse state block F_x (the leading n x n of J).
  bool factor(const SparseMatrix& J, const Vector& r, int n);
  // Matrix-free: A = [G_y; r^T] by its products, G_y_times(v) = G_y v
  // (v of size r.size(), G_y v of size r.size() - 1). Always true.
  bool factor(std::function<Vector(const Vector&)> G_y_times, const Vector& r);
  bool matrix_free() const { return static_cast<bool>(G_y_times_); }
  // Matrix-free: the relative residual |A x - b| <= tolerance |b| the next
  // solves reach, the Krylov iterations they may take, and what they took.
  void set_tolerance(double tolerance) { tolerance_ = tolerance; }
  void set_max_iterations(int iterations, int restart);
  int products() const { return products_; }               // G_y products since factor()
  const std::string& failure() const { return failure_; }  // the last solve's, "" when it converged
  // Throws std::runtime_error (matrix-free) when GMRES does not reach the
  // tolerance (failure() says how far it got).
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
  // Matrix-free.
  std::function<Vector(const Vector&)> G_y_times_;
  Vector r_;
  double tolerance_ = 1e-10;
  int max_iterations_ = 300, restart_ = 100;
  mutable int products_ = 0;
  mutable std::string failure_;
  Vector solve_matrix_free(const Vector& b) const;
};

}  // namespace saltus
