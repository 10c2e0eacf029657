#pragma once
// The 1-D Brusselator (models/brusselator_1d.h) as a flow, x' = F(x, p),
// in the shooting form: its four parameters (a, b, d1, d2) carried as the
// last four states (p' = 0), so that a ShootingSystem over it with four
// parameters follows its cycles in any of them. Tangent-liftable
// (continuation/flow/tangent_lifted.h): the field is the same templated
// functor, evaluated on first-order Taylor series, so the matrix-free
// products M v of continuation/periodic/monodromy_operator.h are exact.
//
// The field is stiff: the discrete diffusion d1 (x_{i-1} - 2 x_i +
// x_{i+1}) / h^2 has eigenvalues down to -4 d1 (n + 1)^2 (about -8000 at
// n = 500, d1 = 0.008), where the cycles turn in about pi time units: an
// explicit Runge-Kutta step is bounded by stability, not accuracy
// (docs/performance.md has the step counts).

#include <memory>
#include <string>
#include <vector>

#include "continuation/flow/hybrid_system.h"
#include "models/brusselator_1d.h"

namespace saltus::models {

struct Brusselator1dFlow {
  Brusselator1d model;
  static constexpr bool tangent_liftable = true;

  int dimension() const { return model.state_size() + model.parameter_size(); }
  std::vector<std::string> state_names() const {
    auto names = model.state_names();
    for (const auto& p : model.parameter_names()) names.push_back(p);
    return names;
  }
  template <class T>
  void field(int, const T&, const T* x, T* f) const {
    model(x, f);
    for (int k = model.state_size(); k < dimension(); ++k) f[k] = T(0.0);
  }
};

// The flow of n points per species; the hybrid state (x, a, b, d1, d2).
std::shared_ptr<const flow::HybridSystem> brusselator_1d_flow(int n);

}  // namespace saltus::models

namespace saltus::flow {
// Instantiated once, in models/brusselator_1d_flow.cpp (with its lifts).
extern template class AutoDiffHybrid<models::Brusselator1dFlow>;
}  // namespace saltus::flow
