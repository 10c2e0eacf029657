#pragma once
// A first guess of a periodic orbit from a simulation: integrate a transient
// onto the attractor, take the end point x*, and follow the orbit until it
// first comes back through the plane through x* normal to the field there
// (crossing it in the field's direction) within a small distance of x*. The
// return time is the period guess. Shooting then corrects (x*, T); this only
// has to land in Newton's basin.

#include <string>

#include "continuation/flow/simulate.h"

namespace saltus::periodic {

struct OrbitGuessOptions {
  double transient = 50.0;             // time integrated before x* is taken (onto the attractor)
  double max_period = 10.0;            // the return is looked for within this time after x*
  double return_tolerance = 1e-2;      // a return counts when |x - x*| <= this times the orbit's
                                       // extent max |x(t) - x*| over the search
  flow::SimulationOptions simulation;  // variational equations are switched off
  std::string check() const;           // empty when valid, else names the bad field
};

struct OrbitGuess {
  bool ok = false;
  std::string message;    // on failure: why, and what to change
  Vector state;           // x* with the parameters (the hybrid system's full state)
  int mode = 0;           // the mode at x*
  double t = 0.0;         // the time at x*
  double period = 0.0;    // the return time
  double distance = 0.0;  // |x(return) - x*| of the chosen (or, on failure, the closest) return
};

// Throws std::invalid_argument on bad options or a start of the wrong size.
OrbitGuess orbit_from_simulation(const flow::HybridSystem& system, int mode, double t0, const Vector& start,
                                 const OrbitGuessOptions& options = {});

}  // namespace saltus::periodic
