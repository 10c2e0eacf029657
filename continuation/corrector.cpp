#include "continuation/corrector.h"

#include <ceres/tiny_solver.h>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace saltus {

bool factor_bordered(const ContinuationProblem& problem, const Vector& y, const Vector& r,
                     BorderedJacobian* jacobian) {
  if (problem.matrix_free())
    return jacobian->factor([&problem, y](const Vector& dy) { return problem.jacobian_times(y, dy); }, r);
  if (problem.is_sparse()) return jacobian->factor(problem.sparse_jacobian(y), r, problem.state_size());
  return jacobian->factor(problem.jacobian(y), r);
}

namespace {

Vector bordered_residual(const ContinuationProblem& problem, const Vector& y, const Vector& y_pred,
                         const Vector& r) {
  Vector h(problem.size());
  h.head(problem.equations()) = problem.residual(y);
  h[problem.equations()] = r.dot(y - y_pred);
  return h;
}

// The same with the residual computed alone (a chord iteration).
Vector bordered_residual_alone(const ContinuationProblem& problem, const Vector& y, const Vector& y_pred,
                               const Vector& r) {
  Vector h(problem.size());
  h.head(problem.equations()) = problem.residual_alone(y);
  h[problem.equations()] = r.dot(y - y_pred);
  return h;
}

bool finite(const Vector& v) { return v.allFinite(); }

// The component k when r is a multiple of the unit vector e_k (a
// fixed-parameter solve, a bound reached: the border row says y_k =
// y_pred_k), else -1.
int fixed_component(const Vector& r) {
  int k = -1;
  for (int i = 0; i < r.size(); ++i)
    if (r[i] != 0.0) {
      if (k >= 0) return -1;
      k = i;
    }
  return k;
}

// Newton (or chord) on the bordered system from y0, the border row
// r . (y - y_pred) = 0: correct() starts at y_pred itself, the damped
// restart from where Levenberg-Marquardt ended.
Correction newton_from(const ContinuationProblem& problem, const Vector& y0, const Vector& y_pred,
                       const Vector& r, const ContinuationOptions& options, BorderedJacobian* workspace,
                       const KnownJacobian* known);

}  // namespace

Correction correct(const ContinuationProblem& problem, const Vector& y_pred, const Vector& r,
                   const ContinuationOptions& options, BorderedJacobian* workspace,
                   const KnownJacobian* known) {
  return newton_from(problem, y_pred, y_pred, r, options, workspace, known);
}

