#pragma once
// One periodic orbit at fixed parameters: damped Newton on the shooting
// residual F(x[, T]) = 0 (the parameters held), with a backtracking line
// search on |F|. Every outcome is a status with the last residual: a guess
// far from any orbit ends as kNotConverged, and an orbit whose simulation
// runs into a Zeno point, a grazing or a failed step ends as
// kSimulationFailed with the simulator's message; neither loops. Newton
// iterates that head away from the guess (OrbitSearchOptions::max_distance)
// end as kNotConverged before they are simulated.
//
// The Newton step's linear system J dx = F is solved densely (J from the
// monodromy matrix, n variational directions through the period) or
// matrix-free (GMRES on products J y, one direction through the period
// each: continuation/periodic/newton_krylov.h), automatically by size: a
// shooting problem of at least matrix_free_from states whose system has a
// tangent-lifted form goes matrix-free. Dense work grows like n^2 per
// step, matrix-free like n times the GMRES iterations, which stay few
// when most multipliers are small (a dissipative system).

#include <string>

#include "continuation/periodic/shooting.h"

namespace saltus::periodic {

// ShootingLinearSolver (shooting.h): kAuto by size (above); kDense,
// kMatrixFree force one (kMatrixFree on a system without a tangent lift, or
// on a System that is not a ShootingSystem, throws std::invalid_argument).

struct OrbitSearchOptions {
  int max_iterations = 30;           // Newton iterations
  double residual_tolerance = 1e-9;  // converged when |F|_inf <= this * (1 + |x|_inf)
  double min_damping = 1e-4;         // the line search halves the step down to this fraction
  // The iterates stay within max_distance (1 + |u0|_inf) of the guess u0
  // (inf-norm over x[, T]): a Newton step that leads further ends the search
  // (kNotConverged) before its orbit is simulated. An orbit "near the guess"
  // is not 100 times its size away; a residual with a zero at infinity leads
  // Newton there (the van der Pol slow manifold, where |F| ~ T / |x| as the
  // iterate doubles each step and the stiffness grows as |x|^2: one period
  // took up to max_steps = 1e7 steps, minutes and a gigabyte per trial).
  double max_distance = 100.0;
  ShootingLinearSolver linear_solver = ShootingLinearSolver::kAuto;
  // kAuto goes matrix-free from this many states (x[, T]). On the impact
  // chain (bench/impact_chain.cpp, a dissipative system: GMRES needs 11-21
  // products a search at every N) the orbit costs 12 against 16 ms of CPU
  // at 16 states and 173 against 717 ms at 128; a system whose multipliers
  // are not mostly small needs up to n GMRES iterations of one period each,
  // where the dense Jacobian costs n / 4 Jet passes a step: the small
  // systems keep the dense path.
  int matrix_free_from = 64;
  int max_krylov = 300;       // GMRES iterations per Newton step (matrix-free)
  int krylov_restart = 100;   // GMRES restart length (matrix-free)
  std::string check() const;  // empty when valid, else names the bad field
};

enum class OrbitStatus { kConverged, kNotConverged, kSimulationFailed };
std::string to_string(OrbitStatus status);

struct OrbitSearch {
  OrbitStatus status = OrbitStatus::kNotConverged;
  std::string message;         // what happened and, on failure, what to try
  Vector u;                    // the last iterate (x[, T], p): the orbit when converged
  double residual_norm = 0.0;  // |F(u)|_inf of the last iterate (infinite if it never ran)
  int iterations = 0;
  bool matrix_free = false;  // the Newton steps were solved by GMRES
  int products = 0;          // matrix-free: products M v over all steps
  bool ok() const { return status == OrbitStatus::kConverged; }
};

// u0 = (x, [T,] p), as the ShootingSystem takes it. Throws
// std::invalid_argument on a wrong size or a non-finite guess.
// Works on any shooting System (single or multiple: state then parameters).
OrbitSearch find_orbit(const System& shooting, const Vector& u0, const OrbitSearchOptions& options = {});

}  // namespace saltus::periodic
