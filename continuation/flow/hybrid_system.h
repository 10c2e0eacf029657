#pragma once
// A hybrid system is modes, guards and resets. In mode m the state x (size n)
// follows a smooth field x' = f_m(x, t); guard k of mode m is a scalar
// h_k(x, t) whose zero crossing (in a given direction) is an event; at the
// event the transition picks the next mode and the reset x+ = g(x-, t).
// Impacting mechanical systems and Filippov systems are two builders of this
// one structure; the simulator integrates between events, locates them, and
// carries the variational equations across them with saltation matrices.
//
// Users write a functor templated on its scalar (AutoDiffHybrid below): the
// Jacobians f_x, (h_x, h_t), (g_x, g_t) then come from ceres::Jet, exactly.

#include <ceres/jet.h>

#include <array>
#include <map>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "continuation/flow/crossing.h"
#include "continuation/flow/parameters.h"
#include "continuation/system.h"

namespace saltus::flow {

class HybridSystem {
 public:
  virtual ~HybridSystem() = default;
  virtual int dimension() const = 0;
  virtual std::vector<std::string> state_names() const;  // default x0, x1, ...
  virtual std::string mode_name(int mode) const { return "mode " + std::to_string(mode); }

  virtual void field(int mode, double t, const Vector& x, Vector* f) const = 0;
  // A = df/dx (n x n).
  virtual void field_jacobian(int mode, double t, const Vector& x, Matrix* A) const = 0;
  // f and A at once (the variational equations need both at every stage).
  // The default calls the two; AutoDiffHybrid reads f off its first Jet pass.
  virtual void field_and_jacobian(int mode, double t, const Vector& x, Vector* f, Matrix* A) const {
    field(mode, t, x, f);
    field_jacobian(mode, t, x, A);
  }
  // The right-hand side of the variational equations Phi' = A Phi, with
  // Phi = (P; 0 I): the top m rows P = Phi_top (m x n) are integrated, the
  // last n - m rows stay (0 I) (constant components, parameters carried in
  // the state). Writes f and the top m rows of A Phi,
  //
  //   dPhi_top = A_11 P + (0 A_12),   A = (A_11 A_12) in its top m rows.
  //
  // The default forms A by field_and_jacobian() and multiplies;
  // AutoDiffHybrid seeds its Jets with the columns of Phi instead and reads
  // A Phi off as directional derivatives (no A, no product).
  virtual void field_and_tangent(int mode, double t, const Vector& x, const Eigen::Ref<const Matrix>& Phi_top,
                                 Vector* f, Eigen::Ref<Matrix> dPhi_top) const;
  // field() and field_and_tangent() on the integrator's state in place: x
  // and f of dimension() doubles, Phi_top and dPhi_top m x n column-major
  // with leading dimension m. The simulator calls these at every stage,
  // where copying into Vectors and back would cost more than a field as
  // small as Lorenz's. The defaults copy and call the two above;
  // AutoDiffHybrid evaluates in place.
  virtual void field_in_place(int mode, double t, const double* x, double* f) const;
  virtual void field_and_tangent_in_place(int mode, double t, const double* x, int m, const double* Phi_top,
                                          double* f, double* dPhi_top) const;

  virtual int guard_count(int mode) const = 0;
  virtual std::string guard_name(int mode, int k) const { return "guard " + std::to_string(k); }
  virtual Crossing crossing(int mode, int k) const { return Crossing::kFalling; }
  virtual double guard(int mode, int k, double t, const Vector& x) const = 0;
  virtual void guard_gradient(int mode, int k, double t, const Vector& x, Vector* h_x, double* h_t) const = 0;
  // The guard's rate along the flow, d/dt h(x(t), t) = h_x . f + h_t, with f
  // the field at (t, x). The default forms the gradient; AutoDiffHybrid
  // takes one directional derivative (one Jet pass of the guard, whatever n).
  virtual double guard_rate(int mode, int k, double t, const Vector& x, const Vector& f) const;

