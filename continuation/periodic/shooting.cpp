#include "continuation/periodic/shooting.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include <Eigen/Eigenvalues>

namespace saltus::periodic {

std::string ShootingOptions::check() const {
  std::ostringstream why;
  if (!(period > 0) || !std::isfinite(period)) why << "period = " << period << " must be positive and finite";
  else if (!std::isfinite(t0)) why << "t0 = " << t0 << " must be finite";
  else if (mode < 0) why << "mode = " << mode << " must be >= 0";
  else why << simulation.check();
  return why.str();
}

ShootingSystem::ShootingSystem(std::shared_ptr<const flow::HybridSystem> system, int parameters,
                               ShootingOptions options)
    : system_(std::move(system)), q_(parameters), options_(std::move(options)) {
  if (!system_) throw std::invalid_argument("shooting: no hybrid system");
  n_ = system_->dimension() - q_;
  if (q_ < 0 || n_ < 1)
    throw std::invalid_argument("shooting: " + std::to_string(q_) + " parameters in a system of dimension " +
                                std::to_string(system_->dimension()));
  if (const std::string why = options_.check(); !why.empty()) throw std::invalid_argument("shooting options: " + why);
  options_.simulation.variational = true;
  options_.simulation.output_interval = 0.0;
}

std::vector<std::string> ShootingSystem::state_names() const {
  auto names = system_->state_names();
  names.resize(n_);
  return names;
}

std::vector<std::string> ShootingSystem::parameter_names() const {
  const auto names = system_->state_names();
  return std::vector<std::string>(names.begin() + n_, names.end());
}

const flow::Trajectory& ShootingSystem::trajectory(const Vector& u) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (cached_u_.size() == u.size() && cached_u_ == u) return cached_;
  const double t1 = options_.t0 + options_.period;
  flow::Trajectory tr = flow::simulate(*system_, options_.mode, options_.t0, u, t1, options_.simulation);
  if (!tr.ok()) throw std::runtime_error("shooting over one period failed: " + tr.message);
  if (tr.mode_end != options_.mode)
    throw std::runtime_error("shooting: the period ends in " + system_->mode_name(tr.mode_end) + ", not in " +
                             system_->mode_name(options_.mode) + "; cut the orbit at another t0");
  cached_ = std::move(tr);
  cached_u_ = u;
  return cached_;
}

void ShootingSystem::residual(const double* u, double* f) const {
  const Vector uu = Eigen::Map<const Vector>(u, n_ + q_);
  const flow::Trajectory& tr = trajectory(uu);
  for (int i = 0; i < n_; ++i) f[i] = tr.x_end[i] - u[i];
}

void ShootingSystem::jacobian(const double* u, Matrix* J) const {
  const Vector uu = Eigen::Map<const Vector>(u, n_ + q_);
  const Matrix& Phi = trajectory(uu).transition_matrix;
  *J = Phi.topRows(n_);
  J->leftCols(n_) -= Matrix::Identity(n_, n_);
}

void ShootingSystem::second_derivative(const double*, const double*, Matrix*) const {
  throw std::logic_error(
      "second derivatives of a shooting map are not available: fold curves and branch switching of periodic "
      "orbits are not supported yet");
}

Matrix ShootingSystem::monodromy(const Vector& u) const {
  return trajectory(u).transition_matrix.topLeftCorner(n_, n_);
}

Eigen::VectorXcd floquet_multipliers(const Matrix& monodromy) {
  Eigen::VectorXcd mu = Eigen::EigenSolver<Matrix>(monodromy).eigenvalues();
  std::sort(mu.data(), mu.data() + mu.size(),
            [](const std::complex<double>& a, const std::complex<double>& b) { return std::abs(a) > std::abs(b); });
  return mu;
}

}  // namespace saltus::periodic
