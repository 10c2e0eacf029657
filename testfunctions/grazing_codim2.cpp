#include "testfunctions/grazing_codim2.h"

#include <memory>
#include <stdexcept>

#include "continuation/branch.h"
#include "continuation/flow/simulate.h"
#include "continuation/periodic/grazing_orbit.h"
#include "testfunctions/cycle_codim2.h"

namespace saltus {

GrazingCodim2Value grazing_codim2_value(const PointContext& point) {
  const auto* grazing = dynamic_cast<const periodic::GrazingSystem*>(&point.problem.system());
  if (!grazing) throw std::logic_error("the GR-PD-LPC test on a curve that is no grazing curve");
  const Vector u = point.problem.u(point.y);
  const periodic::ShootingSystem& shooting = grazing->shooting();  // over the virtual flow
  const flow::HybridSystem& virtual_flow = grazing->suppressed();
  const periodic::Contact c = grazing->suppressed().contact();
  const periodic::ContactMinimum at = grazing->minimum(u, false);
  const int q_size = shooting.parameter_size(), n = static_cast<int>(at.z.size()) - q_size;
  // M_g: one period of the virtual flow from the contact to its return,
  // where the contact must be no event either. The curve's window repeats
  // with the period the curve started at, so a window of this period is
  // laid over it (centred on the contact; the start is inside both).
  flow::SimulationOptions options = shooting.options().simulation;
  options.variational = true;
  options.output_interval = 0.0;
  options.constant_components = q_size;
  const double T = shooting.period(u);
  const periodic::ContactSuppressed one_period(
      std::shared_ptr<const flow::HybridSystem>(&virtual_flow, [](const flow::HybridSystem*) {}),
      {c.mode, c.guard, at.t, c.window, T});
  const flow::Trajectory tr = flow::simulate(one_period, c.mode, at.t, at.z, at.t + T, options);
  if (!tr.ok())
    throw std::runtime_error("GR-PD-LPC: the grazing orbit could not be simulated: " + tr.message);
  GrazingCodim2Value out;
  out.monodromy = tr.transition_matrix.topLeftCorner(n, n);
  // q = f - G_x f - G_t at the contact, with the impact law of the guard in
  // the same mode (as impacting_orbit_near: whatever a model's threshold
  // for slow impacts decides at v = 0).
  Vector f, plus, G_t, h_x;
  Matrix G_x;
  double h_t = 0.0;
  virtual_flow.field(c.mode, at.t, at.z, &f);
  virtual_flow.reset(c.mode, c.guard, c.mode, at.t, at.z, &plus, &G_x, &G_t);
  virtual_flow.guard_gradient(c.mode, c.guard, at.t, at.z, &h_x, &h_t);
  out.q = (f - G_x * f - G_t).head(n);
  // The side the events come from; for a guard crossed either way, the side
  // the orbit is on half a window after the contact (h = 0 at the contact).
  double sgn = periodic::guard_side(virtual_flow.crossing(c.mode, c.guard), 0.0);
  if (virtual_flow.crossing(c.mode, c.guard) == flow::Crossing::kEither) {
    options.variational = false;
    const flow::Trajectory after =
        flow::simulate(one_period, c.mode, at.t, at.z, at.t + 0.5 * c.window, options);
    if (!after.ok() || after.mode_end != c.mode)
      throw std::runtime_error("GR-PD-LPC: no side of the guard after the contact: " + after.message);
    sgn = periodic::guard_side(flow::Crossing::kEither, grazing->shooting().hybrid()->guard(
                                                            c.mode, c.guard, after.t_end, after.x_end));
  }
  out.trace_factor = -sgn * h_x.head(n).dot(out.monodromy * out.q);
  const double scale = h_x.head(n).norm() * out.q.norm();
  out.value = scale > 0 ? out.trace_factor / scale : 0.0;
  return out;
}

double GrazingCodim2Test::value(const PointContext& point) const { return grazing_codim2_value(point).value; }

bool GrazingCodim2Test::describe(const PointContext& point, SpecialPoint* special) const {
  const GrazingCodim2Value v = grazing_codim2_value(point);
  const auto* grazing = dynamic_cast<const periodic::GrazingSystem*>(&point.problem.system());
  special->data["contact_time"] = grazing->minimum(point.problem.u(point.y), false).t;
  special->data["trace_factor"] = v.trace_factor;
  CycleCurvePoints::At at;
  at.monodromy = v.monodromy;
  at.multipliers = periodic::floquet_multipliers(v.monodromy);
  add_multipliers(at, special);
  return true;
}

}  // namespace saltus
