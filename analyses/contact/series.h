#pragma once
// Number types for the classification of degenerate contact points
// (analyses/contact/classification.h):
//
// - Rational: an exact rational (boost::multiprecision::cpp_rational, header
//   only) wrapped so that it mixes with double the way the templated models
//   expect (T(0.0), 2.0 * x, x / 3.0) and so that the elementary functions the
//   models call (sqrt, sin, cos) are found by ADL. They are exact where the
//   result is rational (sqrt of a square, sin 0, cos 0) and otherwise throw
//   InexactError, so an "exact" result is never silently rounded.
//
// - Series<S>: a truncated multivariate Taylor series (a polynomial jet) over
//   a downward-closed set of monomials (MonomialSet), with coefficients S =
//   double or Rational. The set is given by linear constraints w . alpha <= b
//   on the exponent vectors alpha, e.g. "2 a_1 + a_2 + a_3 + a_4 + a_5 <= N and
//   a_3 + a_4 + a_5 <= 1": all pure terms in (p1, p2) with p1 counted twice
//   (p1 = h(p2) = O(p2^2) on the centre manifold) and the terms linear in the
//   parameters. Because the set is downward closed, a product truncated to the
//   set depends only on the factors truncated to the set, so every operation
//   is exact on the monomials kept (no finite differences, no rounding beyond
//   that of S).
//
//   Products use a precomputed table of the pairs of monomials whose product
//   stays in the set. Elementary functions are compositions with the
//   univariate Taylor series at the constant term,
//     phi(u) = sum_{k=0}^{W} phi^(k)(u_0)/k! (u - u_0)^k,
//   exact on the set because u - u_0 has grading weight >= 1 and the set has
//   weights <= W (the first constraint is the grading; all its weights must be
//   >= 1). Griewank & Walther, "Evaluating Derivatives", 2nd ed., Sec. 13.2
//   (Taylor arithmetic) and 13.3 (multivariate Taylor coefficients).
//
// Both types satisfy what the scalar-templated models need (constructible from
// double, + - * / with each other and with double, explicit conversion to
// double, sqrt/sin/cos by ADL), so models::ExtremalEquations runs on them
// unchanged, also inside continuation/taylor.h's Taylor<Series<S>, 1>.

#include <algorithm>
#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace saltus::contact {

// An operation whose exact result is not rational (sqrt 2, sin 1, a double
// that is not a short dyadic, ...).
class InexactError : public std::domain_error {
 public:
  using std::domain_error::domain_error;
};

// ---- Rational -----------------------------------------------------------------

class Rational {
 public:
  using value_type = boost::multiprecision::cpp_rational;

  Rational() = default;
  // Exact: every finite double is a dyadic rational. Implicit, as double is
  // for the models (T(0.0), 2.0 * x).
  Rational(double v) {  // NOLINT(google-explicit-constructor)
    if (!std::isfinite(v)) throw InexactError("Rational: " + std::to_string(v) + " is not finite");
    v_ = value_type(v);
  }
  Rational(int v) : v_(v) {}  // NOLINT
  Rational(long long numerator, long long denominator) : v_(value_type(numerator) / denominator) {}
  explicit Rational(value_type v) : v_(std::move(v)) {}

  const value_type& value() const { return v_; }
  explicit operator double() const { return v_.convert_to<double>(); }
  bool is_zero() const { return v_ == 0; }
  int sign() const { return v_.sign(); }
  // "-16/7", "3", "0".
  std::string str() const;

