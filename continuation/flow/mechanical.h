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
//   optional: template <class T> void mass_and_force(const T* q, const T* v, const T& t, T* M, T* f) const;
//             (both at once, when they share work such as sines and cosines; the field uses it)
//
// H, gamma and the constraint time derivatives come from Taylor arithmetic on
// h (continuation/taylor.h), the Jacobians of the whole field from ceres::Jet
// through AutoDiffHybrid: no derivative is written by hand.
//
// Speed. A model whose dof() (and constraint_count()) are `static constexpr`
// gets fixed-size Eigen types throughout (mass matrix, constraint Jacobian,
// the saddle-point system of (1) sized for all constraints at once). Any
// other model (a run file's) gets them chosen at run time: fixed n up to 3,
// fixed capacities (storage on the stack) up to kCapacity = 8 coordinates
// and constraints, dynamic types only beyond. Either way the field, guards
// and resets of small systems allocate nothing, on double and on Jets alike;
// the results are the same with all of them.

#include <Eigen/Dense>
#include <array>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "continuation/flow/hybrid_system.h"
#include "continuation/taylor.h"

namespace saltus::flow {

namespace detail {

// n (or m) when the model states it at compile time (a static constexpr
// dof() / constraint_count()), else Eigen::Dynamic.
template <class Model>
constexpr int static_dof() {
  if constexpr (requires { typename std::integral_constant<int, Model::dof()>; })
    return Model::dof();
  else
    return Eigen::Dynamic;
}
template <class Model>
constexpr int static_constraints() {
  if constexpr (requires { typename std::integral_constant<int, Model::constraint_count()>; })
    return Model::constraint_count();
  else
    return Eigen::Dynamic;
}

// X = (L L^T)^-1 B from a Cholesky factorization (L is the lower triangle
// of llt.matrixLLT()), by forward and back substitution written out. Eigen's
// own triangular solve of dynamic size skips a row whose right-hand side is
// exactly zero (numext::not_equal_strict, which compares a ceres::Jet by its
// value alone), and on Jets that drops the row's derivative: the Jacobian of
// the pendulum at rest on the barrier came out 1.08 against 1.94 (finite
// differences) in one entry, at a state where such a value cancelled to
// exactly zero, and DOP853's error estimate of Phi blew up there.
template <class Factor, class Rhs>
Rhs cholesky_solve(const Factor& L, Rhs X) {
  const Eigen::Index n = L.rows();
  for (Eigen::Index c = 0; c < X.cols(); ++c) {
    for (Eigen::Index i = 0; i < n; ++i) {  // L y = b
      for (Eigen::Index j = 0; j < i; ++j) X(i, c) -= L(i, j) * X(j, c);
      X(i, c) /= L(i, i);
    }
    for (Eigen::Index i = n; i-- > 0;) {  // L^T x = y
      for (Eigen::Index j = i + 1; j < n; ++j) X(i, c) -= L(j, i) * X(j, c);
      X(i, c) /= L(i, i);
    }
  }
  return X;
}

// X = A^-1 B from a partial-pivoting LU of A, by the same written-out
// substitutions (for a system that is not symmetric positive definite).
template <class Lu, class Rhs>
Rhs lu_solve(const Lu& lu, const Rhs& B) {
  Rhs X = lu.permutationP() * B;
  const auto& F = lu.matrixLU();  // unit lower L below the diagonal, U on and above it
  const Eigen::Index n = F.rows();
  for (Eigen::Index c = 0; c < X.cols(); ++c) {
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j < i; ++j) X(i, c) -= F(i, j) * X(j, c);
    for (Eigen::Index i = n; i-- > 0;) {
      for (Eigen::Index j = i + 1; j < n; ++j) X(i, c) -= F(i, j) * X(j, c);
      X(i, c) /= F(i, i);
    }
  }
  return X;
}

// The matrix types of Mechanical's field for n = Dof (or Eigen::Dynamic) at
// most MaxDof coordinates and MaxConstraints constraints (Eigen::Dynamic:
// no bound, heap storage). Fixed sizes and fixed capacities keep the
// storage on the stack: the field then allocates nothing per evaluation.
template <int Dof, int MaxDof, int MaxConstraints>
struct MechanicalSizes {
  static constexpr int kMaxSystem =
      MaxDof == Eigen::Dynamic || MaxConstraints == Eigen::Dynamic ? Eigen::Dynamic : MaxDof + MaxConstraints;

