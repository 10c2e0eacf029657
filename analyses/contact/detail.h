#pragma once
// Internals shared by the files of the contact classification
// (analyses/contact/classification.h): scalar helpers that work on double and
// Rational alike, a curve jet as a scalar-templated shape, univariate series
// for the arc length, and the steps that more than one file calls. Not part of
// the public API.

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "analyses/contact/classification.h"
#include "continuation/taylor.h"

namespace saltus::contact::detail {

constexpr int kJetCapacity = 48;  // univariate Taylor capacity for the curve jets
constexpr int kMaxOrder = 40;

inline std::string num(double v) { return contact::to_string(v); }

// ---- scalar helpers ------------------------------------------------------------

// "Zero" on S: exact for Rational, |v| <= tol for double.
inline bool near_zero(double v, double tol) { return std::abs(v) <= tol; }
inline bool near_zero(const Rational& v, double) { return v.is_zero(); }

template <class S>
double absd(const S& v) {
  return std::abs(contact::to_double(v));
}

template <class S>
Series<S> constant_series(const S& v) {
  return Series<S>::constant_of(v);
}

template <class S>
Series<S> scaled(Series<S> a, const S& b) {
  a *= b;
  return a;
}

// A constant of the scalar T (double, Series<S>, Taylor<Series<S>, 1>, Taylor<S, K>) from S.
template <class T>
struct is_taylor : std::false_type {};
template <class C, int N>
struct is_taylor<Taylor<C, N>> : std::true_type {};

template <class T, class S>
T constant_as(const S& c) {
  if constexpr (std::is_same_v<T, S>) {
    return c;
  } else if constexpr (is_taylor<T>::value) {
    return T(constant_as<typename T::coefficient_type>(c));
  } else if constexpr (std::is_same_v<T, double>) {
    return contact::to_double(c);
  } else {
    return T::constant_of(c);  // Series<S>
  }
}

// The key "n,m" of c_nm and k_nm.
inline std::string key(int n, int m) { return std::to_string(n) + "," + std::to_string(m); }

// ---- the local curve: a jet as a scalar-templated shape --------------------------

// c(t) = sum_k (x[k], y[k]) t^k, t the deviation from the point (s - s*), for
// models::ExtremalEquations (which calls eval on T and on Taylor<T, 1>).
template <class S>
struct JetShape {
  std::vector<S> x, y;
  double scale_length = 1.0;
  std::string name = "curve";

  double scale() const { return scale_length; }
  double period() const { return 0.0; }
  template <class T>
  void eval(const T& s, T* xy) const {
    xy[0] = horner<T>(x, s);
    xy[1] = horner<T>(y, s);
  }
  template <class T>
  static T horner(const std::vector<S>& c, const T& s) {
    T p = constant_as<T>(c.back());
    for (std::size_t k = c.size() - 1; k-- > 0;) {
      p = p * s;
      p = p + constant_as<T>(c[k]);
    }
    return p;
  }
};

template <class S>
JetShape<S> jet_shape(const CurveJet<S>& jet, int degree) {
  JetShape<S> shape;
  const int n = std::min<int>(degree, static_cast<int>(jet.x.size()) - 1);
  shape.x.assign(jet.x.begin(), jet.x.begin() + n + 1);
  shape.y.assign(jet.y.begin(), jet.y.begin() + n + 1);
  double scale = 0.0;
  for (int k = 1; k <= n; ++k) scale += absd(shape.x[k]) + absd(shape.y[k]);
  shape.scale_length = std::max(scale, 1e-300);
  shape.name = jet.name;
  return shape;
}

// ---- univariate series on S ------------------------------------------------------

template <class S>
using Uni = Taylor<S, kJetCapacity>;

template <class S>
Uni<S> from_vector(const std::vector<S>& c, int order) {
  std::vector<S> head(c.begin(), c.begin() + std::min<int>(order + 1, static_cast<int>(c.size())));
  while (static_cast<int>(head.size()) < order + 1) head.push_back(S(0.0));
  return Uni<S>::from_coefficients(head);
}

// ---- steps used by more than one file (S = double or Rational) ---------------------

// curve_jets.cpp: the same curve in its arc length (sigma = 0 at the point).
template <class S>
CurveJet<S> arclength_jet(const CurveJet<S>& jet, int order);

// reduction.cpp: the monomial set of the reduction (variables p^1 .. p^5,
// grading weight 2 for p^1, 1 for the others, total weight <= `weight`, total
// degree <= `param_degree` in p^3, p^4, p^5).
std::shared_ptr<const MonomialSet> reduction_set(int weight, int param_degree);

// reduction.cpp: step 1, the first two equations of (12) in the Jordan
// coordinates (jordan = true) or in the deviations (jordan = false).
template <class S>
std::array<Series<S>, 2> jordan_system(const Analysis<S>& an, const std::shared_ptr<const MonomialSet>& set,
                                       bool jordan = true);

// reduction.cpp: step 2b, the reduced equation (21) on the centre manifold
// (h_out: the manifold h itself).
template <class S>
Series<S> centre_manifold(const std::array<Series<S>, 2>& g, const S& lambda1, Series<S>* h_out = nullptr);

// normal_form.cpp: step 3, the normal form's coefficients mu_0 .. mu_z as
// polynomials in the pose deviations (their terms, with exact strings when
// `exact`; format.h makes text of them).
template <class S>
std::vector<NormalFormCoefficient> normal_form_terms(const Analysis<S>& an, int z, int T, bool exact);

}  // namespace saltus::contact::detail
