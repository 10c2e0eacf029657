#include "continuation/linear_solver.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <unsupported/Eigen/IterativeSolvers>

namespace saltus::detail {
class BorderedOperator;
}  // namespace saltus::detail

namespace Eigen::internal {
template <>
struct traits<saltus::detail::BorderedOperator> : public traits<Eigen::SparseMatrix<double>> {};
}  // namespace Eigen::internal

namespace saltus::detail {

// A = [G_y; r^T] by its products, for Eigen's GMRES: the matrix-free
// wrapper of Eigen's documentation ("Matrix-free solvers"), an EigenBase
// whose product with a vector is A x.
class BorderedOperator : public Eigen::EigenBase<BorderedOperator> {
 public:
  using Scalar = double;
  using RealScalar = double;
  using StorageIndex = int;
  enum { ColsAtCompileTime = Eigen::Dynamic, MaxColsAtCompileTime = Eigen::Dynamic, IsRowMajor = false };

  BorderedOperator(const std::function<Vector(const Vector&)>& G_y_times, const Vector& r, int* products)
      : G_y_times_(G_y_times), r_(r), products_(products) {}
  Eigen::Index rows() const { return r_.size(); }
  Eigen::Index cols() const { return r_.size(); }

  template <class Rhs>
  Eigen::Product<BorderedOperator, Rhs, Eigen::AliasFreeProduct> operator*(
      const Eigen::MatrixBase<Rhs>& x) const {
    return Eigen::Product<BorderedOperator, Rhs, Eigen::AliasFreeProduct>(*this, x.derived());
  }

  Vector times(const Vector& x) const {
    Vector out(rows());
    if (!(x.squaredNorm() > 0)) return out.setZero();  // GMRES's first residual asks A 0
    out.head(rows() - 1) = G_y_times_(x);
    out[rows() - 1] = r_.dot(x);
    ++*products_;
    return out;
  }

 private:
  const std::function<Vector(const Vector&)>& G_y_times_;
  const Vector& r_;
  int* products_;
};

}  // namespace saltus::detail

namespace Eigen::internal {

template <class Rhs>
struct generic_product_impl<saltus::detail::BorderedOperator, Rhs, SparseShape, DenseShape, GemvProduct>
    : generic_product_impl_base<saltus::detail::BorderedOperator, Rhs,
                                generic_product_impl<saltus::detail::BorderedOperator, Rhs>> {
  using Scalar = typename Product<saltus::detail::BorderedOperator, Rhs>::Scalar;
  template <class Dest>
  static void scaleAndAddTo(Dest& dst, const saltus::detail::BorderedOperator& lhs, const Rhs& rhs,
                            const Scalar& alpha) {
    dst.noalias() += alpha * lhs.times(rhs);
  }
};

}  // namespace Eigen::internal