  template <class T>
  using Coordinates = Eigen::Matrix<T, Dof, 1, Eigen::ColMajor, MaxDof, 1>;
  template <class T>  // row-major, as mass() writes it
  using MassMatrix = Eigen::Matrix<T, Dof, Dof, Eigen::RowMajor, MaxDof, MaxDof>;
  // Eigen wants a matrix of one row (at most) row-major, of one column column-major.
  static constexpr int layout(int max_rows, int max_cols) {
    return max_rows == 1 && max_cols != 1 ? Eigen::RowMajor : Eigen::ColMajor;
  }
  template <class T>
  using ConstraintMatrix =
      Eigen::Matrix<T, Eigen::Dynamic, Dof, layout(MaxConstraints, MaxDof), MaxConstraints, MaxDof>;
  template <class T>
  using ConstraintVector = Eigen::Matrix<T, Eigen::Dynamic, 1, Eigen::ColMajor, MaxConstraints, 1>;
  template <class T>  // M^-1 H^T
  using Columns =
      Eigen::Matrix<T, Dof, Eigen::Dynamic, layout(MaxDof, MaxConstraints), MaxDof, MaxConstraints>;
  template <class T>  // H M^-1 H^T
  using Square =
      Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, MaxConstraints, MaxConstraints>;
  template <class T>
  using SystemMatrix =
      Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, kMaxSystem, kMaxSystem>;
  template <class T>
  using SystemVector = Eigen::Matrix<T, Eigen::Dynamic, 1, Eigen::ColMajor, kMaxSystem, 1>;

  // n values of a type that is not an Eigen scalar (a Taylor series).
  template <class U>
  using CoordinateArray = std::conditional_t<MaxDof == Eigen::Dynamic, std::vector<U>,
                                             std::array<U, (MaxDof == Eigen::Dynamic ? 1 : MaxDof)>>;
  template <class U>
  static CoordinateArray<U> coordinate_array(int n) {
    if constexpr (MaxDof == Eigen::Dynamic)
      return std::vector<U>(n);
    else
      return {};
  }
};

}  // namespace detail

template <class Model>
struct Mechanical {
  Model model;
  double stick_velocity = 1e-6;  // rebound speed below which contact becomes permanent

  // Tangent-liftable (hybrid_system.h) when the model is: its mass, force
  // and constraints compile on Taylor<T, 1>. Everything here is generic in
  // the scalar (Eigen's Cholesky and LU on Taylor series: NumTraits in
  // continuation/taylor.h; H and gamma on nested series), and the decisions
  // (stick or bounce, approach) are taken on values.
  static constexpr bool tangent_liftable = tangent_liftable_v<Model>;

  // The model's parameters and stick_velocity (continuation/flow/parameters.h),
  // when the model lists its own.
  template <class Self, class Visit>
  static void parameters(Self& self, Visit&& visit) requires Parameterized<Model> {
    Model::parameters(self.model, visit);
    visit("stick_velocity", self.stick_velocity, "rebound speed below which contact becomes permanent");
  }
  template <class Q>
  auto cast() const requires Parameterized<Model> {
    using Cast = decltype(model.template cast<Q>());
    return Mechanical<Cast>{model.template cast<Q>(), stick_velocity};
  }
  // The system with its parameters as numbers, for decisions taken on values.
  auto on_values() const {
    if constexpr (Parameterized<Model>)
      return cast<double>();
    else
      return *this;
  }

  // Dynamic-size types (the public constraint_kinematics overload below).
  template <class T>
  using MatrixT = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
  template <class T>
  using VectorT = Eigen::Matrix<T, Eigen::Dynamic, 1>;

  // The sizes of the field's matrices (detail::MechanicalSizes): fixed where
  // the model states n (and m) at compile time. Else (the run-file models)
  // chosen at run time by sized(): n fixed for n <= 3 (Eigen unrolls the
  // Cholesky factor and the substitutions as for a built-in model; loops
  // bounded at run time were a good part of the run-file pendulum's extra
  // cost on Jets), a
  // capacity of kCapacity coordinates above that, no heap either way, and
  // dynamic sizes only beyond kCapacity (or kCapacity constraints).
  static constexpr int kDof = detail::static_dof<Model>();
  static constexpr int kCapacity = 8;
  using FixedSizes = detail::MechanicalSizes<
      kDof, kDof,
      detail::static_constraints<Model>() == Eigen::Dynamic ? 30 : detail::static_constraints<Model>()>;
  template <int N>
  using SmallSizes = detail::MechanicalSizes<N, N, kCapacity>;
  using CapacitySizes = detail::MechanicalSizes<Eigen::Dynamic, kCapacity, kCapacity>;
  using DynamicSizes = detail::MechanicalSizes<Eigen::Dynamic, Eigen::Dynamic, Eigen::Dynamic>;

