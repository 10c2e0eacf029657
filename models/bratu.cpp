#include "models/bratu.h"

#include <cmath>

#include "continuation/locate.h"

namespace saltus::models {

double bratu_critical_lambda() {
  // The continuum fold: z tanh z = 1 (z in (1, 1.5)), then lambda* = 8 / sinh^2 z.
  auto f = [](double z) { return z * std::tanh(z) - 1.0; };
  const Location z = locate_sign_change(f, 1.0, 1.5, f(1.0), f(1.5), {1e-15, true, 100});
  const double mid = 0.5 * (z.lo + z.hi);
  return 8.0 / (std::sinh(mid) * std::sinh(mid));
}

}  // namespace saltus::models