  Rational operator-() const { return Rational(value_type(-v_)); }
  Rational& operator+=(const Rational& b) {
    v_ += b.v_;
    return *this;
  }
  Rational& operator-=(const Rational& b) {
    v_ -= b.v_;
    return *this;
  }
  Rational& operator*=(const Rational& b) {
    v_ *= b.v_;
    return *this;
  }
  Rational& operator/=(const Rational& b) {
    if (b.v_ == 0) throw std::domain_error("Rational: division by zero");
    v_ /= b.v_;
    return *this;
  }
  friend Rational operator+(Rational a, const Rational& b) { return a += b; }
  friend Rational operator-(Rational a, const Rational& b) { return a -= b; }
  friend Rational operator*(Rational a, const Rational& b) { return a *= b; }
  friend Rational operator/(Rational a, const Rational& b) { return a /= b; }
  friend Rational operator+(Rational a, double b) { return a += Rational(b); }
  friend Rational operator+(double a, Rational b) { return b += Rational(a); }
  friend Rational operator-(Rational a, double b) { return a -= Rational(b); }
  friend Rational operator-(double a, const Rational& b) { return Rational(a) - b; }
  friend Rational operator*(Rational a, double b) { return a *= Rational(b); }
  friend Rational operator*(double a, Rational b) { return b *= Rational(a); }
  friend Rational operator/(Rational a, double b) { return a /= Rational(b); }
  friend Rational operator/(double a, const Rational& b) { return Rational(a) / b; }
  friend bool operator==(const Rational& a, const Rational& b) { return a.v_ == b.v_; }
  friend bool operator!=(const Rational& a, const Rational& b) { return a.v_ != b.v_; }
  friend bool operator<(const Rational& a, const Rational& b) { return a.v_ < b.v_; }
  friend bool operator>(const Rational& a, const Rational& b) { return a.v_ > b.v_; }
  friend bool operator<=(const Rational& a, const Rational& b) { return a.v_ <= b.v_; }
  friend bool operator>=(const Rational& a, const Rational& b) { return a.v_ >= b.v_; }

 private:
  value_type v_{0};
};

// Exact where rational, else InexactError naming the argument.
Rational sqrt(const Rational& x);
Rational sin(const Rational& x);
Rational cos(const Rational& x);
Rational abs(const Rational& x);

// The exact rational of a double if it is a "short" dyadic m / 2^k with
// k <= max_shift (1.5, 0.25, 24: yes; 0.1, 1/6 rounded: no); else throws
// InexactError. Used to decide whether double input data are exact.
Rational exact_dyadic(double v, int max_shift = 32);

// ---- helpers generic in the scalar --------------------------------------------

inline bool is_zero(double v) { return v == 0.0; }
inline bool is_zero(const Rational& v) { return v.is_zero(); }
inline double to_double(double v) { return v; }
inline double to_double(const Rational& v) { return static_cast<double>(v); }
// Shortest round-trip decimal for double ("0.5", "-1.6875", "1e-12"); p/q for Rational.
std::string to_string(double v);
inline std::string to_string(const Rational& v) { return v.str(); }

// ---- monomial sets --------------------------------------------------------------

// A linear constraint w . alpha <= bound on exponent vectors alpha.
struct MonomialConstraint {
  std::vector<int> weights;  // one per variable, >= 0
  int bound = 0;
};

// The monomials x^alpha (alpha in N^n) with every constraint satisfied. The
// first constraint is the grading (all weights >= 1); index 0 is the constant
// monomial. Immutable once built; shared by all series over it.
class MonomialSet {
 public:
  // Throws std::invalid_argument on an empty or unbounded specification.
  MonomialSet(int variables, std::vector<MonomialConstraint> constraints);

  int variables() const { return n_; }
  int size() const { return static_cast<int>(weight_.size()); }
  int max_weight() const { return max_weight_; }
  int weight(int index) const { return weight_[index]; }
  int exponent(int index, int variable) const { return exponents_[index * n_ + variable]; }
  std::vector<int> exponents(int index) const;
  bool contains(const std::vector<int>& alpha) const;
  // Index of alpha, or -1 when alpha is not in the set.
  int index(const std::vector<int>& alpha) const;
  // The monomial x_variable (-1 if not in the set).
  int variable_index(int variable) const;
  const std::vector<MonomialConstraint>& constraints() const { return constraints_; }

  // The products: for each left index i, entries [begin(i), begin(i + 1)) of
  // right() and result() give j and k with x^a_i x^a_j = x^a_k in the set.
  int begin(int i) const { return offsets_[i]; }
  const std::vector<int>& right() const { return right_; }
  const std::vector<int>& result() const { return result_; }

 private:
  int packed(const int* alpha) const;
  int n_;
  std::vector<MonomialConstraint> constraints_;
  std::vector<int> exponents_;  // size() x n_
  std::vector<int> weight_;     // grading weight of each monomial
  int max_weight_ = 0;
  std::vector<int> radix_;   // max exponent + 1 per variable
  std::vector<int> lookup_;  // packed exponent -> index or -1
  std::vector<int> offsets_, right_, result_;
};

std::shared_ptr<const MonomialSet> make_monomial_set(int variables,
                                                     std::vector<MonomialConstraint> constraints);

// ---- truncated multivariate series -------------------------------------------

template <class S>
class Series {
 public:
  using scalar_type = S;

