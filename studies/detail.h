#pragma once
// Pieces the studies share (studies/study.cpp, continue_from.cpp); not for callers.

#include <functional>
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

// Shooting checks the guards at its steps' ends only (continuation/
// periodic/shooting.cpp): the orbit u is simulated once more with every
// guard searched inside the steps (continuation/flow/guard_search.h), so
// that an event the shooting stepped over is an error, never a wrong
// orbit. Empty when both see the same events; else why.
std::string stepped_over(const periodic::ShootingSystem& shooting, const Vector& u);

// Ends `r`'s branch before its first point (after the start) whose orbit
// steps over an event: `why_at(y)` is stepped_over for the point y of the
// branch, whatever the branch's system (a branch of orbits, a curve).
void end_before_stepped_over(BranchResult* r, const std::function<std::string(const Vector& y)>& why_at);

}  // namespace saltus::studies::detail