  // visit(S{}) with the sizes S for this model.
  template <class Visit>
  decltype(auto) sized(Visit&& visit) const {
    if constexpr (kDof != Eigen::Dynamic) {
      return visit(FixedSizes{});
    } else {
      const int n = dof();
      if (model.constraint_count() > kCapacity || n > kCapacity) return visit(DynamicSizes{});
      if (n == 1) return visit(SmallSizes<1>{});
      if (n == 2) return visit(SmallSizes<2>{});
      if (n == 3) return visit(SmallSizes<3>{});
      return visit(CapacitySizes{});
    }
  }

  // The constraints of a set, in increasing order (mode bits, plus one).
  struct ConstraintSet {
    int size = 0;
    std::array<int, 32> index{};
    void push_back(int i) { index[size++] = i; }
  };

  int dof() const { return model.dof(); }
  int dimension() const { return 2 * model.dof(); }
  int guard_count(int) const { return model.constraint_count(); }
  static bool active(int mode, int i) { return (mode >> i) & 1; }

  std::vector<std::string> state_names() const {
    std::vector<std::string> q;
    if constexpr (requires { model.coordinate_names(); })
      q = model.coordinate_names();
    else
      for (int i = 0; i < dof(); ++i) q.push_back("q" + std::to_string(i + 1));
    std::vector<std::string> names = q;
    for (const auto& name : q) names.push_back(name + "_dot");
    return names;
  }
  // The model's constraint_name(i) where it has one, else i + 1.
  std::string constraint_name(int i) const {
    if constexpr (requires { model.constraint_name(i); })
      return model.constraint_name(i);
    else
      return std::to_string(i + 1);
  }
  std::string mode_name(int mode) const {
    if (mode == 0) return "free";
    std::string name = "contact";
    for (int i = 0; i < model.constraint_count(); ++i)
      if (active(mode, i)) name += " " + constraint_name(i);
    return name;
  }
  std::string guard_name(int mode, int k) const {
    return (active(mode, k) ? "release " : "impact ") + constraint_name(k);
  }

  // Throws std::invalid_argument naming the bad value: restitutions outside
  // [0, 1], a mass matrix that is not symmetric positive definite at (q, t),
  // or a state that violates a constraint by more than `tolerance`.
  // The parameters: each restitution in [0, 1], stick_velocity >= 0, and
  // the model's own check() where it has one.
  void check() const {
    if constexpr (requires { model.check(); }) model.check();
    for (int i = 0; i < model.constraint_count(); ++i) {
      const double e = model.restitution(i);
      if (!(e >= 0.0 && e <= 1.0)) {
        std::ostringstream msg;
        msg << "constraint " << i + 1 << ": restitution e = " << e << " must be in [0, 1]";
        throw std::invalid_argument(msg.str());
      }
    }
    if (!(stick_velocity >= 0.0) || !std::isfinite(stick_velocity))
      throw std::invalid_argument("stick_velocity = " + std::to_string(stick_velocity) +
                                  " must be >= 0 and finite");
  }

