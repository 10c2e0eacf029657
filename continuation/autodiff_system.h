#pragma once
// AutoDiffSystem<F>: a System from a functor templated on its scalar,
//
//   struct Cusp {
//     int state_size() const { return 1; }
//     int parameter_size() const { return 2; }
//     template <class T> void operator()(const T* u, T* f) const {
//       f[0] = u[1] + u[2] * u[0] - u[0] * u[0] * u[0];  // u = (x, mu, lambda)
//     }
//   };
//
// Jacobians come from ceres::Jet in passes of kStride directions (as Ceres'
// DynamicAutoDiffCostFunction does); second derivatives from Boost.Math
// autodiff. The functor must therefore accept double, ceres::Jet and
// boost::math::differentiation::fvar scalars: write T(0.0), 2.0 * x and
// `using std::exp; exp(x)` and all three work. A
// functor with `std::vector<std::vector<int>> sparsity() const` (the columns
// of u each equation uses) gets a coloured sparse Jacobian: a banded system
// costs a few passes whatever its size. Optional `state_names()` and
// `parameter_names()` name the components.

#include <ceres/jet.h>

#include <boost/math/differentiation/autodiff.hpp>
#include <concepts>
#include <stdexcept>
#include <string>
#include <utility>

#include "continuation/coloring.h"
#include "continuation/system.h"

namespace saltus {

template <class F>
concept Problem = requires(const F& f, const double* u, double* r) {
  { f.state_size() } -> std::convertible_to<int>;
  { f.parameter_size() } -> std::convertible_to<int>;
  f(u, r);
};

template <class F>
concept HasSparsity = requires(const F& f) {
  { f.sparsity() } -> std::convertible_to<std::vector<std::vector<int>>>;
};

template <class F>
concept HasStateNames = requires(const F& f) {
  { f.state_names() } -> std::convertible_to<std::vector<std::string>>;
};
template <class F>
concept HasParameterNames = requires(const F& f) {
  { f.parameter_names() } -> std::convertible_to<std::vector<std::string>>;
};

template <Problem F>
class AutoDiffSystem : public System {
 public:
  static constexpr int kStride = 4;
  using Jet = ceres::Jet<double, kStride>;

  explicit AutoDiffSystem(F functor) : f_(std::move(functor)) {
    if constexpr (HasSparsity<F>) {
      const auto rows = f_.sparsity();
      coloring_ = color_columns(rows, size());
      pattern_ = sparsity_pattern(rows, size());
    }
  }

  using System::jacobian;  // the Eigen-vector convenience forms
  using System::residual;
  const F& functor() const { return f_; }
  int state_size() const override { return f_.state_size(); }
  int parameter_size() const override { return f_.parameter_size(); }
  std::vector<std::string> state_names() const override {
    if constexpr (HasStateNames<F>) return f_.state_names();
    return System::state_names();
  }
  std::vector<std::string> parameter_names() const override {
    if constexpr (HasParameterNames<F>) return f_.parameter_names();
    return System::parameter_names();
  }

  void residual(const double* u, double* f) const override { f_(u, f); }

  void jacobian(const double* u, Matrix* J) const override {
    const int n = state_size(), m = size();
    J->resize(n, m);
    std::vector<Jet> z(m), r(n);
    for (int j = 0; j < m; ++j) z[j] = Jet(u[j]);
    for (int start = 0; start < m; start += kStride) {
      const int width = std::min(kStride, m - start);
      for (int k = 0; k < width; ++k) z[start + k].v[k] = 1.0;
      f_(z.data(), r.data());
      for (int i = 0; i < n; ++i)
        for (int k = 0; k < width; ++k) (*J)(i, start + k) = r[i].v[k];
      for (int k = 0; k < width; ++k) z[start + k].v[k] = 0.0;
    }
  }

  bool is_sparse() const override { return HasSparsity<F>; }

