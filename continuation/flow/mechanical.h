#pragma once
// Mechanical systems with rigid frictionless unilateral constraints, as a
// hybrid system (Awrejcewicz & Kudra, Sec. 2):
//
//   M(q, t) q'' = f(q, q', t) + H_act^T lambda_act,   h_i(q, t) >= 0,
//
// with state x = (q, q') and one mode per set of constraints in permanent
// contact (a bitmask). In a mode the active constraints hold as the index-1
// DAE (1): with H = dh/dq and gamma_i = d^2/ds^2 h_i(q + s q', t + s) at
// s = 0 (the velocity terms of the constraint acceleration),
//
//   [ M  -H^T ] [ q''    ]   [  f     ]
//   [ H   0   ] [ lambda ] = [ -gamma ].
//
// Events (2): an inactive constraint's gap h_i falling to zero is an impact;
// an active constraint's multiplier lambda_i falling to zero releases it.
// Impacts follow the generalized Newton law (3): the impulse acts along the
// constraint normals in the metric of M; the normal velocity of the hitting
// constraint is reversed with its restitution e_i, those already in contact
// keep zero normal velocity, and the motion tangent to the constraints keeps
// its momentum. A rebound slower than `stick_velocity` (the tail of a Zeno
// sequence) is an impact with e = 0 that starts permanent contact when the
// multiplier then pushes (lambda > 0): the transition scheme of Fig. 1.
//
// The model is a functor templated on its scalar:
//
//   int dof() const;                    // n
//   int constraint_count() const;       // m <= 30
//   template <class T> void mass(const T* q, const T& t, T* M) const;             // n x n, row-major
//   template <class T> void force(const T* q, const T* v, const T& t, T* f) const;
//   template <class T> T constraint(int i, const T* q, const T& t) const;         // h_i
//   double restitution(int i) const;    // in [0, 1]
//   optional: std::vector<std::string> coordinate_names() const;
//
// H, gamma and the constraint time derivatives come from Taylor arithmetic on
// h (continuation/taylor.h), the Jacobians of the whole field from ceres::Jet
// through AutoDiffHybrid: no derivative is written by hand.

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "continuation/flow/hybrid_system.h"
#include "continuation/taylor.h"

namespace saltus::flow {

template <class Model>
struct Mechanical {
  Model model;
  double stick_velocity = 1e-6;  // rebound speed below which contact becomes permanent

  template <class T>
  using MatrixT = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
  template <class T>
  using VectorT = Eigen::Matrix<T, Eigen::Dynamic, 1>;

  int dof() const { return model.dof(); }
  int dimension() const { return 2 * model.dof(); }
  int guard_count(int) const { return model.constraint_count(); }
  static bool active(int mode, int i) { return (mode >> i) & 1; }

  std::vector<std::string> state_names() const {
    std::vector<std::string> q;
    if constexpr (requires { model.coordinate_names(); }) q = model.coordinate_names();
    else
      for (int i = 0; i < dof(); ++i) q.push_back("q" + std::to_string(i + 1));
    std::vector<std::string> names = q;
    for (const auto& name : q) names.push_back(name + "_dot");
    return names;
  }
  std::string mode_name(int mode) const {
    if (mode == 0) return "free";
    std::string name = "contact";
    for (int i = 0; i < model.constraint_count(); ++i)
      if (active(mode, i)) name += " " + std::to_string(i + 1);
    return name;
  }
  std::string guard_name(int mode, int k) const {
    return (active(mode, k) ? "release " : "impact ") + std::to_string(k + 1);
  }

