#pragma once
// Stability of equilibria along a branch. When F(x, p) is the right-hand
// side of an ODE x' = F(x, p), a point of a branch of F = 0 is an
// equilibrium, and its stability is the spectrum of the state block F_x:
// linearly stable when every eigenvalue has a negative real part.

#include <Eigen/Dense>

#include "continuation/continuation_problem.h"

namespace saltus {

// The eigenvalues of F_x at the point y of `problem`, rightmost first (by
// real part, then by imaginary part). Dense (Eigen's EigenSolver on the
// dense F_x): every eigenvalue.
Eigen::VectorXcd equilibrium_eigenvalues(const ContinuationProblem& problem, const Vector& y);

// How many eigenvalues have a positive real part.
int unstable_count(const Eigen::VectorXcd& eigenvalues);

}  // namespace saltus
