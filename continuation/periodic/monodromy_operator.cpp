#include "continuation/periodic/monodromy_operator.h"

#include <Spectra/GenEigsSolver.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace saltus::periodic {

flow::SimulationOptions shooting_simulation(const ShootingSystem& shooting) {
  flow::SimulationOptions simulation = shooting.options().simulation;
  simulation.variational = false;
  simulation.guard_search = false;  // as ShootingSystem::trajectory (shooting.cpp says why)
  simulation.record_steps = false;
  simulation.output_interval = 0.0;
  simulation.constant_components = 0;
  if (shooting.options().stepping_tolerance > 0.0)
    simulation.absolute_tolerance = simulation.relative_tolerance = shooting.options().stepping_tolerance;
  return simulation;
}

MonodromyOperator::MonodromyOperator(const ShootingSystem& shooting, const Vector& u)
    : shooting_(shooting),
      lifted_(shooting.hybrid()->tangent_lifted()),
      simulation_(shooting_simulation(shooting)),
      z0_(shooting.hybrid_state(u)),
      n_(shooting.options().autonomous ? shooting.state_size() - 1 : shooting.state_size()),
      q_(shooting.parameter_size()) {
  const double T = shooting.period(u);
  if (!(T > 0))
    throw std::runtime_error("shooting: the period T = " + std::to_string(T) + " is not positive");
  t0_ = shooting.start_time(u);
  t1_ = t0_ + T;
}

Vector MonodromyOperator::apply(const Vector& v) const {
  if (v.size() != n_)
    throw std::invalid_argument("monodromy operator: a direction of size " + std::to_string(v.size()) +
                                ", the operator's is " + std::to_string(n_));
  Vector w = Vector::Zero(n_ + q_);
  w.head(n_) = v;
  return apply_state_and_parameters(w);
}

Vector MonodromyOperator::apply_state_and_parameters(const Vector& w) const {
  const int dim = n_ + q_;
  if (w.size() != dim)
    throw std::invalid_argument("monodromy operator: a direction (x, p) of size " + std::to_string(w.size()) +
                                ", the operator's is " + std::to_string(dim));
  const double norm = w.norm();
  if (!(norm > 0)) return Vector::Zero(n_);  // GMRES's first residual asks M 0
  Vector start(2 * dim);
  start.head(dim) = z0_;
  start.tail(dim) = w / norm;
  const int mode = shooting_.options().mode;
  const flow::Trajectory tr = flow::simulate(*lifted_, mode, t0_, start, t1_, simulation_);
  ++products_;
  if (!tr.ok()) throw std::runtime_error("a direction through one period failed: " + tr.message);
  if (tr.mode_end != mode)
    throw std::runtime_error("shooting: the period ends in " + shooting_.hybrid()->mode_name(tr.mode_end) +
                             ", not in " + shooting_.hybrid()->mode_name(mode) +
                             "; cut the orbit at another t0");
  if (f_end_.size() == 0) {  // the same for every v: kept from the first
    shooting_.hybrid()->field(tr.mode_end, tr.t_end, tr.x_end.head(dim), &f_end_);
    f_end_.conservativeResize(n_);
  }
  return norm * tr.x_end.segment(dim, n_);
}

const Vector& MonodromyOperator::end_field() const {
  if (f_end_.size() == 0) {  // no product yet: the state alone
    const flow::Trajectory tr =
        flow::simulate(*shooting_.hybrid(), shooting_.options().mode, t0_, z0_, t1_, simulation_);
    if (!tr.ok()) throw std::runtime_error("shooting over one period failed: " + tr.message);
    shooting_.hybrid()->field(tr.mode_end, tr.t_end, tr.x_end, &f_end_);
    f_end_.conservativeResize(n_);
  }
  return f_end_;
}

std::string ArnoldiOptions::check() const {
  std::ostringstream why;
  if (count < 1)
    why << "count = " << count << " must be >= 1";
  else if (subspace != 0 && subspace < count + 2)
    why << "subspace = " << subspace << " must be 0 (automatic) or >= count + 2 = " << count + 2;
  else if (max_restarts < 1)
    why << "max_restarts = " << max_restarts << " must be >= 1";
  else if (!(tolerance > 0) || !(tolerance < 1))
    why << "tolerance = " << tolerance << " must be in (0, 1)";
  else if (!(resolve_above >= 0) || !(resolve_above < 1))
    why << "resolve_above = " << resolve_above << " must be in [0, 1) (0: resolve every wanted multiplier)";
  return why.str();
}

