#include "continuation/periodic/period_map_forms.h"

#include <stdexcept>
#include <string>

namespace saltus::periodic {

PeriodMapForms period_map_forms(const ShootingSystem& shooting, const flow::HybridSystem& twice_lifted,
                                const Vector& u, const Vector& q) {
  if (shooting.options().autonomous)
    throw std::invalid_argument(
        "the period map's normal form of an autonomous orbit is not built (forced orbits only)");
  const int n = shooting.state_size(), N = n + shooting.parameter_size();
  if (q.size() != n || !q.allFinite())
    throw std::invalid_argument("period map forms: the direction must be finite of size " +
                                std::to_string(n));
  if (twice_lifted.dimension() != 4 * N)
    throw std::invalid_argument("period map forms: the lifted system has dimension " +
                                std::to_string(twice_lifted.dimension()) +
                                ", not 4 (n + parameters) = " + std::to_string(4 * N));
  // (z, w, z', w') = (x0 with its parameters, q, q, 0).
  Vector Z = Vector::Zero(4 * N);
  Z.head(N) = shooting.hybrid_state(u);
  Z.segment(N, n) = q;
  Z.segment(2 * N, n) = q;
  const ShootingOptions& options = shooting.options();
  flow::SimulationOptions simulation = options.simulation;
  simulation.variational = true;
  simulation.constant_components = 0;  // the parameters sit inside each block
  // The steps follow the lifted state (z, w, z', w'), which already carries
  // B(q, q); the transition matrix (for C) rides on them (internal
  // differentiation, SimulationOptions::transition_error_control).
  simulation.transition_error_control = false;
  const double t0 = shooting.start_time(u), t1 = t0 + shooting.period(u);
  const flow::Trajectory tr = flow::simulate(twice_lifted, options.mode, t0, Z, t1, simulation);
  if (!tr.ok()) throw std::runtime_error("period map forms: the twice-lifted period failed: " + tr.message);
  const Matrix& Psi = tr.transition_matrix;
  PeriodMapForms forms;
  forms.M = Psi.topLeftCorner(n, n);
  forms.Bqq = tr.x_end.segment(3 * N, n);
  forms.Bq = Psi.block(3 * N, 2 * N, n, n);
  forms.Cqq = Psi.block(3 * N, 0, n, n);
  return forms;
}

}  // namespace saltus::periodic
