#include "models/stick_slip.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace saltus::models {

template <>
void StickSlipT<double>::check() const {
  std::ostringstream msg;
  msg << "stick-slip oscillator: ";
  auto finite = [](double v) { return std::isfinite(v); };
  if (!(m > 0) || !finite(m))
    msg << "the mass m = " << m << " must be positive";
  else if (!(k > 0) || !finite(k))
    msg << "the stiffness k = " << k << " must be positive";
  else if (!(c >= 0) || !finite(c))
    msg << "the damping c = " << c << " must be >= 0";
  else if (!(g > 0) || !finite(g))
    msg << "the gravity g = " << g << " must be positive (the normal force is m g)";
  else if (!finite(v0))
    msg << "the belt speed v0 = " << v0 << " must be finite";
  else if (!(mu > 0) || !finite(mu))
    msg << "the kinetic friction coefficient mu_k = " << mu
        << " must be positive (friction opposes the slip)";
  else if (!(mu_s >= mu) || !finite(mu_s))
    msg << "the static friction coefficient mu_s = " << mu_s << " must be >= the kinetic one mu_k = " << mu
        << " (raise mu_s or lower mu_k)";
  else
    return;
  throw std::invalid_argument(msg.str());
}

namespace {
filippov::FlowOptions flow_options() {
  filippov::FlowOptions options;
  options.mode_names = {"slip+", "slip-", "stick", "escaping", "two-fold"};
  return options;
}
}  // namespace

std::shared_ptr<flow::AutoDiffHybrid<StickSlipFlow>> make_stick_slip_flow(StickSlip model) {
  model.check();
  const filippov::FlowOptions options = flow_options();
  return filippov::make_filippov_flow(std::move(model), options);
}

}  // namespace saltus::models