  // The constant 0 (not yet bound to a monomial set; constants are promoted
  // when they meet a bound series).
  Series() : c_(1, S(0.0)) {}
  explicit Series(double v) : c_(1, S(v)) {}
  template <class U>
  requires(std::is_same_v<U, S> && !std::is_same_v<S, double>) explicit Series(const U& v) : c_(1, v) {}
  // The zero series on a set.
  explicit Series(std::shared_ptr<const MonomialSet> set) : set_(std::move(set)), c_(set_->size(), S(0.0)) {}

  // value + x_variable on the set.
  static Series variable(std::shared_ptr<const MonomialSet> set, int variable, const S& value) {
    Series r(set);
    r.c_[0] = value;
    const int i = r.set_->variable_index(variable);
    if (i < 0)
      throw std::invalid_argument("Series::variable: x" + std::to_string(variable) + " is not in the set");
    r.c_[i] = S(1.0);
    return r;
  }

  const std::shared_ptr<const MonomialSet>& set() const { return set_; }
  bool bound() const { return set_ != nullptr; }
  int size() const { return static_cast<int>(c_.size()); }
  const S& operator[](int i) const { return c_[i]; }
  S& operator[](int i) { return c_[i]; }
  const S& constant() const { return c_[0]; }
  // The coefficient of x^alpha (0 if alpha is outside the set).
  S coefficient(const std::vector<int>& alpha) const {
    if (!set_) {
      for (int a : alpha)
        if (a != 0) return S(0.0);
      return c_[0];
    }
    const int i = set_->index(alpha);
    return i < 0 ? S(0.0) : c_[i];
  }
  explicit operator double() const { return to_double(c_[0]); }

  // Copy onto `set` (a bound series must already live on it).
  Series on(const std::shared_ptr<const MonomialSet>& set) const {
    if (set_) {
      if (set_ != set) throw std::invalid_argument("Series: operands live on different monomial sets");
      return *this;
    }
    Series r(set);
    r.c_[0] = c_[0];
    return r;
  }

  Series operator-() const {
    Series r = *this;
    for (auto& v : r.c_) v = -v;
    return r;
  }
  Series operator+() const { return *this; }

  Series& operator+=(const Series& b) {
    if (!b.set_) {
      c_[0] += b.c_[0];
      return *this;
    }
    if (!set_) *this = on(b.set_);
    if (set_ != b.set_) throw std::invalid_argument("Series: operands live on different monomial sets");
    for (std::size_t k = 0; k < c_.size(); ++k) c_[k] += b.c_[k];
    return *this;
  }
  Series& operator-=(const Series& b) { return *this += -b; }
  Series& operator*=(const Series& b) { return *this = *this * b; }
  Series& operator/=(const Series& b) { return *this = *this / b; }
  Series& operator+=(double b) {
    c_[0] += S(b);
    return *this;
  }
  Series& operator-=(double b) {
    c_[0] -= S(b);
    return *this;
  }
  Series& operator*=(const S& b) {
    if (is_zero(b)) {
      for (auto& v : c_) v = S(0.0);
      return *this;
    }
    for (auto& v : c_)
      if (!is_zero(v)) v *= b;
    return *this;
  }
  Series& operator*=(double b) requires(!std::is_same_v<S, double>) { return *this *= S(b); }
  Series& operator/=(double b) { return *this *= S(1.0) / S(b); }

  friend Series operator*(const Series& a, const Series& b) {
    if (!a.set_) {
      Series r = b;
      return r *= a.c_[0];
    }
    if (!b.set_) {
      Series r = a;
      return r *= b.c_[0];
    }
    if (a.set_ != b.set_) throw std::invalid_argument("Series: operands live on different monomial sets");
    const MonomialSet& set = *a.set_;
    Series r(a.set_);
    const auto& right = set.right();
    const auto& result = set.result();
    const int n = set.size();
    for (int i = 0; i < n; ++i) {
      const S& ai = a.c_[i];
      if (is_zero(ai)) continue;
      const int end = set.begin(i + 1);
      for (int e = set.begin(i); e < end; ++e) {
        const S& bj = b.c_[right[e]];
        if constexpr (std::is_same_v<S, double>) {
          r.c_[result[e]] += ai * bj;
        } else {
          if (!is_zero(bj)) r.c_[result[e]] += ai * bj;
        }
      }
    }
    return r;
  }

