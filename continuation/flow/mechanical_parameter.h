#pragma once
// A mechanical system (flow/mechanical.h) with one of its model's parameters
// carried in the state as a constant, x = (q, q', p) with p' = 0, unchanged
// by every reset, so that the state-transition matrix carries d/dp exactly
// (shooting and continuation in p: periodic/shooting.h). The model is a class
// template on the scalar of its parameters, Model<P>, with
//
//   static std::array<std::pair<const char*, P Model::*>, K> fields();  // by name
//   template <class Q> Model<Q> cast() const;
//
// (models::TriplePendulumT); at each evaluation the model is rebuilt with the
// state's scalar type and p put in, so ceres::Jet differentiates through it.
//
// Optionally some coordinates are angles that are wrapped into [-pi, pi]:
// the guards q_i = pi (rising) and q_i = -pi (falling) reset q_i by -+2 pi. A
// rotating orbit (the pendulum's first link going round) then closes in the
// state space, as shooting needs. The field is 2 pi periodic in an angle, so
// these events have the saltation matrix I and change nothing else.

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "continuation/flow/mechanical.h"

namespace saltus::flow {

template <template <class> class Model>
class MechanicalWithParameter {
 public:
  // Throws std::invalid_argument for an unknown parameter or angle index.
  MechanicalWithParameter(Model<double> model, const std::string& parameter, double stick_velocity = 1e-6,
                          std::vector<int> angles = {})
      : base_{std::move(model), stick_velocity}, angles_(std::move(angles)) {
    const auto fields = Model<double>::fields();
    for (std::size_t i = 0; i < fields.size(); ++i)
      if (parameter == fields[i].first) index_ = static_cast<int>(i);
    if (index_ < 0) throw std::invalid_argument("'" + parameter + "' is not a parameter of the model");
    for (int a : angles_)
      if (a < 0 || a >= base_.dof())
        throw std::invalid_argument("angle index " + std::to_string(a) + " is not a coordinate");
  }

  const Mechanical<Model<double>>& base() const { return base_; }
  std::string parameter() const { return Model<double>::fields()[index_].first; }
  double parameter_value() const { return base_.model.*(Model<double>::fields()[index_].second); }

  int dimension() const { return base_.dimension() + 1; }
  int guard_count(int mode) const { return base_.guard_count(mode) + 2 * static_cast<int>(angles_.size()); }
  std::vector<std::string> state_names() const {
    auto names = base_.state_names();
    names.push_back(parameter());
    return names;
  }
  std::string mode_name(int mode) const { return base_.mode_name(mode); }
  std::string guard_name(int mode, int k) const {
    if (k < constraints()) return base_.guard_name(mode, k);
    const int j = k - constraints();
    return "wrap " + base_.state_names()[angles_[j / 2]] + (j % 2 ? " below -pi" : " above pi");
  }
  // Wrap guards: h = pi - q_i falls through zero going up, h = q_i + pi going down.
  Crossing crossing(int, int) const { return Crossing::kFalling; }

  template <class T>
  void field(int mode, const T& t, const T* x, T* f) const {
    at<T>(x).template field<T>(mode, t, x, f);
    f[base_.dimension()] = T(0.0);
  }

  template <class T>
  T guard(int mode, int k, const T& t, const T* x) const {
    if (k < constraints()) return at<T>(x).template guard<T>(mode, k, t, x);
    const int j = k - constraints();
    const T& q = x[angles_[j / 2]];
    return j % 2 ? q + T(M_PI) : T(M_PI) - q;
  }

  int next_mode(int mode, int k, double t, const double* x) const {
    if (k < constraints()) return at<double>(x).next_mode(mode, k, t, x);
    return mode;
  }

  // As Mechanical::reset, with the decision (no approach: no impulse) taken
  // on values and the impulse computed with the model of scalar T.
  template <class T>
  void reset(int mode, int k, int next, const T& t, const T* x, T* x_plus) const {
    const int n = base_.dof();
    for (int i = 0; i <= 2 * n; ++i) x_plus[i] = x[i];
    if (k >= constraints()) {
      const int j = k - constraints();
      x_plus[angles_[j / 2]] += T(j % 2 ? 2 * M_PI : -2 * M_PI);
      return;
    }
    if (Mechanical<Model<double>>::active(mode, k)) return;  // release: no jump
    const bool stick = Mechanical<Model<double>>::active(next, k);
    if (!stick) {
      std::vector<double> xd(2 * n + 1);
      for (int i = 0; i <= 2 * n; ++i) xd[i] = taylor_detail::value_of(x[i]);
      if (at<double>(xd.data()).normal_velocity(k, taylor_detail::value_of(t), xd.data()) >= 0.0) return;
    }
    at<T>(x).template impact<T>(mode, k, stick, t, x, x_plus + n);
  }

 private:
  int constraints() const { return base_.model.constraint_count(); }

  // The mechanical system of scalar T with p = x[2n].
  template <class T>
  Mechanical<Model<T>> at(const T* x) const {
    Mechanical<Model<T>> m{base_.model.template cast<T>(), base_.stick_velocity};
    m.model.*(Model<T>::fields()[index_].second) = x[base_.dimension()];
    return m;
  }

  Mechanical<Model<double>> base_;
  std::vector<int> angles_;
  int index_ = -1;
};

}  // namespace saltus::flow
