#include "continuation/periodic/find_orbit.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "continuation/newton.h"

namespace saltus::periodic {

std::string OrbitSearchOptions::check() const {
  std::ostringstream why;
  if (max_iterations < 1)
    why << "max_iterations = " << max_iterations << " must be >= 1";
  else if (!(residual_tolerance > 0))
    why << "residual_tolerance = " << residual_tolerance << " must be positive";
  else if (!(min_damping > 0) || !(min_damping <= 1))
    why << "min_damping = " << min_damping << " must be in (0, 1]";
  else if (!(max_distance > 0))
    why << "max_distance = " << max_distance << " must be positive";
  return why.str();
}

std::string to_string(OrbitStatus status) {
  switch (status) {
    case OrbitStatus::kConverged:
      return "converged";
    case OrbitStatus::kNotConverged:
      return "not_converged";
    case OrbitStatus::kSimulationFailed:
      return "simulation_failed";
  }
  return "unknown";
}

OrbitSearch find_orbit(const System& shooting, const Vector& u0, const OrbitSearchOptions& options) {
  if (const std::string why = options.check(); !why.empty())
    throw std::invalid_argument("orbit search options: " + why);
  if (u0.size() != shooting.size())
    throw std::invalid_argument("orbit guess has " + std::to_string(u0.size()) +
                                " components, the shooting problem " + std::to_string(shooting.size()));
  if (!u0.allFinite()) throw std::invalid_argument("orbit guess is not finite");
  const int n = shooting.state_size();
  // Newton in the unknowns x = u.head(n); the parameters u.tail() are held.
  auto with = [&u0, n](const Vector& x) {
    Vector u = u0;
    u.head(n) = x;
    return u;
  };
  // A trial point beyond the search region ends the search at once (an
  // exception other than std::runtime_error passes through damped_newton).
  struct Outside {
    Vector x;
  };
  const double radius = options.max_distance * (1.0 + u0.head(n).lpNorm<Eigen::Infinity>());
  // The lowest |F|_inf evaluated and where: the current iterate (a trial
  // that lowers |F| is accepted).
  double lowest = std::numeric_limits<double>::infinity();
  Vector at = u0.head(n);
  NewtonProblem problem;
  problem.residual = [&](const Vector& x, Vector* F) {
    if (!((x - u0.head(n)).lpNorm<Eigen::Infinity>() <= radius)) throw Outside{x};
    F->resize(n);
    shooting.residual(with(x).data(), F->data());  // a failed simulation throws std::runtime_error
    if (F->lpNorm<Eigen::Infinity>() < lowest) lowest = F->lpNorm<Eigen::Infinity>(), at = x;
  };
  problem.jacobian = [&](const Vector& x, Matrix* J) {
    Matrix full;
    shooting.jacobian(with(x).data(), &full);
    *J = full.leftCols(n);
  };
  NewtonOptions newton;
  newton.max_iterations = options.max_iterations;
  newton.residual_tolerance = options.residual_tolerance;
  newton.relative_residual = true;
  newton.min_damping = options.min_damping;
  NewtonResult r;
  try {
    r = damped_newton(problem, u0.head(n), newton);
  } catch (const Outside& outside) {
    OrbitSearch out;
    out.u = with(at);
    out.residual_norm = lowest;
    std::ostringstream msg;
    msg << "the Newton iterates head away from the guess: a step to |x|_inf = "
        << outside.x.lpNorm<Eigen::Infinity>() << ", beyond max_distance = " << options.max_distance
        << " times the guess's size (1 + |x0|_inf = " << 1.0 + u0.head(n).lpNorm<Eigen::Infinity>()
        << "; the last |F| = " << lowest
        << "): no orbit near the guess (the residual may vanish only at infinity). Start closer to an orbit";
    out.message = msg.str();
    return out;
  }

  OrbitSearch out;
  out.u = with(r.x);
  out.residual_norm = r.residual;
  out.iterations = r.iterations;
  std::ostringstream msg;
  switch (r.status) {
    case NewtonStatus::kConverged:
      out.status = OrbitStatus::kConverged;
      msg << "converged in " << out.iterations << " iterations, |F| = " << out.residual_norm;
      break;
    case NewtonStatus::kEvaluationFailed:
    case NewtonStatus::kNonFinite:
      if (!std::isfinite(r.residual) || r.status == NewtonStatus::kEvaluationFailed) {
        out.status = OrbitStatus::kSimulationFailed;
        out.residual_norm = std::numeric_limits<double>::infinity();
        msg << "the orbit from the guess cannot be simulated over one period: " << r.message
            << ". Start from another guess (or another cut t0)";
        break;
      }
      [[fallthrough]];
    case NewtonStatus::kSingular:
      msg << "the shooting Jacobian is singular at iteration " << out.iterations
          << " (|F| = " << out.residual_norm
          << "): a multiplier at +1 there, or a degenerate phase condition. Start from another guess";
      break;
    case NewtonStatus::kNoDescent:
      if (!r.message.empty()) {
        out.status = OrbitStatus::kSimulationFailed;
        msg << "no Newton step from iteration " << out.iterations << " (|F| = " << out.residual_norm
            << ") can be simulated or decreases |F|; the last failure: " << r.message
            << ". The orbits near the guess run into the guard tangentially or accumulate events: "
               "start from another guess";
      } else {
        msg << "the residual |F| = " << out.residual_norm << " stopped decreasing at iteration "
            << out.iterations
            << ": the guess is not in the basin of an orbit. Start closer to an orbit (simulate onto the "
               "attractor first), or give a better period";
      }
      break;
    case NewtonStatus::kNotConverged:
    case NewtonStatus::kLeftDomain:
      msg << "no convergence in max_iterations = " << options.max_iterations
          << ", the last residual |F| = " << out.residual_norm
          << ". Start closer to an orbit, or allow more iterations";
      break;
  }
  out.message = msg.str();
  return out;
}

}  // namespace saltus::periodic
