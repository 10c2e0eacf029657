#pragma once
// A HybridSystem that forwards its flow, guards, resets and parameters to
// another: the base of decorators that change one or two of them
// (periodic::ContactSuppressed holds a contact's guard off near a time;
// sliding's BoundaryChoice decides an arrival on the boundary of a sliding
// region). The system-building members (with_parameters,
// with_parameters_in_state, tangent_lifted) are not forwarded: the inner
// system would build a system without the decorator, so a decorated system
// keeps HybridSystem's defaults for them.

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "continuation/flow/hybrid_system.h"

namespace saltus::flow {

class ForwardingHybridSystem : public HybridSystem {
 public:
  explicit ForwardingHybridSystem(std::shared_ptr<const HybridSystem> system) : system_(std::move(system)) {
    if (!system_) throw std::invalid_argument("ForwardingHybridSystem: no system to forward to");
  }

  int dimension() const override { return system_->dimension(); }
  std::vector<std::string> state_names() const override { return system_->state_names(); }
  std::string mode_name(int mode) const override { return system_->mode_name(mode); }
  void field(int mode, double t, const Vector& x, Vector* f) const override { system_->field(mode, t, x, f); }
  void field_jacobian(int mode, double t, const Vector& x, Matrix* A) const override {
    system_->field_jacobian(mode, t, x, A);
  }
  void field_and_jacobian(int mode, double t, const Vector& x, Vector* f, Matrix* A) const override {
    system_->field_and_jacobian(mode, t, x, f, A);
  }
  void field_and_tangent(int mode, double t, const Vector& x, const Eigen::Ref<const Matrix>& P, Vector* f,
                         Eigen::Ref<Matrix> dP) const override {
    system_->field_and_tangent(mode, t, x, P, f, dP);
  }
  void field_in_place(int mode, double t, const double* x, double* f) const override {
    system_->field_in_place(mode, t, x, f);
  }
  void field_and_tangent_in_place(int mode, double t, const double* x, int m, const double* P, double* f,
                                  double* dP) const override {
    system_->field_and_tangent_in_place(mode, t, x, m, P, f, dP);
  }
  int guard_count(int mode) const override { return system_->guard_count(mode); }
  std::string guard_name(int mode, int k) const override { return system_->guard_name(mode, k); }
  Crossing crossing(int mode, int k) const override { return system_->crossing(mode, k); }
  double guard(int mode, int k, double t, const Vector& x) const override {
    return system_->guard(mode, k, t, x);
  }
  void guard_gradient(int mode, int k, double t, const Vector& x, Vector* h_x, double* h_t) const override {
    system_->guard_gradient(mode, k, t, x, h_x, h_t);
  }
  double guard_rate(int mode, int k, double t, const Vector& x, const Vector& f) const override {
    return system_->guard_rate(mode, k, t, x, f);
  }
  int next_mode(int mode, int k, double t, const Vector& x) const override {
    return system_->next_mode(mode, k, t, x);
  }
  void reset(int mode, int k, int next, double t, const Vector& x, Vector* x_plus, Matrix* G_x,
             Vector* G_t) const override {
    system_->reset(mode, k, next, t, x, x_plus, G_x, G_t);
  }
  void reset_state(int mode, int k, int next, double t, const Vector& x, Vector* x_plus) const override {
    system_->reset_state(mode, k, next, t, x, x_plus);
  }
  void constrained_directions(int mode, double t, const Vector& x, Matrix* C) const override {
    system_->constrained_directions(mode, t, x, C);
  }
  std::vector<ParameterInfo> parameters() const override { return system_->parameters(); }

 protected:
  const HybridSystem& inner() const { return *system_; }

 private:
  std::shared_ptr<const HybridSystem> system_;
};

}  // namespace saltus::flow
