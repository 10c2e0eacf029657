#pragma once
// Events along a branch are one mechanism: a scalar test function is
// evaluated at every point; where it changes sign between two points the
// engine brackets the zero in arclength and locates it (toms748) on corrected
// points. Folds, branch points, cusps, user values and parameter bounds are
// all test functions.

#include <string>

#include "continuation/continuation_problem.h"
#include "continuation/linear_solver.h"

namespace saltus {

// What a test function may look at: the corrected point, its unit tangent,
// the bordered Jacobian [G_y; r^T] factored at the point, and the
// eigenvalues of F_x there when the branch monitors them
// (ContinuationOptions::eigenvalues; else empty).
struct PointContext {
  const ContinuationProblem& problem;
  const Vector& y;
  const Vector& tangent;
  const BorderedJacobian& jacobian;
  const Eigen::VectorXcd& eigenvalues;
};

struct SpecialPoint;

class TestFunction {
 public:
  virtual ~TestFunction() = default;
  virtual std::string type() const = 0;                // "LP", "BP", "CP", "UZ", "EP", ...
  virtual std::string name() const { return type(); }  // unique on a branch; CSV column
  virtual double value(const PointContext& point) const = 0;
  // A zero of a stopping test function ends the branch there.
  virtual bool stops_branch() const { return false; }
  // Called at a located zero, before it is reported: may add what the
  // bifurcation is known by (a Hopf point's frequency and first Lyapunov
  // coefficient) to point->data, or return false when the zero is not this
  // bifurcation (a neutral saddle, where the Hopf test vanishes too), and
  // the point is not reported.
  virtual bool describe(const PointContext& point, SpecialPoint* special) const { return true; }
  // Whether value() reads point.eigenvalues. The engine computes the
  // eigenvalues at the corrected points of a location only for tests that
  // do (a bound or a fold located on a monitored branch needs none).
  virtual bool reads_eigenvalues() const { return true; }
};

}  // namespace saltus
