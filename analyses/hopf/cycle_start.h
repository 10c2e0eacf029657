#pragma once
// The first cycle of the family born at a Hopf point: a guess for shooting.
//
// On the centre manifold the normal form is z' = (mu(beta) + i omega) z +
// l1 omega z |z|^2 + ... (Kuznetsov, "Elements of applied bifurcation
// theory", 3rd ed., 2004, Sec. 3.5), with x = x0 + 2 Re(z q). Its cycle
// |z| = epsilon exists at mu = -l1 omega epsilon^2, that is at the parameter
// offset  dp = -l1 omega epsilon^2 / mu'  (mu' = d Re(lambda)/dp, the
// transversality), on the side where the equilibrium is unstable for a
// supercritical point (l1 < 0) and stable for a subcritical one. The guess
// is x(0) = x0 + 2 epsilon Re(q), T = 2 pi / omega at p0 + dp, with the phase
// of q turned so that its largest component is real: errors O(epsilon^2)
// in x, which a Newton iteration at fixed p removes.

#include <memory>

#include "continuation/continuation_problem.h"
#include "continuation/periodic/shooting.h"
#include "continuation/system.h"

namespace saltus {

struct CycleGuess {
  Vector x;  // the state at t = 0
  double period = 0.0;
  Vector u;             // (x, p) of the equations with the offset parameter, for the shooting problem
  double offset = 0.0;  // dp
  double l1 = 0.0, omega = 0.0, transversality = 0.0;
};

// u_hopf = (x0, p) a Hopf point of x' = F(x, p) (`equations`), `parameter`
// the index of the continued parameter, `amplitude` the largest excursion
// max_i |x_i(t) - x0_i| of the guessed cycle. Throws std::invalid_argument
// naming the reason when there is no cycle to start: l1 below l1_zero in
// magnitude (a degenerate Hopf point: the cubic terms do not decide on which
// side the cycles are), or a pair that does not cross (mu' = 0).
// omega > 0 (the HB's frequency, as located): on a sparse system the Hopf
// data then come from the sparse path of hopf_point (testfunctions/hopf.h),
// not a dense eigensolver (34 s at the Brusselator's 1000 unknowns).
CycleGuess cycle_near_hopf(const System& equations, const Vector& u_hopf, int parameter, double amplitude,
                           double l1_zero = 1e-8, double omega = 0.0);

// The branch of cycles born at a Hopf point, ready to continue: the guess
// above as the start of an autonomous shooting problem (its phase plane
// through the guess) over `flow`, the rates F as a hybrid system whose last
// q states are the parameters (p' = 0), with the continued parameter free.
// Large systems go matrix-free by the options' size rule
// (ShootingOptions::linear_solver). Continue from y0 = (x, T, p_k) in
// `direction` (ContinuationOptions::direction: away from the Hopf point).
struct HopfCycleStart {
  CycleGuess guess;
  std::shared_ptr<const periodic::ShootingSystem> shooting;
  std::shared_ptr<const ContinuationProblem> problem;
  Vector y0;
  int direction = 1;
};

// Throws as cycle_near_hopf, and std::invalid_argument when `flow` is not
// of dimension n + q.
HopfCycleStart hopf_cycle_start(const System& equations, std::shared_ptr<const flow::HybridSystem> flow,
                                const Vector& u_hopf, int parameter, double amplitude,
                                periodic::ShootingOptions options, double omega = 0.0);

}  // namespace saltus
