#pragma once
// Pieces the studies share (studies/study.cpp, continue_from.cpp); not for callers.

#include <string>

#include "continuation/branch.h"
#include "continuation/continuation_problem.h"
#include "continuation/pseudo_arclength.h"
#include "studies/study.h"

namespace saltus::studies::detail {

// The options with the progress of the branch `name` as their callback.
ContinuationOptions observed(ContinuationOptions options, const std::string& name, const Progress& progress);

// A branch that did not start, with the reason.
Branch not_started(const ContinuationProblem& problem, const std::string& message);

// The branch of orbits of `problem` (a shooting problem) through the guess
// y0 = (x, [T,] p_free): the orbit first, by damped Newton at the start
// parameters (a guess far from any orbit, or one whose simulation fails, a
// Zeno point, a grazing, ends here with its status and last residual), then
// the continuation. `hint` is added to the message of a branch that did not
// start.
Branch orbit_branch(const ContinuationProblem& problem, Vector y0, const ContinuationOptions& options,
                    const TestFunctions& tests, const std::string& hint);

// The two parameters of a curve: given (the branch's parameter first), else
// the branch's and the next of `all`.
std::vector<std::string> curve_parameters(const BranchResult& from, const FromOptions& options,
                                          const std::vector<std::string>& all);

// The GR, LPC, PD or NS curve in two parameters of a point of a branch of
// hybrid orbits (studies/hybrid_curves.cpp).
BranchResult hybrid_curve_from(const BranchResult& from, const SpecialPoint& point, const FromOptions& options,
                               const Progress& progress);

}  // namespace saltus::studies::detail