  // Throws std::invalid_argument naming the bad value: restitutions outside
  // [0, 1], a mass matrix that is not symmetric positive definite at (q, t),
  // or a state that violates a constraint by more than `tolerance`.
  void check(double t, const Vector& x, double tolerance = 1e-9) const {
    const int n = dof();
    if (x.size() != 2 * n)
      throw std::invalid_argument("mechanical system: the state has " + std::to_string(x.size()) +
                                  " components, expected 2 x " + std::to_string(n));
    for (int i = 0; i < model.constraint_count(); ++i) {
      const double e = model.restitution(i);
      if (!(e >= 0.0 && e <= 1.0)) {
        std::ostringstream msg;
        msg << "constraint " << i + 1 << ": restitution e = " << e << " must be in [0, 1]";
        throw std::invalid_argument(msg.str());
      }
    }
    Matrix M(n, n);
    model.template mass<double>(x.data(), t, M.data());
    M.transposeInPlace();  // row-major in, column-major here (M is symmetric anyway)
    Eigen::LLT<Matrix> llt(M);
    if (llt.info() != Eigen::Success || (M - M.transpose()).cwiseAbs().maxCoeff() > 1e-12 * M.cwiseAbs().maxCoeff()) {
      std::ostringstream msg;
      msg << "the mass matrix at q = (" << x.head(n).transpose() << ") is not symmetric positive definite:\n" << M;
      throw std::invalid_argument(msg.str());
    }
    for (int i = 0; i < model.constraint_count(); ++i) {
      const double h = model.template constraint<double>(i, x.data(), t);
      if (h < -tolerance) {
        std::ostringstream msg;
        msg << "the initial state violates constraint " << i + 1 << ": h = " << h
            << " < 0; start where every h_i >= 0";
        throw std::invalid_argument(msg.str());
      }
    }
  }

  // H (m_active x n), the velocity term gamma and the normal velocities
  // H q' + h_t of the constraints in `which`, from Taylor arithmetic on h.
  template <class T>
  void constraint_kinematics(const std::vector<int>& which, const T& t, const T* q, const T* v, MatrixT<T>* H,
                             VectorT<T>* gamma, VectorT<T>* normal_velocity) const {
    const int n = dof();
    using T1 = Taylor<T, 1>;
    using T2 = Taylor<T, 2>;
    const int k = static_cast<int>(which.size());
    H->resize(k, n);
    if (gamma) gamma->resize(k);
    if (normal_velocity) normal_velocity->resize(k);
    std::vector<T1> q1(n);
    std::vector<T2> q2(n);
    for (int r = 0; r < k; ++r) {
      const int i = which[r];
      for (int j = 0; j < n; ++j) {
        for (int l = 0; l < n; ++l) q1[l] = T1::from_coefficients({q[l], T(l == j ? 1.0 : 0.0)});
        (*H)(r, j) = model.template constraint<T1>(i, q1.data(), T1(t))[1];
      }
      // Along (q', 1): c1 = H q' + h_t, 2 c2 = gamma.
      for (int l = 0; l < n; ++l) q2[l] = T2::from_coefficients({q[l], v[l], T(0.0)});
      const T2 h = model.template constraint<T2>(i, q2.data(), T2::variable(t, 2));
      if (gamma) (*gamma)[r] = 2.0 * h[2];
      if (normal_velocity) (*normal_velocity)[r] = h[1];
    }
  }

  std::vector<int> active_set(int mode) const {
    std::vector<int> set;
    for (int i = 0; i < model.constraint_count(); ++i)
      if (active(mode, i)) set.push_back(i);
    return set;
  }

  // q'' and the multipliers of the active constraints.
  template <class T>
  void accelerations(int mode, const T& t, const T* x, VectorT<T>* a, VectorT<T>* lambda) const {
    const int n = dof();
    MatrixT<T> M(n, n);
    model.template mass<T>(x, t, M.data());
    M.transposeInPlace();
    VectorT<T> f(n);
    model.template force<T>(x, x + n, t, f.data());
    const std::vector<int> set = active_set(mode);
    const int k = static_cast<int>(set.size());
    if (k == 0) {
      *a = M.partialPivLu().solve(f);
      if (lambda) lambda->resize(0);
      return;
    }
    MatrixT<T> H;
    VectorT<T> gamma;
    constraint_kinematics<T>(set, t, x, x + n, &H, &gamma, nullptr);
    MatrixT<T> K = MatrixT<T>::Zero(n + k, n + k);
    K.topLeftCorner(n, n) = M;
    K.topRightCorner(n, k) = -H.transpose();
    K.bottomLeftCorner(k, n) = H;
    VectorT<T> rhs(n + k);
    rhs.head(n) = f;
    rhs.tail(k) = -gamma;
    const VectorT<T> solution = K.partialPivLu().solve(rhs);
    *a = solution.head(n);
    if (lambda) *lambda = solution.tail(k);
  }

