#include "continuation/periodic/multiple_shooting.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace saltus::periodic {

namespace {

std::vector<double> equal_fractions(int m) {
  std::vector<double> tau(m + 1);
  for (int i = 0; i <= m; ++i) tau[i] = static_cast<double>(i) / m;
  return tau;
}

}  // namespace

std::string MultipleShootingOptions::check() const {
  std::ostringstream why;
  if (segments < 1) {
    why << "segments = " << segments << " must be >= 1";
    return why.str();
  }
  if (!fractions.empty()) {
    if (static_cast<int>(fractions.size()) != segments + 1)
      why << "fractions has " << fractions.size() << " values; give segments + 1 = " << segments + 1;
    else if (fractions.front() != 0.0 || fractions.back() != 1.0)
      why << "fractions must start at 0 and end at 1";
    else
      for (int i = 0; i < segments; ++i)
        if (!(fractions[i + 1] > fractions[i])) {
          why << "fractions[" << i + 1 << "] = " << fractions[i + 1] << " must exceed fractions[" << i
              << "] = " << fractions[i];
          break;
        }
  }
  if (why.str().empty() && !modes.empty() && static_cast<int>(modes.size()) != segments)
    why << "modes has " << modes.size() << " values; give one per segment (" << segments << ")";
  if (why.str().empty()) why << shooting.check();
  return why.str();
}

MultipleShootingSystem::MultipleShootingSystem(std::shared_ptr<const flow::HybridSystem> system,
                                               int parameters, MultipleShootingOptions options,
                                               const Vector& reference)
    : system_(std::move(system)), q_(parameters), options_(std::move(options)) {
  if (!system_) throw std::invalid_argument("multiple shooting: no hybrid system");
  n_ = system_->dimension() - q_;
  if (q_ < 0 || n_ < 1)
    throw std::invalid_argument("multiple shooting: " + std::to_string(q_) +
                                " parameters in a system of dimension " +
                                std::to_string(system_->dimension()));
  if (const std::string why = options_.check(); !why.empty())
    throw std::invalid_argument("multiple shooting options: " + why);
  m_ = options_.segments;
  if (options_.fractions.empty()) options_.fractions = equal_fractions(m_);
  if (options_.modes.empty()) options_.modes.assign(m_, options_.shooting.mode);
  options_.shooting.simulation.variational = true;
  options_.shooting.simulation.output_interval = 0.0;
  if (options_.shooting.autonomous) {
    if (reference.size() != n_ + q_ || !reference.allFinite())
      throw std::invalid_argument(
          "autonomous multiple shooting needs a finite reference point (x, p) of size " +
          std::to_string(n_ + q_));
    Vector f;
    system_->field(options_.modes[0], options_.shooting.t0, reference, &f);
    x_ref_ = reference.head(n_);
    f_ref_ = f.head(n_);
    if (!(f_ref_.norm() > 0))
      throw std::invalid_argument(
          "autonomous multiple shooting: the field vanishes at the reference point (an equilibrium)");
  }
}

std::vector<std::string> MultipleShootingSystem::state_names() const {
  const auto names = system_->state_names();
  std::vector<std::string> out;
  for (int i = 0; i < m_; ++i)
    for (int k = 0; k < n_; ++k) out.push_back(names[k] + "@" + std::to_string(i));
  if (options_.shooting.autonomous) out.push_back("T");
  return out;
}

std::vector<std::string> MultipleShootingSystem::parameter_names() const {
  const auto names = system_->state_names();
  return std::vector<std::string>(names.begin() + n_, names.end());
}

std::shared_ptr<const MultipleShootingSystem::Segments> MultipleShootingSystem::simulate(
    const Vector& u) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (cached_ && cached_u_.size() == u.size() && cached_u_ == u) return cached_;
  const double T = period(u);
  if (!(T > 0))
    throw std::runtime_error("multiple shooting: the period T = " + std::to_string(T) + " is not positive");
  auto segments = std::make_shared<Segments>();
  const double t0 = options_.shooting.t0;
  Vector z(n_ + q_);
  z.tail(q_) = u.tail(q_);
  for (int i = 0; i < m_; ++i) {
    z.head(n_) = u.segment(i * n_, n_);
    const double ta = t0 + options_.fractions[i] * T, tb = t0 + options_.fractions[i + 1] * T;
    flow::Trajectory tr =
        flow::simulate(*system_, options_.modes[i], ta, z, tb, options_.shooting.simulation);
    if (!tr.ok())
      throw std::runtime_error("multiple shooting, segment " + std::to_string(i) + ": " + tr.message);
    const int next = options_.modes[(i + 1) % m_];
    if (tr.mode_end != next)
      throw std::runtime_error("multiple shooting, segment " + std::to_string(i) + " ends in " +
                               system_->mode_name(tr.mode_end) + ", not in " + system_->mode_name(next) +
                               " where the next starts; place the boundaries elsewhere");
    segments->runs.push_back(std::move(tr));
  }
  cached_ = segments;
  cached_u_ = u;
  return cached_;
}

void MultipleShootingSystem::residual(const double* u, double* f) const {
  const Vector uu = Eigen::Map<const Vector>(u, size());
  const auto s = simulate(uu);
  for (int i = 0; i < m_; ++i) {
    const int next = (i + 1) % m_;
    for (int k = 0; k < n_; ++k) f[i * n_ + k] = s->runs[i].x_end[k] - uu[next * n_ + k];
  }
  if (options_.shooting.autonomous) {
    std::lock_guard<std::mutex> lock(mutex_);
    f[m_ * n_] = f_ref_.dot(uu.head(n_) - x_ref_);
  }
}

