#pragma once
// Truncated univariate Taylor arithmetic.
//
// A Taylor<C, N> holds the coefficients c_0 .. c_n (n = order() <= N) of a
// series  u(t) = c_0 + c_1 t + ... + c_n t^n + O(t^(n+1)),  so that
// c_k = u^(k)(t0) / k!. Evaluating a scalar-templated functor at
// s = s0 + t (Taylor::variable(s0, n)) gives the Taylor coefficients of the
// functor's outputs at s0 to order n: the planar curves of models/ use it for
// tangents, curvature and its arc-length derivatives to any order, and the
// extremal-point equations use Taylor<ceres::Jet, 1> to get c'(s) inside a
// Jacobian pass.
//
// Coefficients are generic (double, ceres::Jet, Boost.Math autodiff fvar, an
// exact rational type for + - * /, or another Taylor for bivariate series):
// the recurrences use only + - * / on coefficients, multiplication and
// division by small integers given as double, and the elementary function of
// the constant coefficient (found by ADL, `using std::sin; sin(c0)`).
//
// Orders. A series carries the order to which its coefficients are valid. A
// constant made from a number (Taylor(2.0), as functors write T(2.0)) is
// exact: it has order N with zero higher coefficients. Every operation
// returns the minimum of its operands' orders, so mixing a variable of order
// n with constants gives order n; mixing two truncated series of different
// orders gives the smaller one, which is what is known. differentiate()
// lowers the order by one.
//
// Recurrences (Griewank & Walther, "Evaluating Derivatives", 2nd ed., SIAM
// 2008, ch. 13, Table 13.2 and Sec. 13.2), for v = phi(u) and k >= 1:
//   v = u w      v_k = sum_{j=0}^{k} u_j w_{k-j}
//   v = u / w    v_k = (u_k - sum_{j=0}^{k-1} v_j w_{k-j}) / w_0
//   v = sqrt(u)  v_k = (u_k - sum_{j=1}^{k-1} v_j v_{k-j}) / (2 v_0)
//   v = exp(u)   v_k = (1/k) sum_{j=1}^{k} j u_j v_{k-j}                 (v' = u' v)
//   v = log(u)   v_k = (u_k - (1/k) sum_{j=1}^{k-1} j v_j u_{k-j}) / u_0  (u v' = u')
//   v = u^r      v_k = (1/(k u_0)) sum_{j=1}^{k} ((r+1) j - k) u_j v_{k-j} (u v' = r u' v)
//   s = sin(u), c = cos(u):  s_k = (1/k) sum j u_j c_{k-j},  c_k = -(1/k) sum j u_j s_{k-j}
//   sinh, cosh: the same with + in both.
// The rest follow the same pattern "v' = u' w", v_k = (1/k) sum_{j=1}^{k} j u_j w_{k-j}:
//   tan: w = 1 + v^2,  tanh: w = 1 - v^2 (w_{k-j} needs v only up to k-1),
//   atan: w = 1/(1 + u^2),  asin: w = 1/sqrt(1 - u^2),  acos: w = -1/sqrt(1 - u^2),
//   atan2(y, x): v' = (x y' - y x') / (x^2 + y^2).
// Integer powers use repeated squaring (exact at u_0 = 0, where the u^r
// recurrence divides by zero). Each operation costs O(n^2).
//
// Like double, a series does not throw on a singular operation (division by
// a series with w_0 = 0, log or sqrt at u_0 <= 0): the coefficients become
// inf or NaN. abs() is the right-sided expansion: the sign of the first
// nonzero coefficient.

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace saltus {

// The class and its functions live in saltus::series so that the overloads
// of sqrt, exp, ... (found by ADL on Taylor arguments) never hide the global
// ::sqrt(double) from unqualified calls elsewhere in namespace saltus.
namespace series {

namespace detail {

template <class T>
concept JetLike = requires(const T& x) {
  x.a;
  x.v;
};

// The innermost double of a scalar: itself, the .a of a (nested) ceres::Jet,
// the value of anything else that converts explicitly (fvar, Taylor).
template <class T>
double value_of(const T& x) {
  if constexpr (std::is_arithmetic_v<T>) {
    return static_cast<double>(x);
  } else if constexpr (JetLike<T>) {
    return value_of(x.a);
  } else {
    return static_cast<double>(x);
  }
}

}  // namespace detail

// The innermost double of a scalar (double, ceres::Jet, fvar, Taylor, nested).
template <class T>
double value_of(const T& x) {
  return detail::value_of(x);
}

template <class C, int N>
class Taylor {
  static_assert(N >= 0, "Taylor<C, N>: the capacity N must be >= 0");

 public:
  using coefficient_type = C;
  static constexpr int capacity = N;

  // The exact constant 0.
  Taylor() : order_(N) { c_.fill(C(0.0)); }
  // Exact constants (order N).
  template <class S>
  requires std::is_arithmetic_v<S>
  explicit Taylor(S value) : Taylor() { c_[0] = C(static_cast<double>(value)); }
  explicit Taylor(const C& value) requires(!std::is_arithmetic_v<C>) : Taylor() { c_[0] = value; }

  // The independent variable value + t, valid to `order` (0 <= order <= N).
  static Taylor variable(const C& value, int order) {
    check_order(order, "variable");
    Taylor r(value_tag{}, order);
    r.c_[0] = value;
    if (order >= 1) r.c_[1] = C(1.0);
    return r;
  }
  // A truncated series from its coefficients c_0 .. c_n (n = size - 1 <= N).
  static Taylor from_coefficients(const std::vector<C>& coefficients) {
    if (coefficients.empty()) throw std::invalid_argument("Taylor::from_coefficients: no coefficients");
    const int order = static_cast<int>(coefficients.size()) - 1;
    check_order(order, "from_coefficients");
    Taylor r(value_tag{}, order);
    std::copy(coefficients.begin(), coefficients.end(), r.c_.begin());
    return r;
  }

  // The order to which the coefficients are valid.
  int order() const { return order_; }
  // c_k (unchecked; zero above order() for results of this class).
  const C& operator[](int k) const { return c_[k]; }
  C& operator[](int k) { return c_[k]; }
  const C& value() const { return c_[0]; }
  // u^(k)(t0) = k! c_k; throws if k > order().
  C derivative(int k) const {
    if (k < 0 || k > order_)
      throw std::invalid_argument("Taylor::derivative: order " + std::to_string(k) + " is outside 0.." +
                                  std::to_string(order_));
    double factorial = 1.0;
    for (int j = 2; j <= k; ++j) factorial *= j;
    return c_[k] * factorial;
  }
  std::vector<C> coefficients() const { return std::vector<C>(c_.begin(), c_.begin() + order_ + 1); }
  // The same series known only to `order` (<= order()).
  Taylor truncated(int order) const {
    if (order < 0 || order > order_)
      throw std::invalid_argument("Taylor::truncated: order " + std::to_string(order) + " is outside 0.." +
                                  std::to_string(order_));
    Taylor r(value_tag{}, order);
    std::copy(c_.begin(), c_.begin() + order + 1, r.c_.begin());
    return r;
  }
  // The value as a double, so that code written for scalars (comparisons,
  // Expression's min/max) can branch on it.
  explicit operator double() const { return detail::value_of(c_[0]); }

  // N = 1 (a dual number: the tangent-lifted fields of continuation/flow/
  // tangent_lifted.h evaluate every model on it) takes straight-line code:
  // the same operations in the same order as the loops, which for a runtime
  // order do not unroll and kept operator* out of line (a Brusselator field
  // on Taylor<double, 1> cost 40 times the field on double; bench/
  // brusselator_cycles.cpp, BrusselatorLiftedField).
  Taylor operator-() const {
    Taylor r(value_tag{}, order_);
    if constexpr (N == 1) {
      r.c_[0] = -c_[0];
      if (order_ == 1) r.c_[1] = -c_[1];
      return r;
    }
    for (int k = 0; k <= order_; ++k) r.c_[k] = -c_[k];
    return r;
  }
  Taylor operator+() const { return *this; }

  Taylor& operator+=(const Taylor& b) {
    order_ = std::min(order_, b.order_);
    if constexpr (N == 1) {
      c_[0] += b.c_[0];
      c_[1] = order_ == 1 ? C(c_[1] + b.c_[1]) : C(0.0);
      return *this;
    }
    for (int k = 0; k <= order_; ++k) c_[k] += b.c_[k];
    zero_above();
    return *this;
  }
  Taylor& operator-=(const Taylor& b) {
    order_ = std::min(order_, b.order_);
    if constexpr (N == 1) {
      c_[0] -= b.c_[0];
      c_[1] = order_ == 1 ? C(c_[1] - b.c_[1]) : C(0.0);
      return *this;
    }
    for (int k = 0; k <= order_; ++k) c_[k] -= b.c_[k];
    zero_above();
    return *this;
  }
  Taylor& operator*=(const Taylor& b) { return *this = *this * b; }
  Taylor& operator/=(const Taylor& b) { return *this = *this / b; }
  Taylor& operator+=(double b) {
    c_[0] += b;
    return *this;
  }
  Taylor& operator-=(double b) {
    c_[0] -= b;
    return *this;
  }
  Taylor& operator*=(double b) {
    if constexpr (N == 1) {
      c_[0] *= b;
      if (order_ == 1) c_[1] *= b;
      return *this;
    }
    for (int k = 0; k <= order_; ++k) c_[k] *= b;
    return *this;
  }
  Taylor& operator/=(double b) {
    if constexpr (N == 1) {
      c_[0] /= b;
      if (order_ == 1) c_[1] /= b;
      return *this;
    }
    for (int k = 0; k <= order_; ++k) c_[k] /= b;
    return *this;
  }

  // A zero series valid to `order` (internal building block, public for the
  // free functions below).
  static Taylor zero(int order) { return Taylor(value_tag{}, order); }

 private:
  struct value_tag {};
  Taylor(value_tag, int order) : order_(order) { c_.fill(C(0.0)); }
  static void check_order(int order, const char* where) {
    if (order < 0 || order > N)
      throw std::invalid_argument(std::string("Taylor::") + where + ": order " + std::to_string(order) +
                                  " is outside 0.." + std::to_string(N) + " (the capacity)");
  }
  void zero_above() {
    for (int k = order_ + 1; k <= N; ++k) c_[k] = C(0.0);
  }

  std::array<C, N + 1> c_;
  int order_;
};

// ---- arithmetic --------------------------------------------------------------

template <class C, int N>
Taylor<C, N> operator+(Taylor<C, N> a, const Taylor<C, N>& b) {
  return a += b;
}
template <class C, int N>
Taylor<C, N> operator-(Taylor<C, N> a, const Taylor<C, N>& b) {
  return a -= b;
}
template <class C, int N>
Taylor<C, N> operator*(const Taylor<C, N>& a, const Taylor<C, N>& b) {
  const int n = std::min(a.order(), b.order());
  auto r = Taylor<C, N>::zero(n);
  if constexpr (N == 1) {  // the loop's sums, unrolled
    r[0] = a[0] * b[0];
    if (n == 1) r[1] = a[0] * b[1] + a[1] * b[0];
    return r;
  }
  for (int k = 0; k <= n; ++k) {
    C sum = a[0] * b[k];
    for (int j = 1; j <= k; ++j) sum += a[j] * b[k - j];
    r[k] = sum;
  }
  return r;
}
template <class C, int N>
Taylor<C, N> operator/(const Taylor<C, N>& a, const Taylor<C, N>& b) {
  const int n = std::min(a.order(), b.order());
  auto r = Taylor<C, N>::zero(n);
  if constexpr (N == 1) {  // the loop's recurrence, unrolled
    r[0] = a[0] / b[0];
    if (n == 1) r[1] = (a[1] - r[0] * b[1]) / b[0];
    return r;
  }
  for (int k = 0; k <= n; ++k) {
    C sum = a[k];
    for (int j = 0; j < k; ++j) sum -= r[j] * b[k - j];
    r[k] = sum / b[0];
  }
  return r;
}

// With numbers (any arithmetic type converts to the double parameter).
template <class C, int N>
Taylor<C, N> operator+(Taylor<C, N> a, double b) {
  return a += b;
}
template <class C, int N>
Taylor<C, N> operator+(double a, Taylor<C, N> b) {
  return b += a;
}
template <class C, int N>
Taylor<C, N> operator-(Taylor<C, N> a, double b) {
  return a -= b;
}
template <class C, int N>
Taylor<C, N> operator-(double a, const Taylor<C, N>& b) {
  Taylor<C, N> r = -b;
  return r += a;
}
template <class C, int N>
Taylor<C, N> operator*(Taylor<C, N> a, double b) {
  return a *= b;
}
template <class C, int N>
Taylor<C, N> operator*(double a, Taylor<C, N> b) {
  return b *= a;
}
template <class C, int N>
Taylor<C, N> operator/(Taylor<C, N> a, double b) {
  return a /= b;
}
template <class C, int N>
Taylor<C, N> operator/(double a, const Taylor<C, N>& b) {
  return Taylor<C, N>(a) / b;
}

// With a coefficient (a ceres::Jet or fvar constant), when that is not a number.
template <class C, int N>
requires(!std::is_arithmetic_v<C>) Taylor<C, N>
operator+(Taylor<C, N> a, const C& b) {
  a[0] += b;
  return a;
}
template <class C, int N>
requires(!std::is_arithmetic_v<C>) Taylor<C, N>
operator+(const C& a, Taylor<C, N> b) {
  b[0] += a;
  return b;
}
template <class C, int N>
requires(!std::is_arithmetic_v<C>) Taylor<C, N>
operator-(Taylor<C, N> a, const C& b) {
  a[0] -= b;
  return a;
}
template <class C, int N>
requires(!std::is_arithmetic_v<C>) Taylor<C, N>
operator-(const C& a, const Taylor<C, N>& b) {
  Taylor<C, N> r = -b;
  r[0] += a;
  return r;
}
template <class C, int N>
requires(!std::is_arithmetic_v<C>) Taylor<C, N>
operator*(Taylor<C, N> a, const C& b) {
  for (int k = 0; k <= a.order(); ++k) a[k] = a[k] * b;
  return a;
}
template <class C, int N>
requires(!std::is_arithmetic_v<C>) Taylor<C, N>
operator*(const C& a, const Taylor<C, N>& b) { return b * a; }
template <class C, int N>
requires(!std::is_arithmetic_v<C>) Taylor<C, N>
operator/(Taylor<C, N> a, const C& b) {
  for (int k = 0; k <= a.order(); ++k) a[k] = a[k] / b;
  return a;
}
template <class C, int N>
requires(!std::is_arithmetic_v<C>) Taylor<C, N>
operator/(const C& a, const Taylor<C, N>& b) { return Taylor<C, N>(a) / b; }

// ---- calculus on series ------------------------------------------------------

// u'(t): coefficients (k + 1) c_{k+1}, valid to order() - 1. Throws for
// order 0 (nothing is known of the derivative).
template <class C, int N>
Taylor<C, N> differentiate(const Taylor<C, N>& u) {
  if (u.order() < 1)
    throw std::invalid_argument("differentiate: a Taylor series of order 0 has no known derivative");
  auto r = Taylor<C, N>::zero(u.order() - 1);
  for (int k = 0; k < u.order(); ++k) r[k] = u[k + 1] * static_cast<double>(k + 1);
  return r;
}

// v(t) = c0 + integral_0^t u, valid to order() + 1 (capped at N).
template <class C, int N>
Taylor<C, N> integrate(const Taylor<C, N>& u, const C& c0) {
  const int n = std::min(u.order() + 1, N);
  auto r = Taylor<C, N>::zero(n);
  r[0] = c0;
  for (int k = 1; k <= n; ++k) r[k] = u[k - 1] / static_cast<double>(k);
  return r;
}

namespace detail {

// v with v' = u' w and v_0 given: v_k = (1/k) sum_{j=1}^{k} j u_j w_{k-j}.
template <class C, int N>
Taylor<C, N> integrate_chain(const Taylor<C, N>& u, const Taylor<C, N>& w, const C& v0) {
  const int n = std::min(u.order(), w.order() + 1);
  auto v = Taylor<C, N>::zero(n);
  v[0] = v0;
  for (int k = 1; k <= n; ++k) {
    C sum = u[1] * w[k - 1];
    for (int j = 2; j <= k; ++j) sum += (u[j] * w[k - j]) * static_cast<double>(j);
    v[k] = sum / static_cast<double>(k);
  }
  return v;
}

// tan (sign +1) and tanh (sign -1): v' = u' (1 + sign v^2), w built alongside v.
template <class C, int N>
Taylor<C, N> tan_like(const Taylor<C, N>& u, const C& v0, double sign) {
  const int n = u.order();
  auto v = Taylor<C, N>::zero(n);
  auto w = Taylor<C, N>::zero(n);
  v[0] = v0;
  w[0] = C(1.0) + (v0 * v0) * sign;
  for (int k = 1; k <= n; ++k) {
    C sum = u[1] * w[k - 1];
    for (int j = 2; j <= k; ++j) sum += (u[j] * w[k - j]) * static_cast<double>(j);
    v[k] = sum / static_cast<double>(k);
    C square = v[0] * v[k];  // (v^2)_k = sum_{j=0}^{k} v_j v_{k-j}
    for (int j = 1; j <= k; ++j) square += v[j] * v[k - j];
    w[k] = square * sign;
  }
  return v;
}

}  // namespace detail

// ---- elementary functions ----------------------------------------------------

template <class C, int N>
Taylor<C, N> sqrt(const Taylor<C, N>& u) {
  using std::sqrt;
  const int n = u.order();
  auto v = Taylor<C, N>::zero(n);
  v[0] = sqrt(u[0]);
  for (int k = 1; k <= n; ++k) {
    C sum = u[k];
    for (int j = 1; j < k; ++j) sum -= v[j] * v[k - j];
    v[k] = sum / (v[0] * 2.0);
  }
  return v;
}

template <class C, int N>
Taylor<C, N> exp(const Taylor<C, N>& u) {
  using std::exp;
  const int n = u.order();
  auto v = Taylor<C, N>::zero(n);
  v[0] = exp(u[0]);
  for (int k = 1; k <= n; ++k) {
    C sum = u[1] * v[k - 1];
    for (int j = 2; j <= k; ++j) sum += (u[j] * v[k - j]) * static_cast<double>(j);
    v[k] = sum / static_cast<double>(k);
  }
  return v;
}

template <class C, int N>
Taylor<C, N> log(const Taylor<C, N>& u) {
  using std::log;
  const int n = u.order();
  auto v = Taylor<C, N>::zero(n);
  v[0] = log(u[0]);
  for (int k = 1; k <= n; ++k) {
    C sum = u[k] * static_cast<double>(k);
    for (int j = 1; j < k; ++j) sum -= (v[j] * u[k - j]) * static_cast<double>(j);
    v[k] = sum / (u[0] * static_cast<double>(k));
  }
  return v;
}

namespace detail {
// sin/cos (sign -1) or sinh/cosh (sign +1) of u with the values s0, c0 at t = 0.
template <class C, int N>
void trig_pair(const Taylor<C, N>& u, const C& s0, const C& c0, double sign, Taylor<C, N>* s,
               Taylor<C, N>* c) {
  const int n = u.order();
  *s = Taylor<C, N>::zero(n);
  *c = Taylor<C, N>::zero(n);
  (*s)[0] = s0;
  (*c)[0] = c0;
  for (int k = 1; k <= n; ++k) {
    C ss = u[1] * (*c)[k - 1];
    C cc = u[1] * (*s)[k - 1];
    for (int j = 2; j <= k; ++j) {
      ss += (u[j] * (*c)[k - j]) * static_cast<double>(j);
      cc += (u[j] * (*s)[k - j]) * static_cast<double>(j);
    }
    (*s)[k] = ss / static_cast<double>(k);
    (*c)[k] = (cc * sign) / static_cast<double>(k);  // exact on rationals: no rounded 1/k
  }
}
}  // namespace detail

template <class C, int N>
Taylor<C, N> sin(const Taylor<C, N>& u) {
  using std::cos, std::sin;
  Taylor<C, N> s, c;
  detail::trig_pair(u, C(sin(u[0])), C(cos(u[0])), -1.0, &s, &c);
  return s;
}

template <class C, int N>
Taylor<C, N> cos(const Taylor<C, N>& u) {
  using std::cos, std::sin;
  Taylor<C, N> s, c;
  detail::trig_pair(u, C(sin(u[0])), C(cos(u[0])), -1.0, &s, &c);
  return c;
}

template <class C, int N>
Taylor<C, N> sinh(const Taylor<C, N>& u) {
  using std::cosh, std::sinh;
  Taylor<C, N> s, c;
  detail::trig_pair(u, C(sinh(u[0])), C(cosh(u[0])), 1.0, &s, &c);
  return s;
}

template <class C, int N>
Taylor<C, N> cosh(const Taylor<C, N>& u) {
  using std::cosh, std::sinh;
  Taylor<C, N> s, c;
  detail::trig_pair(u, C(sinh(u[0])), C(cosh(u[0])), 1.0, &s, &c);
  return c;
}

template <class C, int N>
Taylor<C, N> tan(const Taylor<C, N>& u) {
  using std::tan;
  return detail::tan_like(u, C(tan(u[0])), 1.0);
}

template <class C, int N>
Taylor<C, N> tanh(const Taylor<C, N>& u) {
  using std::tanh;
  return detail::tan_like(u, C(tanh(u[0])), -1.0);
}

template <class C, int N>
Taylor<C, N> atan(const Taylor<C, N>& u) {
  using std::atan;
  const Taylor<C, N> w = 1.0 / (1.0 + u * u);
  return detail::integrate_chain(u, w, C(atan(u[0])));
}

template <class C, int N>
Taylor<C, N> asin(const Taylor<C, N>& u) {
  using std::asin;
  const Taylor<C, N> w = 1.0 / sqrt(1.0 - u * u);
  return detail::integrate_chain(u, w, C(asin(u[0])));
}

template <class C, int N>
Taylor<C, N> acos(const Taylor<C, N>& u) {
  using std::acos;
  const Taylor<C, N> w = -1.0 / sqrt(1.0 - u * u);
  return detail::integrate_chain(u, w, C(acos(u[0])));
}

// atan2(y, x): v_0 = atan2(y_0, x_0), v' = (x y' - y x') / (x^2 + y^2).
template <class C, int N>
Taylor<C, N> atan2(const Taylor<C, N>& y, const Taylor<C, N>& x) {
  using std::atan2;
  const int n = std::min(x.order(), y.order());
  auto v = Taylor<C, N>::zero(n);
  v[0] = atan2(y[0], x[0]);
  if (n == 0) return v;
  const Taylor<C, N> xs = x.truncated(n), ys = y.truncated(n);
  const Taylor<C, N> q = (xs * differentiate(ys) - ys * differentiate(xs)) / (xs * xs + ys * ys);
  for (int k = 1; k <= n; ++k) v[k] = q[k - 1] / static_cast<double>(k);
  return v;
}

// Integer powers by repeated squaring (exact where u_0 = 0).
template <class C, int N>
Taylor<C, N> pow(const Taylor<C, N>& u, int n) {
  const bool invert = n < 0;
  unsigned m = invert ? static_cast<unsigned>(-(n + 1)) + 1u : static_cast<unsigned>(n);
  Taylor<C, N> result(1.0);
  Taylor<C, N> base = u;
  bool first = true;
  while (m != 0) {
    if (m & 1u) {
      result = first ? base : result * base;
      first = false;
    }
    m >>= 1u;
    if (m != 0) base = base * base;
  }
  return invert ? 1.0 / result : result;
}

// u^r for a real exponent: integer r goes to the exact path above, otherwise
// the recurrence of u v' = r u' v (needs u_0 != 0).
template <class C, int N>
Taylor<C, N> pow(const Taylor<C, N>& u, double r) {
  using std::pow;
  if (r == std::floor(r) && std::abs(r) <= 1024.0) return pow(u, static_cast<int>(r));
  const int n = u.order();
  auto v = Taylor<C, N>::zero(n);
  v[0] = pow(u[0], r);
  for (int k = 1; k <= n; ++k) {
    C sum = (u[1] * v[k - 1]) * ((r + 1.0) - k);
    for (int j = 2; j <= k; ++j) sum += (u[j] * v[k - j]) * ((r + 1.0) * j - k);
    v[k] = sum / (u[0] * static_cast<double>(k));
  }
  return v;
}

// f^g = exp(g log f) for a series exponent; c^g for a number base.
template <class C, int N>
Taylor<C, N> pow(const Taylor<C, N>& f, const Taylor<C, N>& g) {
  return exp(g * log(f));
}
template <class C, int N>
Taylor<C, N> pow(double c, const Taylor<C, N>& g) {
  return exp(g * std::log(c));
}

// Comparisons compare the values, as ceres::Jet's do, so that a model's
// branch on its state (an impact law's "is the ball approaching?") takes the
// same side for a series as for its value: the tangent-lifted systems of
// continuation/flow/tangent_lifted.h evaluate whole models on Taylor<T, 1>.
template <class C, int N>
bool operator<(const Taylor<C, N>& a, const Taylor<C, N>& b) {
  return detail::value_of(a[0]) < detail::value_of(b[0]);
}
template <class C, int N>
bool operator>(const Taylor<C, N>& a, const Taylor<C, N>& b) {
  return b < a;
}
template <class C, int N>
bool operator<=(const Taylor<C, N>& a, const Taylor<C, N>& b) {
  return !(b < a);
}
template <class C, int N>
bool operator>=(const Taylor<C, N>& a, const Taylor<C, N>& b) {
  return !(a < b);
}
template <class C, int N>
bool operator<(const Taylor<C, N>& a, double b) {
  return detail::value_of(a[0]) < b;
}
template <class C, int N>
bool operator<(double a, const Taylor<C, N>& b) {
  return a < detail::value_of(b[0]);
}
template <class C, int N>
bool operator>(const Taylor<C, N>& a, double b) {
  return b < a;
}
template <class C, int N>
bool operator>(double a, const Taylor<C, N>& b) {
  return b < a;
}
template <class C, int N>
bool operator<=(const Taylor<C, N>& a, double b) {
  return !(b < a);
}
template <class C, int N>
bool operator<=(double a, const Taylor<C, N>& b) {
  return !(b < a);
}
template <class C, int N>
bool operator>=(const Taylor<C, N>& a, double b) {
  return !(a < b);
}
template <class C, int N>
bool operator>=(double a, const Taylor<C, N>& b) {
  return !(a < b);
}

// Equality compares the values too, as ceres::Jet's does: a == b exactly
// when neither a < b nor b < a, so that Eigen's generic code (which tests a
// scalar against zero or one) sees a series as its value. A test of a
// series against zero for its derivative parts must read them itself.
template <class C, int N>
bool operator==(const Taylor<C, N>& a, const Taylor<C, N>& b) {
  return detail::value_of(a[0]) == detail::value_of(b[0]);
}
template <class C, int N>
bool operator!=(const Taylor<C, N>& a, const Taylor<C, N>& b) {
  return !(a == b);
}
template <class C, int N>
bool operator==(const Taylor<C, N>& a, double b) {
  return detail::value_of(a[0]) == b;
}
template <class C, int N>
bool operator==(double a, const Taylor<C, N>& b) {
  return b == a;
}
template <class C, int N>
bool operator!=(const Taylor<C, N>& a, double b) {
  return !(a == b);
}
template <class C, int N>
bool operator!=(double a, const Taylor<C, N>& b) {
  return !(b == a);
}

// The right-sided expansion of |u|: u times the sign of its first nonzero
// coefficient (|u| is not analytic where u_0 = 0).
template <class C, int N>
Taylor<C, N> abs(const Taylor<C, N>& u) {
  for (int k = 0; k <= u.order(); ++k) {
    const double ck = detail::value_of(u[k]);
    if (ck != 0.0) return ck < 0.0 ? -u : u;
  }
  return u;
}

}  // namespace series

using series::differentiate;
using series::integrate;
using series::Taylor;

}  // namespace saltus