namespace saltus {

bool BorderedJacobian::factor(std::function<Vector(const Vector&)> G_y_times, const Vector& r) {
  sparse_ = false;
  G_y_times_ = std::move(G_y_times);
  r_ = r;
  products_ = 0;
  determinant_ = std::numeric_limits<double>::quiet_NaN();
  return true;
}

void BorderedJacobian::set_max_iterations(int iterations, int restart) {
  if (iterations < 1 || restart < 1)
    throw std::invalid_argument("GMRES iterations = " + std::to_string(iterations) +
                                " and restart = " + std::to_string(restart) + " must be >= 1");
  max_iterations_ = iterations;
  restart_ = restart;
}

Vector BorderedJacobian::solve_matrix_free(const Vector& b) const {
  failure_.clear();
  if (!(b.squaredNorm() > 0)) return Vector::Zero(b.size());
  const detail::BorderedOperator A(G_y_times_, r_, &products_);
  Eigen::GMRES<detail::BorderedOperator, Eigen::IdentityPreconditioner> gmres;
  gmres.setTolerance(tolerance_);
  gmres.setMaxIterations(max_iterations_);
  gmres.set_restart(restart_);
  gmres.compute(A);
  Vector x = gmres.solve(b);
  // A solve short of its tolerance but within a tenth of |b| still gives a
  // descent direction (the Newton step); a hundredfold miss is a failure.
  if (!x.allFinite() || gmres.info() == Eigen::NumericalIssue || !(gmres.error() <= 100 * tolerance_)) {
    std::ostringstream msg;
    msg << "GMRES reached |A x - b| / |b| = " << gmres.error() << " in " << gmres.iterations()
        << " iterations (asked: " << tolerance_ << ")";
    failure_ = msg.str();
    throw std::runtime_error(failure_);
  }
  return x;
}

bool BorderedJacobian::factor(const Matrix& J, const Vector& r) {
  sparse_ = false;
  G_y_times_ = nullptr;
  Matrix A(J.rows() + 1, J.cols());
  A.topRows(J.rows()) = J;
  A.bottomRows(1) = r.transpose();
  dense_.compute(A);
  determinant_ = dense_.determinant();
  // PartialPivLU never refuses; a tiny reciprocal condition number means the
  // bordered system is singular (a branch point hit exactly, or a bad tangent).
  return std::isfinite(determinant_) && dense_.rcond() > 1e3 * std::numeric_limits<double>::epsilon();
}

namespace {
double saturated_determinant(double sign, double log_abs) {
  if (!std::isfinite(log_abs)) return log_abs < 0 ? 0.0 : sign * std::numeric_limits<double>::max();
  return log_abs < 700.0 ? sign * std::exp(log_abs) : sign * std::numeric_limits<double>::max();
}
}  // namespace

bool BorderedJacobian::factor(const SparseMatrix& J, const Vector& r, int n) {
  sparse_ = true;
  G_y_times_ = nullptr;
  const int N = static_cast<int>(J.cols());
  const int k = N - n;  // bordering columns; rows: m - n of J plus r
  // Split J into F_x and the dense borders.
  std::vector<Eigen::Triplet<double>> core;
  core.reserve(J.nonZeros());
  C_.setZero(n, k);
  R_.setZero(k, n);
  D_.setZero(k, k);
  for (int j = 0; j < N; ++j)
    for (SparseMatrix::InnerIterator it(J, j); it; ++it) {
      const int i = static_cast<int>(it.row());
      if (i < n && j < n)
        core.emplace_back(i, j, it.value());
      else if (i < n)
        C_(i, j - n) = it.value();
      else if (j < n)
        R_(i - n, j) = it.value();
      else
        D_(i - n, j - n) = it.value();
    }
  R_.row(k - 1) = r.head(n).transpose();
  D_.row(k - 1) = r.tail(k).transpose();
  SparseMatrix Fx(n, n);
  Fx.setFromTriplets(core.begin(), core.end());
  Fx.makeCompressed();
  const bool same_pattern =
      fx_lu_ && Fx.rows() == Fx_.rows() && Fx.nonZeros() == Fx_.nonZeros() &&
      std::equal(Fx.outerIndexPtr(), Fx.outerIndexPtr() + n + 1, Fx_.outerIndexPtr()) &&
      std::equal(Fx.innerIndexPtr(), Fx.innerIndexPtr() + Fx.nonZeros(), Fx_.innerIndexPtr());
  Fx_ = std::move(Fx);
  if (!same_pattern) {
    fx_lu_ = std::make_unique<SparseLU>();
    fx_lu_->analyzePattern(Fx_);
  }
  fx_lu_->factorize(Fx_);
  if (fx_lu_->info() == Eigen::Success) {
    X_ = fx_lu_->solve(C_);
    schur_.compute(D_ - R_ * X_);
    const double det_s = schur_.determinant();
    blocked_ = X_.allFinite() && std::isfinite(det_s) &&
               schur_.rcond() > 1e3 * std::numeric_limits<double>::epsilon();
    if (blocked_) {
      const double sign = fx_lu_->signDeterminant() * (det_s < 0 ? -1.0 : 1.0);
      determinant_ =
          det_s == 0.0 ? 0.0
                       : saturated_determinant(sign, fx_lu_->logAbsDeterminant() + std::log(std::abs(det_s)));
      return true;
    }
  }

  // F_x singular: the whole matrix.
  blocked_ = false;
  std::vector<Eigen::Triplet<double>> entries = core;
  for (int j = 0; j < k; ++j)
    for (int i = 0; i < n; ++i)
      if (C_(i, j) != 0.0) entries.emplace_back(i, n + j, C_(i, j));
  for (int i = 0; i < k; ++i) {
    for (int j = 0; j < n; ++j)
      if (R_(i, j) != 0.0) entries.emplace_back(n + i, j, R_(i, j));
    for (int j = 0; j < k; ++j)
      if (D_(i, j) != 0.0) entries.emplace_back(n + i, n + j, D_(i, j));
  }
  SparseMatrix A(N, N);
  A.setFromTriplets(entries.begin(), entries.end());
  whole_lu_ = std::make_unique<SparseLU>();
  whole_lu_->compute(A);
  if (whole_lu_->info() != Eigen::Success) {
    determinant_ = 0.0;
    return false;
  }
  determinant_ = saturated_determinant(whole_lu_->signDeterminant(), whole_lu_->logAbsDeterminant());
  return std::isfinite(whole_lu_->logAbsDeterminant());
}

Vector BorderedJacobian::apply(const Vector& x) const {
  const int n = static_cast<int>(Fx_.rows());
  Vector y(x.size());
  y.head(n) = Fx_ * x.head(n) + C_ * x.tail(x.size() - n);
  y.tail(x.size() - n) = R_ * x.head(n) + D_ * x.tail(x.size() - n);
  return y;
}

Vector BorderedJacobian::solve_blocks(const Vector& b) const {
  const int n = static_cast<int>(Fx_.rows());
  const Vector z = fx_lu_->solve(b.head(n));
  Vector x(b.size());
  x.tail(b.size() - n) = schur_.solve(b.tail(b.size() - n) - R_ * z);
  x.head(n) = z - X_ * x.tail(b.size() - n);
  return x;
}

Vector BorderedJacobian::solve_state(const Vector& b) const {
  if (!state_factored()) throw std::logic_error("solve_state: F_x has no LU of its own here");
  return fx_lu_->solve(b);
}

Matrix BorderedJacobian::solve_state(const Matrix& B) const {
  if (!state_factored()) throw std::logic_error("solve_state: F_x has no LU of its own here");
  return fx_lu_->solve(B);
}

Vector BorderedJacobian::solve(const Vector& b) const {
  if (matrix_free()) return solve_matrix_free(b);
  if (!sparse_) return dense_.solve(b);
  if (!blocked_) return whole_lu_->solve(b);
  Vector x = solve_blocks(b);
  x += solve_blocks(b - apply(x));
  return x;
}

}  // namespace saltus
