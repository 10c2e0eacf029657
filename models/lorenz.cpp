#include "models/lorenz.h"

#include <stdexcept>

#include "continuation/flow/hybrid_system.h"
#include "continuation/flow/simulate.h"

namespace saltus::flow {
template class AutoDiffHybrid<models::Lorenz>;
}  // namespace saltus::flow

namespace saltus::models {

std::shared_ptr<const flow::HybridSystem> lorenz_flow() {
  return flow::make_hybrid(Lorenz{})->with_parameters_in_state({"sigma", "rho", "beta"});
}

double lorenz_periodic_orbit(double rho, Vector* point) {
  const auto lorenz = lorenz_flow();
  Vector z(6);
  z << 1, 1, 1, 10, rho, 8.0 / 3;
  flow::SimulationOptions plain;
  plain.variational = false;
  const flow::Trajectory warm = flow::simulate(*lorenz, 0, 0.0, z, 50.0, plain);
  const std::vector<flow::Section> section = {
      {[rho](double, const Vector& x) { return x[2] - (rho - 1.0); }, flow::Crossing::kRising}};
  const flow::Trajectory on = flow::simulate(*lorenz, 0, 50.0, warm.x_end, 51.0, plain, {}, section);
  if (on.section_hits.size() < 3)
    throw std::runtime_error(
        "lorenz_periodic_orbit: the attractor at rho = " + std::to_string(rho) +
        " does not cross z = rho - 1 twice per unit time; it is not the large-rho orbit");
  *point = on.section_hits[0].x;
  return on.section_hits[2].t - on.section_hits[0].t;
}

LorenzBranchStart lorenz_branch_start(const flow::SimulationOptions& simulation) {
  static const std::shared_ptr<const flow::HybridSystem> lorenz = lorenz_flow();
  // The orbit point once (a simulation over 50 time units, many times the
  // cost of a continuation point): benchmarks start this branch repeatedly.
  static Vector reference;
  static const double period = lorenz_periodic_orbit(280.0, &reference);
  periodic::ShootingOptions shooting;
  shooting.autonomous = true;
  shooting.simulation = simulation;
  LorenzBranchStart start;
  start.system = std::make_shared<periodic::ShootingSystem>(lorenz, 3, shooting, reference);
  start.problem = std::make_shared<const ContinuationProblem>(start.system, reference.tail(3),
                                                              std::vector<std::string>{"rho"});
  start.y.resize(5);
  start.y << reference.head(3), period, 280.0;
  return start;
}

ContinuationOptions lorenz_branch_options() {
  ContinuationOptions options;
  options.direction = -1;
  options.ds = 0.2;
  options.ds_max = 2.0;
  options.ds_min = 1e-7;
  options.max_points = 300;
  options.event_tolerance = 1e-9;
  options.bounds["rho"] = {205.0, 300.0};
  return options;
}

}  // namespace saltus::models
