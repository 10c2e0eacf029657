#pragma once
// Newton's method on the bordered system
//
//   G(y) = 0,   r . (y - y_pred) = 0,
//
// i.e. the pseudo-arclength corrector when r is the tangent and y_pred the
// predicted point, and a fixed-parameter solve when r is a unit vector.
// With r = e_k (a multiple of it) the component y_k stays at y_pred_k
// exactly, every iterate: a parameter the caller fixes never moves, not even
// by the rounding of the linear solves.

#include "continuation/continuation_problem.h"
#include "continuation/linear_solver.h"
#include "continuation/options.h"

namespace saltus {

struct Correction {
  bool converged = false;
  Vector y;
  int iterations = 0;
  double residual_norm = 0.0;  // |G(y)|_inf at the returned y (a chord corrector's may be an
                               // estimate: correct())
  std::string message;         // why it failed
};

// G_y known at a solution y of G = 0 (the branch's last point).
struct KnownJacobian {
  Vector y;
  Matrix G_y;
};

// `workspace`, when given, is reused for the factorizations (it keeps the
// sparse ordering from call to call).
//
// With `known` (dense chord problems), the chord iterations start from the
// Broyden update of known.G_y to y_pred, B = G_y + (G(y_pred) - G_y d) d^T /
// (d^T d), d = y_pred - known.y (G(known.y) = 0), and each later iteration
// updates B the same way (good Broyden, Dennis & Schnabel 1983, Sec. 8.1;
// superlinear where plain chord is linear): no Jacobian at all at the new
// point, which for shooting saves a pass of the variational equations per
// point. A step that shrinks by less than half still takes a fresh Jacobian.
// A chord corrector ends without a last residual where the contraction
// predicts one within the tolerances (corrector.cpp).
Correction correct(const ContinuationProblem& problem, const Vector& y_pred, const Vector& r,
                   const ContinuationOptions& options, BorderedJacobian* workspace = nullptr,
                   const KnownJacobian* known = nullptr);

// Fallback for a start point far from the solution set: Levenberg-Marquardt
// (Ceres TinySolver), then Newton to polish on the hyperplane
// r . (y - y_pred) = 0. With r = e_k, Levenberg-Marquardt moves the other
// components only (y_k held at y_pred_k; on the bordered system it would
// trade the border row against G); otherwise it minimizes the bordered
// residual, and the polish puts the result back on the hyperplane.
Correction correct_damped(const ContinuationProblem& problem, const Vector& y_pred, const Vector& r,
                          const ContinuationOptions& options);

// Factor [G_y(y); r^T] at y, dense or sparse as the problem says.
bool factor_bordered(const ContinuationProblem& problem, const Vector& y, const Vector& r,
                     BorderedJacobian* jacobian);

}  // namespace saltus
