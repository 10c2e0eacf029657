#include "continuation/periodic/find_orbit.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include <Eigen/LU>

namespace saltus::periodic {

std::string OrbitSearchOptions::check() const {
  std::ostringstream why;
  if (max_iterations < 1) why << "max_iterations = " << max_iterations << " must be >= 1";
  else if (!(residual_tolerance > 0)) why << "residual_tolerance = " << residual_tolerance << " must be positive";
  else if (!(min_damping > 0) || !(min_damping <= 1)) why << "min_damping = " << min_damping << " must be in (0, 1]";
  return why.str();
}

std::string to_string(OrbitStatus status) {
  switch (status) {
    case OrbitStatus::kConverged: return "converged";
    case OrbitStatus::kNotConverged: return "not_converged";
    case OrbitStatus::kSimulationFailed: return "simulation_failed";
  }
  return "unknown";
}

OrbitSearch find_orbit(const System& shooting, const Vector& u0, const OrbitSearchOptions& options) {
  if (const std::string why = options.check(); !why.empty()) throw std::invalid_argument("orbit search options: " + why);
  if (u0.size() != shooting.size())
    throw std::invalid_argument("orbit guess has " + std::to_string(u0.size()) + " components, the shooting problem " +
                                std::to_string(shooting.size()));
  if (!u0.allFinite()) throw std::invalid_argument("orbit guess is not finite");
  const int n = shooting.state_size();
  OrbitSearch out;
  out.u = u0;
  out.residual_norm = std::numeric_limits<double>::infinity();
  Vector F(n);
  // The residual at u, or false with *why when its simulation fails.
  auto evaluate = [&](const Vector& u, Vector* r, std::string* why) {
    try {
      shooting.residual(u.data(), r->data());
      return r->allFinite();
    } catch (const std::runtime_error& e) {
      *why = e.what();
      return false;
    }
  };
  std::string why;
  if (!evaluate(out.u, &F, &why)) {
    out.status = OrbitStatus::kSimulationFailed;
    out.message = "the orbit from the guess cannot be simulated over one period: " + why +
                  ". Start from another guess (or another cut t0)";
    return out;
  }
  out.residual_norm = F.lpNorm<Eigen::Infinity>();
  Matrix J;
  for (out.iterations = 0; out.iterations < options.max_iterations; ++out.iterations) {
    const double scale = 1.0 + out.u.head(n).lpNorm<Eigen::Infinity>();
    if (out.residual_norm <= options.residual_tolerance * scale) {
      out.status = OrbitStatus::kConverged;
      std::ostringstream msg;
      msg << "converged in " << out.iterations << " iterations, |F| = " << out.residual_norm;
      out.message = msg.str();
      return out;
    }
    shooting.jacobian(out.u.data(), &J);
    Eigen::PartialPivLU<Matrix> lu(J.leftCols(n));
    const Vector step = lu.solve(F);
    if (!step.allFinite()) {
      std::ostringstream msg;
      msg << "the shooting Jacobian is singular at iteration " << out.iterations << " (|F| = " << out.residual_norm
          << "): a multiplier at +1 there, or a degenerate phase condition. Start from another guess";
      out.message = msg.str();
      return out;
    }
    // Backtracking: the first damping that decreases |F|.
    double lambda = 1.0;
    Vector trial(out.u.size()), F_trial(n);
    bool improved = false;
    std::string failure;
    while (lambda >= options.min_damping) {
      trial = out.u;
      trial.head(n) -= lambda * step;
      std::string w;
      if (evaluate(trial, &F_trial, &w)) {
        if (F_trial.lpNorm<Eigen::Infinity>() < out.residual_norm) {
          improved = true;
          break;
        }
      } else {
        failure = w;
      }
      lambda *= 0.5;
    }
    if (!improved) {
      std::ostringstream msg;
      if (!failure.empty()) {
        out.status = OrbitStatus::kSimulationFailed;
        msg << "no Newton step from iteration " << out.iterations << " (|F| = " << out.residual_norm
            << ") can be simulated or decreases |F|; the last failure: " << failure
            << ". The orbits near the guess run into the guard tangentially or accumulate events: "
               "start from another guess";
      } else {
        msg << "the residual |F| = " << out.residual_norm << " stopped decreasing at iteration " << out.iterations
            << ": the guess is not in the basin of an orbit. Start closer to an orbit (simulate onto the "
               "attractor first), or give a better period";
      }
      out.message = msg.str();
      return out;
    }
    out.u = trial;
    F = F_trial;
    out.residual_norm = F.lpNorm<Eigen::Infinity>();
  }
  std::ostringstream msg;
  msg << "no convergence in max_iterations = " << options.max_iterations << ", the last residual |F| = "
      << out.residual_norm << ". Start closer to an orbit, or allow more iterations";
  out.message = msg.str();
  return out;
}

}  // namespace saltus::periodic
