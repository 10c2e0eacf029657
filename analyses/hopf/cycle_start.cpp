#include "analyses/hopf/cycle_start.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "testfunctions/hopf.h"

namespace saltus {

CycleGuess cycle_near_hopf(const System& equations, const Vector& u_hopf, int parameter, double amplitude,
                           double l1_zero, double omega) {
  if (!(amplitude > 0) || !std::isfinite(amplitude))
    throw std::invalid_argument("the cycle's amplitude must be positive and finite, got " +
                                std::to_string(amplitude));
  const HopfPoint h = hopf_point(equations, u_hopf, omega);
  CycleGuess g;
  g.l1 = h.l1;
  g.omega = h.omega;
  g.transversality = hopf_transversality(equations, u_hopf, h, parameter);
  if (!std::isfinite(h.l1)) throw std::invalid_argument("l1 at the Hopf point is not finite");
  if (std::abs(h.l1) <= l1_zero) {
    std::ostringstream why;
    why << "the Hopf point is degenerate (l1 = " << h.l1
        << "): the cubic terms do not say on which side its cycles are; start the cycles from a simulation "
           "instead";
    throw std::invalid_argument(why.str());
  }
  if (g.transversality == 0.0)
    throw std::invalid_argument(
        "the eigenvalues do not cross the imaginary axis at this Hopf point (mu' = 0)");
  Eigen::Index k = 0;
  h.q.cwiseAbs().maxCoeff(&k);
  const Eigen::VectorXcd q = h.q * std::polar(1.0, -std::arg(h.q[k]));  // q_k real and positive
  const double epsilon = amplitude / (2 * std::abs(q[k]));
  const int n = equations.state_size();
  g.offset = -h.l1 * h.omega * epsilon * epsilon / g.transversality;
  g.x = u_hopf.head(n) + 2 * epsilon * q.real();
  g.period = 2 * M_PI / h.omega;
  g.u = u_hopf;
  g.u.head(n) = g.x;
  g.u[n + parameter] += g.offset;
  return g;
}

HopfCycleStart hopf_cycle_start(const System& equations, std::shared_ptr<const flow::HybridSystem> flow,
                                const Vector& u_hopf, int parameter, double amplitude,
                                periodic::ShootingOptions options, double omega) {
  const int n = equations.state_size(), q = equations.parameter_size();
  if (!flow || flow->dimension() != n + q)
    throw std::invalid_argument("the cycles' flow must have the n + q = " + std::to_string(n + q) +
                                " states (x, p) of the equations");
  HopfCycleStart start;
  start.guess = cycle_near_hopf(equations, u_hopf, parameter, amplitude, 1e-8, omega);
  options.autonomous = true;
  auto shooting = std::make_shared<periodic::ShootingSystem>(std::move(flow), q, options, start.guess.u);
  start.shooting = shooting;
  const Vector p = start.guess.u.tail(q);
  start.problem = std::make_shared<const ContinuationProblem>(
      shooting, p, std::vector<std::string>{shooting->parameter_names()[parameter]});
  start.y0.resize(n + 2);
  start.y0 << start.guess.x, start.guess.period, p[parameter];
  start.direction = start.guess.offset > 0 ? 1 : -1;
  return start;
}

}  // namespace saltus
