#pragma once
// Pseudo-arclength continuation (Keller): predict along the unit tangent,
// correct with Newton on [G(y); t.(y - y_pred)] = 0, adapt the step, keep the
// orientation, and monitor test functions whose sign changes are located.
//
//   auto problem = ContinuationProblem(system, p0, {"mu"});
//   Branch branch = continue_branch(problem, y0, options, {fold_test(), ...});

#include <memory>
#include <vector>

#include "continuation/branch.h"
#include "continuation/continuation_problem.h"
#include "continuation/options.h"
#include "continuation/test_function.h"

namespace saltus {

using TestFunctions = std::vector<std::shared_ptr<const TestFunction>>;

// Follows the branch of G(y) = 0 through y_start. Without start_tangent,
// y_start is first corrected with the first free parameter held fixed (Newton,
// then Levenberg-Marquardt if Newton fails); the branch then leaves in
// options.direction of that parameter. With start_tangent, y_start is taken
// as a point of the branch (say a branch point) and the first step goes
// along start_tangent; events at the start point itself are not reported.
// Numerical failures are a stop reason in the result; invalid options throw
// std::invalid_argument.
Branch continue_branch(const ContinuationProblem& problem, const Vector& y_start,
                       const ContinuationOptions& options, const TestFunctions& tests = {},
                       const Vector* start_tangent = nullptr);

// A branch of the problem with no points yet: its names, sizes and
// parameters as continue_branch records them (for a branch that did not
// start, or one restored from a file).
Branch empty_branch(const ContinuationProblem& problem);

// The unit tangent at a solution y from [G_y; r^T] t = e_last (so t.r > 0),
// with the factorization left in jacobian for test functions.
bool tangent_at(const ContinuationProblem& problem, const Vector& y, const Vector& r,
                BorderedJacobian* jacobian, Vector* tangent);

}  // namespace saltus
