// The normal form of the contact classification
// (analyses/contact/classification.h), step 3: the (z+1)-jet of the reduced
// equation in the pose deviations, made monic and depressed by a Tschirnhaus
// transformation.

#include <stdexcept>

#include "analyses/contact/detail.h"

namespace saltus::contact {

namespace {

using detail::centre_manifold;
using detail::constant_series;
using detail::jordan_system;
using detail::near_zero;
using detail::reduction_set;
using detail::scaled;

// The inverse of a 3x3 matrix on S (the parameter block of P).
template <class S>
std::array<std::array<S, 3>, 3> inverse3(const std::array<std::array<S, 3>, 3>& m) {
  const S det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  if (near_zero(det, 1e-14))
    throw std::invalid_argument("the parameter block of the Jordan basis is singular");
  std::array<std::array<S, 3>, 3> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const int a = (j + 1) % 3, b = (j + 2) % 3, c = (i + 1) % 3, d = (i + 2) % 3;
      r[i][j] = (m[a][c] * m[b][d] - m[a][d] * m[b][c]) / det;
    }
  return r;
}

// The normal form on S: mu_i (i = 0..z) as series in the pose deviations
// (3 variables, total degree <= T).
//
// Tschirnhaus transformation (rederived). The (z+1)-jet of the reduced
// equation, G = sum_{k=0}^{z+1} a_k(beta) p^k with beta = (p^3, p^4, p^5) and
// a_{z+1}(0) = c_{z+1} != 0, is first written in the pose deviations
// delta = (x - x*, y - y*, phi - phi*) = C beta (C: the parameter block of P,
// exact), then divided by a_{z+1}(delta) (a series in delta) and depressed by
// p = q - a_z / ((z+1) a_{z+1}):
//   mu_i = sum_{k >= i} b_k binom(k, i) s^(k-i),  b_k = a_k / a_{z+1},  s = -b_z/(z+1),
// so that mu_{z+1} = 1 and mu_z = 0. The centre manifold is computed with all
// parameter terms to degree T (monomial set: weight 2 j1 + j2 + |beta| <= z+1+T,
// |beta| <= T, which is closed under the invariance equation (20)).
template <class S>
std::vector<Series<S>> normal_form(const Analysis<S>& an, int z, int T,
                                   std::shared_ptr<const MonomialSet>* pset) {
  const int A = z + 1;
  const auto set = reduction_set(A + T, T);
  const auto g = jordan_system(an, set);
  const S lambda1 = g[0].coefficient({1, 0, 0, 0, 0});
  const Series<S> G = centre_manifold(g, lambda1);
  const auto params = contact::make_monomial_set(3, {MonomialConstraint{{1, 1, 1}, T}});
  *pset = params;
  // beta = C^-1 delta.
  std::array<std::array<S, 3>, 3> C;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) C[i][j] = an.P[2 + i][2 + j];
  const auto Ci = inverse3(C);
  std::array<Series<S>, 3> beta;
  for (int i = 0; i < 3; ++i) {
    beta[i] = Series<S>(params);
    for (int j = 0; j < 3; ++j) beta[i][params->variable_index(j)] = Ci[i][j];
  }
  // Powers of beta_i up to T.
  std::array<std::vector<Series<S>>, 3> pw;
  for (int i = 0; i < 3; ++i) {
    pw[i].push_back(constant_series(S(1.0)).on(params));
    for (int e = 1; e <= T; ++e) pw[i].push_back(pw[i].back() * beta[i]);
  }
  std::vector<Series<S>> a(A + 1, Series<S>(params));
  const MonomialSet& gs = *G.set();
  for (int i = 0; i < gs.size(); ++i) {
    if (gs.exponent(i, 0) != 0 || contact::is_zero(G[i])) continue;
    const int k = gs.exponent(i, 1);
    if (k > A) continue;
    const int e3 = gs.exponent(i, 2), e4 = gs.exponent(i, 3), e5 = gs.exponent(i, 4);
    a[k] += scaled(pw[0][e3] * pw[1][e4] * pw[2][e5], G[i]);
  }
  const Series<S> lead = a[A].inverse();
  std::vector<Series<S>> bk(A + 1);
  for (int k = 0; k <= A; ++k) bk[k] = a[k] * lead;
  const Series<S> shift = scaled(bk[A - 1], S(-1.0) / S(static_cast<double>(A)));
  std::vector<Series<S>> shift_pw{constant_series(S(1.0)).on(params)};
  for (int e = 1; e <= A; ++e) shift_pw.push_back(shift_pw.back() * shift);
  std::vector<Series<S>> mu(A + 1, Series<S>(params));
  for (int i = 0; i <= A; ++i) {
    double binom = 1.0;
    for (int k = i; k <= A; ++k) {
      // binom(k, i)
      if (k > i) binom = binom * k / (k - i);
      mu[i] += scaled(bk[k] * shift_pw[k - i], S(std::round(binom)));
    }
  }
  mu.pop_back();  // mu_{z+1} = 1
  return mu;
}

template <class S>
std::vector<NormalFormCoefficient> describe_normal_form(const std::vector<Series<S>>& mu,
                                                        const MonomialSet& params, bool exact) {
  std::vector<NormalFormCoefficient> out;
  for (int i = 0; i < static_cast<int>(mu.size()); ++i) {
    NormalFormCoefficient nf;
    nf.power = i;
    for (int q = 0; q < params.size(); ++q) {
      const S v = mu[i].bound() ? mu[i][q] : (q == 0 ? mu[i].constant() : S(0.0));
      if (contact::is_zero(v)) continue;
      if constexpr (std::is_same_v<S, double>) {
        if (std::abs(v) < 1e-14) continue;  // rounding noise of exact zeros
      }
      PolynomialTerm t;
      t.ex = params.exponent(q, 0);
      t.ey = params.exponent(q, 1);
      t.ephi = params.exponent(q, 2);
      t.value = contact::to_double(v);
      if (exact) t.exact = contact::to_string(v);
      nf.terms.push_back(t);
    }
    // By total degree, then x before y before phi (as the paper writes them).
    std::stable_sort(nf.terms.begin(), nf.terms.end(), [](const PolynomialTerm& a, const PolynomialTerm& b) {
      const int da = a.ex + a.ey + a.ephi, db = b.ex + b.ey + b.ephi;
      if (da != db) return da < db;
      if (a.ex != b.ex) return a.ex > b.ex;
      return a.ey > b.ey;
    });
    out.push_back(nf);
  }
  return out;
}

}  // namespace

namespace detail {

template <class S>
std::vector<NormalFormCoefficient> normal_form_terms(const Analysis<S>& an, int z, int T, bool exact) {
  std::shared_ptr<const MonomialSet> params;
  const auto mu = normal_form(an, z, T, &params);
  return describe_normal_form(mu, *params, exact);
}

template std::vector<NormalFormCoefficient> normal_form_terms(const Analysis<double>&, int, int, bool);
template std::vector<NormalFormCoefficient> normal_form_terms(const Analysis<Rational>&, int, int, bool);

}  // namespace detail

}  // namespace saltus::contact