namespace {

// Spectra's matrix-free operator interface (rows, cols, perform_op).
struct SpectraOperator {
  using Scalar = double;
  const MonodromyOperator* monodromy;
  Eigen::Index rows() const { return monodromy->size(); }
  Eigen::Index cols() const { return monodromy->size(); }
  void perform_op(const double* x_in, double* y_out) const {
    Eigen::Map<Vector>(y_out, rows()) = monodromy->apply(Eigen::Map<const Vector>(x_in, rows()));
  }
};

Eigen::VectorXcd largest_first(Eigen::VectorXcd mu) {
  std::sort(
      mu.data(), mu.data() + mu.size(),
      [](const std::complex<double>& a, const std::complex<double>& b) { return std::abs(a) > std::abs(b); });
  return mu;
}

// Spectra's Arnoldi solver with the wanted Ritz values and their residuals
// readable after a run that has not converged: with H y = theta y (|y| = 1)
// in the factorization M V = V H + f e_m^T, the Ritz vector x = V y has the
// residual |M x - theta x| = |f| |e_m^T y| (Spectra's Ritz estimate, the
// quantity of its own convergence test; Saad 2011, Sec. 6.2). After a run
// the first count Ritz values are sorted as wanted (largest modulus first);
// the estimates are not permuted with them, which can only swap equal
// moduli (a conjugate pair), whose estimates are equal.
class ReadableArnoldi : public Spectra::GenEigsSolver<SpectraOperator> {
 public:
  using Spectra::GenEigsSolver<SpectraOperator>::GenEigsSolver;
  std::complex<double> theta(Eigen::Index i) const { return m_ritz_val[i]; }
  double residual(Eigen::Index i) const { return std::abs(m_ritz_est[i]) * m_fac.f_norm(); }
  // The first basis vector: after the implicit restarts, the start vector
  // filtered by them.
  Eigen::VectorXd start() const { return m_fac.matrix_V().col(0); }
};

// One Arnoldi run of `ncv` vectors, its restarts in two stages (4, then the
// rest of `restarts`). After each stage the run ends when every wanted
// multiplier is resolved (Spectra's test: residual below tolerance |theta|),
// or when the unresolved ones are bounded inside resolve_above. The second
// stage starts a new factorization from the first's filtered start vector
// (ncv + 1 products more): compute() cannot resume where it stopped, since
// it rebuilds the factorization from its first column with the residual of
// its last (the Arnoldi relation of another operator).
ArnoldiMultipliers arnoldi_run(const MonodromyOperator& monodromy, const ArnoldiOptions& options, int ncv,
                               int restarts) {
  const int before = monodromy.products();
  SpectraOperator op{&monodromy};
  ReadableArnoldi eigs(op, options.count, ncv);
  eigs.init();
  ArnoldiMultipliers out;
  bool first = true;
  for (const int stage : {std::min(4, restarts), restarts - 4}) {
    if (stage <= 0) continue;
    if (!first) {
      const Eigen::VectorXd start = eigs.start();  // init() overwrites the basis
      eigs.init(start.data());
    }
    first = false;
    eigs.compute(Spectra::SortRule::LargestMagn, stage, options.tolerance);
    std::vector<std::complex<double>> resolved, unresolved;
    out.unresolved_bound = 0.0;
    const double floor = std::pow(std::numeric_limits<double>::epsilon(), 2.0 / 3.0);  // as Spectra's test
    for (int i = 0; i < options.count; ++i) {
      const std::complex<double> theta = eigs.theta(i);
      if (eigs.residual(i) < options.tolerance * std::max(floor, std::abs(theta))) {
        resolved.push_back(theta);
      } else {
        unresolved.push_back(theta);
        out.unresolved_bound = std::max(out.unresolved_bound, std::abs(theta) + eigs.residual(i));
      }
    }
    out.multipliers = largest_first(Eigen::Map<Eigen::VectorXcd>(resolved.data(), std::ssize(resolved)));
    out.unresolved = largest_first(Eigen::Map<Eigen::VectorXcd>(unresolved.data(), std::ssize(unresolved)));
    out.converged = unresolved.empty() || out.unresolved_bound < options.resolve_above;
    if (out.converged) break;
  }
  out.products = monodromy.products() - before;
  std::ostringstream msg;
  msg << out.multipliers.size() << " of " << options.count << " multipliers resolved in " << out.products
      << " products (subspace " << ncv << ")";
  if (out.unresolved.size() > 0)
    msg << ", the other " << out.unresolved.size() << " within |mu| <= " << out.unresolved_bound
        << (out.converged ? "" : " (not inside resolve_above)");
  out.message = msg.str();
  return out;
}

}  // namespace

ArnoldiMultipliers arnoldi_multipliers(const MonodromyOperator& monodromy, const ArnoldiOptions& options) {
  if (const std::string why = options.check(); !why.empty())
    throw std::invalid_argument("Arnoldi options: " + why);
  const int n = monodromy.size();
  const int before = monodromy.products();
  ArnoldiMultipliers out;
  if (n <= options.count + 2) {
    // Spectra needs count <= n - 2: M column by column, all n multipliers.
    Matrix M(n, n);
    for (int j = 0; j < n; ++j) M.col(j) = monodromy.apply(Vector::Unit(n, j));
    out.multipliers =
        largest_first(Eigen::EigenSolver<Matrix>(M).eigenvalues()).head(std::min(n, options.count));
    out.products = monodromy.products() - before;
    out.converged = true;
    out.message = "formed M (n = " + std::to_string(n) + " too small for Arnoldi)";
    return out;
  }
  if (options.subspace > 0)
    return arnoldi_run(monodromy, options, std::min(options.subspace, n), options.max_restarts);
  // Automatic: a small subspace, then (its unresolved multipliers not inside
  // resolve_above) one that holds a cluster.
  out = arnoldi_run(monodromy, options, std::min(n, std::max(2 * options.count + 1, 20)), 20);
  if (out.converged) return out;
  const int small = out.products;
  out = arnoldi_run(monodromy, options, std::min(n, std::max({2 * options.count + 1, 40, (3 * n) / 10})),
                    options.max_restarts);
  out.products += small;
  out.message += " (after " + std::to_string(small) + " products with the small subspace)";
  return out;
}

}  // namespace saltus::periodic