  // 1 / u = sum_k (-1)^k (u - u_0)^k / u_0^(k+1).
  Series inverse() const {
    if (is_zero(c_[0])) throw std::domain_error("Series: division by a series with zero constant term");
    const S inv0 = S(1.0) / c_[0];
    if (!set_) return Series::constant_of(inv0);
    std::vector<S> phi(set_->max_weight() + 1);
    phi[0] = inv0;
    for (std::size_t k = 1; k < phi.size(); ++k) phi[k] = -(phi[k - 1] * inv0);
    return compose(phi);
  }
  friend Series operator/(const Series& a, const Series& b) {
    if (!b.set_) {
      Series r = a;
      return r *= S(1.0) / b.c_[0];
    }
    return a * b.inverse();
  }

  // sum_k phi[k] (u - u_0)^k by Horner's rule (phi: the univariate Taylor
  // coefficients of an elementary function at u_0).
  Series compose(const std::vector<S>& phi) const {
    if (!set_) return Series::constant_of(phi[0]);
    Series d = *this;
    d.c_[0] = S(0.0);
    const int top = std::min<int>(static_cast<int>(phi.size()) - 1, set_->max_weight());
    Series r(set_);
    r.c_[0] = phi[top];
    for (int k = top - 1; k >= 0; --k) {
      r = r * d;
      r.c_[0] += phi[k];
    }
    return r;
  }

  static Series constant_of(const S& v) {
    Series r;
    r.c_[0] = v;
    return r;
  }

 private:
  std::shared_ptr<const MonomialSet> set_;
  std::vector<S> c_;
};

template <class S>
Series<S> operator+(Series<S> a, const Series<S>& b) {
  return a += b;
}
template <class S>
Series<S> operator-(Series<S> a, const Series<S>& b) {
  return a -= b;
}
template <class S>
Series<S> operator+(Series<S> a, double b) {
  return a += b;
}
template <class S>
Series<S> operator+(double a, Series<S> b) {
  return b += a;
}
template <class S>
Series<S> operator-(Series<S> a, double b) {
  return a -= b;
}
template <class S>
Series<S> operator-(double a, const Series<S>& b) {
  Series<S> r = -b;
  return r += a;
}
template <class S>
Series<S> operator*(Series<S> a, double b) {
  return a *= b;
}
template <class S>
Series<S> operator*(double a, Series<S> b) {
  return b *= a;
}
template <class S>
Series<S> operator/(Series<S> a, double b) {
  return a /= b;
}
template <class S>
Series<S> operator/(double a, const Series<S>& b) {
  Series<S> r = b.inverse();
  return r *= a;
}

// sqrt(u_0 + t) = sqrt(u_0) sum_k binom(1/2, k) (t / u_0)^k.
template <class S>
Series<S> sqrt(const Series<S>& u) {
  using std::sqrt;
  const S u0 = u.constant();
  if (!(to_double(u0) > 0.0)) throw std::domain_error("Series: sqrt of a series with constant term <= 0");
  const S r0 = sqrt(u0);
  const int w = u.bound() ? u.set()->max_weight() : 0;
  std::vector<S> phi(w + 1);
  phi[0] = r0;
  for (int k = 1; k <= w; ++k)
    phi[k] = phi[k - 1] * (S(1.5) - S(static_cast<double>(k))) / (S(static_cast<double>(k)) * u0);
  return u.compose(phi);
}

namespace detail {
// phi_k of sin (which = 0) or cos (which = 1) at u_0.
template <class S>
std::vector<S> trig_coefficients(const S& u0, int w, int which) {
  using std::cos, std::sin;
  const S s = sin(u0), c = cos(u0);
  // d^k/dt^k sin = sin, cos, -sin, -cos, ...; cos = cos, -sin, -cos, sin, ...
  const S cycle_sin[4] = {s, c, -s, -c};
  const S cycle_cos[4] = {c, -s, -c, s};
  std::vector<S> phi(w + 1);
  S factorial(1.0);
  for (int k = 0; k <= w; ++k) {
    if (k > 0) factorial = factorial * S(static_cast<double>(k));
    phi[k] = (which == 0 ? cycle_sin[k % 4] : cycle_cos[k % 4]) / factorial;
  }
  return phi;
}
}  // namespace detail

template <class S>
Series<S> sin(const Series<S>& u) {
  return u.compose(detail::trig_coefficients(u.constant(), u.bound() ? u.set()->max_weight() : 0, 0));
}
template <class S>
Series<S> cos(const Series<S>& u) {
  return u.compose(detail::trig_coefficients(u.constant(), u.bound() ? u.set()->max_weight() : 0, 1));
}

}  // namespace saltus::contact
