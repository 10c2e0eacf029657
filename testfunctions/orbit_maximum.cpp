#include "testfunctions/orbit_maximum.h"

#include <algorithm>
#include <stdexcept>

#include "continuation/flow/simulate.h"
#include "continuation/periodic/shooting.h"

namespace saltus {

double OrbitMaximumTest::value(const PointContext& point) const {
  const auto* shooting = dynamic_cast<const periodic::ShootingSystem*>(&point.problem.system());
  if (!shooting)
    throw std::logic_error("the orbit-maximum test '" + name_ + "' needs a branch of periodic orbits");
  const Vector u = point.problem.u(point.y);
  const double T = shooting->period(u), t0 = shooting->options().t0;
  const int mode = shooting->options().mode;
  const flow::HybridSystem& flow = *shooting->hybrid();
  flow::SimulationOptions options = shooting->options().simulation;
  options.variational = false;
  options.output_interval = 0.0;  // the section hits are what is wanted
  const flow::Section turning{[&](double t, const Vector& z) {
                                Vector f(z.size());
                                flow.field(mode, t, z, &f);
                                return rate_(z, f);
                              },
                              flow::Crossing::kFalling};
  const Vector z0 = shooting->hybrid_state(u);
  const flow::Trajectory orbit = flow::simulate(flow, mode, t0, z0, t0 + T, options, {}, {turning});
  if (!orbit.ok())
    throw std::runtime_error("the orbit for '" + name_ + "' could not be simulated: " + orbit.message);
  double largest = std::max(e_(z0), e_(orbit.x_end));
  for (const auto& hit : orbit.section_hits) largest = std::max(largest, e_(hit.x));
  return largest;
}

}  // namespace saltus
