#include "continuation/periodic/period_doubling.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "continuation/pseudo_arclength.h"

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
    msg << "no multiplier near -1 at the point (closest: " << eig.eigenvalues()[k]
        << "): not a period doubling";
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
    if (options.period_of)
      doubled.period_of = [single = options.period_of](const Vector& p, Vector* dT_dp) {
        const double T = 2.0 * single(p, dT_dp);
        if (dT_dp) *dT_dp *= 2.0;
        return T;
      };
    // The cut stays where it was: t0 = phase T(p) = (phase / 2) (2 T(p)).
    doubled.phase = options.phase / 2.0;
    start.system = std::make_shared<ShootingSystem>(system->hybrid(), system->parameter_size(), doubled);
  }
  // Either sign is the same doubled orbit half a period on; a fixed one
  // makes runs repeatable.
  start.tangent.head(n) = v[0] < 0 ? Vector(-v.normalized()) : v.normalized();
  return start;
}

std::vector<CascadeLevel> period_doubling_cascade(std::shared_ptr<ShootingSystem> system,
                                                  const ContinuationProblem& problem, Vector y,
                                                  ContinuationOptions options, const TestFunctions& tests,
                                                  int levels, double ds_after_switch) {
  if (std::none_of(tests.begin(), tests.end(), [](const auto& t) { return t && t->type() == "PD"; }))
    throw std::invalid_argument("period_doubling_cascade: no test function of type PD among the tests");
  const std::vector<std::string> names = problem.names();
  const std::vector<std::string> free(names.end() - static_cast<long>(problem.free_parameters().size()),
                                      names.end());
  auto level_problem = std::make_shared<const ContinuationProblem>(problem);
  Vector tangent;
  std::vector<CascadeLevel> out;
  for (int level = 0; level < levels; ++level) {
    if (level) options.ds = ds_after_switch;
    CascadeLevel l;
    l.system = system;
    l.branch = continue_branch(*level_problem, y, options, tests, level ? &tangent : nullptr);
    for (const auto& s : l.branch.special_points)
      if (s.type == "PD" && s.status != EventStatus::kJump) {
        l.pd = s;
        break;
      }
    out.push_back(std::move(l));
    if (!out.back().pd) break;
    const DoubledStart next = period_doubled(system, *level_problem, *out.back().pd);
    y = next.y;
    tangent = next.tangent;
    if (next.system != system) {
      system = next.system;
      level_problem =
          std::make_shared<const ContinuationProblem>(system, problem.parameters(), free, problem.extras());
    }
  }
  return out;
}

}  // namespace saltus::periodic
