#pragma once
// The monodromy matrix of a shooting problem as an operator, never formed:
// v -> M v = Phi_xx(t0 + T, t0) v, one direction through one period.
//
// The dense path (ShootingSystem::jacobian) integrates the n x n variational
// equations Phi' = f_x Phi alongside the orbit: n directions through every
// step, O(n^2) work per step and O(n^2) memory. Krylov methods need only
// products M v. Each is one period of the tangent-lifted system
// (continuation/flow/tangent_lifted.h): state (z, w), field (f, f_z w),
// resets (g, S w) with S the event's saltation matrix, so its flow from
// (z0, w0) is (phi(z0), Phi(z0) w0), with the events' saltations applied
// exactly (f_z w and S w are directional derivatives of the model on
// first-order Taylor series: no differences, no Jacobian formed). One
// product costs one integration of 2 n states, about the cost of two
// periods of the state alone, whatever n.
//
// The direction is scaled to unit 2-norm before it is integrated (the
// integrator's error control sees w, so the steps then do not depend on
// |v|) and the product scaled back: M v is linear in v to the integration
// tolerance.
//
// The Floquet multipliers of largest modulus come from Arnoldi's method on
// this operator (Spectra's GenEigsSolver, implicitly restarted Arnoldi:
// Sorensen 1992, Lehoucq & Sorensen 1996, the method of ARPACK), as
// BifurcationKit.jl computes those of large cycles (its FloquetKrylov).

#include <memory>
#include <string>

#include "continuation/periodic/shooting.h"

namespace saltus::periodic {

class MonodromyOperator {
 public:
  // The operator of `shooting` at u = (x, [T,] p). Throws std::logic_error
  // when the hybrid system has no tangent-lifted form (a model that does not
  // opt in: flow::tangent_liftable_v), std::runtime_error when the period
  // from u cannot be simulated.
  MonodromyOperator(const ShootingSystem& shooting, const Vector& u);

  int size() const { return n_; }  // n: the states, without T and the parameters
  // M v (v of size n).
  Vector apply(const Vector& v) const;
  // Phi_xx v + Phi_xp dp for w = (v, dp) of size n + q: the shooting
  // Jacobian's state and parameter columns in one lifted period
  // (ShootingSystem::jacobian_times).
  Vector apply_state_and_parameters(const Vector& w) const;
  // The field at the end of the period, f(phi(t0 + T; x)): the autonomous
  // bordering's T column (from the first product, or one period of the
  // state alone when there was none).
  const Vector& end_field() const;
  int products() const { return products_; }  // apply() calls so far

 private:
  const ShootingSystem& shooting_;
  std::shared_ptr<const flow::HybridSystem> lifted_;
  flow::SimulationOptions simulation_;
  Vector z0_;  // (x, p) at the cut
  double t0_ = 0.0, t1_ = 0.0;
  int n_ = 0, q_ = 0;
  mutable Vector f_end_;  // end_field(), from the first product
  mutable int products_ = 0;
};

// The simulation options of shooting's state alone over one period (as
// ShootingSystem::trajectory uses them: guards at the steps' ends, no
// records, the stepping tolerance when it has one).
flow::SimulationOptions shooting_simulation(const ShootingSystem& shooting);

struct ArnoldiOptions {
  int count = 6;  // multipliers wanted (largest modulus first)
  // Krylov subspace size (Spectra's ncv). 0 (automatic): max(2 count + 1,
  // 20), at most n, for up to 20 restarts; where that leaves a wanted
  // multiplier unresolved at or above resolve_above, max(2 count + 1, 40,
  // 0.3 n) for up to max_restarts. Leading multipliers that cluster in
  // modulus need that many vectors to be resolved one by one: a uniform
  // chain's long waves all decay alike, and their cluster tightens as the
  // chain grows (on the impact chain, bench/impact_chain.cpp, at n = 256 a
  // subspace of 80 converged in 81 products where 40 took 277; at n = 512
  // 140 took 141 products, 100 took 473 and 40 took 787).
  int subspace = 0;
  int max_restarts = 1000;   // implicit restarts (of a given subspace, or of the automatic large one)
  double tolerance = 1e-10;  // relative accuracy of each multiplier
  // Wanted multipliers that stay unresolved are accepted when each Ritz
  // value, widened by its residual, lies inside the disc |mu| <
  // resolve_above (ArnoldiMultipliers::unresolved_bound: a backward error,
  // theta is a multiplier of M + E with |E| the residual; for a normal M
  // also a forward one, and for a non-normal M off by its eigenvectors'
  // condition). The tests of cycles change sign
  // only where a multiplier reaches the unit circle (testfunctions/
  // floquet.h), so a cluster well inside it need not be resolved one
  // multiplier at a time: that costs a subspace growing with n, where the
  // bound costs a fixed one. A multiplier on its way to the circle leaves
  // the cluster and is resolved from 0.9 on. 0: resolve every wanted one.
  double resolve_above = 0.9;
  std::string check() const;
};

struct ArnoldiMultipliers {
  // The multipliers resolved to `tolerance` (every one wanted, or fewer
  // when the rest were left in a cluster), largest modulus first.
  Eigen::VectorXcd multipliers;
  // The wanted ones left unresolved: their Ritz values, largest first, and
  // the largest |theta| + |M x - theta x| over them (x the unit Ritz
  // vector: theta is an eigenvalue of M + E with |E| that residual), below
  // resolve_above when converged. Empty and 0 when every wanted one is
  // resolved. Like any Krylov method's, the bound speaks for the
  // multipliers the subspace has found: one it has not picked up at all is
  // not bounded, but a multiplier separated from the cluster is the first
  // a Krylov subspace finds.
  Eigen::VectorXcd unresolved;
  double unresolved_bound = 0.0;
  int products = 0;  // products M v used
  // Every wanted multiplier resolved, or the unresolved ones bounded inside
  // the disc |mu| < resolve_above.
  bool converged = false;
  std::string message;
};

// The `count` Floquet multipliers of largest modulus by Arnoldi on the
// operator (those in a cluster inside resolve_above bounded instead of
// resolved). A system with n <= count + 2 is too small for Arnoldi: its
// multipliers come from M formed column by column (n products).
ArnoldiMultipliers arnoldi_multipliers(const MonodromyOperator& monodromy,
                                       const ArnoldiOptions& options = {});

}  // namespace saltus::periodic
