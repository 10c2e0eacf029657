// The reduced equation of the contact classification
// (analyses/contact/classification.h), steps 1 and 2: the extended system
// (12) in the Jordan coordinates as multivariate series, then the Lyapunov
// coefficients c_n, c_nm and the centre-manifold constants k_n, k_nm by three
// routes: the paper's multinomial / Diophantine procedure (Sec. 4.2.1-4.2.4),
// the centre manifold solved order by order, and Lyapunov-Schmidt.

#include <stdexcept>

#include "analyses/contact/detail.h"
#include "models/extremal.h"

namespace saltus::contact {

namespace detail {

// ---- monomial sets of the reduction --------------------------------------------------

// Variables p^1 .. p^5 (indices 0..4). Grading weight 2 for p^1 (it is
// O(p^2^2) on the centre manifold: h has no linear terms, (19)), 1 for the
// others. `param_degree`: the total degree kept in p^3, p^4, p^5.
std::shared_ptr<const MonomialSet> reduction_set(int weight, int param_degree) {
  // Cached per thread: building the product table is O(size^2).
  thread_local std::map<std::pair<int, int>, std::shared_ptr<const MonomialSet>> cache;
  auto& slot = cache[{weight, param_degree}];
  if (!slot)
    slot = contact::make_monomial_set(
        5, {MonomialConstraint{{2, 1, 1, 1, 1}, weight}, MonomialConstraint{{0, 0, 1, 1, 1}, param_degree}});
  return slot;
}

}  // namespace detail

namespace {

using detail::constant_series;
using detail::jet_shape;
using detail::JetShape;
using detail::key;
using detail::kMaxOrder;
using detail::reduction_set;
using detail::scaled;

template <class S>
Series<S> derivative(const Series<S>& u, int v) {
  if (!u.bound()) return Series<S>();
  const MonomialSet& set = *u.set();
  Series<S> r(u.set());
  std::vector<int> alpha;
  for (int i = 0; i < set.size(); ++i) {
    const int a = set.exponent(i, v);
    if (a == 0 || contact::is_zero(u[i])) continue;
    alpha = set.exponents(i);
    alpha[v] -= 1;
    const int k = set.index(alpha);
    if (k >= 0) r[k] = u[i] * S(static_cast<double>(a));
  }
  return r;
}

// u split by powers of x_v: u = sum_j x_v^j parts[j] (parts free of x_v).
template <class S>
std::vector<Series<S>> split_by_power(const Series<S>& u, int v) {
  const MonomialSet& set = *u.set();
  std::vector<Series<S>> parts;
  std::vector<int> alpha;
  for (int i = 0; i < set.size(); ++i) {
    const int a = set.exponent(i, v);
    while (static_cast<int>(parts.size()) <= a) parts.emplace_back(u.set());
    alpha = set.exponents(i);
    alpha[v] = 0;
    parts[a][set.index(alpha)] = u[i];
  }
  return parts;
}

// sum_j parts[j] h^j (Horner), i.e. u with x_v replaced by h.
template <class S>
Series<S> substitute(const std::vector<Series<S>>& parts, const Series<S>& h) {
  Series<S> r = parts.back();
  for (std::size_t j = parts.size() - 1; j-- > 0;) r = r * h + parts[j];
  return r;
}

}  // namespace

namespace detail {

// ---- step 1: the extended system (12) in the Jordan coordinates ------------------------
//
// p = p* + P p^; g^ = P^-1 g(p* + P p^). The rows 3-5 of g vanish and the
// first two columns of P have no parameter components (v1, v2 span the s-plane),
// so P = [[A, B], [0, C]] and the first two rows of g^ are A^-1 f(p* + P p^):
// g^_1 (the lambda1 direction) and g^_2 (the critical one). f is eq. (3),
// evaluated by models::ExtremalEquations on the series variables p^1..p^5.
template <class S>
std::array<Series<S>, 2> jordan_system(const Analysis<S>& an, const std::shared_ptr<const MonomialSet>& set,
                                       bool jordan) {
  const int degree = set->max_weight() + 1;  // c(t) beyond t^W does not reach the set; c' needs one more
  const JetShape<S> shape1 = jet_shape(an.jet1, degree), shape2 = jet_shape(an.jet2, degree);
  models::ExtremalEquations<JetShape<S>, JetShape<S>> equations{shape1, shape2};
  Series<S> X[5], u[5], f[2];
  for (int v = 0; v < 5; ++v) X[v] = Series<S>::variable(set, v, S(0.0));
  for (int i = 0; i < 5; ++i) {
    if (!jordan) {
      u[i] = X[i];
      continue;
    }
    u[i] = Series<S>(set);
    for (int j = 0; j < 5; ++j)
      if (!contact::is_zero(an.P[i][j])) u[i] += scaled(X[j], an.P[i][j]);
  }
  u[2] += constant_series(an.x0);
  u[3] += constant_series(an.y0);
  if (!jordan && an.phi0 != 0.0) throw std::invalid_argument("extended_system: phi* is baked into curve 2");
  equations(u, f);
  if (!jordan) return {f[0], f[1]};
  const S& A00 = an.P[0][0];
  const S& A01 = an.P[0][1];
  const S& A10 = an.P[1][0];
  const S& A11 = an.P[1][1];
  const S det = A00 * A11 - A01 * A10;
  const S i00 = A11 / det, i01 = -A01 / det, i10 = -A10 / det, i11 = A00 / det;
  return {scaled(f[0], i00) + scaled(f[1], i01), scaled(f[0], i10) + scaled(f[1], i11)};
}

template std::array<Series<double>, 2> jordan_system(const Analysis<double>&,
                                                     const std::shared_ptr<const MonomialSet>&, bool);
template std::array<Series<Rational>, 2> jordan_system(const Analysis<Rational>&,
                                                       const std::shared_ptr<const MonomialSet>&, bool);

// ---- step 2b: the centre manifold as a multivariate series --------------------------------
//
// h(p^2, p^3, p^4, p^5) solves (20): h_{p^2} g^_2(h, .) - g^_1(h, .) = 0. With
// g^_1 = lambda1 p^1 + R(p^1, .), the fixed point
//   h <- (h_{p^2} g^_2(h, .) - (g^_1(h, .) - lambda1 h)) / lambda1
// is exact on the monomial set after finitely many passes (each pass fixes
// the next weight, or the next power of p^2 at a lower parameter degree);
// it is iterated until h no longer changes. The reduced equation (21) is
// g^_2(h, p^2, p^3, p^4, p^5).
template <class S>
Series<S> centre_manifold(const std::array<Series<S>, 2>& g, const S& lambda1, Series<S>* h_out) {
  const auto parts1 = split_by_power(g[0], 0), parts2 = split_by_power(g[1], 0);
  const S inv = S(1.0) / lambda1;
  Series<S> h(g[0].set());
  for (int pass = 0; pass < 200; ++pass) {
    const Series<S> g1 = substitute(parts1, h), g2 = substitute(parts2, h);
    Series<S> next = derivative(h, 1) * g2 - (g1 - scaled(h, lambda1));
    next *= inv;
    bool same = true;
    for (int i = 0; i < h.size() && same; ++i) same = next[i] == h[i];
    h = next;
    if (same) break;
  }
  if (h_out) *h_out = h;
  return substitute(parts2, h);
}

template Series<double> centre_manifold(const std::array<Series<double>, 2>&, const double&, Series<double>*);
template Series<Rational> centre_manifold(const std::array<Series<Rational>, 2>&, const Rational&,
                                          Series<Rational>*);

}  // namespace detail

namespace {

using detail::centre_manifold;
using detail::jordan_system;

// ---- step 2a: the paper's procedure, Sec. 4.2.1-4.2.4 --------------------------------------
//
// Notation of (22)-(24): a_{j1 j2}, b_{j1 j2} are the Taylor coefficients of
// p^1^j1 p^2^j2 in g^_1 and g^_2; a_{j1 j2 m}, b_{j1 j2 m} those of
// p^1^j1 p^2^j2 p^m. On the centre manifold (19), p^1 = h = h2(p^2) + sum_m p^m
// hm(p^2) + ..., h2 = sum_{eta>=2} k_eta p^2^eta, hm = sum_{v>=1} k_vm p^2^v, and
//   psi2 = sum b_{j1 j2} p^2^j2 h2^j1                                   (22)
//   psim = sum b_{j1 j2 m} p^2^j2 h2^j1 + sum j1 b_{j1 j2} p^2^j2 hm h2^(j1-1)   (23)
// (zeta2, zetam the same with a). By the multinomial theorem
//   [p^2^K] h2^j1 = sum over the solutions l = (l_2, l_3, ...) of the linear
//   Diophantine equations sum_eta l_eta = j1, sum_eta eta l_eta = K of
//   (j1; l_2, l_3, ...) prod_eta k_eta^l_eta.
// The solutions are enumerated once per K (brute force, as footnote 8 says).
//   c_N  (4.2.1) = sum_{j2 + sum eta l_eta = N} b_{j1 j2} (j1; l) prod k^l.
//   k_N  (4.2.3): [p^2^N] (h2' psi2 - zeta2) = 0 (the invariance equation (20),
//        pure part). The sum over d_{1,N,r1} of the paper is grouped by nu:
//        sum_nu nu k_nu c_{N-nu+1} (identical by (22)); zeta2's term
//        a_{10} k_N = lambda1 k_N is isolated:
//        k_N = (sum_nu nu k_nu c_{N-nu+1} - (zeta2_N - lambda1 k_N)) / lambda1.
//   c_Nm (4.2.2) = sum b_{j1 j2 m} (j1; l) prod k^l            (r1: j2 + sum eta l = N)
//               + sum_v k_vm sum j1 b_{j1 j2} (j1-1; l) prod k^l  (r2: j2 + v + sum eta l = N, j1 = sum l +
//               1).
//        The factor j1 of (23) is missing from the printed c_{2,NM,r2}; it is
//        restored here (without it c_13 of (41) would not come out).
//   k_Nm (4.2.4): [p^2^N p^m] of (20): h2' psim + hm' psi2 - zetam = 0, grouped
//        as sum_nu nu k_nu c_{(N-nu+1)m} + sum_v v k_vm c_{N-v+1} (the paper's
//        d3, d4 sums) minus zetam_N without its lambda1 k_Nm term (d1, d2).
//        Note nu runs to N+1 (the c_{0m} term), so k_Nm needs k_{N+1}.
template <class S>
struct Partition {
  int j2 = 0, j1 = 0;                      // j1 = sum l_eta
  S multinomial{};                         // j1! / prod l_eta!
  std::vector<std::pair<int, int>> parts;  // (eta, l_eta), l_eta > 0
};

template <class S>
std::vector<std::vector<Partition<S>>> diophantine_solutions(int max_k) {
  // all[K]: the solutions of j2 + sum_{eta>=2} eta l_eta = K.
  std::vector<std::vector<Partition<S>>> all(max_k + 1);
  std::vector<std::pair<int, int>> parts;
  auto factorial = [](int n) {
    S f(1.0);
    for (int i = 2; i <= n; ++i) f *= S(static_cast<double>(i));
    return f;
  };
  for (int K = 0; K <= max_k; ++K) {
    // Recursion over eta from K down to 2 with the remainder going to j2.
    auto recurse = [&](auto&& self, int eta, int remaining) -> void {
      if (eta < 2) {
        Partition<S> p;
        p.j2 = remaining;
        p.parts = parts;
        int j1 = 0;
        S denominator(1.0);
        for (const auto& [e, l] : parts) {
          j1 += l;
          denominator *= factorial(l);
        }
        p.j1 = j1;
        p.multinomial = factorial(j1) / denominator;
        all[K].push_back(std::move(p));
        return;
      }
      for (int l = 0; eta * l <= remaining; ++l) {
        if (l > 0) parts.emplace_back(eta, l);
        self(self, eta - 1, remaining - eta * l);
        if (l > 0) parts.pop_back();
      }
    };
    recurse(recurse, K, K);
  }
  return all;
}

template <class S>
S power(const S& base, int n) {
  S r(1.0);
  for (int i = 0; i < n; ++i) r *= base;
  return r;
}

template <class S>
ReducedCoefficients<S> paper_route(const std::array<Series<S>, 2>& g, int N) {
  const MonomialSet& set = *g[0].set();
  auto table = [&](const Series<S>& u, int m, int max_weight) {
    // t[j1][j2] = coefficient of p1^j1 p2^j2 (p_m if m >= 2), 2 j1 + j2 <= max_weight.
    std::vector<std::vector<S>> t(max_weight / 2 + 1);
    for (int j1 = 0; 2 * j1 <= max_weight; ++j1) {
      t[j1].assign(max_weight - 2 * j1 + 1, S(0.0));
      for (int j2 = 0; 2 * j1 + j2 <= max_weight; ++j2) {
        std::vector<int> alpha{j1, j2, 0, 0, 0};
        if (m >= 2) alpha[m] = 1;
        const int i = set.index(alpha);
        if (i >= 0) t[j1][j2] = u[i];
      }
    }
    return t;
  };
  const auto a = table(g[0], -1, N), b = table(g[1], -1, N);
  std::vector<std::vector<std::vector<S>>> am(5), bm(5);
  for (int m = 2; m < 5; ++m) {
    am[m] = table(g[0], m, N - 1);
    bm[m] = table(g[1], m, N - 1);
  }
  auto at = [](const std::vector<std::vector<S>>& t, int j1, int j2) -> S {
    if (j1 >= static_cast<int>(t.size()) || j2 >= static_cast<int>(t[j1].size())) return S(0.0);
    return t[j1][j2];
  };
  ReducedCoefficients<S> out;
  const S lambda1 = a[1][0];
  out.lambda1 = lambda1;
  const auto D = diophantine_solutions<S>(N);
  std::vector<S> k(N + 2, S(0.0)), c(N + 2, S(0.0));
  auto kprod = [&](const Partition<S>& p) {
    S r = p.multinomial;
    for (const auto& [eta, l] : p.parts) r *= power(k[eta], l);
    return r;
  };
  auto uses_eta = [](const Partition<S>& p, int eta) {
    for (const auto& [e, l] : p.parts)
      if (e >= eta) return true;
    return false;
  };
  // Pure terms: c_N (needs k_2..k_{N-1}) then k_N.
  for (int n = 2; n <= N; ++n) {
    S cn(0.0);
    for (const auto& p : D[n]) {
      if (uses_eta(p, n)) continue;  // eta <= N - 1 (the eta = N term has b_10 = 0)
      cn += at(b, p.j1, p.j2) * kprod(p);
    }
    c[n] = cn;
    S d1(0.0);
    for (int nu = 2; nu <= n - 1; ++nu) d1 += S(static_cast<double>(nu)) * k[nu] * c[n - nu + 1];
    S d2(0.0);
    for (const auto& p : D[n]) {
      if (p.j2 == 0 && p.j1 == 1 && p.parts[0].first == n) continue;  // a_10 k_N
      d2 += at(a, p.j1, p.j2) * kprod(p);
    }
    k[n] = (d1 - d2) / lambda1;
    out.c[n] = cn;
    out.k[n] = k[n];
  }
  // Linear terms in p^m: c_Nm (N = 0..N-1) and k_Nm (N = 1..N-2).
  for (int m = 2; m < 5; ++m) {
    std::vector<S> cm(N + 1, S(0.0)), km(N + 1, S(0.0));
    for (int n = 0; n <= N - 1; ++n) {
      S first(0.0);
      for (const auto& p : D[n]) first += at(bm[m], p.j1, p.j2) * kprod(p);
      S second(0.0);
      for (int v = 1; v <= n; ++v) {
        if (contact::is_zero(km[v])) continue;
        S inner(0.0);
        for (const auto& p : D[n - v])
          inner += S(static_cast<double>(p.j1 + 1)) * at(b, p.j1 + 1, p.j2) * kprod(p);
        second += km[v] * inner;
      }
      cm[n] = first + second;
      out.cm[key(n, m + 1)] = cm[n];
      if (n == 0 || n > N - 2) continue;
      S t1(0.0);
      for (int nu = 2; nu <= n + 1; ++nu) t1 += S(static_cast<double>(nu)) * k[nu] * cm[n - nu + 1];
      S t2(0.0);
      for (int v = 1; v <= n - 1; ++v) t2 += S(static_cast<double>(v)) * km[v] * c[n - v + 1];
      S z(0.0);
      for (const auto& p : D[n]) z += at(am[m], p.j1, p.j2) * kprod(p);
      for (int v = 1; v <= n; ++v) {
        S inner(0.0);
        for (const auto& p : D[n - v]) {
          if (v == n && p.j2 == 0 && p.j1 == 0) continue;  // a_10 k_Nm
          inner += S(static_cast<double>(p.j1 + 1)) * at(a, p.j1 + 1, p.j2) * kprod(p);
        }
        z += km[v] * inner;
      }
      km[n] = (t1 + t2 - z) / lambda1;
      out.km[key(n, m + 1)] = km[n];
    }
  }
  return out;
}

// ---- step 2c: Lyapunov-Schmidt -------------------------------------------------------------
// w(p^2, .) solves g^_1(w, p^2, .) = 0 (w <- w - g^_1(w)/lambda1), and the
// reduced equation is g^_2(w, p^2, .). Its zero set is that of (21) (both are
// the equilibria); its coefficients agree with the centre manifold's up to
// c_{z+2} (h - w = h' g^_2(h)/lambda1 + ... = O(p^2^(z+2))) and in c_0m, c_1m.
template <class S>
Series<S> lyapunov_schmidt(const std::array<Series<S>, 2>& g, const S& lambda1) {
  const auto parts1 = split_by_power(g[0], 0), parts2 = split_by_power(g[1], 0);
  const S inv = S(1.0) / lambda1;
  Series<S> w(g[0].set());
  for (int pass = 0; pass < 200; ++pass) {
    Series<S> next = w - scaled(substitute(parts1, w), inv);
    bool same = true;
    for (int i = 0; i < w.size() && same; ++i) same = next[i] == w[i];
    w = next;
    if (same) break;
  }
  return substitute(parts2, w);
}

template <class S>
ReducedCoefficients<S> read_reduced(const Series<S>& G, const Series<S>* h, int N, const S& lambda1) {
  ReducedCoefficients<S> out;
  out.lambda1 = lambda1;
  for (int n = 2; n <= N; ++n) {
    out.c[n] = G.coefficient({0, n, 0, 0, 0});
    if (h) out.k[n] = h->coefficient({0, n, 0, 0, 0});
  }
  for (int m = 2; m < 5; ++m)
    for (int n = 0; n <= N - 1; ++n) {
      std::vector<int> alpha{0, n, 0, 0, 0};
      alpha[m] = 1;
      out.cm[key(n, m + 1)] = G.coefficient(alpha);
      if (h && n >= 1 && n <= N - 2) out.km[key(n, m + 1)] = h->coefficient(alpha);
    }
  return out;
}

}  // namespace

template <class S>
ReducedCoefficients<S> reduced_coefficients(const Analysis<S>& analysis, int order, Route route) {
  if (order < 2 || order > kMaxOrder)
    throw std::invalid_argument("reduced_coefficients: order = " + std::to_string(order) + " must be in 2.." +
                                std::to_string(kMaxOrder));
  if (static_cast<int>(analysis.jet1.x.size()) < order + 2)
    throw std::invalid_argument("reduced_coefficients: the analysis was made for a lower order");
  const auto set = reduction_set(order, 1);
  const auto g = jordan_system(analysis, set);
  const S lambda1 = g[0].coefficient({1, 0, 0, 0, 0});
  switch (route) {
    case Route::kPaper:
      return paper_route(g, order);
    case Route::kCentreManifold: {
      Series<S> h;
      const Series<S> G = centre_manifold(g, lambda1, &h);
      return read_reduced(G, &h, order, lambda1);
    }
    case Route::kLyapunovSchmidt:
      return read_reduced<S>(lyapunov_schmidt(g, lambda1), nullptr, order, lambda1);
  }
  throw std::invalid_argument("reduced_coefficients: unknown route");
}

template ReducedCoefficients<double> reduced_coefficients(const Analysis<double>&, int, Route);
template ReducedCoefficients<Rational> reduced_coefficients(const Analysis<Rational>&, int, Route);

template <class S>
std::array<Series<S>, 2> extended_system(const Analysis<S>& analysis,
                                         const std::shared_ptr<const MonomialSet>& set, bool jordan) {
  if (set->variables() != 5) throw std::invalid_argument("extended_system: the set needs 5 variables");
  return jordan_system(analysis, set, jordan);
}
template std::array<Series<double>, 2> extended_system(const Analysis<double>&,
                                                       const std::shared_ptr<const MonomialSet>&, bool);
template std::array<Series<Rational>, 2> extended_system(const Analysis<Rational>&,
                                                         const std::shared_ptr<const MonomialSet>&, bool);

}  // namespace saltus::contact
