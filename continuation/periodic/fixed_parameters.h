#pragma once
// The orbit of a shooting system at fixed parameters: damped Newton on the
// shooting equations in the state (x[, T]) alone, the parameters held at the
// guess's. Beside a special point where the orbit's event sequence changes
// (a grazing, a sliding bifurcation), the orbit on the far side is wanted at
// a chosen parameter, which the branch's corrector would move.

#include <functional>

#include "continuation/newton.h"
#include "continuation/periodic/shooting.h"

namespace saltus::periodic {

// `guess` is a point whose first state_size() components are the state;
// `to_u` maps such a point to the shooting's u (empty: the point is u). The
// result's x is the whole point, its state corrected.
NewtonResult correct_at_fixed_parameters(const ShootingSystem& shooting, const Vector& guess,
                                         const NewtonOptions& options,
                                         const std::function<Vector(const Vector&)>& to_u = {});

}  // namespace saltus::periodic
