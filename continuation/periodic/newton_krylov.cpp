#include "continuation/periodic/newton_krylov.h"

#include <Eigen/Sparse>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <unsupported/Eigen/IterativeSolvers>

#include "continuation/periodic/monodromy_operator.h"

namespace saltus::periodic::detail {
class ShootingJacobian;
}  // namespace saltus::periodic::detail

namespace Eigen::internal {
template <>
struct traits<saltus::periodic::detail::ShootingJacobian> : public traits<Eigen::SparseMatrix<double>> {};
}  // namespace Eigen::internal

namespace saltus::periodic::detail {

// The shooting Jacobian J as an operator for Eigen's GMRES: the matrix-free
// wrapper of Eigen's documentation ("Matrix-free solvers"), an EigenBase
// whose product with a vector is J y.
class ShootingJacobian : public Eigen::EigenBase<ShootingJacobian> {
 public:
  using Scalar = double;
  using RealScalar = double;
  using StorageIndex = int;
  enum { ColsAtCompileTime = Eigen::Dynamic, MaxColsAtCompileTime = Eigen::Dynamic, IsRowMajor = false };

  ShootingJacobian(const MonodromyOperator& monodromy, const Vector& phase_normal, bool autonomous)
      : monodromy_(monodromy), phase_normal_(phase_normal), autonomous_(autonomous) {}
  Eigen::Index rows() const { return monodromy_.size() + (autonomous_ ? 1 : 0); }
  Eigen::Index cols() const { return rows(); }

  template <class Rhs>
  Eigen::Product<ShootingJacobian, Rhs, Eigen::AliasFreeProduct> operator*(
      const Eigen::MatrixBase<Rhs>& x) const {
    return Eigen::Product<ShootingJacobian, Rhs, Eigen::AliasFreeProduct>(*this, x.derived());
  }

  // J y: (M v - v [+ f_end dT]; [f_ref . v]) for y = (v[, dT]).
  Vector times(const Vector& y) const {
    const int n = monodromy_.size();
    Vector out(rows());
    out.head(n) = monodromy_.apply(y.head(n)) - y.head(n);
    if (autonomous_) {
      out.head(n) += monodromy_.end_field() * y[n];
      out[n] = phase_normal_.dot(y.head(n));
    }
    return out;
  }

 private:
  const MonodromyOperator& monodromy_;
  Vector phase_normal_;
  bool autonomous_;
};

}  // namespace saltus::periodic::detail

namespace Eigen::internal {

template <class Rhs>
struct generic_product_impl<saltus::periodic::detail::ShootingJacobian, Rhs, SparseShape, DenseShape,
                            GemvProduct>
    : generic_product_impl_base<saltus::periodic::detail::ShootingJacobian, Rhs,
                                generic_product_impl<saltus::periodic::detail::ShootingJacobian, Rhs>> {
  using Scalar = typename Product<saltus::periodic::detail::ShootingJacobian, Rhs>::Scalar;
  template <class Dest>
  static void scaleAndAddTo(Dest& dst, const saltus::periodic::detail::ShootingJacobian& lhs, const Rhs& rhs,
                            const Scalar& alpha) {
    dst.noalias() += alpha * lhs.times(rhs);
  }
};

}  // namespace Eigen::internal

namespace saltus::periodic {

bool matrix_free_available(const ShootingSystem& shooting) {
  try {
    return shooting.hybrid()->tangent_lifted() != nullptr;
  } catch (const std::logic_error&) {
    return false;
  }
}

double krylov_forcing(const Vector& F, const Vector& x) {
  return std::clamp(F.lpNorm<Eigen::Infinity>() / (1.0 + x.lpNorm<Eigen::Infinity>()), 1e-10, 1e-3);
}

KrylovSolve krylov_solve(const ShootingSystem& shooting, const Vector& u, const Vector& F, double tolerance,
                         int max_iterations, int restart, Vector* dx) {
  const MonodromyOperator monodromy(shooting, u);
  const bool autonomous = shooting.options().autonomous;
  const detail::ShootingJacobian J(monodromy, autonomous ? shooting.phase_normal() : Vector(), autonomous);
  Eigen::GMRES<detail::ShootingJacobian, Eigen::IdentityPreconditioner> gmres;
  gmres.setTolerance(tolerance);
  gmres.setMaxIterations(max_iterations);
  gmres.set_restart(restart);
  gmres.compute(J);
  *dx = gmres.solve(F);
  KrylovSolve out;
  out.iterations = static_cast<int>(gmres.iterations());
  out.products = monodromy.products();
  out.relative_error = gmres.error();
  // A step that reduces the linear residual is still a descent direction
  // of |F|^2 (|J dx - F| < |F|); the line search decides.
  out.ok = dx->allFinite() && gmres.info() != Eigen::NumericalIssue && out.relative_error < 0.5;
  if (!out.ok) {
    std::ostringstream msg;
    msg << "GMRES reached |J dx - F| / |F| = " << out.relative_error << " in " << out.iterations
        << " iterations (asked: " << tolerance << ")";
    out.message = msg.str();
  }
  return out;
}

}  // namespace saltus::periodic
