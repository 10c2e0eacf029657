#pragma once
// Periodic orbits by multiple shooting. The period is cut into m segments at
// fixed fractions 0 = tau_0 < tau_1 < ... < tau_m = 1 (equal times unless
// given), each with its own unknown start state x_i (in the hybrid mode
// m_i the orbit is in there), so that no single integration runs over the
// whole period and an error grows over one segment only: orbits too
// unstable for single shooting (a multiplier e^30 makes phi_T useless in
// double precision) converge. With t_i = t0 + tau_i T the residual is
//
//   r_i = phi(t_{i+1}; t_i, x_i, p) - x_{i+1},   i = 0..m-1,  x_m = x_0,
//
// plus, when autonomous, the phase condition f(x_ref) . (x_0 - x_ref) = 0
// (the plane moves with the branch as in ShootingSystem). The Jacobian is
// block bidiagonal (cyclic): d r_i / d x_i = Phi_i (the segment's
// saltation-corrected transition matrix), d r_i / d x_{i+1} = -I, the
// parameter columns from Phi_i, and the T-column
//
//   d r_i / dT = tau_{i+1} f(x(t_{i+1}-), t_{i+1}) - tau_i Phi_i f(x_i, t_i),
//
// assembled sparse. The monodromy matrix is the product Phi_{m-1} ... Phi_0
// of the segments' state blocks, so the Floquet multipliers are those of
// single shooting.

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "continuation/periodic/shooting.h"

namespace saltus::periodic {

struct MultipleShootingOptions {
  int segments = 8;               // m
  std::vector<double> fractions;  // tau_0 = 0 < ... < tau_m = 1 (m + 1 values); empty: equal times
  std::vector<int> modes;         // the mode at each segment start (m values); empty: shooting.mode for all
  ShootingOptions shooting;       // autonomous, t0, period (when not autonomous), mode, simulation
  std::string check() const;      // empty when valid, else names the bad field
};

class MultipleShootingSystem : public System {
 public:
  // Throws std::invalid_argument on bad options or sizes; `reference` as for
  // ShootingSystem (autonomous orbits).
  MultipleShootingSystem(std::shared_ptr<const flow::HybridSystem> system, int parameters,
                         MultipleShootingOptions options, const Vector& reference = {});

  using System::jacobian;  // the Eigen-vector convenience forms
  using System::residual;
  int segments() const { return m_; }
  int state_size() const override { return m_ * n_ + (options_.shooting.autonomous ? 1 : 0); }
  int parameter_size() const override { return q_; }
  std::vector<std::string> state_names() const override;  // x@0, y@0, ..., x@1, ..., T
  std::vector<std::string> parameter_names() const override;

  // Simulation failures throw std::runtime_error naming the segment.
  void residual(const double* u, double* f) const override;
  void jacobian(const double* u, Matrix* J) const override;
  bool is_sparse() const override { return true; }
  void sparse_jacobian(const double* u, SparseMatrix* J) const override;
  void second_derivative(const double* u, const double* d, Matrix* H) const override;
  void accept(const Vector& u) const override;

  double period(const Vector& u) const {
    return options_.shooting.autonomous ? u[m_ * n_] : options_.shooting.period;
  }
  // Phi_{m-1} ... Phi_0 (n x n).
  Matrix monodromy(const Vector& u) const;
  // The segment's transition matrix over (x, p).
  Matrix segment_transition(const Vector& u, int segment) const;
  const MultipleShootingOptions& options() const { return options_; }

  // The unknowns of this problem from an orbit of single shooting's form
  // (x, [T,] p), by one simulation of the period sampled at the segment
  // starts (it also records the modes there, for hybrid orbits). Throws
  // std::runtime_error when the simulation fails.
  static Vector from_single(const flow::HybridSystem& system, int parameters,
                            MultipleShootingOptions* options, const Vector& single);

 private:
  struct Segments {
    std::vector<flow::Trajectory> runs;
  };
  std::shared_ptr<const Segments> simulate(const Vector& u) const;
  void assemble(const Vector& u, std::vector<Eigen::Triplet<double>>* triplets) const;

  std::shared_ptr<const flow::HybridSystem> system_;
  int n_, q_, m_;
  MultipleShootingOptions options_;
  mutable Vector x_ref_, f_ref_;
  mutable std::mutex mutex_;
  mutable Vector cached_u_;
  mutable std::shared_ptr<const Segments> cached_;
};

}  // namespace saltus::periodic
