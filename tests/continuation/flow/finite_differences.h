#pragma once
// The state-transition matrix of a simulation by central differences of the
// end state: the independent check of the saltation-corrected one (tests only).

#include <catch2/catch.hpp>

#include "continuation/flow/simulate.h"

namespace saltus::testing {

// Requires every perturbed run to have `events` events, so that the
// differences do not straddle a change of the event sequence.
// `base` gives the integration settings (its variational flag is ignored).
inline Matrix transition_by_differences(const flow::HybridSystem& system, int mode, double t0,
                                        const Vector& x0, double t1, std::size_t events, double h = 1e-6,
                                        const flow::SimulationOptions& base = {}) {
  flow::SimulationOptions plain = base;
  plain.variational = false;
  Matrix fd(x0.size(), x0.size());
  for (int j = 0; j < x0.size(); ++j) {
    Vector xp = x0, xm = x0;
    xp[j] += h;
    xm[j] -= h;
    const flow::Trajectory a = flow::simulate(system, mode, t0, xp, t1, plain);
    const flow::Trajectory b = flow::simulate(system, mode, t0, xm, t1, plain);
    REQUIRE(a.events.size() == events);
    REQUIRE(b.events.size() == events);
    fd.col(j) = (a.x_end - b.x_end) / (2 * h);
  }
  return fd;
}

}  // namespace saltus::testing
