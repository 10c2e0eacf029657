#include "continuation/newton.h"

#include <Eigen/LU>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace saltus {

std::string NewtonOptions::check() const {
  std::ostringstream why;
  if (max_iterations < 0)
    why << "max_iterations = " << max_iterations << " must be >= 0";
  else if (!(residual_tolerance > 0))
    why << "residual_tolerance = " << residual_tolerance << " must be positive";
  else if (!(step_tolerance > 0))
    why << "step_tolerance = " << step_tolerance << " must be positive";
  else if (!(min_damping > 0) || !(min_damping <= 1))
    why << "min_damping = " << min_damping << " must be in (0, 1]";
  else if (!(sufficient_decrease >= 0) || !(sufficient_decrease < 1))
    why << "sufficient_decrease = " << sufficient_decrease << " must be in [0, 1)";
  else if (!(accept_residual >= 0))
    why << "accept_residual = " << accept_residual << " must be >= 0";
  return why.str();
}

std::string to_string(NewtonStatus status) {
  switch (status) {
    case NewtonStatus::kConverged:
      return "converged";
    case NewtonStatus::kNotConverged:
      return "not_converged";
    case NewtonStatus::kNoDescent:
      return "no_descent";
    case NewtonStatus::kSingular:
      return "singular";
    case NewtonStatus::kNonFinite:
      return "non_finite";
    case NewtonStatus::kEvaluationFailed:
      return "evaluation_failed";
    case NewtonStatus::kLeftDomain:
      return "left_domain";
  }
  return "unknown";
}

namespace {

double measure(const Vector& F, NewtonNorm norm) {
  return norm == NewtonNorm::kInf ? F.lpNorm<Eigen::Infinity>() : F.norm();
}

// F(x), or false with *why when the residual throws std::runtime_error.
bool evaluate(const NewtonProblem& problem, const Vector& x, Vector* F, std::string* why) {
  try {
    problem.residual(x, F);
    return true;
  } catch (const std::runtime_error& e) {
    *why = e.what();
    return false;
  }
}

bool default_solve(const Matrix& J, const Vector& F, Vector* dx) {
  *dx = Eigen::PartialPivLU<Matrix>(J).solve(F);
  return true;
}

}  // namespace

NewtonResult damped_newton(const NewtonProblem& problem, const Vector& x0, const NewtonOptions& options) {
  if (const std::string why = options.check(); !why.empty())
    throw std::invalid_argument("Newton options: " + why);
  if (!problem.residual || !problem.jacobian)
    throw std::invalid_argument("damped_newton: the problem needs a residual and a Jacobian");
  if (!x0.allFinite()) throw std::invalid_argument("damped_newton: the start point is not finite");
  const auto& solve = problem.solve ? problem.solve : default_solve;
  auto scale = [&](const Vector& x) {
    return problem.scale ? problem.scale(x) : 1.0 + x.lpNorm<Eigen::Infinity>();
  };

  NewtonResult out;
  out.x = x0;
  Vector F, F_trial, dx, trial;
  Matrix J;
  if (!evaluate(problem, out.x, &F, &out.message)) {
    out.status = NewtonStatus::kEvaluationFailed;
    return out;
  }
  out.residual = F.lpNorm<Eigen::Infinity>();
  for (int it = 0;; ++it) {
    out.iterations = it;
    if (!F.allFinite()) {
      out.status = NewtonStatus::kNonFinite;
      out.message = "the residual is not finite at the iterate";
      return out;
    }
    const double s = scale(out.x);
    const bool converged =
        out.residual <= options.residual_tolerance * (options.relative_residual ? s : 1.0) &&
        out.last_step <= options.step_tolerance * s;
    if (converged) {
      out.status = NewtonStatus::kConverged;
      out.message.clear();
      if (!options.polish) return out;
      problem.jacobian(out.x, &J);
      std::string ignored;
      if (J.allFinite() && solve(J, F, &dx) && dx.allFinite() &&
          evaluate(problem, out.x - dx, &F_trial, &ignored) && F_trial.allFinite() &&
          F_trial.lpNorm<Eigen::Infinity>() < out.residual) {
        out.x -= dx;
        out.residual = F_trial.lpNorm<Eigen::Infinity>();
        out.last_step = dx.lpNorm<Eigen::Infinity>();
        out.iterations = it + 1;
      }
      return out;
    }
    if (it == options.max_iterations) {
      out.status = NewtonStatus::kNotConverged;
      return out;
    }
    problem.jacobian(out.x, &J);
    if (!J.allFinite()) {
      out.status = NewtonStatus::kNonFinite;
      out.message = "the Jacobian is not finite at the iterate";
      return out;
    }
    if (!solve(J, F, &dx) || !dx.allFinite()) {
      out.status = NewtonStatus::kSingular;
      out.message = "the Jacobian is singular at the iterate";
      return out;
    }
    // The line search: the first lambda = 1, 1/2, ... whose residual is low enough.
    double lambda = 1.0;
    bool accepted = false;
    const double before = measure(F, options.norm);
    while (lambda >= options.min_damping) {
      trial = out.x - lambda * dx;
      if (evaluate(problem, trial, &F_trial, &out.message)) {
        if (!options.damping) {
          accepted = true;
          break;
        }
        if (F_trial.allFinite()) {
          const double after = measure(F_trial, options.norm);
          const bool lower = options.sufficient_decrease > 0
                                 ? after <= (1.0 - options.sufficient_decrease * lambda) * before
                                 : after < before;
          if (lower ||
              (options.accept_residual > 0 && F_trial.lpNorm<Eigen::Infinity>() <= options.accept_residual)) {
            accepted = true;
            break;
          }
        }
      } else if (!options.damping) {
        break;
      }
      lambda *= 0.5;
    }
    if (!accepted) {
      out.status = NewtonStatus::kNoDescent;
      return out;
    }
    out.message.clear();
    out.last_step = (lambda * dx).lpNorm<Eigen::Infinity>();
    out.x = trial;
    F = F_trial;
    out.residual = F.lpNorm<Eigen::Infinity>();
    if (problem.admissible && !problem.admissible(out.x)) {
      out.iterations = it + 1;
      out.status = NewtonStatus::kLeftDomain;
      return out;
    }
  }
}

}  // namespace saltus