namespace {

Correction newton_from(const ContinuationProblem& problem, const Vector& y0, const Vector& y_pred,
                       const Vector& r, const ContinuationOptions& options, BorderedJacobian* workspace,
                       const KnownJacobian* known) {
  Correction result;
  result.y = y0;
  // With r = e_k the border row holds y_k at y_pred_k: exactly, not to the
  // rounding of the linear solve (a parameter the user fixes never moves).
  const int held = fixed_component(r);
  if (held >= 0) result.y[held] = y_pred[held];
  BorderedJacobian local;
  BorderedJacobian& jacobian = workspace ? *workspace : local;
  double last_step = std::numeric_limits<double>::infinity();
  // Chord (options.chord and problem.prefers_chord()): the Jacobian factored at the first
  // iterate serves every later one, whose residuals are computed alone. It
  // converges linearly, at a rate about the first step's size times the
  // curvature; when a step shrinks by less than half (a far predictor), the
  // Jacobian is factored afresh at the iterate: Newton's step from there.
  // Matrix-free (ContinuationProblem::matrix_free): Newton, each step by
  // GMRES at the iterate (a product costs the same at any point, so a
  // chord's fixed Jacobian saves nothing and converges slower), to the
  // forcing term eta = |h|_inf / (1 + |y|_inf) in [1e-10, 1e-3] (Dembo,
  // Eisenstat & Steihaug 1982: eta = O(|h|) keeps Newton's quadratic
  // convergence; continuation/periodic/newton_krylov.h), the residuals
  // computed alone (no variational equations).
  const bool matrix_free = problem.matrix_free();
  const bool chord = !matrix_free && options.chord && problem.prefers_chord();
  bool factored = false;
  // Broyden's G_y (known given): updated from the last residual and step.
  const int m = problem.equations();
  Matrix B;
  Vector h_last, delta_last;
  const bool broyden = chord && known && !problem.is_sparse();
  for (int it = 0; it <= options.max_newton_iterations; ++it) {
    const bool fresh = !chord || !factored;
    // In chord mode every residual is computed alone: residuals of one kind
    // (two integrations of the same period differ at the tolerance, which
    // near convergence is as large as the steps).
    const Vector h = chord || matrix_free ? bordered_residual_alone(problem, result.y, y_pred, r)
                                          : bordered_residual(problem, result.y, y_pred, r);
    result.residual_norm = h.head(problem.equations()).lpNorm<Eigen::Infinity>();
    if (!finite(h)) {
      result.message = "the residual is not finite at the Newton iterate";
      return result;
    }
    // The tolerances, relative to scale, no finer than the residual's own
    // accuracy (System::accuracy: a shooting system's stepping tolerance;
    // finer would chase the integration's error).
    const double scale = 1.0 + result.y.lpNorm<Eigen::Infinity>();
    const double step_tolerance = std::max(options.newton_tolerance, problem.accuracy()) * scale;
    const double residual_tolerance = std::max(options.residual_tolerance, problem.accuracy() * scale);
    if (last_step <= step_tolerance && result.residual_norm <= residual_tolerance) {
      result.converged = true;
      return result;
    }
    if (it == options.max_newton_iterations) break;
    bool ready = false;  // this iteration's factorization is in place
    if (broyden && (it == 0 || !fresh)) {
      // The secant condition B s = dG over the last step s: from known.y to
      // the start y0 (G = 0 there), or the last iteration's step -delta_last.
      const Vector s = it == 0 ? Vector(y0 - known->y) : Vector(-delta_last);
      const Vector dG = it == 0 ? Vector(h.head(m)) : Vector(h.head(m) - h_last.head(m));
      if (it == 0) B = known->G_y;
      if (s.squaredNorm() > 0) B += (dG - B * s) * s.transpose() / s.squaredNorm();
      ready = factored = jacobian.factor(B, r);  // singular: a fresh Jacobian below
    }
    if (!ready && (fresh || broyden)) {
      if (broyden) B = problem.jacobian(result.y);  // Broyden goes on from the fresh Jacobian
      if (!(broyden ? jacobian.factor(B, r) : factor_bordered(problem, result.y, r, &jacobian))) {
        // A singular point that already solves the system (a branch point hit
        // exactly, as symmetric problems do) is still a solution.
        if (h.lpNorm<Eigen::Infinity>() <= options.residual_tolerance * 1e-3) {
          result.converged = true;
          return result;
        }
        result.message = "the bordered Jacobian is singular at the Newton iterate";
        return result;
      }
      factored = true;
    }
    if (matrix_free) jacobian.set_tolerance(std::clamp(h.lpNorm<Eigen::Infinity>() / scale, 1e-10, 1e-3));
    Vector delta;
    try {
      delta = jacobian.solve(h);
    } catch (const std::runtime_error& e) {  // GMRES short of its tolerance (matrix-free)
      if (!matrix_free) throw;
      jacobian.set_tolerance(1e-10);
      result.message = std::string("the Newton step: ") + e.what();
      return result;
    }
    if (matrix_free) jacobian.set_tolerance(1e-10);  // the tangent's, next
    const double step = delta.lpNorm<Eigen::Infinity>();
    // Newton steps that grow after the first two mean divergence: give up
    // early so the step controller can cut ds.
    if (!std::isfinite(step) || (it >= 2 && step > 2.0 * last_step)) {
      result.message = "Newton diverged";
      return result;
    }
    if (chord && !fresh && step > 0.5 * last_step) factored = false;  // slow: a new Jacobian next
    result.y -= delta;
    if (held >= 0) result.y[held] = y_pred[held];
    result.iterations = it + 1;
    // The next iteration's test without its residual (a whole integration
    // for shooting): with the contraction theta = |dy_k| / |dy_k-1| of a
    // converging iteration, the residual after this step is about theta
    // |G| (Deuflhard, Newton Methods for Nonlinear Problems, Springer 2004,
    // ch. 2: the contraction of an iteration and its a-posteriori estimates).
    // Trusted only where a contraction was measured (a step before) and it
    // is fast, theta <= 1/8.
    const double theta = step / last_step;
    if (chord && it >= 1 && theta <= 0.125 && step <= step_tolerance &&
        theta * result.residual_norm <= residual_tolerance) {
      result.converged = true;
      result.residual_norm *= theta;
      return result;
    }
    last_step = step;
    h_last = h;
    delta_last = delta;
  }
  std::ostringstream msg;
  msg << "Newton did not converge in " << options.max_newton_iterations << " iterations (residual "
      << result.residual_norm << ")";
  result.message = msg.str();
  return result;
}

// TinySolver's view of the bordered system: residuals h(y), Jacobian [G_y; r^T].
struct BorderedCost {
  using Scalar = double;
  enum { NUM_RESIDUALS = Eigen::Dynamic, NUM_PARAMETERS = Eigen::Dynamic };
  const ContinuationProblem& problem;
  const Vector& y_pred;
  const Vector& r;
  int NumResiduals() const { return problem.size(); }
  int NumParameters() const { return problem.size(); }
  bool operator()(const double* parameters, double* residuals, double* jacobian) const {
    const Eigen::Map<const Vector> y(parameters, problem.size());
    Eigen::Map<Vector>(residuals, problem.size()) = bordered_residual(problem, y, y_pred, r);
    if (jacobian) {
      Eigen::Map<Matrix> J(jacobian, problem.size(), problem.size());
      J.topRows(problem.equations()) = problem.jacobian(y);
      J.bottomRows(1) = r.transpose();
    }
    return Eigen::Map<const Vector>(residuals, problem.size()).allFinite();
  }
};

// The same with y_k held at y_pred_k (r = e_k): the unknowns are the other
// components, the residuals G alone, the Jacobian G_y without its column k.
// On the bordered system the row y_k - y_pred_k = 0 is only one residual
// among the others, which Levenberg-Marquardt trades against them: it ended
// with y_k off by up to 1e-6, and the polish then held y_k there.
struct HeldCost {
  using Scalar = double;
  enum { NUM_RESIDUALS = Eigen::Dynamic, NUM_PARAMETERS = Eigen::Dynamic };
  const ContinuationProblem& problem;
  const Vector& y_pred;
  int k;
  int NumResiduals() const { return problem.equations(); }
  int NumParameters() const { return problem.size() - 1; }
  Vector embed(const double* free) const {
    Vector y = y_pred;
    const Eigen::Map<const Vector> z(free, NumParameters());
    y.head(k) = z.head(k);
    y.tail(y.size() - k - 1) = z.tail(z.size() - k);
    return y;
  }
  bool operator()(const double* parameters, double* residuals, double* jacobian) const {
    const Vector y = embed(parameters);
    Eigen::Map<Vector> h(residuals, NumResiduals());
    h = problem.residual(y);
    if (jacobian) {
      const Matrix G_y = problem.jacobian(y);
      Eigen::Map<Matrix> J(jacobian, NumResiduals(), NumParameters());
      J.leftCols(k) = G_y.leftCols(k);
      J.rightCols(J.cols() - k) = G_y.rightCols(G_y.cols() - k - 1);
    }
    return h.allFinite();
  }
};

template <class Cost>
void levenberg_marquardt(const Cost& cost, Vector* z) {
  ceres::TinySolver<Cost> solver;
  solver.options.max_num_iterations = 200;
  solver.options.gradient_tolerance = 1e-14;
  solver.options.parameter_tolerance = 1e-14;
  solver.Solve(cost, z);
}

}  // namespace

Correction correct_damped(const ContinuationProblem& problem, const Vector& y_pred, const Vector& r,
                          const ContinuationOptions& options) {
  Vector y = y_pred;
  if (const int k = fixed_component(r); k >= 0) {
    const HeldCost cost{problem, y_pred, k};
    Vector z(cost.NumParameters());
    z << y_pred.head(k), y_pred.tail(y_pred.size() - k - 1);
    if (z.size() > 0) levenberg_marquardt(cost, &z);
    y = cost.embed(z.data());
  } else {
    levenberg_marquardt(BorderedCost{problem, y_pred, r}, &y);
  }
  // Newton to polish, on the same hyperplane r . (y - y_pred) = 0 as asked
  // (not the one through where Levenberg-Marquardt ended).
  ContinuationOptions polish = options;
  polish.max_newton_iterations = std::max(options.max_newton_iterations, 20);
  return newton_from(problem, y, y_pred, r, polish, nullptr, nullptr);
}

}  // namespace saltus
