// The Brusselator's flow with its parameters-in-state and tangent-lifted
// systems, compiled here once (models/brusselator_1d_flow.h declares it extern).
#include "models/brusselator_1d_flow.h"

#include <stdexcept>

namespace saltus::flow {
template class AutoDiffHybrid<models::Brusselator1dFlow>;
}  // namespace saltus::flow

namespace saltus::models {

std::shared_ptr<const flow::HybridSystem> brusselator_1d_flow(int n) {
  if (n < 1) throw std::invalid_argument("brusselator_1d flow: n = " + std::to_string(n) + " must be >= 1");
  Brusselator1dFlow f;
  f.model.n = n;
  return flow::make_hybrid(f);
}

}  // namespace saltus::models