  // The mode after an event of guard k in `mode` at (x, t). Decided on values,
  // so it may test thresholds (say, an impact too slow to bounce).
  virtual int next_mode(int mode, int k, double t, const Vector& x) const = 0;
  // x+ = g(x-, t) and its Jacobians G_x (n x n) and G_t (n).
  virtual void reset(int mode, int k, int next, double t, const Vector& x, Vector* x_plus, Matrix* G_x,
                     Vector* G_t) const = 0;
  // x+ alone, for a simulation without variational equations. The default
  // calls reset() and drops the Jacobians; AutoDiffHybrid evaluates the
  // functor on double, with no Jet passes.
  virtual void reset_state(int mode, int k, int next, double t, const Vector& x, Vector* x_plus) const {
    Matrix G_x;
    Vector G_t;
    reset(mode, k, next, t, x, x_plus, &G_x, &G_t);
  }
  // Motion on a constraint (a link sliding on a barrier) admits only the
  // perturbations that keep it there: C dx = 0 for the rows C (r x n) this
  // writes; none (0 x n, the default) in a free mode. Lyapunov exponents set
  // the other perturbations to zero (Awrejcewicz & Kudra's rule).
  virtual void constrained_directions(int mode, double t, const Vector& x, Matrix* C) const {
    C->resize(0, dimension());
  }

  // The parameters (continuation/flow/parameters.h): names, values and one
  // line of documentation each; none by default.
  virtual std::vector<ParameterInfo> parameters() const { return {}; }
  // The same system with some parameters changed (sweeps, maps). Throws
  // std::invalid_argument naming an unknown parameter or an invalid value.
  virtual std::shared_ptr<const HybridSystem> with_parameters(
      const std::map<std::string, double>& values) const;
  std::shared_ptr<const HybridSystem> with_parameter(const std::string& name, double value) const {
    return with_parameters({{name, value}});
  }
  // The shooting form: the named parameters ride in the state as its last
  // components (p' = 0, unchanged by resets), so that the state-transition
  // matrix carries d/dp exactly (a name "c1=c2=c3" is one component that
  // sets the three together), and the coordinates `angles` are wrapped
  // into [-pi, pi] (ParametersInState). Throws std::invalid_argument naming a
  // parameter the system cannot carry.
  virtual std::shared_ptr<const HybridSystem> with_parameters_in_state(
      const std::vector<std::string>& names, const std::vector<int>& angles = {}) const;
  // A parameter's value by name, or of tied ones "c1=c2=c3" (flow::tied_names);
  // throws std::invalid_argument when unknown or when tied ones differ.
  double parameter(const std::string& name) const;
  // The tangent-lifted system (continuation/flow/tangent_lifted.h): state
  // (z, w), field (f, f_z w), resets (g, S w); its state-transition matrix
  // carries the second derivatives of this one's flow, exactly. Throws
  // std::logic_error for a system that cannot give it (not an
  // AutoDiffHybrid, or already lifted twice).
  virtual std::shared_ptr<const HybridSystem> tangent_lifted() const;
};

template <class F>
class TangentLifted;
// Whether a model's functor declares `static constexpr bool tangent_liftable
// = true`: its field, guards and resets compile on Taylor<T, 1> (continuation/
// taylor.h), so that it has a tangent-lifted system. Opt-in, because each
// lifted model is one more instantiation of every pass (flow::Mechanical
// passes on its model's opt-in: the triple pendulum's).
template <class F>
constexpr bool tangent_liftable_v = [] {
  if constexpr (requires { F::tangent_liftable; })
    return static_cast<bool>(F::tangent_liftable);
  else
    return false;
}();
template <class F>
struct IsTangentLifted;

namespace detail {

// Scratch for n Jets: on the stack up to kInline, on the heap beyond, so
// that a Jacobian pass of a small system allocates nothing.
template <class J, int kInline = 16>
class JetScratch {
 public:
  explicit JetScratch(int n) {
    if (n > kInline) heap_.resize(n);
  }
  J* data() { return heap_.empty() ? inline_.data() : heap_.data(); }
  J& operator[](int i) { return data()[i]; }

 private:
  std::array<J, kInline> inline_;
  std::vector<J> heap_;
};

// Room for n Jets that the caller constructs (placement new) before use:
// on the stack up to kInline, on the heap beyond. Unlike JetScratch nothing
// is zeroed, for a pass that sets every Jet anyway. Jets need no destructor.
template <class J, int kInline = 16>
class UninitializedJets {
  static_assert(std::is_trivially_destructible_v<J>);

