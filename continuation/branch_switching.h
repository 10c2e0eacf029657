#pragma once
// Switching branches at a simple branch point y* of G(y) = 0 (Keller 1977;
// Kuznetsov, "Elements of applied bifurcation theory", Sec. 10.2.2). There
// G_y has a two-dimensional kernel span{phi1, phi2} and a left null vector psi;
// the tangents t = alpha phi1 + beta phi2 of the two branches solve the
// algebraic branching equation
//
//   a11 alpha^2 + 2 a12 alpha beta + a22 beta^2 = 0,   a_ij = psi^T G_yy[phi_i, phi_j],
//
// whose two root directions are the incoming tangent and the crossing one.

#include "continuation/branch.h"
#include "continuation/pseudo_arclength.h"

namespace saltus {

// The unit tangent of the branch crossing the one through `bp` (whose tangent
// there is bp.tangent), oriented by `direction` on its largest component.
// Throws std::invalid_argument when bp is not a BP, the problem is augmented,
// or the branching equation has no two real roots (not a simple branch point).
Vector crossing_tangent(const ContinuationProblem& problem, const SpecialPoint& bp, int direction = +1);

// Continues the crossing branch from bp, in options.direction.
Branch switch_branch(const ContinuationProblem& problem, const SpecialPoint& bp,
                     const ContinuationOptions& options, const TestFunctions& tests = {});

}  // namespace saltus
