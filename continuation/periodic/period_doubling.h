#pragma once
// Switching onto the period-doubled branch at a period doubling (PD) of a
// branch of shooting orbits. In the problem with the doubled period, the PD
// point is a simple branch point (a pitchfork): the orbit traversed twice
// continues through it, and the doubled orbit leaves it along the
// eigenvector v of the multiplier -1 (M^2 v = v). For autonomous orbits the
// direction must also keep the phase condition n . dx = 0: since M^2 f = f
// for the field f, w = v - (n . v / n . f) f is the kernel direction.

#include <memory>
#include <optional>
#include <vector>

#include "continuation/branch.h"
#include "continuation/continuation_problem.h"
#include "continuation/options.h"
#include "continuation/periodic/shooting.h"
#include "continuation/pseudo_arclength.h"

namespace saltus::periodic {

struct DoubledStart {
  std::shared_ptr<ShootingSystem> system;  // the doubled problem (the same object when autonomous)
  Vector y;                                // the PD point with the period doubled
  Vector tangent;                          // unit, along the doubled branch, first component >= 0
};

// Throws std::invalid_argument when pd is not a PD point of `problem`
// (no multiplier within 1e-3 of -1).
DoubledStart period_doubled(const std::shared_ptr<ShootingSystem>& system, const ContinuationProblem& problem,
                            const SpecialPoint& pd);

// A period-doubling cascade: the branch from y, then at its first PD the
// doubled branch, and so on, up to `levels` branches; it stops after a branch
// without a PD. `tests` must hold a test function of type "PD" (from
// testfunctions/floquet.h; the layering keeps it out of this library). Each
// doubled branch leaves its PD with ds = ds_after_switch: the doubled orbit
// grows like sqrt|p - p_PD|, so a long first step lands back on the old
// branch. Throws std::invalid_argument without a PD test.
struct CascadeLevel {
  std::shared_ptr<ShootingSystem> system;  // this level's problem (a new one per level when not autonomous)
  Branch branch;
  std::optional<SpecialPoint> pd;  // the first PD on the branch (jumps of the test left out)
};
std::vector<CascadeLevel> period_doubling_cascade(std::shared_ptr<ShootingSystem> system,
                                                  const ContinuationProblem& problem, Vector y,
                                                  ContinuationOptions options, const TestFunctions& tests,
                                                  int levels, double ds_after_switch = 1e-3);

}  // namespace saltus::periodic
