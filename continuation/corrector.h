#pragma once
// Newton's method on the bordered system
//
//   G(y) = 0,   r . (y - y_pred) = 0,
//
// i.e. the pseudo-arclength corrector when r is the tangent and y_pred the
// predicted point, and a fixed-parameter solve when r is a unit vector.

#include "continuation/continuation_problem.h"
#include "continuation/linear_solver.h"
#include "continuation/options.h"

namespace saltus {

struct Correction {
  bool converged = false;
  Vector y;
  int iterations = 0;
  double residual_norm = 0.0;  // |G(y)|_inf at the returned y
  std::string message;         // why it failed
};

// `workspace`, when given, is reused for the factorizations (it keeps the
// sparse ordering from call to call).
Correction correct(const ContinuationProblem& problem, const Vector& y_pred, const Vector& r,
                   const ContinuationOptions& options, BorderedJacobian* workspace = nullptr);

// Fallback for a start point far from the solution set: Levenberg-Marquardt
// (Ceres TinySolver) on the same bordered system, then Newton to polish.
Correction correct_damped(const ContinuationProblem& problem, const Vector& y_pred, const Vector& r,
                          const ContinuationOptions& options);

// Factor [G_y(y); r^T] at y, dense or sparse as the problem says.
bool factor_bordered(const ContinuationProblem& problem, const Vector& y, const Vector& r,
                     BorderedJacobian* jacobian);

}  // namespace saltus
