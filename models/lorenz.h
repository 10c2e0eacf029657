#pragma once
// The Lorenz system x' = sigma (y - x), y' = x (rho - z) - y, z' = x y - beta z,
// as a hybrid system without guards with its parameters (continuation/flow/
// parameters.h); lorenz_flow() carries all three in the state (sigma' = rho'
// = beta' = 0), so that shooting gets the parameter columns of its Jacobian
// from the variational equations.

#include <memory>
#include <string>
#include <vector>

#include "continuation/continuation_problem.h"
#include "continuation/flow/hybrid_system.h"
#include "continuation/flow/simulate.h"
#include "continuation/options.h"
#include "continuation/periodic/shooting.h"
#include "continuation/system.h"

namespace saltus::models {

template <class P = double>
struct LorenzT {
  P sigma = P(10.0), rho = P(28.0), beta = P(8.0 / 3.0);

  template <class Self, class Visit>
  static void parameters(Self& self, Visit&& visit) {
    visit("sigma", self.sigma, "Prandtl number");
    visit("rho", self.rho, "Rayleigh number (over its critical value)");
    visit("beta", self.beta, "aspect ratio");
  }
  template <class Q>
  LorenzT<Q> cast() const {
    return flow::cast_parameters<LorenzT<Q>>(*this);
  }

  // Second derivatives through the tangent-lifted system (PD and LPC curves).
  static constexpr bool tangent_liftable = true;
  int dimension() const { return 3; }
  std::vector<std::string> state_names() const { return {"x", "y", "z"}; }
  std::string mode_name(int) const { return "smooth"; }
  template <class T>
  void field(int, const T&, const T* u, T* f) const {
    f[0] = sigma * (u[1] - u[0]);
    f[1] = u[0] * (rho - u[2]) - u[1];
    f[2] = u[0] * u[1] - beta * u[2];
  }
};
using Lorenz = LorenzT<double>;

// The Lorenz system with (sigma, rho, beta) in the state: (x, y, z, sigma, rho, beta).
std::shared_ptr<const flow::HybridSystem> lorenz_flow();

// A point of the attracting periodic orbit at (sigma, rho, beta) = (10, rho,
// 8/3), found by simulating onto it and cutting it where z rises through
// rho - 1, and the orbit's period (it rises there twice per period). For rho
// = 280 the period is 0.4345 (the start of AUTO-07p's `lor` demo). Returns
// (x, y, z, sigma, rho, beta) in *point.
double lorenz_periodic_orbit(double rho, Vector* point);

// The branch of these orbits in rho from rho = 280, set up as the tests, the
// benchmark and the example program follow it: single shooting (autonomous;
// sigma, rho, beta carried as state, so the parameter columns come from the
// variational equations) integrated with `simulation`, rho free.
struct LorenzBranchStart {
  std::shared_ptr<periodic::ShootingSystem> system;
  std::shared_ptr<const ContinuationProblem> problem;
  Vector y;  // (x, y, z, T, rho) on the orbit at rho = 280
};
LorenzBranchStart lorenz_branch_start(const flow::SimulationOptions& simulation);
// Downwards in rho within [205, 300]: ds 0.2, ds_max 2, ds_min 1e-7,
// 300 points, event_tolerance 1e-9.
ContinuationOptions lorenz_branch_options();

}  // namespace saltus::models

namespace saltus::flow {
// Lorenz's flow is instantiated once, in models/lorenz.cpp (see
// AutoDiffHybrid::tangent_lifted).
extern template class AutoDiffHybrid<models::Lorenz>;
}  // namespace saltus::flow