 public:
  explicit UninitializedJets(int n) {
    if (n > kInline) heap_.resize(n);
  }
  J* data() { return heap_.empty() ? std::launder(reinterpret_cast<J*>(inline_)) : heap_.data(); }
  J& operator[](int i) { return data()[i]; }

 private:
  alignas(J) unsigned char inline_[kInline * sizeof(J)];
  std::vector<J> heap_;
};

// dPhi_top = A_11 P + (0 A_12) for Phi = (P; 0 I), P = Phi_top (m x n):
// the product of the default field_and_tangent().
inline void tangent_product(const Matrix& A, const Eigen::Ref<const Matrix>& P, Eigen::Ref<Matrix> dP) {
  const int n = static_cast<int>(A.cols());
  const int m = static_cast<int>(P.rows());
  // Small systems: plain dot products summed in a register. At these sizes
  // Eigen's product of dynamic-size blocks costs more in expression set-up
  // than in flops, and accumulating in dP stalls on its own stores (dP may
  // alias A and P for the compiler). Past kSmall the blocked product wins.
  constexpr int kSmall = 16;
  if (n <= kSmall) {
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        double sum = j >= m ? A(i, j) : 0.0;
        for (int k = 0; k < m; ++k) sum += A(i, k) * P(k, j);
        dP(i, j) = sum;
      }
  } else {
    dP.noalias() = A.topLeftCorner(m, m) * P;
    dP.rightCols(n - m) += A.topRightCorner(m, n - m);
  }
}

}  // namespace detail

inline void HybridSystem::field_and_tangent(int mode, double t, const Vector& x,
                                            const Eigen::Ref<const Matrix>& Phi_top, Vector* f,
                                            Eigen::Ref<Matrix> dPhi_top) const {
  // One A per thread, kept between calls: the simulator calls this at every
  // stage, and a resize to the same size does not allocate.
  thread_local Matrix A;
  field_and_jacobian(mode, t, x, f, &A);
  detail::tangent_product(A, Phi_top, dPhi_top);
}

namespace detail {

// A functor without guards (a smooth flow) completed with the members of
// one that has them: no guard, so none of the others is ever called.
template <class F>
struct WithoutGuards : F {
  explicit WithoutGuards(F f) : F(std::move(f)) {}
  int guard_count(int) const { return 0; }
  template <class T>
  T guard(int, int, const T&, const T*) const {
    throw std::logic_error("guard of a system without guards");
  }
  int next_mode(int mode, int, double, const double*) const { return mode; }
  template <class T>
  void reset(int, int, int, const T&, const T*, T*) const {
    throw std::logic_error("reset of a system without guards");
  }
};

template <class F>
using WithGuards = std::conditional_t < requires(const F& f) {
  f.guard_count(0);
}
, F, WithoutGuards < F >> ;

}  // namespace detail

// AutoDiffHybrid<F>: a HybridSystem from a functor with
//
//   int dimension() const;
//   template <class T> void field(int mode, const T& t, const T* x, T* f) const;
//
// and, for a system with events (a smooth flow leaves all four out),
//
//   int guard_count(int mode) const;
//   template <class T> T guard(int mode, int k, const T& t, const T* x) const;
//   int next_mode(int mode, int k, double t, const double* x) const;
//   template <class T> void reset(int mode, int k, int next, const T& t, const T* x, T* x_plus) const;
//
// and optionally crossing(mode, k), state_names(), mode_name(mode), guard_name(mode, k).
template <class F>
class AutoDiffHybrid : public HybridSystem {
 public:
  static constexpr int kStride = 4;
  using Jet = ceres::Jet<double, kStride>;

  explicit AutoDiffHybrid(F functor) : f_(detail::WithGuards<F>(std::move(functor))) {}
  const F& functor() const { return f_; }

