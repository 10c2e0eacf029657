#include "continuation/periodic/find_orbit.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "continuation/newton.h"
#include "continuation/periodic/newton_krylov.h"

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
  else if (matrix_free_from < 1)
    why << "matrix_free_from = " << matrix_free_from << " must be >= 1";
  else if (max_krylov < 1 || krylov_restart < 1)
    why << "max_krylov = " << max_krylov << " and krylov_restart = " << krylov_restart << " must be >= 1";
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
  // Dense or matrix-free (the header says when).
  const auto* single = dynamic_cast<const ShootingSystem*>(&shooting);
  bool matrix_free = false;
  if (options.linear_solver == ShootingLinearSolver::kMatrixFree) {
    if (!single || !matrix_free_available(*single))
      throw std::invalid_argument(
          "orbit search: matrix-free shooting needs a single-shooting problem whose system has a "
          "tangent-lifted "
          "form; use the dense linear solver");
    matrix_free = true;
  } else if (options.linear_solver == ShootingLinearSolver::kAuto) {
    matrix_free = single && n >= options.matrix_free_from && matrix_free_available(*single);
  }
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
    // A failed simulation throws std::runtime_error. Matrix-free: the state
    // alone (no variational equations).
    if (matrix_free)
      shooting.residual_alone(with(x).data(), F->data());
    else
      shooting.residual(with(x).data(), F->data());
    if (F->lpNorm<Eigen::Infinity>() < lowest) lowest = F->lpNorm<Eigen::Infinity>(), at = x;
  };
  problem.jacobian = [&](const Vector& x, Matrix* J) {
    Matrix full;
    shooting.jacobian(with(x).data(), &full);
    *J = full.leftCols(n);
  };
  // Matrix-free: the "Jacobian" is the point, the solve GMRES there.
  Vector linearized_at;
  int products = 0;
  std::string krylov_failure;
  if (matrix_free) {
    problem.jacobian = [&](const Vector& x, Matrix* J) {
      J->resize(0, 0);
      linearized_at = x;
    };
    problem.solve = [&](const Matrix&, const Vector& F, Vector* dx) {
      try {
        const KrylovSolve k = krylov_solve(*single, with(linearized_at), F, krylov_forcing(F, linearized_at),
                                           options.max_krylov, options.krylov_restart, dx);
        products += k.products;
        if (!k.ok) krylov_failure = k.message;
        return k.ok;
      } catch (const std::runtime_error& e) {  // a direction's period failed
        krylov_failure = e.what();
        return false;
      }
    };
  }
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
  out.matrix_free = matrix_free;
  out.products = products;
  std::ostringstream msg;
  switch (r.status) {
    case NewtonStatus::kConverged:
      out.status = OrbitStatus::kConverged;
      msg << "converged in " << out.iterations << " iterations, |F| = " << out.residual_norm;
      if (matrix_free) msg << " (matrix-free: " << products << " products M v)";
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
      if (!krylov_failure.empty()) {
        msg << "the matrix-free Newton step at iteration " << out.iterations
            << " (|F| = " << out.residual_norm << ") did not converge: " << krylov_failure
            << ". Allow more GMRES iterations (max_krylov), or use the dense solver";
        break;
      }
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
