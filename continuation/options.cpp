#include "continuation/options.h"

#include <cmath>
#include <sstream>

namespace saltus {

std::string ContinuationOptions::check() const {
  std::ostringstream why;
  auto positive = [&](const char* name, double value) {
    if (!(value > 0.0) || !std::isfinite(value))
      why << name << " = " << value << " must be positive and finite";
    return why.tellp() == 0;
  };
  if (!positive("ds", ds) || !positive("ds_min", ds_min) || !positive("ds_max", ds_max) ||
      !positive("newton_tolerance", newton_tolerance) ||
      !positive("residual_tolerance", residual_tolerance) || !positive("event_tolerance", event_tolerance))
    return why.str();
  if (ds_min > ds || ds > ds_max)
    why << "steps must satisfy ds_min <= ds <= ds_max, got " << ds_min << ", " << ds << ", " << ds_max;
  else if (!(step_growth >= 1.0))
    why << "step_growth = " << step_growth << " must be >= 1";
  else if (!(step_cut > 0.0 && step_cut < 1.0))
    why << "step_cut = " << step_cut << " must be in (0, 1)";
  else if (easy_iterations < 1)
    why << "easy_iterations = " << easy_iterations << " must be >= 1";
  else if (max_points < 1)
    why << "max_points = " << max_points << " must be >= 1";
  else if (direction != 1 && direction != -1)
    why << "direction = " << direction << " must be +1 or -1";
  else if (max_newton_iterations < 1)
    why << "max_newton_iterations = " << max_newton_iterations << " must be >= 1";
  else if (!(min_tangent_cosine > -1.0 && min_tangent_cosine < 1.0))
    why << "min_tangent_cosine = " << min_tangent_cosine << " must be in (-1, 1)";
  else if (max_event_iterations < 1)
    why << "max_event_iterations = " << max_event_iterations << " must be >= 1";
  else if (eigenvalue_count < 0)
    why << "eigenvalue_count = " << eigenvalue_count << " must be >= 0";
  for (const auto& [name, bound] : bounds)
    if (why.tellp() == 0 && !(bound.min < bound.max))
      why << "bounds of '" << name << "': min = " << bound.min << " must be below max = " << bound.max;
  return why.str();
}

}  // namespace saltus
