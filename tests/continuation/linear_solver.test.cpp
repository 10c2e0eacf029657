#include "continuation/linear_solver.h"

#include <catch2/catch.hpp>

using namespace saltus;

namespace {
// An m x (m+1) sparse J whose leading n x n block is tridiagonal, with k = m + 1 - n
// dense border columns and m - n dense rows.
SparseMatrix bordered_test_matrix(int n, int k, unsigned seed) {
  std::srand(seed);
  const int m = n + k - 1;
  Matrix dense = Matrix::Zero(m, m + 1);
  for (int i = 0; i < n; ++i) {
    dense(i, i) = -2.0 + 0.1 * i / n;
    if (i > 0) dense(i, i - 1) = 1.0;
    if (i + 1 < n) dense(i, i + 1) = 1.0;
  }
  dense.rightCols(k) = Matrix::Random(m, k);
  dense.bottomRows(m - n) = Matrix::Random(m - n, m + 1);
  return dense.sparseView();
}
}  // namespace

TEST_CASE("block elimination solves the bordered system like a dense LU", "[linear_solver]") {
  for (int k : {1, 2}) {
    const int n = 40;
    const SparseMatrix J = bordered_test_matrix(n, k, 7 + k);
    const Vector r = Vector::Random(J.cols());
    BorderedJacobian sparse, dense;
    REQUIRE(sparse.factor(J, r, n));
    REQUIRE(dense.factor(Matrix(J), r));
    const Vector b = Vector::Random(J.cols());
    CHECK((sparse.solve(b) - dense.solve(b)).norm() < 1e-10 * dense.solve(b).norm());
    CHECK(sparse.determinant() == Approx(dense.determinant()).epsilon(1e-9));
  }
}

TEST_CASE("a singular state block falls back to the whole-matrix LU", "[linear_solver]") {
  // F_x = 0 in its first column: singular, but the bordered matrix is not.
  const int n = 3;
  Matrix J(3, 4);
  J << 0, 1, 0, 1, 0, 2, 1, 0, 0, 0, 3, 0;
  Vector r(4);
  r << 1, 0, 0, 0;
  BorderedJacobian sparse, dense;
  REQUIRE(sparse.factor(SparseMatrix(J.sparseView()), r, n));
  REQUIRE(dense.factor(J, r));
  const Vector b = Vector::LinSpaced(4, 1, 4);
  CHECK((sparse.solve(b) - dense.solve(b)).norm() < 1e-12);
  CHECK(sparse.determinant() == Approx(dense.determinant()));
}
