#pragma once
// One periodic orbit at fixed parameters: damped Newton on the shooting
// residual F(x[, T]) = 0 (the parameters held), with a backtracking line
// search on |F|. Every outcome is a status with the last residual: a guess
// far from any orbit ends as kNotConverged, and an orbit whose simulation
// runs into a Zeno point, a grazing or a failed step ends as
// kSimulationFailed with the simulator's message; neither loops. Newton
// iterates that head away from the guess (OrbitSearchOptions::max_distance)
// end as kNotConverged before they are simulated.

#include <string>

#include "continuation/periodic/shooting.h"

namespace saltus::periodic {

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
  bool ok() const { return status == OrbitStatus::kConverged; }
};

// u0 = (x, [T,] p), as the ShootingSystem takes it. Throws
// std::invalid_argument on a wrong size or a non-finite guess.
// Works on any shooting System (single or multiple: state then parameters).
OrbitSearch find_orbit(const System& shooting, const Vector& u0, const OrbitSearchOptions& options = {});

}  // namespace saltus::periodic
