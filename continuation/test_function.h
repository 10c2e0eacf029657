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

// What a test function may look at: the corrected point, its unit tangent
// and the bordered Jacobian [G_y; r^T] factored at the point.
struct PointContext {
  const ContinuationProblem& problem;
  const Vector& y;
  const Vector& tangent;
  const BorderedJacobian& jacobian;
};

class TestFunction {
 public:
  virtual ~TestFunction() = default;
  virtual std::string type() const = 0;                // "LP", "BP", "CP", "UZ", "EP", ...
  virtual std::string name() const { return type(); }  // unique on a branch; CSV column
  virtual double value(const PointContext& point) const = 0;
  // A zero of a stopping test function ends the branch there.
  virtual bool stops_branch() const { return false; }
};

}  // namespace saltus
