#include "models/stick_slip.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace saltus::models {

void StickSlip::check() const {
  std::ostringstream msg;
  msg << "stick-slip oscillator: ";
  auto finite = [](double v) { return std::isfinite(v); };
  if (!(m > 0) || !finite(m)) msg << "the mass m = " << m << " must be positive";
  else if (!(k > 0) || !finite(k)) msg << "the stiffness k = " << k << " must be positive";
  else if (!(c >= 0) || !finite(c)) msg << "the damping c = " << c << " must be >= 0";
  else if (!(g > 0) || !finite(g)) msg << "the gravity g = " << g << " must be positive (the normal force is m g)";
  else if (!finite(v0)) msg << "the belt speed v0 = " << v0 << " must be finite";
  else if (!(mu > 0) || !finite(mu))
    msg << "the kinetic friction coefficient mu_k = " << mu << " must be positive (friction opposes the slip)";
  else if (!(mu_s >= mu) || !finite(mu_s))
    msg << "the static friction coefficient mu_s = " << mu_s << " must be >= the kinetic one mu_k = " << mu
        << " (raise mu_s or lower mu_k)";
  else return;
  throw std::invalid_argument(msg.str());
}

namespace {
filippov::FlowOptions flow_options(const StickSlip& model) {
  filippov::FlowOptions options;
  options.stick_bound = model.mu_s;
  options.mode_names = {"slip+", "slip-", "stick", "escaping", "two-fold"};
  return options;
}
}  // namespace

std::shared_ptr<flow::AutoDiffHybrid<StickSlipFlow>> make_stick_slip_flow(StickSlip model) {
  model.check();
  const filippov::FlowOptions options = flow_options(model);
  return filippov::make_filippov_flow(std::move(model), options);
}

StickSlipWithParameter::StickSlipWithParameter(StickSlip model, const std::string& parameter)
    : base(std::move(model)), mu(base.mu), name(parameter), which(-1) {
  for (int i = 0; i < 5; ++i)
    if (parameter == kNames[i]) which = i;
  if (which < 0)
    throw std::invalid_argument("stick-slip oscillator: the parameter '" + parameter +
                                "' cannot ride in the state (m, k, c, g or v0 can; the friction coefficients "
                                "decide the modes as numbers)");
  base.check();
}

std::shared_ptr<flow::AutoDiffHybrid<StickSlipWithParameterFlow>> make_stick_slip_flow(StickSlip model,
                                                                                      const std::string& parameter) {
  const filippov::FlowOptions options = flow_options(model);
  return filippov::make_filippov_flow(StickSlipWithParameter(std::move(model), parameter), options);
}

}  // namespace saltus::models
