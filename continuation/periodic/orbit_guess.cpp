#include "continuation/periodic/orbit_guess.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace saltus::periodic {

std::string OrbitGuessOptions::check() const {
  std::ostringstream why;
  if (!(transient >= 0) || !std::isfinite(transient))
    why << "transient = " << transient << " must be >= 0 and finite";
  else if (!(max_period > 0) || !std::isfinite(max_period))
    why << "max_period = " << max_period << " must be positive and finite";
  else if (!(return_tolerance > 0) || !(return_tolerance < 1))
    why << "return_tolerance = " << return_tolerance << " must be in (0, 1)";
  else
    why << simulation.check();
  return why.str();
}

OrbitGuess orbit_from_simulation(const flow::HybridSystem& system, int mode, double t0, const Vector& start,
                                 const OrbitGuessOptions& options) {
  if (const std::string why = options.check(); !why.empty())
    throw std::invalid_argument("orbit guess options: " + why);
  flow::SimulationOptions plain = options.simulation;
  plain.variational = false;
  plain.output_interval = 0.0;
  OrbitGuess guess;
  guess.state = start;
  guess.mode = mode;
  guess.t = t0;
  if (options.transient > 0) {
    const flow::Trajectory warm = flow::simulate(system, mode, t0, start, t0 + options.transient, plain);
    if (!warm.ok()) {
      guess.message =
          "the transient simulation ended early (" + flow::to_string(warm.status) + "): " + warm.message;
      return guess;
    }
    guess.state = warm.x_end;
    guess.mode = warm.mode_end;
    guess.t = warm.t_end;
  }
  const Vector x_star = guess.state;
  Vector f;
  system.field(guess.mode, guess.t, x_star, &f);
  if (!(f.norm() > 0)) {
    guess.message = "the simulation ends on an equilibrium (the field vanishes there): no orbit to follow";
    return guess;
  }
  const std::vector<flow::Section> plane = {
      {[x_star, f](double, const Vector& x) { return f.dot(x - x_star); }, flow::Crossing::kRising}};
  double extent = 0.0;
  const flow::SimulationObserver observer = [&](double, const Vector& x, int) {
    extent = std::max(extent, (x - x_star).norm());
    return true;
  };
  const flow::Trajectory search = flow::simulate(system, guess.mode, guess.t, x_star,
                                                 guess.t + options.max_period, plain, observer, plane);
  double closest = std::numeric_limits<double>::infinity();
  for (const auto& hit : search.section_hits) {
    const double d = (hit.x - x_star).norm();
    if (hit.mode == guess.mode && d <= options.return_tolerance * extent) {
      guess.ok = true;
      guess.period = hit.t - guess.t;
      guess.distance = d;
      guess.message = "returned after " + std::to_string(guess.period) + " within " + std::to_string(d);
      return guess;
    }
    closest = std::min(closest, d);
  }
  std::ostringstream msg;
  msg << "the simulated orbit did not come back within " << options.return_tolerance << " of its extent ("
      << extent << ") of x* in max_period = " << options.max_period;
  if (std::isfinite(closest))
    msg << " (closest return: " << closest << ")";
  else
    msg << " (no return through the plane at all)";
  if (!search.ok()) msg << "; the simulation ended early: " << search.message;
  msg << ". Try a longer transient (the motion may not have settled), a longer max_period, or a looser "
         "return_tolerance; the attractor may not be periodic";
  guess.distance = closest;
  guess.message = msg.str();
  return guess;
}

}  // namespace saltus::periodic
