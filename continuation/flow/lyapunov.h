#pragma once
// Lyapunov exponents of a hybrid system (Benettin et al. 1980; with the
// Aizerman-Gantmakher jumps of Awrejcewicz & Kudra): the state-transition
// matrix over each re-orthonormalization interval, saltation included, acts
// on an orthonormal frame Q; the QR factorization Phi Q = Q' R gives the
// growth of each direction, and lambda_i = (1 / T) sum log |R_ii|.
//
// Motion on a constraint (a ball resting on a table, a link sliding on a
// barrier) collapses the directions that leave the constraint: the saltation
// matrix of a plastic impact is singular there, and R_ii = 0. Following the
// paper's rule (the perturbations that violate the constraints are set to
// zero), such a direction does not count in the interval where it collapsed:
// neither its log |R_ii| nor that interval's time enter its average; the
// orthonormal frame from the QR factorization re-seeds it for the next
// interval. An interval that starts on a constraint (a mode whose
// HybridSystem::constrained_directions are not empty) restricts the frame to
// the admissible perturbations first, so the directions across the
// constraint collapse in it too. A direction that collapses in every
// interval (a ball resting on its table for good) has exponent -infinity.

#include <limits>
#include <vector>

#include "continuation/flow/simulate.h"

namespace saltus::flow {

struct LyapunovOptions {
  double transient = 0.0;        // time integrated first, not counted
  double duration = 100.0;       // time over which the exponents are averaged
  double interval = 1.0;         // re-orthonormalization period; keep the spread of growth over one
                                 // interval within about 1e10 (the QR of a graded frame loses the
                                 // small columns' digits), so shorter for strongly contracting flows
  SimulationOptions simulation;  // its output_interval is ignored: every step is kept (for the divergence)
  std::string check() const;     // empty when valid, else names the bad field

  // The most intervals (duration / interval) a run may have: each one is a
  // simulation and keeps its running estimate (some 50 + 8 n bytes), so 1e7
  // is already about a gigabyte.
  static constexpr double kMaxIntervals = 1e7;
};

struct LyapunovResult {
  Vector exponents;  // largest first
  // Running estimates at the end of each interval: time since the transient,
  // then the exponents (largest first), for convergence plots.
  std::vector<double> times;
  std::vector<Vector> running;
  double time = 0.0;  // averaged time span
  int events = 0;     // events in the averaged span
  // Sum of log |det S| over the averaged span's events; -infinity when one
  // was plastic (a singular S: sticking), where the phase volume collapses.
  double log_det_saltation = 0.0;
  // The integral of the divergence tr f_x over the averaged span, by
  // quadrature on the trajectory (Simpson on each step), apart from the
  // variational equations: with log_det_saltation, the phase-space
  // contraction that the exponents must sum to (Liouville with jumps).
  double divergence_integral = 0.0;
  int collapsed = 0;  // intervals in which some direction collapsed
  // A simulation's failure; kStepFailed also where an interval's transition
  // matrix or divergence is NaN (the message says which and where): the
  // averages then stop before it, never NaN.
  SimulationStatus status = SimulationStatus::kFinished;
  std::string message;
  bool ok() const { return status == SimulationStatus::kFinished; }
  // The mean contraction (divergence_integral + log_det_saltation) / time
  // (time > 0: some interval was averaged); equal to the sum of the
  // exponents when no direction collapsed.
  double contraction() const { return (divergence_integral + log_det_saltation) / time; }
};

LyapunovResult lyapunov_spectrum(const HybridSystem& system, int mode0, double t0, const Vector& x0,
                                 const LyapunovOptions& options = {});

}  // namespace saltus::flow
