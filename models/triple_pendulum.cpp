// The triple pendulum's flow, with its parameters-in-state and tangent-lifted
// systems, compiled here once (models/triple_pendulum.h declares it extern).
#include "models/triple_pendulum.h"

namespace saltus::flow {
template class AutoDiffHybrid<Mechanical<models::TriplePendulum>>;
}  // namespace saltus::flow
