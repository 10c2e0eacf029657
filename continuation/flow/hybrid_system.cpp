#include "continuation/flow/hybrid_system.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace saltus::flow {

namespace {

std::string known_parameters(const HybridSystem& system) {
  const std::string known = parameter_names_text(system.parameters());
  return known.empty() ? "the system has no parameters" : "known: " + known;
}

// x and f of the in-place entries' defaults, per thread and kept between
// calls (the same size allocates nothing); a field that calls them again
// before it returns (a nested simulation) gets copies of its own.
struct InPlaceScratch {
  Vector x, f;
  bool busy = false;
};

class ScratchLease {
 public:
  ScratchLease() {
    thread_local InPlaceScratch shared;
    if (!shared.busy) {
      scratch_ = &shared;
      shared.busy = true;
    }
  }
  ~ScratchLease() {
    if (scratch_ != &own_) scratch_->busy = false;
  }
  ScratchLease(const ScratchLease&) = delete;
  ScratchLease& operator=(const ScratchLease&) = delete;
  Vector& x() { return scratch_->x; }
  Vector& f() { return scratch_->f; }

 private:
  InPlaceScratch own_;
  InPlaceScratch* scratch_ = &own_;
};

}  // namespace

double HybridSystem::guard_rate(int mode, int k, double t, const Vector& x, const Vector& f) const {
  Vector h_x;
  double h_t = 0.0;
  guard_gradient(mode, k, t, x, &h_x, &h_t);
  return h_x.dot(f) + h_t;
}

void HybridSystem::field_in_place(int mode, double t, const double* x, double* f) const {
  ScratchLease scratch;
  scratch.x() = Eigen::Map<const Vector>(x, dimension());
  field(mode, t, scratch.x(), &scratch.f());
  std::copy(scratch.f().data(), scratch.f().data() + scratch.f().size(), f);
}

void HybridSystem::field_and_tangent_in_place(int mode, double t, const double* x, int m,
                                              const double* Phi_top, double* f, double* dPhi_top) const {
  const int n = dimension();
  ScratchLease scratch;
  scratch.x() = Eigen::Map<const Vector>(x, n);
  field_and_tangent(mode, t, scratch.x(), Eigen::Map<const Matrix>(Phi_top, m, n), &scratch.f(),
                    Eigen::Map<Matrix>(dPhi_top, m, n));
  std::copy(scratch.f().data(), scratch.f().data() + scratch.f().size(), f);
}

std::shared_ptr<const HybridSystem> HybridSystem::with_parameters(
    const std::map<std::string, double>& values) const {
  if (values.empty()) throw std::logic_error("with_parameters: no values given");
  throw std::invalid_argument("'" + values.begin()->first + "' is not a parameter (" +
                              known_parameters(*this) + ")");
}

std::shared_ptr<const HybridSystem> HybridSystem::with_parameters_in_state(
    const std::vector<std::string>& names, const std::vector<int>&) const {
  const std::string name = names.empty() ? std::string() : names.front();
  throw std::invalid_argument(
      "'" + name + "' cannot ride in the state of this system (" + known_parameters(*this) +
      "; its model lists no parameters by a visitor: continuation/flow/parameters.h)");
}

std::shared_ptr<const HybridSystem> HybridSystem::tangent_lifted() const {
  throw std::logic_error(
      "this hybrid system gives no tangent-lifted system (second derivatives of its flow): only a model "
      "written as a functor templated on its scalar (AutoDiffHybrid) does, and it is not lifted twice");
}

double HybridSystem::parameter(const std::string& name) const {
  const auto list = parameters();
  const auto one = [&](const std::string& n) {
    for (const auto& p : list)
      if (p.name == n) return p.value;
    throw std::invalid_argument("'" + n + "' is not a parameter (" + known_parameters(*this) + ")");
  };
  const auto names = tied_names(name);  // "c1=c2=c3": one value for all
  const double value = one(names.front());
  for (const auto& n : names)
    if (one(n) != value)
      throw std::invalid_argument("the tied parameters '" + name + "' differ (" + names.front() + " = " +
                                  std::to_string(value) + ", " + n + " = " + std::to_string(one(n)) + ")");
  return value;
}

void check_start(const HybridSystem& system, int mode, double t, const Vector& x, double tolerance) {
  if (x.size() != system.dimension())
    throw std::invalid_argument("the state has " + std::to_string(x.size()) + " components, the system " +
                                std::to_string(system.dimension()));
  const auto names = system.state_names();
  for (int i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i])) throw std::invalid_argument("the state's " + names[i] + " is not finite");
  for (int k = 0; k < system.guard_count(mode); ++k) {
    const Crossing crossing = system.crossing(mode, k);
    if (crossing == Crossing::kEither) continue;
    const double h = system.guard(mode, k, t, x);
    const double sign = crossing == Crossing::kFalling ? 1.0 : -1.0;
    if (sign * h < -tolerance * (1.0 + x.lpNorm<Eigen::Infinity>())) {
      std::ostringstream msg;
      msg << "the start in mode '" << system.mode_name(mode) << "' at t = " << t << " is past its guard '"
          << system.guard_name(mode, k) << "' (h = " << h << ", the event fires when h "
          << (crossing == Crossing::kFalling ? "falls" : "rises") << " through 0): start where h "
          << (crossing == Crossing::kFalling ? ">=" : "<=") << " 0";
      throw std::invalid_argument(msg.str());
    }
  }
}

}  // namespace saltus::flow