  template <class T>
  void field(int mode, const T& t, const T* x, T* dx) const {
    const int n = dof();
    VectorT<T> a;
    accelerations<T>(mode, t, x, &a, nullptr);
    for (int i = 0; i < n; ++i) {
      dx[i] = x[n + i];
      dx[n + i] = a[i];
    }
  }

  // Inactive: the gap h_k; active: the multiplier lambda_k.
  template <class T>
  T guard(int mode, int k, const T& t, const T* x) const {
    if (!active(mode, k)) return model.template constraint<T>(k, x, t);
    VectorT<T> a, lambda;
    accelerations<T>(mode, t, x, &a, &lambda);
    const std::vector<int> set = active_set(mode);
    for (std::size_t r = 0; r < set.size(); ++r)
      if (set[r] == k) return lambda[r];
    return T(0.0);
  }

  // The velocity after an impact of constraint k: the impulse H^T Lambda
  // (H over the active constraints and k) sets the normal velocities to
  // `target` (-e v_n for k bouncing, 0 for k sticking and the active ones).
  template <class T>
  void impact(int mode, int k, bool stick, const T& t, const T* x, T* v_plus) const {
    const int n = dof();
    std::vector<int> set = active_set(mode);
    set.push_back(k);
    const int m = static_cast<int>(set.size());
    MatrixT<T> M(n, n);
    model.template mass<T>(x, t, M.data());
    M.transposeInPlace();
    MatrixT<T> H;
    VectorT<T> vn;
    constraint_kinematics<T>(set, t, x, x + n, &H, nullptr, &vn);
    VectorT<T> target = VectorT<T>::Zero(m);
    const double e = stick ? 0.0 : model.restitution(k);
    target[m - 1] = -e * vn[m - 1];
    const auto lu = M.partialPivLu();
    const MatrixT<T> MinvHt = lu.solve(H.transpose());
    const MatrixT<T> W = H * MinvHt;
    const VectorT<T> impulse = W.partialPivLu().solve(VectorT<T>(target - vn));
    const VectorT<T> dv = MinvHt * impulse;
    for (int i = 0; i < n; ++i) v_plus[i] = x[n + i] + dv[i];
  }

  int next_mode(int mode, int k, double t, const double* x) const {
    if (active(mode, k)) return mode & ~(1 << k);  // release
    const int n = dof();
    MatrixT<double> H;
    VectorT<double> vn;
    constraint_kinematics<double>({k}, t, x, x + n, &H, nullptr, &vn);
    const bool settles = vn[0] >= 0.0 || model.restitution(k) * -vn[0] < stick_velocity;
    if (!settles) return mode;
    // Stick only if the constraint then pushes (lambda_k > 0).
    std::vector<double> xs(x, x + 2 * n);
    impact<double>(mode, k, true, t, x, xs.data() + n);
    const int joined = mode | (1 << k);
    return guard<double>(joined, k, t, xs.data()) > 0.0 ? joined : mode;
  }

  template <class T>
  void reset(int mode, int k, int next, const T& t, const T* x, T* x_plus) const {
    const int n = dof();
    for (int i = 0; i < 2 * n; ++i) x_plus[i] = x[i];
    if (active(mode, k)) return;  // release: no jump
    const bool stick = active(next, k);
    if (!stick) {
      // No approach (a re-contact too short to resolve that did not stick): no impulse.
      MatrixT<double> H;
      VectorT<double> vn;
      std::vector<double> xd(2 * n);
      for (int i = 0; i < 2 * n; ++i) xd[i] = taylor_detail::value_of(x[i]);
      constraint_kinematics<double>({k}, taylor_detail::value_of(t), xd.data(), xd.data() + n, &H, nullptr, &vn);
      if (vn[0] >= 0.0) return;
    }
    impact<T>(mode, k, stick, t, x, x_plus + n);
  }
};

template <class Model>
std::shared_ptr<AutoDiffHybrid<Mechanical<Model>>> make_mechanical(Model model, double stick_velocity = 1e-6) {
  return make_hybrid(Mechanical<Model>{std::move(model), stick_velocity});
}

}  // namespace saltus::flow