void MultipleShootingSystem::assemble(const Vector& u, std::vector<Eigen::Triplet<double>>* t) const {
  const auto s = simulate(u);
  const int N = m_ * n_;
  const bool autonomous = options_.shooting.autonomous;
  const int p0 = state_size();  // the first parameter column
  const double T = period(u);
  for (int i = 0; i < m_; ++i) {
    const Matrix& Phi = s->runs[i].transition_matrix;  // over (x, p)
    const int row = i * n_, next = ((i + 1) % m_) * n_;
    for (int a = 0; a < n_; ++a) {
      for (int b = 0; b < n_; ++b) t->emplace_back(row + a, i * n_ + b, Phi(a, b));
      t->emplace_back(row + a, next + a, -1.0);  // with m = 1 both land on one entry: summed
      for (int b = 0; b < q_; ++b) t->emplace_back(row + a, p0 + b, Phi(a, n_ + b));
    }
    if (autonomous) {
      // d r_i / dT: the end time moves by tau_{i+1}, the start by tau_i.
      const flow::Trajectory& tr = s->runs[i];
      const double ta = options_.shooting.t0 + options_.fractions[i] * T;
      Vector f_end, f_start, z(n_ + q_);
      system_->field(tr.mode_end, tr.t_end, tr.x_end, &f_end);
      z.head(n_) = u.segment(i * n_, n_);
      z.tail(q_) = u.tail(q_);
      system_->field(options_.modes[i], ta, z, &f_start);
      const Vector dT =
          options_.fractions[i + 1] * f_end.head(n_) - options_.fractions[i] * (Phi * f_start).head(n_);
      for (int a = 0; a < n_; ++a) t->emplace_back(row + a, N, dT[a]);
    }
  }
  if (autonomous) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (int b = 0; b < n_; ++b) t->emplace_back(N, b, f_ref_[b]);
  }
}

void MultipleShootingSystem::sparse_jacobian(const double* u, SparseMatrix* J) const {
  std::vector<Eigen::Triplet<double>> triplets;
  assemble(Eigen::Map<const Vector>(u, size()), &triplets);
  J->resize(state_size(), size());
  J->setFromTriplets(triplets.begin(), triplets.end());
}

void MultipleShootingSystem::jacobian(const double* u, Matrix* J) const {
  SparseMatrix S;
  sparse_jacobian(u, &S);
  *J = Matrix(S);
}

void MultipleShootingSystem::second_derivative(const double*, const double*, Matrix*) const {
  throw std::logic_error("second derivatives of a multiple-shooting map are not available");
}

void MultipleShootingSystem::accept(const Vector& u) const {
  if (!options_.shooting.autonomous) return;
  Vector z(n_ + q_), f;
  z.head(n_) = u.head(n_);
  z.tail(q_) = u.tail(q_);
  system_->field(options_.modes[0], options_.shooting.t0, z, &f);
  std::lock_guard<std::mutex> lock(mutex_);
  x_ref_ = u.head(n_);
  f_ref_ = f.head(n_);
}

Matrix MultipleShootingSystem::segment_transition(const Vector& u, int segment) const {
  if (segment < 0 || segment >= m_)
    throw std::invalid_argument("segment " + std::to_string(segment) + " of " + std::to_string(m_));
  return simulate(u)->runs[segment].transition_matrix;
}

Matrix MultipleShootingSystem::monodromy(const Vector& u) const {
  const auto s = simulate(u);
  Matrix M = Matrix::Identity(n_, n_);
  for (int i = 0; i < m_; ++i) M = s->runs[i].transition_matrix.topLeftCorner(n_, n_) * M;
  return M;
}

Vector MultipleShootingSystem::from_single(const flow::HybridSystem& system, int parameters,
                                           MultipleShootingOptions* options, const Vector& single) {
  if (const std::string why = options->check(); !why.empty())
    throw std::invalid_argument("multiple shooting options: " + why);
  const int q = parameters, n = system.dimension() - q, m = options->segments;
  const bool autonomous = options->shooting.autonomous;
  if (single.size() != n + q + (autonomous ? 1 : 0))
    throw std::invalid_argument("from_single: the orbit has " + std::to_string(single.size()) +
                                " components, expected " + std::to_string(n + q + (autonomous ? 1 : 0)));
  if (options->fractions.empty()) options->fractions = equal_fractions(m);
  const double T = autonomous ? single[n] : options->shooting.period;
  Vector z(n + q);
  z << single.head(n), single.tail(q);
  Vector u(m * n + (autonomous ? 1 : 0) + q);
  options->modes.assign(m, options->shooting.mode);
  flow::SimulationOptions plain = options->shooting.simulation;
  plain.variational = false;
  plain.output_interval = 0.0;
  int mode = options->shooting.mode;
  const double t0 = options->shooting.t0;
  for (int i = 0; i < m; ++i) {
    u.segment(i * n, n) = z.head(n);
    options->modes[i] = mode;
    if (i + 1 == m) break;
    const flow::Trajectory tr = flow::simulate(system, mode, t0 + options->fractions[i] * T, z,
                                               t0 + options->fractions[i + 1] * T, plain);
    if (!tr.ok()) throw std::runtime_error("from_single: segment " + std::to_string(i) + ": " + tr.message);
    z = tr.x_end;
    mode = tr.mode_end;
  }
  if (autonomous) u[m * n] = T;
  u.tail(q) = single.tail(q);
  return u;
}

}  // namespace saltus::periodic
