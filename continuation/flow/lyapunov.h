#pragma once
// Lyapunov exponents of a hybrid system (Benettin et al. 1980; with the
// Aizerman-Gantmakher jumps of Awrejcewicz & Kudra): the state-transition
// matrix over each re-orthonormalization interval, saltation included, acts
// on an orthonormal frame Q; the QR factorization Phi Q = Q' R gives the
// growth of each direction, and lambda_i = (1 / T) sum log |R_ii|.
//
// Motion on a constraint (a ball resting on a table, a link sliding on a
// barrier) collapses the directions that leave the constraint: the saltation
// matrix of a plastic impact is singular there. Those directions get
// R_ii = 0; following the paper's rule they are set to zero and their
// exponents reported as -infinity for as long as the motion stays
// constrained, while the others are re-orthonormalized among themselves.

#include <limits>
#include <vector>

#include "continuation/flow/simulate.h"

namespace saltus::flow {

struct LyapunovOptions {
  double transient = 0.0;    // time integrated first, not counted
  double duration = 100.0;   // time over which the exponents are averaged
  double interval = 1.0;     // re-orthonormalization period
  SimulationOptions simulation;
  std::string check() const;  // empty when valid, else names the bad field
};

struct LyapunovResult {
  Vector exponents;          // largest first
  // Running estimates at the end of each interval: time since the transient,
  // then the exponents (largest first), for convergence plots.
  std::vector<double> times;
  std::vector<Vector> running;
  double time = 0.0;         // averaged time span
  int events = 0;            // events in the averaged span
  double log_det_saltation = 0.0;  // sum of log |det S| over the averaged span's events
  SimulationStatus status = SimulationStatus::kFinished;
  std::string message;
  bool ok() const { return status == SimulationStatus::kFinished; }
};

LyapunovResult lyapunov_spectrum(const HybridSystem& system, int mode0, double t0, const Vector& x0,
                                 const LyapunovOptions& options = {});

}  // namespace saltus::flow