  void check(double t, const Vector& x, double tolerance = 1e-9) const {
    check();
    const int n = dof();
    if (x.size() != 2 * n)
      throw std::invalid_argument("mechanical system: the state has " + std::to_string(x.size()) +
                                  " components, expected 2 x " + std::to_string(n));
    Matrix M(n, n);
    model.template mass<double>(x.data(), t, M.data());
    M.transposeInPlace();  // row-major in, column-major here (M is symmetric anyway)
    Eigen::LLT<Matrix> llt(M);
    if (llt.info() != Eigen::Success ||
        (M - M.transpose()).cwiseAbs().maxCoeff() > 1e-12 * M.cwiseAbs().maxCoeff()) {
      std::ostringstream msg;
      msg << "the mass matrix at q = (" << x.head(n).transpose() << ") is not symmetric positive definite:\n"
          << M;
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
    ConstraintSet set;
    for (int i : which) set.push_back(i);
    sized([&](auto sizes) {
      using S = decltype(sizes);
      typename S::template ConstraintMatrix<T> h;
      typename S::template ConstraintVector<T> g, vn;
      kinematics<S, T>(set, t, q, v, &h, gamma ? &g : nullptr, normal_velocity ? &vn : nullptr);
      *H = h;
      if (gamma) *gamma = g;
      if (normal_velocity) *normal_velocity = vn;
    });
  }

  std::vector<int> active_set(int mode) const {
    std::vector<int> set;
    for (int i = 0; i < model.constraint_count(); ++i)
      if (active(mode, i)) set.push_back(i);
    return set;
  }

  ConstraintSet active_constraints(int mode) const {
    ConstraintSet set;
    for (int i = 0; i < model.constraint_count(); ++i)
      if (active(mode, i)) set.push_back(i);
    return set;
  }

  // As constraint_kinematics, into the storage of S. H row by row: the
  // derivative of h_i along each coordinate direction (Taylor order 1).
  template <class S, class T>
  void kinematics(const ConstraintSet& which, const T& t, const T* q, const T* v,
                  typename S::template ConstraintMatrix<T>* H,
                  typename S::template ConstraintVector<T>* gamma,
                  typename S::template ConstraintVector<T>* normal_velocity) const {
    const int n = dof();
    using T1 = Taylor<T, 1>;
    using T2 = Taylor<T, 2>;
    const int k = which.size;
    H->resize(k, n);
    if (gamma) gamma->resize(k);
    if (normal_velocity) normal_velocity->resize(k);
    auto q1 = S::template coordinate_array<T1>(n);
    auto q2 = S::template coordinate_array<T2>(n);
    for (int l = 0; l < n; ++l) {
      q1[l] = T1::zero(1);
      q1[l][0] = q[l];
      q2[l] = T2::zero(2);
      q2[l][0] = q[l];
      q2[l][1] = v[l];
    }
    const T1 t1(t);
    const T2 t2 = T2::variable(t, 2);
    for (int r = 0; r < k; ++r) {
      const int i = which.index[r];
      for (int j = 0; j < n; ++j) {
        q1[j][1] = T(1.0);
        (*H)(r, j) = model.template constraint<T1>(i, q1.data(), t1)[1];
        q1[j][1] = T(0.0);
      }
      // Along (q', 1): c1 = H q' + h_t, 2 c2 = gamma.
      const T2 h = model.template constraint<T2>(i, q2.data(), t2);
      if (gamma) (*gamma)[r] = 2.0 * h[2];
      if (normal_velocity) (*normal_velocity)[r] = h[1];
    }
  }

  // M (row-major) and f at (q, v, t); one call when the model shares the work.
  template <class S, class T>
  void mass_and_force(const T* q, const T* v, const T& t, typename S::template MassMatrix<T>* M,
                      typename S::template Coordinates<T>* f) const {
    const int n = dof();
    M->resize(n, n);
    f->resize(n);
    if constexpr (requires { model.template mass_and_force<T>(q, v, t, M->data(), f->data()); }) {
      model.template mass_and_force<T>(q, v, t, M->data(), f->data());
    } else {
      model.template mass<T>(q, t, M->data());
      model.template force<T>(q, v, t, f->data());
    }
  }

  // q'' and the multipliers of the active constraints.
  template <class S, class T>
  void accelerations(int mode, const T& t, const T* x, typename S::template Coordinates<T>* a,
                     typename S::template ConstraintVector<T>* lambda) const {
    using Coordinates = typename S::template Coordinates<T>;
    using MassMatrix = typename S::template MassMatrix<T>;
    using ConstraintVector = typename S::template ConstraintVector<T>;
    const int n = dof();
    MassMatrix M;
    Coordinates f;
    mass_and_force<S, T>(x, x + n, t, &M, &f);
    const ConstraintSet set = active_constraints(mode);
    const int k = set.size;
    if (k == 0) {
      // M is symmetric positive definite (check()): Cholesky, a third cheaper
      // than LU at n = 3; LU where Cholesky fails (a model off its contract).
      const Eigen::LLT<MassMatrix> llt(M);
      if (llt.info() == Eigen::Success)
        *a = detail::cholesky_solve(llt.matrixLLT(), f);
      else
        *a = detail::lu_solve(M.partialPivLu(), f);
      if (lambda) lambda->resize(0);
      return;
    }
    typename S::template ConstraintMatrix<T> H;
    ConstraintVector gamma;
    kinematics<S, T>(set, t, x, x + n, &H, &gamma, nullptr);
    // The saddle-point system M a - H^T lambda = f, H a = -gamma by its
    // Schur complement: (H M^-1 H^T) lambda = -gamma - H M^-1 f, both
    // matrices symmetric positive definite (independent constraints), so
    // Cholesky, with the substitutions of cholesky_solve (on Jets, not
    // Eigen's: see there).
    const auto solve = [](const auto& llt, auto rhs) { return detail::cholesky_solve(llt.matrixLLT(), rhs); };
    const Eigen::LLT<MassMatrix> mass_llt(M);
    if (mass_llt.info() == Eigen::Success) {
      using Columns = typename S::template Columns<T>;
      using Square = typename S::template Square<T>;
      const Coordinates free = solve(mass_llt, f);
      const Columns MinvHt = solve(mass_llt, Columns(H.transpose()));
      const Square W = H * MinvHt;
      const Eigen::LLT<Square> schur(W);
      if (schur.info() == Eigen::Success) {
        const ConstraintVector multipliers = solve(schur, ConstraintVector(-gamma - H * free));
        *a = free + MinvHt * multipliers;
        if (lambda) *lambda = multipliers;
        return;
      }
    }
    // Dependent constraints or a model off its contract: the full system.
    using SystemMatrix = typename S::template SystemMatrix<T>;
    using SystemVector = typename S::template SystemVector<T>;
    SystemMatrix K = SystemMatrix::Zero(n + k, n + k);
    K.topLeftCorner(n, n) = M;
    K.topRightCorner(n, k) = -H.transpose();
    K.bottomLeftCorner(k, n) = H;
    SystemVector rhs(n + k);
    rhs.head(n) = f;
    rhs.tail(k) = -gamma;
    const SystemVector solution = detail::lu_solve(K.partialPivLu(), rhs);
    *a = solution.head(n);
    if (lambda) *lambda = solution.tail(k);
  }

  template <class T>
  void field(int mode, const T& t, const T* x, T* dx) const {
    sized([&](auto sizes) {
      using S = decltype(sizes);
      const int n = dof();
      typename S::template Coordinates<T> a;
      accelerations<S, T>(mode, t, x, &a, nullptr);
      for (int i = 0; i < n; ++i) {
        dx[i] = x[n + i];
        dx[n + i] = a[i];
      }
    });
  }

  // Inactive: the gap h_k; active: the multiplier lambda_k.
  template <class T>
  T guard(int mode, int k, const T& t, const T* x) const {
    if (!active(mode, k)) return model.template constraint<T>(k, x, t);
    return sized([&](auto sizes) {
      using S = decltype(sizes);
      typename S::template Coordinates<T> a;
      typename S::template ConstraintVector<T> lambda;
      accelerations<S, T>(mode, t, x, &a, &lambda);
      const ConstraintSet set = active_constraints(mode);
      for (int r = 0; r < set.size; ++r)
        if (set.index[r] == k) return T(lambda[r]);
      return T(0.0);
    });
  }

  // The velocity after an impact of constraint k: the impulse H^T Lambda
  // (H over the active constraints and k) sets the normal velocities to
  // `target` (-e v_n for k bouncing, 0 for k sticking and the active ones).
  template <class T>
  void impact(int mode, int k, bool stick, const T& t, const T* x, T* v_plus) const {
    sized([&](auto sizes) { impact_sized<decltype(sizes), T>(mode, k, stick, t, x, v_plus); });
  }

  template <class S, class T>
  void impact_sized(int mode, int k, bool stick, const T& t, const T* x, T* v_plus) const {
    using MassMatrix = typename S::template MassMatrix<T>;
    using ConstraintVector = typename S::template ConstraintVector<T>;
    const int n = dof();
    ConstraintSet set = active_constraints(mode);
    set.push_back(k);
    const int m = set.size;
    MassMatrix M;
    M.resize(n, n);
    model.template mass<T>(x, t, M.data());
    typename S::template ConstraintMatrix<T> H;
    ConstraintVector vn;
    kinematics<S, T>(set, t, x, x + n, &H, nullptr, &vn);
    ConstraintVector target = ConstraintVector::Zero(m);
    const double e = stick ? 0.0 : model.restitution(k);
    target[m - 1] = -e * vn[m - 1];
    // Cholesky with cholesky_solve's substitutions, as accelerations(); LU
    // where it fails (dependent constraints).
    using Columns = typename S::template Columns<T>;
    using Square = typename S::template Square<T>;
    const Eigen::LLT<MassMatrix> mass_llt(M);
    const Columns MinvHt = mass_llt.info() == Eigen::Success
                               ? detail::cholesky_solve(mass_llt.matrixLLT(), Columns(H.transpose()))
                               : detail::lu_solve(M.partialPivLu(), Columns(H.transpose()));
    const Square W = H * MinvHt;
    const ConstraintVector rhs = target - vn;
    const Eigen::LLT<Square> w_llt(W);
    const ConstraintVector impulse = w_llt.info() == Eigen::Success
                                         ? detail::cholesky_solve(w_llt.matrixLLT(), rhs)
                                         : detail::lu_solve(W.partialPivLu(), rhs);
    const typename S::template Coordinates<T> dv = MinvHt * impulse;
    for (int i = 0; i < n; ++i) v_plus[i] = x[n + i] + dv[i];
  }

  // The normal velocity H_k q' + h_k,t of constraint k, on values.
  double normal_velocity(int k, double t, const double* x) const {
    ConstraintSet one;
    one.push_back(k);
    return sized([&](auto sizes) {
      using S = decltype(sizes);
      typename S::template ConstraintMatrix<double> H;
      typename S::template ConstraintVector<double> vn;
      kinematics<S, double>(one, t, x, x + dof(), &H, nullptr, &vn);
      return vn[0];
    });
  }

  int next_mode(int mode, int k, double t, const double* x) const {
    if (active(mode, k)) return mode & ~(1 << k);  // release
    const int n = dof();
    const double vn = normal_velocity(k, t, x);
    const bool settles = vn >= 0.0 || model.restitution(k) * -vn < stick_velocity;
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
      std::vector<double> xd(2 * n);
      for (int i = 0; i < 2 * n; ++i) xd[i] = series::value_of(x[i]);
      if (on_values().normal_velocity(k, series::value_of(t), xd.data()) >= 0.0) return;
    }
    impact<T>(mode, k, stick, t, x, x_plus + n);
  }

