#pragma once
// The tangent-lifted hybrid system: second derivatives of a hybrid flow,
// exactly, through its events.
//
// Curves of folds and period doublings of periodic orbits (continuation/
// periodic/cycle_curve.h) need d(M v)/du, the derivative of the monodromy
// matrix applied to a fixed vector: second derivatives of the flow. They
// come from the first derivatives of a bigger hybrid system. With z the
// state of a system (f_m, h_k, g) and w a perturbation of it, the lifted
// system has the state (z, w), the field, guards and resets
//
//   (z, w)' = (f(t, z), f_z(t, z) w),     guards h_k(t, z) (the same events),
//   (z, w)+ = (g(t, z), S(t, z) w),
//
// with S the saltation matrix of the event (flow::saltation_matrix, the
// simulator's own formula: Aizerman & Gantmakher 1958; Awrejcewicz & Kudra
// eq. (6)), a smooth function of (t, z) before the event:
//
//   S w = G_z w + (f+(g) - G_z f- - G_t) (h_z . w) / (h_z . f- + h_t).
//
// Its flow from (z0, w0) is (phi(z0), Phi(z0) w0): the second component is
// the state-transition matrix applied to w0, the simulator's Phi with its
// saltations. The simulator's variational equations of the lifted system
// (ceres::Jet, as for every AutoDiffHybrid) then give the lifted Phi, whose
// lower-left block is d(Phi(z0) w0)/dz0: the second derivative of the flow
// contracted with w0, with the event times' dependence on z0 included (the
// lifted system's own saltations). Nothing is differenced.
//
// f_z w, G_z w, G_z f- + G_t, h_z . w and h_z . f- + h_t are directional
// derivatives: the model is evaluated on first-order Taylor series
// (continuation/taylor.h: Taylor<T, 1>, a dual number over T) at z + s w or
// (t + s, z + s f-), so that one functor, templated on its scalar, gives the
// lifted system for every model, and AutoDiffHybrid<TangentLifted<F>>
// differentiates it once more with Jets (Taylor<Jet, 1> inside).
//
// Included at the end of hybrid_system.h; AutoDiffHybrid::tangent_lifted()
// builds it.

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "continuation/flow/hybrid_system.h"
#include "continuation/taylor.h"

namespace saltus::flow {

template <class F>
class TangentLifted {
 public:
  explicit TangentLifted(F base) : base_(std::move(base)) {}
  // Lifted once more, the state (z, w, z', w') flows to (phi, Phi w,
  // Phi z', D^2 phi(w, z') + Phi w'): second derivatives without Jets, and
  // the third ones from its variational equations (the normal forms of
  // continuation/periodic/period_map_forms.h). Not a third time: each lift
  // doubles the state and nests one more Taylor level in every pass.
  static constexpr bool tangent_liftable = !IsTangentLifted<F>::value;
  const F& base() const { return base_; }

  int dimension() const { return 2 * base_.dimension(); }
  std::vector<std::string> state_names() const {
    std::vector<std::string> names;
    const int n = base_.dimension();
    if constexpr (requires { base_.state_names(); })
      names = base_.state_names();
    else
      for (int i = 0; i < n; ++i) names.push_back("x" + std::to_string(i));
    for (int i = 0; i < n; ++i) names.push_back("d" + names[i]);
    return names;
  }
  std::string mode_name(int mode) const {
    if constexpr (requires { base_.mode_name(mode); }) return base_.mode_name(mode);
    return "mode " + std::to_string(mode);
  }
  std::string guard_name(int mode, int k) const {
    if constexpr (requires { base_.guard_name(mode, k); }) return base_.guard_name(mode, k);
    return "guard " + std::to_string(k);
  }
  Crossing crossing(int mode, int k) const {
    if constexpr (requires { base_.crossing(mode, k); }) return base_.crossing(mode, k);
    return Crossing::kFalling;
  }
  int guard_count(int mode) const { return base_.guard_count(mode); }

  // (f(t, z), f_z(t, z) w): the field on z + s w, a Taylor series in s.
  template <class T>
  void field(int mode, const T& t, const T* x, T* f) const {
    using S = series::Taylor<T, 1>;
    const int n = base_.dimension();
    detail::JetScratch<S> z(n), r(n);
    for (int i = 0; i < n; ++i) z[i] = along(x[i], x[n + i]);
    base_.template field<S>(mode, S(t), z.data(), r.data());
    for (int i = 0; i < n; ++i) {
      f[i] = r[i][0];
      f[n + i] = r[i][1];
    }
  }

  template <class T>
  T guard(int mode, int k, const T& t, const T* x) const {
    return base_.template guard<T>(mode, k, t, x);
  }
  int next_mode(int mode, int k, double t, const double* x) const { return base_.next_mode(mode, k, t, x); }

  // (g(t, z), S(t, z) w), S from two directional passes: along (0, w) for
  // G_z w and h_z . w, along (1, f-) for G_z f- + G_t and h_z . f- + h_t.
  template <class T>
  void reset(int mode, int k, int next, const T& t, const T* x, T* x_plus) const {
    using S = series::Taylor<T, 1>;
    const int n = base_.dimension();
    detail::JetScratch<T> f_minus(n), z_plus(n), f_plus(n);
    base_.template field<T>(mode, t, x, f_minus.data());
    detail::JetScratch<S> zw(n), zf(n), gw(n), gf(n);
    for (int i = 0; i < n; ++i) {
      zw[i] = along(x[i], x[n + i]);
      zf[i] = along(x[i], f_minus[i]);
    }
    const S tw(t), tf = along(t, T(1.0));
    base_.template reset<S>(mode, k, next, tw, zw.data(), gw.data());
    base_.template reset<S>(mode, k, next, tf, zf.data(), gf.data());
    const S hw = base_.template guard<S>(mode, k, tw, zw.data());
    const S hf = base_.template guard<S>(mode, k, tf, zf.data());
    for (int i = 0; i < n; ++i) z_plus[i] = gw[i][0];
    base_.template field<T>(next, t, z_plus.data(), f_plus.data());
    const T ratio = hw[1] / hf[1];
    for (int i = 0; i < n; ++i) {
      x_plus[i] = z_plus[i];
      x_plus[n + i] = gw[i][1] + (f_plus[i] - gf[i][1]) * ratio;
    }
  }

 private:
  // The series value + s direction.
  template <class T>
  static series::Taylor<T, 1> along(const T& value, const T& direction) {
    series::Taylor<T, 1> s(value);
    s[1] = direction;
    return s;
  }

  F base_;
};

template <class F>
struct IsTangentLifted : std::false_type {};
template <class F>
struct IsTangentLifted<TangentLifted<F>> : std::true_type {};

}  // namespace saltus::flow