  int dimension() const override { return f_.dimension(); }
  std::vector<std::string> state_names() const override {
    if constexpr (requires { f_.state_names(); }) return f_.state_names();
    return HybridSystem::state_names();
  }
  std::string mode_name(int mode) const override {
    if constexpr (requires { f_.mode_name(mode); }) return f_.mode_name(mode);
    return HybridSystem::mode_name(mode);
  }
  std::string guard_name(int mode, int k) const override {
    if constexpr (requires { f_.guard_name(mode, k); }) return f_.guard_name(mode, k);
    return HybridSystem::guard_name(mode, k);
  }
  Crossing crossing(int mode, int k) const override {
    if constexpr (requires { f_.crossing(mode, k); }) return f_.crossing(mode, k);
    return Crossing::kFalling;
  }
  int guard_count(int mode) const override { return f_.guard_count(mode); }
  int next_mode(int mode, int k, double t, const Vector& x) const override {
    return f_.next_mode(mode, k, t, x.data());
  }

  void field(int mode, double t, const Vector& x, Vector* f) const override {
    f->resize(dimension());
    f_.template field<double>(mode, t, x.data(), f->data());
  }
  void field_in_place(int mode, double t, const double* x, double* f) const override {
    f_.template field<double>(mode, t, x, f);
  }

  void field_jacobian(int mode, double t, const Vector& x, Matrix* A) const override {
    jacobian_passes(mode, t, x, nullptr, A);
  }

  void field_and_jacobian(int mode, double t, const Vector& x, Vector* f, Matrix* A) const override {
    jacobian_passes(mode, t, x, f, A);
  }

  void field_and_tangent(int mode, double t, const Vector& x, const Eigen::Ref<const Matrix>& P, Vector* f,
                         Eigen::Ref<Matrix> dP) const override {
    f->resize(dimension());
    tangent_passes(mode, t, x.data(), static_cast<int>(P.rows()), P.data(), P.outerStride(), f->data(),
                   dP.data(), dP.outerStride());
  }
  void field_and_tangent_in_place(int mode, double t, const double* x, int m, const double* P, double* f,
                                  double* dP) const override {
    tangent_passes(mode, t, x, m, P, m, f, dP, m);
  }

  double guard(int mode, int k, double t, const Vector& x) const override {
    return f_.template guard<double>(mode, k, t, x.data());
  }

  // Along (f, 1): lane 0 of the Jets.
  double guard_rate(int mode, int k, double t, const Vector& x, const Vector& f) const override {
    const int n = dimension();
    detail::JetScratch<Jet> z(n);
    for (int j = 0; j < n; ++j) {
      z[j] = Jet(x[j]);
      z[j].v[0] = f[j];
    }
    Jet time(t);
    time.v[0] = 1.0;
    return f_.template guard<Jet>(mode, k, time, z.data()).v[0];
  }

  // Columns of (x, t) in passes of kStride directions; t is the last column.
  void guard_gradient(int mode, int k, double t, const Vector& x, Vector* h_x, double* h_t) const override {
    const int n = dimension();
    h_x->resize(n);
    detail::JetScratch<Jet> z(n + 1);
    for (int j = 0; j < n; ++j) z[j] = Jet(x[j]);
    z[n] = Jet(t);
    for (int start = 0; start <= n; start += kStride) {
      const int width = std::min(kStride, n + 1 - start);
      for (int c = 0; c < width; ++c) z[start + c].v[c] = 1.0;
      const Jet h = f_.template guard<Jet>(mode, k, z[n], z.data());
      for (int c = 0; c < width; ++c) {
        if (start + c < n)
          (*h_x)[start + c] = h.v[c];
        else
          *h_t = h.v[c];
      }
      for (int c = 0; c < width; ++c) z[start + c].v[c] = 0.0;
    }
  }