  // On the active constraints of `mode` a perturbation (dq, dq') keeps each
  // gap and its rate at zero: H dq = 0 and d(H q' + h_t)/dq dq + H dq' = 0.
  // The rows of that map, two per active constraint (the derivative of the
  // normal velocity by Jets, Taylor inside kinematics()).
  void constrained_directions(int mode, double t, const double* x, Matrix* C) const {
    using J = ceres::Jet<double, 4>;
    const int n = dof();
    const ConstraintSet which = active_constraints(mode);
    const int k = which.size;
    C->setZero(2 * k, 2 * n);
    if (k == 0) return;
    std::vector<J> q(n), v(n);
    for (int l = 0; l < n; ++l) q[l] = J(x[l]), v[l] = J(x[n + l]);
    for (int start = 0; start < n; start += 4) {
      const int width = std::min(4, n - start);
      for (int c = 0; c < width; ++c) q[start + c].v[c] = 1.0;
      MatrixT<J> H;
      VectorT<J> vn;
      constraint_kinematics<J>(active_set(mode), J(t), q.data(), v.data(), &H, nullptr, &vn);
      for (int r = 0; r < k; ++r) {
        for (int c = 0; c < width; ++c) (*C)(k + r, start + c) = vn[r].v[c];
        if (start == 0)
          for (int j = 0; j < n; ++j) (*C)(r, j) = (*C)(k + r, n + j) = H(r, j).a;
      }
      for (int c = 0; c < width; ++c) q[start + c].v[c] = 0.0;
    }
  }
};

template <class Model>
std::shared_ptr<AutoDiffHybrid<Mechanical<Model>>> make_mechanical(Model model,
                                                                   double stick_velocity = 1e-6) {
  return make_hybrid(Mechanical<Model>{std::move(model), stick_velocity});
}

}  // namespace saltus::flow
