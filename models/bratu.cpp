#include "models/bratu.h"

#include <boost/math/tools/toms748_solve.hpp>

namespace saltus::models {

double bratu_critical_lambda() {
  auto f = [](double z) { return z * std::tanh(z) - 1.0; };
  boost::uintmax_t iterations = 100;
  auto [a, b] = boost::math::tools::toms748_solve(f, 1.0, 1.5, boost::math::tools::eps_tolerance<double>(),
                                                  iterations);
  const double z = 0.5 * (a + b);
  return 8.0 / (std::sinh(z) * std::sinh(z));
}

}  // namespace saltus::models