  void reset(int mode, int k, int next, double t, const Vector& x, Vector* x_plus, Matrix* G_x,
             Vector* G_t) const override {
    const int n = dimension();
    x_plus->resize(n);
    G_x->resize(n, n);
    G_t->resize(n);
    detail::JetScratch<Jet> z(n + 1), r(n);
    for (int j = 0; j < n; ++j) z[j] = Jet(x[j]);
    z[n] = Jet(t);
    for (int start = 0; start <= n; start += kStride) {
      const int width = std::min(kStride, n + 1 - start);
      for (int c = 0; c < width; ++c) z[start + c].v[c] = 1.0;
      f_.template reset<Jet>(mode, k, next, z[n], z.data(), r.data());
      for (int i = 0; i < n; ++i)
        for (int c = 0; c < width; ++c) {
          if (start + c < n)
            (*G_x)(i, start + c) = r[i].v[c];
          else
            (*G_t)[i] = r[i].v[c];
        }
      for (int c = 0; c < width; ++c) z[start + c].v[c] = 0.0;
    }
    for (int i = 0; i < n; ++i) (*x_plus)[i] = r[i].a;
  }

  void reset_state(int mode, int k, int next, double t, const Vector& x, Vector* x_plus) const override {
    x_plus->resize(dimension());
    f_.template reset<double>(mode, k, next, t, x.data(), x_plus->data());
  }

  void constrained_directions(int mode, double t, const Vector& x, Matrix* C) const override {
    if constexpr (requires { f_.constrained_directions(mode, t, x.data(), C); })
      f_.constrained_directions(mode, t, x.data(), C);
    else
      HybridSystem::constrained_directions(mode, t, x, C);
  }

  std::vector<ParameterInfo> parameters() const override {
    if constexpr (Parameterized<F>) return parameter_list<F>(f_);
    return {};
  }

  // A copy of the functor with the values set, checked by its check() when
  // it has one.
  std::shared_ptr<const HybridSystem> with_parameters(
      const std::map<std::string, double>& values) const override {
    if constexpr (Parameterized<F>) {
      F copy = f_;
      set_parameters(&copy, values);
      if constexpr (requires { copy.check(); }) copy.check();
      return std::make_shared<AutoDiffHybrid<F>>(std::move(copy));
    }
    return HybridSystem::with_parameters(values);
  }

  std::shared_ptr<const HybridSystem> with_parameters_in_state(
      const std::vector<std::string>& names, const std::vector<int>& angles = {}) const override;

  // The lifted functor over this one, for a model that opts in (above); a
  // lifted system is lifted once more (its flow carries the third
  // derivatives: continuation/periodic/period_map_forms.h), not a third time
  // (TangentLifted::tangent_liftable).
  std::shared_ptr<const HybridSystem> tangent_lifted() const override;

 private:
  // Columns of A in passes of kStride directions; f (if wanted) is the value part.
  void jacobian_passes(int mode, double t, const Vector& x, Vector* f, Matrix* A) const {
    const int n = dimension();
    A->resize(n, n);
    if (f) f->resize(n);
    detail::JetScratch<Jet> z(n), r(n);
    for (int j = 0; j < n; ++j) z[j] = Jet(x[j]);
    for (int start = 0; start < n; start += kStride) {
      const int width = std::min(kStride, n - start);
      for (int k = 0; k < width; ++k) z[start + k].v[k] = 1.0;
      f_.template field<Jet>(mode, Jet(t), z.data(), r.data());
      if (f && start == 0)
        for (int i = 0; i < n; ++i) (*f)[i] = r[i].a;
      for (int i = 0; i < n; ++i)
        for (int k = 0; k < width; ++k) (*A)(i, start + k) = r[i].v[k];
      for (int k = 0; k < width; ++k) z[start + k].v[k] = 0.0;
    }
  }

