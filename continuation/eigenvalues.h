#pragma once
// Stability of equilibria along a branch. When F(x, p) is the right-hand
// side of an ODE x' = F(x, p), a point of a branch of F = 0 is an
// equilibrium, and its stability is the spectrum of the state block F_x:
// linearly stable when every eigenvalue has a negative real part.

#include <Eigen/Dense>

#include "continuation/continuation_problem.h"
#include "continuation/linear_solver.h"

namespace saltus {

// The eigenvalues of F_x at the point y of `problem`, rightmost first (by
// real part, then by imaginary part).
//  - count = 0, or a dense problem: every eigenvalue (Eigen's EigenSolver on
//    the dense F_x).
//  - count = k > 0 on a sparse problem: the k eigenvalues of smallest modulus,
//    by the shift-invert Arnoldi method at 0 (Spectra's
//    GenEigsRealShiftSolver: the largest eigenvalues of F_x^{-1}). In
//    dissipative discretizations (reaction-diffusion) they are the ones that
//    cross the imaginary axis first; a pair of large frequency far from 0
//    would be missed. When `factored` holds the engine's sparse LU of F_x
//    at y it is reused, else F_x is factored here.
//    `warm` (optional) carries a start vector from one call to the next
//    along a branch: the sum of the last Ritz vectors, so that the Krylov
//    space starts near the wanted invariant subspace. With it the Arnoldi
//    space is k + 4 vectors (about k + 5 solves a point on the 1-D
//    Brusselator instead of 38 from a random start with 2k + 1 vectors;
//    bench/brusselator_1d.cpp); a run that does not converge so is repeated
//    from a random start with 2k + 1 vectors, as is the first call.
//    After it the last point's invariant subspace is tracked instead
//    (continuation/eigenvalues.cpp, rayleigh_ritz), and the eigenvalues
//    accepted when every residual |F_x x - rho x| / |x| is below
//    1e-10 |rho_k|: first plain Rayleigh-Ritz on its basis (one sparse
//    product with F_x, no solve), which certifies where the subspace has
//    not turned; else up to three steps of one block solve with the k
//    columns of the basis and harmonic Rayleigh-Ritz; then Arnoldi from the
//    Ritz vectors' sum. Along the 1-D Brusselator's homogeneous state every
//    tracked point passes at the plain step. Every tenth call audits the tracked set: the smallest
//    eigenvalue outside it (Arnoldi on F_x^{-1} deflated by the tracked
//    subspace) must be larger in modulus than the tracked ones by 3%, else
//    the call starts afresh from a random vector. So an eigenvalue that
//    enters the k smallest moduli from outside is reported within ten calls
//    (tests/continuation/eigenvalues.test.cpp). With tracking off
//    (set_eigenvalue_tracking) every tenth call starts afresh.
// Throws std::runtime_error when the eigensolver does not converge, and
// std::invalid_argument when k > n - 2 (use the dense path).
struct EigenvalueWarmStart {
  Vector vector;  // empty: a random start
  Matrix basis;   // the real span of the last point's wanted eigenvectors
  long calls = 0;
  bool plain = true;                   // the last plain Rayleigh-Ritz step certified: try it first
  long tracked = 0, arnoldi_runs = 0;  // points certified by tracking; Arnoldi runs
  long plain_tracked = 0;              // of the tracked points, those the plain step certified
};
Eigen::VectorXcd equilibrium_eigenvalues(const ContinuationProblem& problem, const Vector& y, int count = 0,
                                         const BorderedJacobian* factored = nullptr,
                                         EigenvalueWarmStart* warm = nullptr);

// Tracking between Arnoldi runs on (the default) or off (warm-started
// Arnoldi at every point, the method before it): for bench/'s before and
// after in one run.
void set_eigenvalue_tracking(bool on);

// How many eigenvalues have a positive real part.
int unstable_count(const Eigen::VectorXcd& eigenvalues);

}  // namespace saltus
