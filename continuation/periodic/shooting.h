#pragma once
// Periodic orbits of non-autonomous hybrid systems by single shooting: the
// orbit through x at time t0 with period T (the forcing period times the
// number of cycles) solves
//
//   F(x, p) = phi(t0 + T; t0, x, p) - x = 0,
//
// and ShootingSystem is that F as a System, so the continuation engine
// follows orbits in a parameter and locates their special points with the
// same machinery as for equilibria. The hybrid system carries its q
// parameters as its last q state components (p' = 0, unchanged by resets):
// the saltation-corrected state-transition matrix Phi over one period then
// gives the Jacobian [Phi_xx - I, Phi_xp] exactly (to the integration
// tolerance; no differences). Phi_xx is the monodromy matrix, whose
// eigenvalues are the Floquet multipliers.

#include <complex>
#include <memory>
#include <mutex>
#include <string>

#include "continuation/flow/simulate.h"
#include "continuation/system.h"

namespace saltus::periodic {

struct ShootingOptions {
  double t0 = 0.0;      // the time (phase) at which the orbit is cut
  double period = 1.0;  // T
  int mode = 0;         // the hybrid mode at t0
  flow::SimulationOptions simulation;
  std::string check() const;  // empty when valid, else names the bad field
};

class ShootingSystem : public System {
 public:
  // `system` has dimension n + parameters; throws std::invalid_argument on
  // bad options or sizes.
  ShootingSystem(std::shared_ptr<const flow::HybridSystem> system, int parameters, ShootingOptions options);

  int state_size() const override { return n_; }
  int parameter_size() const override { return q_; }
  std::vector<std::string> state_names() const override;
  std::vector<std::string> parameter_names() const override;

  // Simulation failures (grazing, Zeno, a failed step) throw std::runtime_error
  // with the simulator's message: the engine ends the branch there.
  void residual(const double* u, double* f) const override;
  void jacobian(const double* u, Matrix* J) const override;
  // Second derivatives of the flow are not available: fold curves and branch
  // switching of periodic orbits throw std::logic_error.
  void second_derivative(const double* u, const double* d, Matrix* H) const override;

  Matrix monodromy(const Vector& u) const;                 // Phi_xx over one period
  const flow::Trajectory& trajectory(const Vector& u) const;  // the simulated period (cached)
  const ShootingOptions& options() const { return options_; }

 private:
  std::shared_ptr<const flow::HybridSystem> system_;
  int n_, q_;
  ShootingOptions options_;
  mutable std::mutex mutex_;
  mutable Vector cached_u_;
  mutable flow::Trajectory cached_;
};

// Eigenvalues of the monodromy matrix, largest modulus first.
Eigen::VectorXcd floquet_multipliers(const Matrix& monodromy);

}  // namespace saltus::periodic