  // f and A Phi in passes of kStride columns of Phi = (P; 0 I), P (m x n)
  // and dP with leading dimensions P_stride and dP_stride: lane c of the
  // seed of x_i is Phi(i, start + c), so the derivative part of f_i is row i
  // of A Phi, exact (forward-mode derivatives are linear in the seeds). The
  // same passes as field_and_jacobian(), with neither A nor the product.
  // (Wider Jets, one pass for 6 states, were slower: a field with Eigen
  // solves on Jet<8> ran at half the speed of two passes of Jet<4>.) Beside
  // a field as small as Lorenz's the copies in and out are half the cost,
  // hence lane loops of the fixed width kStride (unrolled, where a runtime
  // width costs a mispredicted loop exit per row).
  void tangent_passes(int mode, double t, const double* x, int m, const double* P, Eigen::Index P_stride,
                      double* f, double* dP, Eigen::Index dP_stride) const {
    const int n = dimension();
    // Constructed here, not zeroed in advance: values once, lanes per pass.
    detail::UninitializedJets<Jet> zs(n), rs(n);
    Jet* z = zs.data();
    Jet* r = rs.data();
    for (int i = 0; i < n; ++i) {
      new (z + i) Jet(x[i]);
      new (r + i) Jet;
    }
    for (int start = 0; start < n; start += kStride) {
      const int width = std::min(kStride, n - start);
      // Lanes past the last column (width < kStride) are zero.
      for (int i = 0; i < m; ++i) {
        const double* row = P + i + start * P_stride;
        for (int c = 0; c < kStride; ++c) z[i].v[c] = c < width ? row[c * P_stride] : 0.0;
      }
      // The constant components: their rows of Phi are unit vectors e_i.
      for (int i = m; i < n; ++i)
        for (int c = 0; c < kStride; ++c) z[i].v[c] = i == start + c ? 1.0 : 0.0;
      f_.template field<Jet>(mode, Jet(t), z, r);
      if (start == 0)
        for (int i = 0; i < n; ++i) f[i] = r[i].a;
      for (int i = 0; i < m; ++i) {
        double* row = dP + i + start * dP_stride;
        for (int c = 0; c < kStride; ++c)
          if (c < width) row[c * dP_stride] = r[i].v[c];
      }
    }
  }

  detail::WithGuards<F> f_;
};

// Out of the class body, so not inline: an `extern template class
// AutoDiffHybrid<F>;` declaration then keeps their instantiation, and with it
// the systems they build (parameters in the state, the tangent lift and the
// lift of the lift, each with its own Jet and Taylor passes), out of every
// file that uses a model's flow but the one that instantiates it (the
// pendulum's in models/triple_pendulum.cpp: a test file that builds the
// pendulum's flow compiles in 26 s of CPU instead of 320 s).
template <class F>
std::shared_ptr<const HybridSystem> AutoDiffHybrid<F>::with_parameters_in_state(
    const std::vector<std::string>& names, const std::vector<int>& angles) const {
  if constexpr (Parameterized<F>)
    return std::make_shared<AutoDiffHybrid<ParametersInState<F>>>(ParametersInState<F>(f_, names, angles));
  return HybridSystem::with_parameters_in_state(names, angles);
}

template <class F>
std::shared_ptr<const HybridSystem> AutoDiffHybrid<F>::tangent_lifted() const {
  if constexpr (!tangent_liftable_v<F>)
    return HybridSystem::tangent_lifted();
  else
    return std::make_shared<AutoDiffHybrid<TangentLifted<detail::WithGuards<F>>>>(
        TangentLifted<detail::WithGuards<F>>(f_));
}

template <class F>
std::shared_ptr<AutoDiffHybrid<F>> make_hybrid(F functor) {
  return std::make_shared<AutoDiffHybrid<F>>(std::move(functor));
}

// A start (mode, t, x) from which every event can still be seen: the state
// finite, and each guard of the mode on the side its crossing leaves (h >= 0
// for a falling guard, h <= 0 for a rising one, to tolerance (1 + |x|)).
// Throws std::invalid_argument naming the guard and its value (a ball below
// its table, a link through the barrier, a block on the wrong side of h = 0).
void check_start(const HybridSystem& system, int mode, double t, const Vector& x, double tolerance = 1e-9);

// The saltation matrix of an event (Aizerman & Gantmakher; eq. (6) of
// Awrejcewicz & Kudra): with f- the field before, f+ the field of the next
// mode at x+, g the reset and h the guard,
//
//   S = G_x + (f+ - G_x f- - G_t) h_x^T / (h_x . f- + h_t),
//
// so that dx+ = S dx- for perturbations at a fixed time after the event.
// Throws std::domain_error when the crossing is tangential (h_x . f- + h_t = 0:
// grazing), where no saltation matrix exists.
Matrix saltation_matrix(const Matrix& G_x, const Vector& G_t, const Vector& f_minus, const Vector& f_plus,
                        const Vector& h_x, double h_t);

}  // namespace saltus::flow

#include "continuation/flow/tangent_lifted.h"  // IWYU pragma: export