  void sparse_jacobian(const double* u, SparseMatrix* J) const override {
    if constexpr (!HasSparsity<F>) {
      System::sparse_jacobian(u, J);
    } else {
      const int n = state_size(), m = size();
      *J = pattern_;
      std::vector<Jet> z(m), r(n);
      for (int start = 0; start < coloring_.colors; start += kStride) {
        for (int j = 0; j < m; ++j) {
          z[j] = Jet(u[j]);
          const int c = coloring_.color[j] - start;
          if (c >= 0 && c < kStride) z[j].v[c] = 1.0;
        }
        f_(z.data(), r.data());
        for (int j = 0; j < m; ++j) {
          const int c = coloring_.color[j] - start;
          if (c < 0 || c >= kStride) continue;
          for (SparseMatrix::InnerIterator it(*J, j); it; ++it) it.valueRef() = r[it.row()].v[c];
        }
      }
    }
  }

  // Second derivatives by Boost.Math autodiff, not nested ceres::Jet: a nested
  // Jet does not mix with double (2.0 * u, T(0.0)), so ordinary functors
  // would not compile for it. One pass per column colour (per column when
  // dense) gives d^2 F_i / dz_j dt of F(u + s e_j + t d).
  void second_derivative(const double* u, const double* d, Matrix* H) const override {
    namespace ad = boost::math::differentiation;
    const int n = state_size(), m = size();
    const auto [s, t] = ad::make_ftuple<double, 1, 1>(0.0, 0.0);
    using Dual2 = decltype(s * t);
    std::vector<Dual2> base(m), z(m), r(n);
    for (int j = 0; j < m; ++j) base[j] = Dual2(u[j]) + d[j] * t;
    H->setZero(n, m);
    const int passes = HasSparsity<F> ? coloring_.colors : m;
    auto in_pass = [&](int j, int pass) { return HasSparsity<F> ? coloring_.color[j] == pass : j == pass; };
    for (int pass = 0; pass < passes; ++pass) {
      for (int j = 0; j < m; ++j) z[j] = in_pass(j, pass) ? base[j] + s : base[j];
      f_(z.data(), r.data());
      if constexpr (HasSparsity<F>) {
        for (int j = 0; j < m; ++j) {
          if (!in_pass(j, pass)) continue;
          for (SparseMatrix::InnerIterator it(pattern_, j); it; ++it)
            (*H)(it.row(), j) = static_cast<double>(r[it.row()].derivative(1, 1));
        }
      } else {
        for (int i = 0; i < n; ++i) (*H)(i, pass) = static_cast<double>(r[i].derivative(1, 1));
      }
    }
  }

  // One pass of Boost.Math autodiff in t along F(u + t d): of order 3 when
  // no more is asked (the first Lyapunov coefficient), else of order 5 (the
  // second), since a series' cost grows with the square of its order.
  void derivatives_along(const double* u, const double* d, int order, Matrix* D) const override {
    if (order < 1 || order > 5)
      throw std::invalid_argument("derivatives_along: order " + std::to_string(order) + " is outside 1..5");
    if (order <= 3)
      along<3>(u, d, order, D);
    else
      along<5>(u, d, order, D);
  }

 private:
  template <int N>
  void along(const double* u, const double* d, int order, Matrix* D) const {
    namespace ad = boost::math::differentiation;
    const int n = state_size(), m = size();
    const auto t = ad::make_fvar<double, N>(0.0);
    using Series = std::remove_const_t<decltype(t)>;
    std::vector<Series> z(m), r(n);
    for (int j = 0; j < m; ++j) z[j] = Series(u[j]) + d[j] * t;
    f_(z.data(), r.data());
    D->resize(n, order);
    for (int i = 0; i < n; ++i)
      for (int k = 1; k <= order; ++k) (*D)(i, k - 1) = static_cast<double>(r[i].derivative(k));
  }

  F f_;
  ColumnColoring coloring_;
  SparseMatrix pattern_;
};

template <Problem F>
std::shared_ptr<AutoDiffSystem<F>> make_system(F functor) {
  return std::make_shared<AutoDiffSystem<F>>(std::move(functor));
}

}  // namespace saltus