namespace Eigen {

// Taylor series as Eigen scalars (the mechanical systems of
// continuation/flow/mechanical.h solve their DAE with Eigen's Cholesky on
// the model's scalar, which is a Taylor<Jet, 1> in the tangent-lifted
// system). Real numbers, one level above the coefficient's traits, as
// ceres/jet.h declares them for Jets.
template <class C, int N>
struct NumTraits<saltus::series::Taylor<C, N>> {
  using Real = saltus::series::Taylor<C, N>;
  using NonInteger = Real;
  using Nested = Real;
  using Literal = Real;
  static Real dummy_precision() { return Real(1e-12); }
  static Real epsilon() { return Real(std::numeric_limits<double>::epsilon()); }
  static Real highest() { return Real((std::numeric_limits<double>::max)()); }
  static Real lowest() { return Real(-(std::numeric_limits<double>::max)()); }
  static int digits10() { return std::numeric_limits<double>::digits10; }
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    ReadCost = (N + 1) * NumTraits<C>::ReadCost,
    AddCost = (N + 1) * NumTraits<C>::AddCost,
    MulCost = (N + 1) * (N + 2) / 2 * NumTraits<C>::MulCost,
    HasFloatingPoint = 1,
    RequireInitialization = 1
  };
  template <bool Vectorized>
  struct Div {
    enum { AVX = false, Cost = (N + 1) * (N + 2) / 2 * NumTraits<C>::MulCost };
  };
};

}  // namespace Eigen
