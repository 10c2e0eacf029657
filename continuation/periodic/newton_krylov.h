#pragma once
// The Newton step of shooting without the monodromy matrix (Newton-Krylov).
//
// Newton on the shooting residual F(x[, T]) (continuation/periodic/
// shooting.h) solves at each iterate
//
//   J dx = F,   J = M - I                              (forced orbits),
//   J = ( M - I    f(x(T)) )
//       ( f_ref^T     0    )                           (autonomous: bordered by the
//                                                       period and the phase plane),
//
// with M the monodromy matrix. Formed densely, M costs n variational
// directions through every step of the period (O(n^2) per step). Here the
// linear system is solved by GMRES (Saad & Schultz 1986; Eigen's
// unsupported IterativeSolvers GMRES, restarted, no preconditioner) on the
// products J y, each one direction through one period (MonodromyOperator,
// continuation/periodic/monodromy_operator.h: the tangent-lifted flow, its
// saltations exact). This is the Newton-Krylov shooting of Sanchez, Net,
// Garcia-Archilla & Simo (J. Comput. Phys. 201 (2004) 13-33), who solve the
// same systems for the periodic orbits of discretized Navier-Stokes flows;
// we follow them, not the Newton-Picard splitting of Lust, Roose, Spence &
// Champneys (SIAM J. Sci. Comput. 19 (1998) 1188-1209).
//
// GMRES converges in about as many iterations as M has multipliers away
// from 0 (the eigenvalues of J cluster at -1 for a dissipative flow): the
// fewer slow modes, the cheaper. The step is inexact: the linear residual
// |J dx - F| <= eta |F| with the forcing term eta = |F|_inf / (1 + |x|_inf)
// clamped to [1e-10, 1e-3] (Dembo, Eisenstat & Steihaug, SIAM J. Numer.
// Anal. 19 (1982) 400-408: eta = O(|F|) keeps Newton's quadratic
// convergence), so that the first iterates far from the orbit take few
// products.

#include <string>

#include "continuation/periodic/shooting.h"

namespace saltus::periodic {

// Whether the shooting problem's products M v can be formed (its hybrid
// system has a tangent-lifted form: flow::tangent_liftable_v).
bool matrix_free_available(const ShootingSystem& shooting);

struct KrylovSolve {
  bool ok = false;
  int iterations = 0;           // GMRES iterations
  int products = 0;             // products M v (GMRES's, with its restarts' residuals)
  double relative_error = 0.0;  // |J dx - F| / |F| as GMRES estimates it
  std::string message;          // on failure: why
};

// dx with J(u) dx = F (J as above, u = (x, [T,] p)) by GMRES to
// |J dx - F| <= tolerance |F|, at most max_iterations iterations, restarted
// every `restart`. Throws std::runtime_error when a period cannot be simulated.
KrylovSolve krylov_solve(const ShootingSystem& shooting, const Vector& u, const Vector& F, double tolerance,
                         int max_iterations, int restart, Vector* dx);

// The forcing term above: |F|_inf / (1 + |x|_inf) in [1e-10, 1e-3].
double krylov_forcing(const Vector& F, const Vector& x);

}  // namespace saltus::periodic
