#pragma once
// A nonlinear system F(u) = 0 with u = (x, p): n equations in the state x (n
// components) and the parameters p (q components). The engine sees a System;
// users write a functor templated on its scalar and wrap it in
// AutoDiffSystem, which differentiates it exactly with ceres::Jet.

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace saltus {

using Vector = Eigen::VectorXd;
using Matrix = Eigen::MatrixXd;
using SparseMatrix = Eigen::SparseMatrix<double>;

class System {
 public:
  virtual ~System() = default;

  virtual int state_size() const = 0;      // n
  virtual int parameter_size() const = 0;  // q
  int size() const { return state_size() + parameter_size(); }
  virtual std::vector<std::string> state_names() const;      // default x0, x1, ...
  virtual std::vector<std::string> parameter_names() const;  // default p0, p1, ...

  // f = F(u), f of size n.
  virtual void residual(const double* u, double* f) const = 0;
  // J = dF/du, n x (n + q), exact.
  virtual void jacobian(const double* u, Matrix* J) const = 0;
  // The residual where no Jacobian at u follows (the chord iterations of the
  // corrector). The default is residual(); a system whose residual comes
  // cheaper alone overrides it (a shooting problem integrates the state
  // without its variational equations) and says so in prefers_chord().
  virtual void residual_alone(const double* u, double* f) const { residual(u, f); }
  // True when a Jacobian costs many residuals (a shooting problem: the
  // variational equations); the corrector then keeps one factorization for
  // all its iterations (a chord method) instead of one per iteration.
  virtual bool prefers_chord() const { return false; }
  // True when the system knows the sparsity of its Jacobian; then
  // sparse_jacobian() is the fast path for large n.
  virtual bool is_sparse() const { return false; }
  virtual void sparse_jacobian(const double* u, SparseMatrix* J) const;
  // True when the Jacobian is too costly to form and the engine should
  // solve its linear systems by GMRES on products jacobian_times() instead
  // (a shooting problem of many states, continuation/periodic/shooting.h:
  // J costs n directions through every step of the period, a product one
  // direction). Along a branch of such a system the engine then never calls
  // jacobian(), and computes residuals by residual_alone().
  virtual bool matrix_free() const { return false; }
  // J d = dF/du d, d of size n + q; exact (to the integration tolerance for
  // a flow). The default forms J.
  virtual Vector jacobian_times(const Vector& u, const Vector& d) const;
  // H = d/du (dF/du . d): the second derivative contracted with a direction d
  // (size n + q), n x (n + q). Needed by fold curves, cusp tests and branch
  // switching. Exact (nested jets).
  virtual void second_derivative(const double* u, const double* d, Matrix* H) const = 0;
  // D (n x order, 1 <= order <= 5): column k-1 is d^k/dt^k F(u + t d) at
  // t = 0, that is F_u d, F_uu[d, d], F_uuu[d, d, d], ...; exact (one Taylor
  // pass). Normal form coefficients (the Lyapunov coefficients of Hopf and
  // generalized Hopf points) get their multilinear forms from it by
  // polarization (testfunctions/multilinear_forms.h). The default throws
  // std::logic_error: a System that cannot give higher derivatives.
  virtual void derivatives_along(const double* u, const double* d, int order, Matrix* D) const;

  // The same system computing to the full accuracy asked of it, when it
  // steps along a branch at a coarser one (a shooting system with
  // ShootingOptions::stepping_tolerance): the engine locates special points
  // on this copy. Null (the default) when the system has one accuracy.
  virtual std::shared_ptr<const System> refined() const { return nullptr; }
  // The relative accuracy of residual() while stepping (0, the default:
  // exact to rounding; a shooting system with a stepping tolerance: that
  // tolerance). The corrector asks no finer convergence than this of the
  // steps between special points; refined() computes to the options' own.
  virtual double accuracy() const { return 0.0; }

  // Called by the continuation engine at each accepted point u; a system
  // whose equations move with the branch (a shooting problem's Poincare
  // plane) updates them here. The default does nothing.
  virtual void accept(const Vector& u) const {}

  // A system whose unknowns are one cut through a solution that can be cut
  // elsewhere (a periodic orbit cut at a time t0, or by a section) may move
  // its cut at an accepted point u: it maps u and the branch's tangent there
  // to the new cut's coordinates (the same solution) and returns true. The
  // engine asks where a step from u fails (once per point) and where a start
  // cannot be corrected, then goes on from the mapped point. The default
  // never moves (continuation/periodic/shooting.h moves a shooting problem's
  // cut away from the orbit's events).
  virtual bool recut(Vector* u, Vector* tangent) const { return false; }
  // Where the system is cut at u (a shooting problem's t0), recorded with
  // each point of a branch under cut_name(); NaN and "" when it has no cut.
  virtual double cut(const Vector& u) const { return std::numeric_limits<double>::quiet_NaN(); }
  virtual std::string cut_name() const { return {}; }

  // Convenience wrappers on Eigen vectors.
  Vector residual(const Vector& u) const;
  Matrix jacobian(const Vector& u) const;
};

}  // namespace saltus
