#include "models/lorenz.h"

#include <catch2/catch.hpp>
#include <iomanip>

#include "continuation/flow/hybrid_system.h"
#include "continuation/periodic/period_doubling.h"
#include "continuation/periodic/shooting.h"
#include "continuation/pseudo_arclength.h"
#include "testfunctions/floquet.h"

using namespace saltus;
using namespace saltus::periodic;

namespace {

// The period-doubling cascade of the Lorenz system (sigma = 10, beta = 8/3)
// followed down in rho from the stable periodic orbit at rho = 280 (period
// about 0.4345; the starting orbit of AUTO-07p's `lor` demo), switching onto
// the doubled branch at each PD. Returns the first `count` PD values of rho.
std::vector<double> cascade(double tolerance, double event_tolerance, int count) {
  flow::SimulationOptions simulation;
  simulation.absolute_tolerance = simulation.relative_tolerance = tolerance;
  const models::LorenzBranchStart start = models::lorenz_branch_start(simulation);
  ContinuationOptions options = models::lorenz_branch_options();
  options.event_tolerance = event_tolerance;
  const auto levels = period_doubling_cascade(start.system, *start.problem, start.y, options,
                                              {std::make_shared<PeriodDoublingTest>()}, count);
  std::vector<double> pds;
  for (const auto& level : levels) {
    INFO("level " << pds.size() << ": " << level.branch.message);
    REQUIRE(level.pd);
    CHECK(level.pd->status == EventStatus::kLocated);
    pds.push_back(level.pd->y[4]);
  }
  REQUIRE(static_cast<int>(pds.size()) == count);
  return pds;
}

}  // namespace

TEST_CASE("Lorenz: the first three period doublings of the cascade from rho = 280", "[periodic][lorenz]") {
  const std::vector<double> pd = cascade(1e-10, 1e-9, 3);
  WARN("PD at rho = " << std::setprecision(12) << pd[0] << ", " << pd[1] << ", " << pd[2]);
  // Ordered, converging geometrically (the Feigenbaum ratio is 4.669 in the limit).
  CHECK(pd[0] > pd[1]);
  CHECK(pd[1] > pd[2]);
  const double ratio = (pd[0] - pd[1]) / (pd[1] - pd[2]);
  CHECK(ratio > 3.0);
  CHECK(ratio < 7.0);
  // No published value at hand to compare with: this pins our own first PD
  // (229.406708567 at tolerance 1e-10) against regressions.
  CHECK(pd[0] == Approx(229.4067).margin(1e-3));
  // Tightening the integration and location tolerances does not move them
  // by more than 1e-6.
  const std::vector<double> tight = cascade(1e-12, 1e-11, 3);
  WARN("tightened: " << std::setprecision(12) << tight[0] << ", " << tight[1] << ", " << tight[2]);
  for (int i = 0; i < 3; ++i) CHECK(std::abs(tight[i] - pd[i]) < 1e-6);
}

TEST_CASE("shooting: a monodromy of a recent variational period is found, not integrated again",
          "[periodic][shooting]") {
  // Jacobians at two orbits' u1 and u2 (the second leaves its trajectory in
  // the shooting system's one-period cache); the monodromy at u1 then comes
  // from memory: the cached trajectory stays u2's, and the value is the one
  // a fresh system integrates, bit for bit.
  flow::SimulationOptions simulation;
  simulation.absolute_tolerance = simulation.relative_tolerance = 1e-9;
  const models::LorenzBranchStart start = models::lorenz_branch_start(simulation);
  const Vector u1 = start.problem->u(start.y);
  Vector u2 = u1;
  u2[0] += 1e-3;
  Matrix J;
  start.system->jacobian(u1.data(), &J);
  start.system->jacobian(u2.data(), &J);
  const auto cached = start.system->trajectory(u2);
  const Matrix M1 = start.system->monodromy(u1);
  CHECK(start.system->trajectory(u2) == cached);
  const models::LorenzBranchStart fresh = models::lorenz_branch_start(simulation);
  CHECK((M1.array() == fresh.system->monodromy(u1).array()).all());
}

TEST_CASE("shooting: the refined copies share one monodromy memory, each tolerance its own entries",
          "[periodic][shooting]") {
  // A refined copy's Jacobian at u1 leaves its monodromy for every later
  // refined copy (a special point's multipliers, asked on a fresh copy, are
  // those its location computed): the second copy finds it while its own
  // cached trajectory stays u2's. The system at the looser stepping
  // tolerance does not take it: its monodromy is the one it integrates, bit
  // for bit.
  flow::SimulationOptions simulation;
  simulation.absolute_tolerance = simulation.relative_tolerance = 1e-10;
  const models::LorenzBranchStart start = models::lorenz_branch_start(simulation);
  ShootingOptions options = start.system->options();
  options.stepping_tolerance = 1e-6;
  const Vector u1 = start.problem->u(start.y);
  Vector u2 = u1;
  u2[0] += 1e-3;
  const Vector reference = start.system->hybrid_state(u1);
  const auto coarse = std::make_shared<ShootingSystem>(start.system->hybrid(), 3, options, reference);
  Matrix J;
  coarse->refined_shooting()->jacobian(u1.data(), &J);
  const auto second = coarse->refined_shooting();
  second->jacobian(u2.data(), &J);
  const auto cached = second->trajectory(u2);
  const Matrix fine = second->monodromy(u1);
  CHECK(second->trajectory(u2) == cached);
  CHECK((fine.array() == start.system->monodromy(u1).array()).all());  // 1e-10 throughout

  const Matrix loose = coarse->monodromy(u1);
  CHECK((loose.array() != fine.array()).any());
  const ShootingSystem alone(start.system->hybrid(), 3, options, reference);
  CHECK((loose.array() == alone.monodromy(u1).array()).all());
}
