#pragma once
// Switching onto the period-doubled branch at a period doubling (PD) of a
// branch of shooting orbits. In the problem with the doubled period, the PD
// point is a simple branch point (a pitchfork): the orbit traversed twice
// continues through it, and the doubled orbit leaves it along the
// eigenvector v of the multiplier -1 (M^2 v = v). For autonomous orbits the
// direction must also keep the phase condition n . dx = 0: since M^2 f = f
// for the field f, w = v - (n . v / n . f) f is the kernel direction.

#include <memory>

#include "continuation/branch.h"
#include "continuation/continuation_problem.h"
#include "continuation/periodic/shooting.h"

namespace saltus::periodic {

struct DoubledStart {
  std::shared_ptr<ShootingSystem> system;  // the doubled problem (the same object when autonomous)
  Vector y;                                // the PD point with the period doubled
  Vector tangent;                          // unit, along the doubled branch
};

// Throws std::invalid_argument when pd is not a PD point of `problem`
// (no multiplier within 1e-3 of -1).
DoubledStart period_doubled(const std::shared_ptr<ShootingSystem>& system, const ContinuationProblem& problem,
                            const SpecialPoint& pd);

}  // namespace saltus::periodic
