#pragma once
// The one damped Newton method of saltus, for square (or, through a custom
// linear solve, underdetermined) systems F(x) = 0 that are not continuation
// correctors: periodic orbits at fixed parameters, two-folds, extremal points,
// located contact points, projections onto a switching surface.
//
// One iteration, from x_k with F_k = F(x_k):
//
//   solve J(x_k) dx = F_k,                       (Newton direction -dx)
//   x_{k+1} = x_k - lambda dx,   lambda = 1, 1/2, 1/4, ... >= min_damping,
//
// taking the first lambda whose residual decreases: |F(x_{k+1})| < |F_k|, or
// with sufficient_decrease = c > 0 the Armijo condition
// |F(x_{k+1})| <= (1 - c lambda) |F_k| (Dennis & Schnabel 1996, Sec. 6.3,
// doi:10.1137/1.9781611971200; -dx is a descent direction of |F|_2^2), or a
// residual at or below accept_residual. Without damping the full step is
// always taken. Convergence, tested before each step and after the last:
//
//   |F(x)|_inf <= residual_tolerance [* scale(x)]  and  |dx_last|_inf <= step_tolerance * scale(x),
//
// where scale(x) = 1 + |x|_inf unless the caller says otherwise (the residual
// test scales only with relative_residual), and either test is left out by an
// infinite tolerance. Every outcome is a status with
// the last iterate and its residual, never a silent NaN.

#include <functional>
#include <limits>
#include <string>

#include "continuation/system.h"

namespace saltus {

enum class NewtonNorm { kInf, kTwo };  // the norm whose decrease the line search asks for

struct NewtonOptions {
  int max_iterations = 30;            // Newton steps
  double residual_tolerance = 1e-10;  // on |F|_inf (infinite: not tested)
  bool relative_residual = false;     // true: the residual test is |F|_inf <= residual_tolerance * scale(x)
  double step_tolerance = std::numeric_limits<double>::infinity();  // on |dx|_inf / scale(x)
  bool damping = true;               // false: the full step, whatever the residual does
  double min_damping = 0x1p-30;      // the smallest lambda the line search tries
  double sufficient_decrease = 0.0;  // Armijo's c; 0 asks for a strict decrease
  NewtonNorm norm = NewtonNorm::kInf;
  double accept_residual = 0.0;  // a trial step with |F|_inf at or below this is taken anyway
  bool polish = false;           // after convergence, one more full step, kept if it lowers |F|_inf

  std::string check() const;  // empty when valid, else names the bad field and value
};

enum class NewtonStatus {
  kConverged,
  kNotConverged,      // max_iterations steps without meeting the tolerances
  kNoDescent,         // no damping of the step lowers the residual (a minimum of |F| that is not a zero)
  kSingular,          // the linear solve failed (a singular Jacobian, a non-finite step)
  kNonFinite,         // F or J is not finite at the iterate
  kEvaluationFailed,  // F threw std::runtime_error at the start point (see message)
  kLeftDomain,        // an accepted iterate is outside the caller's domain
};
std::string to_string(NewtonStatus status);

struct NewtonResult {
  NewtonStatus status = NewtonStatus::kNotConverged;
  Vector x;                                                    // the last iterate
  double residual = std::numeric_limits<double>::infinity();   // |F(x)|_inf
  double last_step = std::numeric_limits<double>::infinity();  // |lambda dx|_inf of the last step taken
  int iterations = 0;                                          // steps taken
  std::string message;  // what went wrong (empty when converged); the last evaluation failure
  bool converged() const { return status == NewtonStatus::kConverged; }
};

struct NewtonProblem {
  // F(x) into *F (resized by the callee). May throw std::runtime_error where F
  // cannot be evaluated (a simulation that fails): the line search then tries a
  // shorter step, and at the start the status is kEvaluationFailed. Other
  // exceptions pass through to the caller.
  std::function<void(const Vector& x, Vector* F)> residual;
  std::function<void(const Vector& x, Matrix* J)> jacobian;
  // dx with J dx = F; false when J is singular. Default: partial-pivoting LU.
  std::function<bool(const Matrix& J, const Vector& F, Vector* dx)> solve;
  // Where the iterate may go; an accepted step outside ends with kLeftDomain.
  std::function<bool(const Vector& x)> admissible;
  std::function<double(const Vector& x)> scale;  // of the step test; default 1 + |x|_inf
};

// Damped Newton from x0. Throws std::invalid_argument on bad options, a
// missing residual or Jacobian, or a non-finite start.
NewtonResult damped_newton(const NewtonProblem& problem, const Vector& x0, const NewtonOptions& options);

}  // namespace saltus
