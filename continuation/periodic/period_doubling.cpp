#include "continuation/periodic/period_doubling.h"

#include <sstream>
#include <stdexcept>

#include <Eigen/Eigenvalues>

namespace saltus::periodic {

DoubledStart period_doubled(const std::shared_ptr<ShootingSystem>& system, const ContinuationProblem& problem,
                            const SpecialPoint& pd) {
  const Vector u = problem.u(pd.y);
  const Matrix M = system->monodromy(u);
  const int n = static_cast<int>(M.rows());
  Eigen::EigenSolver<Matrix> eig(M);
  int k = 0;
  for (int i = 1; i < n; ++i)
    if (std::abs(eig.eigenvalues()[i] + 1.0) < std::abs(eig.eigenvalues()[k] + 1.0)) k = i;
  if (std::abs(eig.eigenvalues()[k] + 1.0) > 1e-3) {
    std::ostringstream msg;
    msg << "no multiplier near -1 at the point (closest: " << eig.eigenvalues()[k] << "): not a period doubling";
    throw std::invalid_argument(msg.str());
  }
  Vector v = eig.eigenvectors().col(k).real();
  DoubledStart start;
  start.y = pd.y;
  start.tangent = Vector::Zero(pd.y.size());
  const ShootingOptions& options = system->options();
  if (options.autonomous) {
    // The branch has moved the phase plane on since the PD; put it back
    // through the PD point, where the doubled branch starts.
    system->accept(u);
    Vector f;
    system->hybrid()->field(options.mode, options.t0, system->hybrid_state(u), &f);
    const Vector fx = f.head(n), normal = system->phase_normal();
    v -= (normal.dot(v) / normal.dot(fx)) * fx;
    start.system = system;
    start.y[n] *= 2.0;  // the period is the state's last component
  } else {
    ShootingOptions doubled = options;
    doubled.period *= 2.0;
    start.system = std::make_shared<ShootingSystem>(system->hybrid(), system->parameter_size(), doubled);
  }
  start.tangent.head(n) = v.normalized();
  return start;
}

}  // namespace saltus::periodic
