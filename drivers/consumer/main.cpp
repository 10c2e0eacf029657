// A user's own driver: a problem as a functor templated on its scalar, one
// branch with fold detection, the fold compared with its closed form.
//
//   f(x; p) = x exp(-x) - p = 0   has a fold at x = 1, p = 1/e.

#include <cmath>
#include <iostream>
#include <memory>

#include "continuation/autodiff_system.h"
#include "continuation/pseudo_arclength.h"
#include "testfunctions/fold.h"

struct Hump {
  int state_size() const { return 1; }
  int parameter_size() const { return 1; }
  template <class T>
  void operator()(const T* u, T* f) const {
    using std::exp;
    f[0] = u[0] * exp(-u[0]) - u[1];  // u = (x, p)
  }
};

int main() {
  auto system = saltus::make_system(Hump{});
  saltus::ContinuationProblem problem(system, saltus::Vector::Zero(1), {"p0"});
  saltus::ContinuationOptions options;
  options.bounds["x0"] = {-1.0, 3.0};
  const saltus::Branch branch = saltus::continue_branch(problem, saltus::Vector::Zero(2), options,
                                                        {std::make_shared<saltus::FoldTest>()});
  for (const auto& s : branch.special_points) {
    if (s.type != "LP") continue;
    std::cout.precision(15);
    std::cout << "LP at x = " << s.y[0] << ", p = " << s.y[1] << " (1/e = " << std::exp(-1.0) << ")\n";
    return std::abs(s.y[1] - std::exp(-1.0)) < 1e-12 ? 0 : 1;
  }
  std::cerr << "no fold found: " << branch.message << '\n';
  return 1;
}
