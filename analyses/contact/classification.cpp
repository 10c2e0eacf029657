// Classification of degenerate extremal points, Damerau & Low 2016, Sec. 4.2-4.4.
// See contact_classification.h for the overview; the mathematics of each
// step is in the comments below, with what was rederived.

#include "analyses/contact/classification.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>
#include <limits>
#include <numeric>
#include <sstream>

#include "models/extremal.h"

namespace saltus {

namespace {

using contact::CurveJet;
using contact::InexactError;
using contact::MonomialConstraint;
using contact::MonomialSet;
using contact::Rational;
using contact::Series;

constexpr int kJetCapacity = 48;  // univariate Taylor capacity for the curve jets
constexpr int kMaxOrder = 40;

std::string num(double v) { return contact::to_string(v); }

// ---- scalar helpers ------------------------------------------------------------

// "Zero" on S: exact for Rational, |v| <= tol for double.
bool near_zero(double v, double tol) { return std::abs(v) <= tol; }
bool near_zero(const Rational& v, double) { return v.is_zero(); }

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

// ---- univariate series on S: arc length ------------------------------------------

template <class S>
using Uni = Taylor<S, kJetCapacity>;

// F(G(t)) for G(0) = 0, by Horner's rule.
template <class S>
Uni<S> compose(const Uni<S>& f, const Uni<S>& g) {
  Uni<S> r = Uni<S>::zero(std::min(f.order(), g.order()));
  r[0] = f[f.order()];
  for (int k = f.order() - 1; k >= 0; --k) {
    r = r * g;
    r[0] += f[k];
  }
  return r;
}

template <class S>
Uni<S> from_vector(const std::vector<S>& c, int order) {
  std::vector<S> head(c.begin(), c.begin() + std::min<int>(order + 1, static_cast<int>(c.size())));
  while (static_cast<int>(head.size()) < order + 1) head.push_back(S(0.0));
  return Uni<S>::from_coefficients(head);
}

// The same curve in its arc length sigma (sigma = 0 at the point, increasing
// with s): sigma(t) = int_0^t |c'|, inverted as a series (fixed point
// tau <- tau + (sigma - sigma(tau)) / |c'(0)|, one order per pass), then
// c(tau(sigma)). Exact on Rational when |c'(0)| is rational.
template <class S>
CurveJet<S> arclength_jet(const CurveJet<S>& jet, int order) {
  using std::sqrt;
  const Uni<S> X = from_vector(jet.x, order), Y = from_vector(jet.y, order);
  const Uni<S> dX = differentiate(X), dY = differentiate(Y);
  const Uni<S> v = sqrt(dX * dX + dY * dY);
  const S v0 = v[0];
  const Uni<S> sigma = integrate(v, S(0.0));
  const Uni<S> var = Uni<S>::variable(S(0.0), order);
  Uni<S> tau = var;
  for (int k = 0; k <= order; ++k) tau[k] = tau[k] / v0;
  for (int pass = 0; pass < order; ++pass) {
    Uni<S> correction = var - compose(sigma, tau);
    for (int k = 0; k <= correction.order(); ++k) correction[k] = correction[k] / v0;
    tau = tau + correction;
  }
  const Uni<S> x = compose(X, tau), y = compose(Y, tau);
  CurveJet<S> out;
  out.name = jet.name;
  for (int k = 0; k <= order; ++k) {
    out.x.push_back(x[k]);
    out.y.push_back(y[k]);
  }
  return out;
}

// sin and cos of a series by the recurrences s_k = (1/k) sum_j j u_j c_{k-j},
// c_k = -(1/k) sum_j j u_j s_{k-j}, dividing by k in S (continuation/taylor.h's
// cos multiplies by sign / double(k), which rounds 1/3 on rationals).
template <class S>
void exact_sin_cos(const Uni<S>& u, Uni<S>* s, Uni<S>* c) {
  using std::cos, std::sin;
  const int n = u.order();
  *s = Uni<S>::zero(n);
  *c = Uni<S>::zero(n);
  (*s)[0] = sin(u[0]);
  (*c)[0] = cos(u[0]);
  for (int k = 1; k <= n; ++k) {
    S ss(0.0), cc(0.0);
    for (int j = 1; j <= k; ++j) {
      ss += S(static_cast<double>(j)) * u[j] * (*c)[k - j];
      cc += S(static_cast<double>(j)) * u[j] * (*s)[k - j];
    }
    (*s)[k] = ss / S(static_cast<double>(k));
    (*c)[k] = -cc / S(static_cast<double>(k));
  }
}

// kappa(sigma) of an arc-length jet: x' y'' - y' x'' (unit speed).
template <class S>
Uni<S> curvature_series(const CurveJet<S>& arc, int order) {
  const Uni<S> X = from_vector(arc.x, order + 2), Y = from_vector(arc.y, order + 2);
  const Uni<S> dX = differentiate(X), dY = differentiate(Y);
  const Uni<S> ddX = differentiate(dX), ddY = differentiate(dY);
  return dX.truncated(order) * ddY - dY.truncated(order) * ddX;
}

// ---- small exact linear algebra on S ------------------------------------------------

template <class S>
using Mat5 = std::array<std::array<S, 5>, 5>;

// Solves [[m00, m01], [m10, m11]] z = r; nullopt when singular (|det| <= tol
// times the entries' scale, or exactly 0 on Rational).
template <class S>
std::optional<std::array<S, 2>> solve2(const S& m00, const S& m01, const S& m10, const S& m11, const S& r0,
                                       const S& r1) {
  const S det = m00 * m11 - m01 * m10;
  const double scale = std::max({absd(m00), absd(m01), absd(m10), absd(m11), 1e-300});
  if (near_zero(det, 1e-10 * scale * scale)) return std::nullopt;
  return std::array<S, 2>{(r0 * m11 - m01 * r1) / det, (m00 * r1 - m10 * r0) / det};
}

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

// d/dx_v of a series (coefficients alpha_v c_alpha moved to alpha - e_v).
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

// ---- options ------------------------------------------------------------------------

std::string JordanChoice::check() const {
  auto bad = [](const std::string& field, double v, const std::string& why) {
    return "JordanChoice: " + field + " = " + num(v) + " " + why;
  };
  const std::pair<const char*, double> all[] = {{"v1_scale", v1_scale},     {"v2_scale", v2_scale},
                                                {"v3_plus_v2", v3_plus_v2}, {"v3_plus_v4", v3_plus_v4},
                                                {"v3_plus_v5", v3_plus_v5}, {"v4_plus_v2", v4_plus_v2},
                                                {"v5_plus_v2", v5_plus_v2}};
  for (const auto& [name, v] : all)
    if (!std::isfinite(v)) return bad(name, v, "is not finite");
  for (int i = 0; i < 4; ++i)
    if (!std::isfinite(kernel_mix[i]))
      return bad("kernel_mix[" + std::to_string(i) + "]", kernel_mix[i], "is not finite");
  if (v1_scale == 0.0) return bad("v1_scale", v1_scale, "must be nonzero");
  if (v2_scale == 0.0) return bad("v2_scale", v2_scale, "must be nonzero");
  const double det = kernel_mix[0] * kernel_mix[3] - kernel_mix[1] * kernel_mix[2];
  if (det == 0.0) return "JordanChoice: kernel_mix has determinant 0 (must be invertible)";
  return "";
}

std::string ContactClassificationOptions::check() const {
  auto bad = [](const std::string& field, double v, const std::string& why) {
    return "ContactClassificationOptions: " + field + " = " + num(v) + " " + why;
  };
  if (order < 2 || order > kMaxOrder)
    return bad("order", order, "must be in 2.." + std::to_string(kMaxOrder));
  if (truncation_order < 1 || truncation_order > 12)
    return bad("truncation_order", truncation_order, "must be in 1..12");
  const std::pair<const char*, double> tolerances[] = {{"degenerate_tolerance", degenerate_tolerance},
                                                       {"extremal_tolerance", extremal_tolerance},
                                                       {"zero_tolerance", zero_tolerance},
                                                       {"rank_tolerance", rank_tolerance},
                                                       {"curvature_tolerance", curvature_tolerance}};
  for (const auto& [name, v] : tolerances)
    if (!(v >= 0.0) || !std::isfinite(v)) return bad(name, v, "must be finite and >= 0");
  const std::string j = jordan.check();
  if (!j.empty())
    return "ContactClassificationOptions: jordan: " + j.substr(std::string("JordanChoice: ").size());
  return "";
}

namespace contact {

// ---- curves from curvature -------------------------------------------------------------

template <class S>
CurveJet<S> curve_jet_from_curvature(const std::vector<S>& kappa_taylor, int order,
                                     const std::array<S, 2>& point, const std::array<S, 2>& tangent,
                                     std::string name) {
  if (order < 1 || order > kJetCapacity - 1)
    throw std::invalid_argument("curve_jet_from_curvature: order " + std::to_string(order) +
                                " is outside 1.." + std::to_string(kJetCapacity - 1));
  // theta(sigma) = int kappa, c'(sigma) = R (cos theta, sin theta), R the
  // rotation taking (1, 0) to the tangent.
  const Uni<S> kappa = from_vector(kappa_taylor, order - 1);
  const Uni<S> theta = integrate(kappa, S(0.0));
  Uni<S> ct, st;
  exact_sin_cos(theta, &st, &ct);
  const Uni<S> dx = ct * tangent[0] - st * tangent[1];
  const Uni<S> dy = ct * tangent[1] + st * tangent[0];
  const Uni<S> x = integrate(dx, point[0]), y = integrate(dy, point[1]);
  CurveJet<S> jet;
  jet.name = std::move(name);
  for (int k = 0; k <= order; ++k) {
    jet.x.push_back(x[k]);
    jet.y.push_back(y[k]);
  }
  return jet;
}

template CurveJet<double> curve_jet_from_curvature(const std::vector<double>&, int,
                                                   const std::array<double, 2>&, const std::array<double, 2>&,
                                                   std::string);
template CurveJet<Rational> curve_jet_from_curvature(const std::vector<Rational>&, int,
                                                     const std::array<Rational, 2>&,
                                                     const std::array<Rational, 2>&, std::string);

// ---- the point and the Jordan basis -----------------------------------------------------
//
// Geometry (rederived; models/extremal.h): with unit tangents t_i, outward
// normals n_i = (t_iy, -t_ix), d = (c2 - c1) . n1, eps = t1 . t2 (-1 at the
// paper's opposing extremal points), the arc-length Jacobian of (3) is (8):
//   J = [ -1 - kappa1 d     eps            ]
//       [ eps kappa1        -eps kappa2     ],
// and for eps = -1, det = -kappa1 - kappa2 - kappa1 kappa2 d (10),
// trace = lambda1 = -1 - kappa1 d + kappa2 (11).
//
// The Jordan basis P (columns v1..v5 on p = (sigma1, sigma2, x, y, phi)), a
// reconstruction: the paper fixes only (15). It is built in the "simplified
// frame" of Sec. 4.3 (body 1's y-axis along the common normal n1, x-axis along
// -t1, body 2's origin at its contact point) and mapped back. In that frame
// the parameter columns of J are (rederived from (3)):
//   d f / d x' = (-t1 . t1, 0) = (-1, 0)    (body 2 slides along -t1)
//   d f / d y' = (t1 . n1, 0)  = (0, 0)     (along the normal: no first-order effect)
//   d f / d phi' = (0, -eps)                (rotation about the contact point: dt2/dphi = -n2)
// With a = J11, b = J12, c = J21, e = J22 (J_s in the arc lengths):
//   v1 = (b, e) or (a, c): the eigenvector of lambda1 = a + e (J_s singular).
//   v2 = (e, -c) / lambda1, which is (kappa2, kappa1) / lambda1 for eps = -1
//        (the v2); when kappa1 = kappa2 = 0 (case 1) this vanishes and
//        v2 = (-b, a) / lambda1 = (1, -1) / (-1) = (-1, 1) is used: then p^2 =
//        sigma2 to first order, which reproduces (26) and the scaling of (33),
//        (36) (c_2 = 3 for (31): 3 s2^2 + phi = 0, rederived in
//        tests/models/extremal.test.cpp).
//   w  = the kernel vector with sigma2 = y' = 0, phi' = 1 (solving for sigma1, x');
//        in case 1 (c = 0) phi' = 0 on the whole kernel, and w is the kernel
//        vector with sigma2 = y' = 0, sigma1 = 1: w = (1, 0, -1, 0, 0).
//   v3p: J v3p = v2 using only sigma1 and x' (case 1, where that is singular:
//        sigma1 and phi', v3p = (1, 0, 0, 0, 1)).
//   v3 = v3p - e_y' - w,  v4 = -e_y' - w,  v5 = -w.
// In case 2 this is the reconstruction and reproduces (41), (42),
// (44), (45). In case 1 it gives v3 = (0, 0, 1, -1, 1), v4 = (-1, 0, 1, -1, 0),
// v5 = (-1, 0, 1, 0, 0): no parameter direction moves sigma2, so p^2 = sigma2
// exactly; it reproduces (32), (35), (36), the second row (0, -6, -6) of (38)
// and the x-terms of (33) (1/3 phi - 4/3 x phi + 4/3 x^3). Why p^2 = sigma2
// matters for (33): with f2 ~ phi + 3 s2^2 + 4 (s2 + x)^3 (eq. (31)), p^2 =
// sigma2 keeps 4 x^3 in mu_0, while a basis whose kernel vectors move sigma2
// (e.g. p^2 = sigma2 + x) puts it into the p^3 term that the 2-jet drops; the
// normal forms of two bases agree only to the order the (z+1)-jet is accurate.
// The case-1 closed forms (27), (28) belong to the mirror basis
// (JordanChoice::closed_forms_case1(): v3, v4, v5 minus v2, the kernel vector
// with sigma1 = 0), which reproduces (38)'s second row too but not (33). The free choices
// (JordanChoice) are applied on top, then P = diag(I2, L^-1) P' with
//   L = d(x', y', phi') / d(x, y, phi) = [ -t1^T   -t1 . (A'(0) C2) ]
//                                         [  n1^T    n1 . (A'(0) C2) ]
//                                         [  0  0    1              ],
// C2 = A(phi*) c2_b(s2*) (body 2's contact point relative to its origin), the
// linearization of the change to the simplified frame (a rotation about body
// 2's origin also moves its contact point by A'(0) C2 dphi). Terms linear in the
// parameters transform with L only, so c_n, c_nm are those of the simplified frame.

template <class S>
Analysis<S> analyse(const CurveJet<S>& jet1_in, const CurveJet<S>& jet2_in, const S& x0, const S& y0,
                    double phi0, const ContactClassificationOptions& options) {
  const std::string bad_options = options.check();
  if (!bad_options.empty()) throw std::invalid_argument(bad_options);
  const int order = options.order;
  for (const CurveJet<S>* jet : std::array<const CurveJet<S>*, 2>{&jet1_in, &jet2_in})
    if (static_cast<int>(jet->x.size()) < order + 2 || jet->x.size() != jet->y.size())
      throw std::invalid_argument("classify: the jet of '" + jet->name + "' has " +
                                  std::to_string(jet->x.size()) +
                                  " coefficients, needs order + 2 = " + std::to_string(order + 2));
  Analysis<S> an;
  an.x0 = x0;
  an.y0 = y0;
  an.phi0 = phi0;
  // Bake the rotation phi* into curve 2 (its origin stays at (x*, y*)).
  CurveJet<S> jet2 = jet2_in;
  if (phi0 != 0.0) {
    if constexpr (!std::is_same_v<S, double>) {
      throw InexactError("phi* = " + num(phi0) + " != 0: cos and sin of phi* are not rational");
    } else {
      const double c = std::cos(phi0), s = std::sin(phi0);
      for (std::size_t k = 0; k < jet2.x.size(); ++k) {
        const double x = jet2.x[k], y = jet2.y[k];
        jet2.x[k] = c * x - s * y;
        jet2.y[k] = s * x + c * y;
      }
    }
  }
  // Regularity at the point.
  for (const CurveJet<S>* jet : std::array<const CurveJet<S>*, 2>{&jet1_in, &jet2}) {
    const double speed = std::hypot(contact::to_double(jet->x[1]), contact::to_double(jet->y[1]));
    double scale = 0.0;
    for (std::size_t k = 1; k < jet->x.size(); ++k) scale += absd(jet->x[k]) + absd(jet->y[k]);
    if (!(speed > models::kRegularity * std::max(scale, 1e-300)))
      throw std::invalid_argument("curve '" + jet->name +
                                  "' is not regular at the point: |c'(s*)| = " + num(speed));
  }
  const int jet_order = order + 1;
  const CurveJet<S> arc1 = arclength_jet(jet1_in, jet_order), arc2 = arclength_jet(jet2, jet_order);
  an.jet1 = options.arclength ? arc1 : jet1_in;
  an.jet2 = options.arclength ? arc2 : jet2;
  an.jet1.name = jet1_in.name;
  an.jet2.name = jet2_in.name;
  // Geometry from the arc-length jets.
  const S t1x = arc1.x[1], t1y = arc1.y[1], t2x = arc2.x[1], t2y = arc2.y[1];
  const S n1x = t1y, n1y = -t1x;
  an.kappa1 = S(2.0) * (arc1.x[1] * arc1.y[2] - arc1.y[1] * arc1.x[2]);
  an.kappa2 = S(2.0) * (arc2.x[1] * arc2.y[2] - arc2.y[1] * arc2.x[2]);
  const S dx = jet2.x[0] + x0 - jet1_in.x[0], dy = jet2.y[0] + y0 - jet1_in.y[0];
  an.d = dx * n1x + dy * n1y;
  an.epsilon = t1x * t2x + t1y * t2y;
  const S f1 = dx * t1x + dy * t1y, f2 = n1x * t2x + n1y * t2y;
  const double fnorm = std::max(absd(f1), absd(f2));
  if (!near_zero(f1, options.extremal_tolerance) || !near_zero(f2, options.extremal_tolerance))
    throw std::invalid_argument("classify: the point is not an extremal point: |f|_inf = " + num(fnorm) +
                                " (eq. (3)) > extremal_tolerance = " + num(options.extremal_tolerance));
  // J in the coordinates used, by one pass of first-order series.
  const auto linear = contact::make_monomial_set(5, {MonomialConstraint{{1, 1, 1, 1, 1}, 1}});
  const JetShape<S> shape1 = jet_shape(an.jet1, 2), shape2 = jet_shape(an.jet2, 2);
  models::ExtremalEquations<JetShape<S>, JetShape<S>> equations{shape1, shape2};
  Series<S> u[5], f[2];
  for (int v = 0; v < 5; ++v) u[v] = Series<S>::variable(linear, v, S(0.0));
  u[2] += constant_series(x0);
  u[3] += constant_series(y0);
  equations(u, f);
  S J[2][5];
  for (int i = 0; i < 2; ++i)
    for (int v = 0; v < 5; ++v) J[i][v] = f[i][linear->variable_index(v)];
  // Arc-length J_sigma = J_s diag(1/speed1, 1/speed2) for det (10) and trace (11).
  S speed1(1.0), speed2(1.0);
  if (!options.arclength) {
    using std::sqrt;
    speed1 = sqrt(jet1_in.x[1] * jet1_in.x[1] + jet1_in.y[1] * jet1_in.y[1]);
    speed2 = sqrt(jet2.x[1] * jet2.x[1] + jet2.y[1] * jet2.y[1]);
  }
  const S a = J[0][0], b = J[0][1], c = J[1][0], e = J[1][1];
  an.det = (a * e - b * c) / (speed1 * speed2);
  an.trace = a / speed1 + e / speed2;
  if (!near_zero(an.det, options.degenerate_tolerance))
    throw std::invalid_argument(
        "classify: the point is not degenerate: det J = " + num(contact::to_double(an.det)) +
        " (eq. (10), arc length; kappa1 = " + num(contact::to_double(an.kappa1)) +
        ", kappa2 = " + num(contact::to_double(an.kappa2)) + ", d = " + num(contact::to_double(an.d)) +
        "); |det J| must be <= degenerate_tolerance = " + num(options.degenerate_tolerance));
  const S lambda1 = a + e;  // the nonzero eigenvalue in the coordinates used
  const double jscale = std::max({absd(a), absd(b), absd(c), absd(e)});
  if (near_zero(lambda1, 1e-12 * std::max(jscale, 1e-300)) || jscale == 0.0)
    throw std::invalid_argument("classify: trace J = " + num(contact::to_double(an.trace)) +
                                ": a double zero eigenvalue (Takens-Bogdanov, Sec. 4.3.3), not covered");
  an.vanishing_curvature =
      near_zero(an.kappa1, options.curvature_tolerance) && near_zero(an.kappa2, options.curvature_tolerance);

  // L^-1 = [[R^T, -A'(0) C2], [0, 1]], R = rows (-t1, n1).
  const S C2x = jet2.x[0], C2y = jet2.y[0];
  const S JCx = -C2y, JCy = C2x;  // A'(0) C2
  S Linv[3][3] = {{-t1x, n1x, -JCx}, {-t1y, n1y, -JCy}, {S(0.0), S(0.0), S(1.0)}};
  // J' = J diag(I, L^-1).
  S Jp[2][5];
  for (int i = 0; i < 2; ++i) {
    Jp[i][0] = J[i][0];
    Jp[i][1] = J[i][1];
    for (int q = 0; q < 3; ++q) {
      S sum(0.0);
      for (int r = 0; r < 3; ++r) sum += J[i][2 + r] * Linv[r][q];
      Jp[i][2 + q] = sum;
    }
  }
  using V5 = std::array<S, 5>;
  auto zero5 = [] { return V5{S(0.0), S(0.0), S(0.0), S(0.0), S(0.0)}; };
  V5 v1 = zero5(), v2 = zero5(), w = zero5(), v3p = zero5();
  // v1: eigenvector of lambda1.
  if (absd(b) + absd(e) >= absd(a) + absd(c)) {
    v1[0] = b;
    v1[1] = e;
  } else {
    v1[0] = a;
    v1[1] = c;
  }
  // v2: kernel vector / lambda1. Of the two adjugate columns (e, -c) and
  // (-b, a) (parallel at det = 0), (e, -c) = (kappa2, kappa1) is the paper's
  // (it reproduces (41)-(45)); it is taken unless it is much shorter than the
  // other, so that v2 does not shrink to zero as both curvatures tend to 0
  // (a nearly singular P would make every c_n look zero, e.g. 5e-11 away
  // from example 4.4.3's cusp, where kappa_i ~ 3e-10).
  const double tiny = 1e-12 * jscale;
  const double paper_norm = absd(e) + absd(c), other_norm = absd(a) + absd(b);
  if ((!near_zero(e, tiny) || !near_zero(c, tiny)) && paper_norm >= 1e-3 * other_norm) {
    v2[0] = e / lambda1;
    v2[1] = -c / lambda1;
  } else {
    v2[0] = -b / lambda1;
    v2[1] = a / lambda1;
  }
  // w and v3p.
  if (auto z = solve2(Jp[0][0], Jp[0][2], Jp[1][0], Jp[1][2], -Jp[0][4], -Jp[1][4])) {
    w = V5{(*z)[0], S(0.0), (*z)[1], S(0.0), S(1.0)};
  } else if (auto z2 = solve2(Jp[0][2], Jp[0][4], Jp[1][2], Jp[1][4], -Jp[0][0], -Jp[1][0])) {
    w = V5{S(1.0), S(0.0), (*z2)[0], S(0.0), (*z2)[1]};
  } else {
    throw std::invalid_argument("classify: could not build the Jordan basis (kernel vector w)");
  }
  if (auto z = solve2(Jp[0][0], Jp[0][2], Jp[1][0], Jp[1][2], v2[0], v2[1])) {
    v3p = V5{(*z)[0], S(0.0), (*z)[1], S(0.0), S(0.0)};
  } else if (auto z2 = solve2(Jp[0][0], Jp[0][4], Jp[1][0], Jp[1][4], v2[0], v2[1])) {
    v3p = V5{(*z2)[0], S(0.0), S(0.0), S(0.0), (*z2)[1]};
  } else {
    throw std::invalid_argument("classify: could not build the Jordan basis (J v3 = v2)");
  }
  V5 v4 = zero5(), v5 = zero5(), v3 = zero5();
  for (int i = 0; i < 5; ++i) {
    const S ey = i == 3 ? S(1.0) : S(0.0);
    v4[i] = -ey - w[i];
    v5[i] = -w[i];
    v3[i] = v3p[i] + v4[i];
  }
  // Free choices.
  const JordanChoice& ch = options.jordan;
  const S s1(ch.v1_scale), s2(ch.v2_scale);
  const S m00(ch.kernel_mix[0]), m01(ch.kernel_mix[1]), m10(ch.kernel_mix[2]), m11(ch.kernel_mix[3]);
  V5 nv1, nv2, nv3, nv4, nv5;
  for (int i = 0; i < 5; ++i) {
    nv1[i] = v1[i] * s1;
    nv2[i] = v2[i] * s2;
  }
  for (int i = 0; i < 5; ++i) {
    nv4[i] = v4[i] * m00 + v5[i] * m10 + nv2[i] * S(ch.v4_plus_v2);
    nv5[i] = v4[i] * m01 + v5[i] * m11 + nv2[i] * S(ch.v5_plus_v2);
  }
  for (int i = 0; i < 5; ++i)
    nv3[i] = v3[i] * s2 + nv2[i] * S(ch.v3_plus_v2) + nv4[i] * S(ch.v3_plus_v4) + nv5[i] * S(ch.v3_plus_v5);
  const V5* columns[5] = {&nv1, &nv2, &nv3, &nv4, &nv5};
  // P = diag(I2, L^-1) P'.
  for (int j = 0; j < 5; ++j) {
    const V5& v = *columns[j];
    an.P[0][j] = v[0];
    an.P[1][j] = v[1];
    for (int r = 0; r < 3; ++r) {
      S sum(0.0);
      for (int q = 0; q < 3; ++q) sum += Linv[r][q] * v[2 + q];
      an.P[2 + r][j] = sum;
    }
  }
  return an;
}

template Analysis<double> analyse(const CurveJet<double>&, const CurveJet<double>&, const double&,
                                  const double&, double, const ContactClassificationOptions&);
template Analysis<Rational> analyse(const CurveJet<Rational>&, const CurveJet<Rational>&, const Rational&,
                                    const Rational&, double, const ContactClassificationOptions&);

}  // namespace contact

namespace {

using contact::Analysis;
using contact::ReducedCoefficients;
using contact::Route;

// ---- step 1: the extended system (12) in the Jordan coordinates ------------------------
//
// p = p* + P p^; g^ = P^-1 g(p* + P p^). The rows 3-5 of g vanish and the
// first two columns of P have no parameter components (v1, v2 span the s-plane),
// so P = [[A, B], [0, C]] and the first two rows of g^ are A^-1 f(p* + P p^):
// g^_1 (the lambda1 direction) and g^_2 (the critical one). f is eq. (3),
// evaluated by models::ExtremalEquations on the series variables p^1..p^5.
template <class S>
std::array<Series<S>, 2> jordan_system(const Analysis<S>& an, const std::shared_ptr<const MonomialSet>& set,
                                       bool jordan = true) {
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

std::string key(int n, int m) { return std::to_string(n) + "," + std::to_string(m); }

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
Series<S> centre_manifold(const std::array<Series<S>, 2>& g, const S& lambda1, Series<S>* h_out = nullptr) {
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

namespace contact {

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

void check_not_rounded(const CurveJet<Rational>& jet) {
  for (std::size_t k = 0; k < jet.x.size(); ++k)
    for (const Rational* v : {&jet.x[k], &jet.y[k]}) {
      const auto den = boost::multiprecision::denominator(v->value());
      if (den > 1 && boost::multiprecision::lsb(den) >= 40)
        throw InexactError(
            "Taylor coefficient " + std::to_string(k) + " of curve '" + jet.name + "' is " + v->str() +
            ": a rounded double entered the exact computation (e.g. continuation/taylor.h's cos "
            "recurrence multiplies by sign / double(k))");
    }
}

}  // namespace contact

namespace {

// ---- step 3: codimension, (25), rank, normal form -----------------------------------------

template <class S>
int exact_rank(std::vector<std::vector<S>> m, double tol) {
  int rank = 0;
  const int rows = static_cast<int>(m.size()), cols = rows ? static_cast<int>(m[0].size()) : 0;
  for (int col = 0; col < cols && rank < rows; ++col) {
    int pivot = -1;
    double best = 0.0;
    for (int r = rank; r < rows; ++r)
      if (!near_zero(m[r][col], tol) && absd(m[r][col]) > best) {
        best = absd(m[r][col]);
        pivot = r;
      }
    if (pivot < 0) continue;
    std::swap(m[rank], m[pivot]);
    for (int r = rank + 1; r < rows; ++r) {
      const S factor = m[r][col] / m[rank][col];
      for (int q = col; q < cols; ++q) m[r][q] -= factor * m[rank][q];
    }
    ++rank;
  }
  return rank;
}

int svd_rank(const std::vector<std::vector<double>>& m, double tol) {
  if (m.empty()) return 0;
  Eigen::MatrixXd M(m.size(), m[0].size());
  for (std::size_t i = 0; i < m.size(); ++i)
    for (std::size_t j = 0; j < m[0].size(); ++j) M(i, j) = m[i][j];
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(M);
  const auto& sv = svd.singularValues();
  const double threshold = tol * (1.0 + (sv.size() ? sv(0) : 0.0));
  int rank = 0;
  for (int i = 0; i < sv.size(); ++i)
    if (sv(i) > threshold) ++rank;
  return rank;
}

std::string type_name(int z) {
  switch (z) {
    case 1:
      return "fold";
    case 2:
      return "cusp";
    case 3:
      return "swallowtail";
    case 4:
      return "butterfly";
    default:
      return "A" + std::to_string(z + 1);
  }
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

std::string monomial_name(int ex, int ey, int ephi) {
  std::string s;
  auto add = [&](const char* v, int e) {
    if (e == 0) return;
    if (!s.empty()) s += "*";
    s += v;
    if (e > 1) s += "^" + std::to_string(e);
  };
  add("x", ex);
  add("y", ey);
  add("phi", ephi);
  return s;
}

std::string format_g(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.10g", v);
  return buffer;
}

// Appends " + c*m" / " - c*m" style text.
void append_term(std::string* out, const std::string& coefficient, const std::string& monomial) {
  std::string c = coefficient;
  bool negative = !c.empty() && c[0] == '-';
  if (negative) c = c.substr(1);
  if (out->empty()) {
    *out = negative ? "-" : "";
  } else {
    *out += negative ? " - " : " + ";
  }
  if (monomial.empty()) {
    *out += c;
  } else if (c == "1") {
    *out += monomial;
  } else {
    *out += c + "*" + monomial;
  }
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
    for (const auto& t : nf.terms) {
      const std::string m = monomial_name(t.ex, t.ey, t.ephi);
      append_term(&nf.polynomial, format_g(t.value), m);
      if (exact) append_term(&nf.exact, t.exact, m);
    }
    if (nf.polynomial.empty()) nf.polynomial = "0";
    if (exact && nf.exact.empty()) nf.exact = "0";
    out.push_back(nf);
  }
  return out;
}

// Fills the classification from the reduced coefficients on S.
template <class S>
void fill(const Analysis<S>& an, const ReducedCoefficients<S>& rc,
          const ContactClassificationOptions& options, bool exact, ContactClassification* out) {
  const int N = options.order;
  out->kappa1 = contact::to_double(an.kappa1);
  out->kappa2 = contact::to_double(an.kappa2);
  out->d = contact::to_double(an.d);
  out->epsilon = contact::to_double(an.epsilon);
  out->det = contact::to_double(an.det);
  out->trace = contact::to_double(an.trace);
  out->degeneracy_case = an.vanishing_curvature
                             ? "vanishing curvature (kappa1 = kappa2 = 0, case 1 of Sec. 4.2)"
                             : "concentric osculating circles (d = -(kappa1 + kappa2) / "
                               "(kappa1 kappa2), case 2 of Sec. 4.2)";
  if (contact::to_double(an.epsilon) > 0) out->degeneracy_case = "co-oriented tangents (t1 . t2 = +1)";
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) out->jordan_basis[i][j] = contact::to_double(an.P[i][j]);
  out->c.clear();
  out->cm.clear();
  out->c_exact.clear();
  out->cm_exact.clear();
  out->k.clear();
  out->km.clear();
  double cmax = 1.0;
  for (const auto& [n, v] : rc.c) cmax = std::max(cmax, absd(v));
  int z = 0;
  for (const auto& [n, v] : rc.c) {
    out->c[n] = contact::to_double(v);
    if (exact) out->c_exact[n] = contact::to_string(v);
    if (z == 0 && !near_zero(v, options.zero_tolerance * cmax)) z = n - 1;
  }
  for (const auto& [n, v] : rc.k) out->k[n] = contact::to_double(v);
  for (const auto& [kk, v] : rc.km) out->km[kk] = contact::to_double(v);
  for (const auto& [kk, v] : rc.cm) {
    out->cm[kk] = contact::to_double(v);
    if (exact) out->cm_exact[kk] = contact::to_string(v);
  }
  out->exact = exact;
  out->transversality_matrix.clear();
  out->transversality_exact.clear();
  out->normal_form.clear();
  if (z == 0) {
    out->status = ClassificationStatus::kCodimensionUndecided;
    out->codimension = 0;
    out->type.clear();
    out->rank = 0;
    out->versal = false;
    out->message = "codimension > " + std::to_string(N - 1) + ": c_2 .. c_" + std::to_string(N) +
                   " all vanish at order N = " + std::to_string(N) + " (raise options.order)";
    return;
  }
  out->status = ClassificationStatus::kClassified;
  out->codimension = z;
  std::vector<std::vector<S>> m(z, std::vector<S>(3));
  for (int n = 0; n < z; ++n) {
    std::vector<double> row;
    std::vector<std::string> row_exact;
    for (int col = 0; col < 3; ++col) {
      m[n][col] = rc.cm.at(key(n, col + 3));
      row.push_back(contact::to_double(m[n][col]));
      if (exact) row_exact.push_back(contact::to_string(m[n][col]));
    }
    out->transversality_matrix.push_back(row);
    if (exact) out->transversality_exact.push_back(row_exact);
  }
  if constexpr (std::is_same_v<S, double>) {
    out->rank = svd_rank(out->transversality_matrix, options.rank_tolerance);
  } else {
    out->rank = exact_rank(m, 0.0);
  }
  out->versal = z <= 3 && out->rank == z;
  out->type = type_name(z);
  std::shared_ptr<const MonomialSet> params;
  const auto mu = normal_form(an, z, options.truncation_order, &params);
  out->normal_form = describe_normal_form(mu, *params, exact);
  out->truncation_order = options.truncation_order;
  std::ostringstream msg;
  msg << out->type << " (codimension " << z << "): c_" << z + 1 << " = " << contact::to_string(out->c[z + 1]);
  if (exact) msg << " = " << out->c_exact[z + 1];
  msg << "; (25) has rank " << out->rank << " of " << std::min(z, 3) << ": "
      << (out->versal ? "versal unfolding"
                      : "not versal (the pose parameters do not unfold it in general position)");
  out->message = msg.str();
}

}  // namespace

namespace contact {

ContactClassification classify_jets(const CurveJet<double>& jet1, const CurveJet<double>& jet2,
                                    const std::array<double, 5>& point,
                                    const ContactClassificationOptions& options,
                                    const std::optional<CurveJet<Rational>>& exact_jet1,
                                    const std::optional<CurveJet<Rational>>& exact_jet2,
                                    const std::string& exact_note) {
  const std::string bad = options.check();
  if (!bad.empty()) throw std::invalid_argument(bad);
  for (int i = 0; i < 5; ++i)
    if (!std::isfinite(point[i]))
      throw std::invalid_argument("classify: point component " + std::to_string(i) + " = " + num(point[i]) +
                                  " is not finite");
  ContactClassification out;
  out.degenerate_point = point;
  out.order = options.order;
  out.arclength = options.arclength;
  out.truncation_order = options.truncation_order;
  // Double path: validates the point (throws) and gives the numbers.
  const Analysis<double> an = analyse<double>(jet1, jet2, point[2], point[3], point[4], options);
  const auto rc = reduced_coefficients(an, options.order, Route::kPaper);
  fill(an, rc, options, false, &out);
  // Exact path.
  out.exact_note = exact_note;
  if (!options.exact) {
    out.exact_note = "options.exact is false";
  } else if (exact_jet1 && exact_jet2) {
    try {
      check_not_rounded(*exact_jet1);
      check_not_rounded(*exact_jet2);
      const Rational x0 = exact_dyadic(point[2]), y0 = exact_dyadic(point[3]);
      ContactClassificationOptions exact_options = options;
      const Analysis<Rational> ea =
          analyse<Rational>(*exact_jet1, *exact_jet2, x0, y0, point[4], exact_options);
      const auto erc = reduced_coefficients(ea, options.order, Route::kPaper);
      ContactClassification exact_out = out;
      fill(ea, erc, options, true, &exact_out);
      if (exact_out.codimension != out.codimension || exact_out.rank != out.rank)
        exact_out.message += " [the double path found codimension " + std::to_string(out.codimension) +
                             ", rank " + std::to_string(out.rank) + "; the exact values decide]";
      exact_out.exact_note.clear();
      out = exact_out;
    } catch (const std::exception& e) {
      out.exact = false;
      out.exact_note = std::string("not exact: ") + e.what();
    }
  } else if (out.exact_note.empty()) {
    out.exact_note = "no exact data";
  }
  return out;
}

}  // namespace contact

ContactClassification classify(const models::ExtremalProblem& problem, const std::array<double, 5>& point,
                               const ContactClassificationOptions& options) {
  const std::string bad = options.check();
  if (!bad.empty()) throw std::invalid_argument(bad);
  if (!problem.curve1 || !problem.curve2) throw std::invalid_argument("classify: the problem has no curves");
  const int jet_order = options.order + 2;
  auto jet_of = [&](const models::PlanarCurve& curve, double s) {
    const models::CurveTaylor t = curve.taylor(s, jet_order);
    CurveJet<double> jet;
    jet.x = t.x;
    jet.y = t.y;
    jet.name = curve.name();
    return jet;
  };
  const CurveJet<double> jet1 = jet_of(*problem.curve1, point[0]), jet2 = jet_of(*problem.curve2, point[1]);
  // Exact when every number is a short dyadic (then it is exactly the data).
  std::optional<CurveJet<Rational>> e1, e2;
  std::string note;
  if (options.exact) {
    try {
      auto exact_of = [](const CurveJet<double>& jet) {
        CurveJet<Rational> r;
        r.name = jet.name;
        for (std::size_t k = 0; k < jet.x.size(); ++k) {
          try {
            r.x.push_back(contact::exact_dyadic(jet.x[k]));
            r.y.push_back(contact::exact_dyadic(jet.y[k]));
          } catch (const InexactError& e) {
            throw InexactError("Taylor coefficient " + std::to_string(k) + " of curve '" + jet.name +
                               "': " + e.what());
          }
        }
        return r;
      };
      for (int i = 2; i < 5; ++i) contact::exact_dyadic(point[i]);
      e1 = exact_of(jet1);
      e2 = exact_of(jet2);
    } catch (const InexactError& e) {
      e1.reset();
      e2.reset();
      note = std::string("not exact: ") + e.what();
    }
  }
  return contact::classify_jets(jet1, jet2, point, options, e1, e2, note);
}

// ---- step 5: predicted solution counts -------------------------------------------------------

std::vector<double> normal_form_coefficients(const ContactClassification& result,
                                             const Eigen::Vector3d& pose) {
  if (result.status != ClassificationStatus::kClassified)
    throw std::invalid_argument("normal_form_coefficients: the classification is undecided (" +
                                result.message + ")");
  const double dx = pose[0] - result.degenerate_point[2], dy = pose[1] - result.degenerate_point[3],
               dphi = pose[2] - result.degenerate_point[4];
  std::vector<double> mu;
  for (const auto& nf : result.normal_form) {
    double v = 0.0;
    for (const auto& t : nf.terms)
      v += t.value * std::pow(dx, t.ex) * std::pow(dy, t.ey) * std::pow(dphi, t.ephi);
    mu.push_back(v);
  }
  return mu;
}

int predicted_solution_count(const ContactClassification& result, const Eigen::Vector3d& pose) {
  const std::vector<double> mu = normal_form_coefficients(result, pose);
  // Real roots of q^(z+1) + sum_i mu_i q^i (the companion matrix's real
  // eigenvalues; a root counts as real when its imaginary part is below
  // 1e-7 of the root scale: poses on the bifurcation set are ambiguous anyway).
  const int n = static_cast<int>(mu.size());
  Eigen::MatrixXd companion = Eigen::MatrixXd::Zero(n, n);
  for (int i = 1; i < n; ++i) companion(i, i - 1) = 1.0;
  for (int i = 0; i < n; ++i) companion(i, n - 1) = -mu[i];
  const Eigen::VectorXcd roots = companion.eigenvalues();
  double scale = 0.0;
  for (int i = 0; i < n; ++i) scale = std::max(scale, std::abs(roots[i]));
  std::vector<double> real;
  for (int i = 0; i < n; ++i)
    if (std::abs(roots[i].imag()) <= 1e-7 * (scale + 1e-300)) real.push_back(roots[i].real());
  std::sort(real.begin(), real.end());
  int count = 0;
  for (std::size_t i = 0; i < real.size(); ++i)
    if (i == 0 || real[i] - real[i - 1] > 1e-7 * (scale + 1e-300)) ++count;
  return count;
}

// ---- step 4: closed forms --------------------------------------------------------------------
//
// Derivation of the corrected (29) (case 2, concentric osculating circles).
// Parametrize both curves by the angle theta of the common tangent direction
// t(theta) = (cos theta, sin theta), n(theta) = (sin theta, -cos theta): curve
// 1's point with tangent t (dsigma1/dtheta = 1/kappa1 = rho1) and curve 2's
// with tangent -t (dsigma2/dtheta = 1/kappa2 = rho2). Their normal lines are
// parallel; they coincide (an extremal point) iff H(theta) = (c2 - c1) . t = 0,
// which is f1 on the curve f2 = 0. With h_i = c_i . t, q_i = c_i . n:
//   h1' = rho1 - q1, q1' = h1  =>  h1'' + h1 = rho1'(theta),
//   h2' = -rho2 - q2, q2' = h2 =>  h2'' + h2 = -rho2'(theta),
// so H'' + H = -R'(theta), R = rho1 + rho2, H(0) = 0, H'(0) = -(rho1 + rho2 +
// d) = det / (kappa1 kappa2) = 0 at the degenerate point. If d^i kappa_j /
// dsigma^i = 0 for i = 1..N-2, then R^(i)(theta) = 0 for i = 1..N-2 and
//   H = -R^(N-1)(0) theta^N / N! + ...,  R^(N-1)(0) = -(kappa1^(N-1)/kappa1^(N+1) +
//   kappa2^(N-1)/kappa2^(N+1))
// (d/dtheta = rho d/dsigma, d^(N-1) rho/dsigma^(N-1) = -kappa^(N-1)/kappa^2 at leading order).
// The leading coefficient of the reduced equation does not depend on the
// Lyapunov-Schmidt splitting (given the kernel and cokernel normalizations):
// with v2 = (kappa2, kappa1)/lambda1, theta = kappa1 sigma1 = (kappa1 kappa2 /
// lambda1) p^2, and the cokernel row of P^-1 is (1, 1/kappa2), whose first
// entry multiplies f1 = H. Hence
//   c_N = (kappa2^(N+1) kappa1^(N-1) + kappa1^(N+1) kappa2^(N-1)) / (N! kappa1 kappa2 lambda1^N),
// lambda1 = (kappa1 + kappa2^2)/kappa2: the printed (29) has (kappa1 + kappa2)^N
// where (kappa1 + kappa2^2)^N belongs (they agree only when kappa2 = 1). For
// (40): kappa1 = -1, kappa2 = 2, kappa2'' = -24: c_3 = 16/27 (and 1/c_3 =
// 27/16 is the coefficient of x in (42)); the printed (29) gives 16.

namespace {
double factorial(int n) {
  double f = 1.0;
  for (int i = 2; i <= n; ++i) f *= i;
  return f;
}
double at(const std::vector<double>& v, int i, const char* name) {
  if (i < 0 || i >= static_cast<int>(v.size()))
    throw std::invalid_argument(std::string("closed form: ") + name + " needs derivative " +
                                std::to_string(i) + ", has " + std::to_string(v.size()));
  return v[i];
}
void check_n(int n) {
  if (n < 2) throw std::invalid_argument("closed form: n = " + std::to_string(n) + " must be >= 2");
}
}  // namespace

double closed_form_26(const std::vector<double>& k1, const std::vector<double>& k2, int n) {
  check_n(n);
  const double sign = (n - 1) % 2 == 0 ? 1.0 : -1.0;
  return (sign * at(k1, n - 1, "kappa1") + at(k2, n - 1, "kappa2")) / factorial(n);
}

double closed_form_27(const std::vector<double>& k1, const std::vector<double>& k2, int n,
                      double dc2_dphi_dot_t1) {
  if (n < 1) throw std::invalid_argument("closed form: n = " + std::to_string(n) + " must be >= 1");
  const double sign = (n - 1) % 2 == 0 ? 1.0 : -1.0;
  return (sign * at(k1, n, "kappa1") + (dc2_dphi_dot_t1 - 1.0) * at(k2, n, "kappa2")) / factorial(n);
}

double closed_form_28(const std::vector<double>& k2, int n) {
  if (n < 1) throw std::invalid_argument("closed form: n = " + std::to_string(n) + " must be >= 1");
  return -at(k2, n, "kappa2") / factorial(n);
}

double closed_form_29(const std::vector<double>& k1, const std::vector<double>& k2, int n) {
  check_n(n);
  const double a = at(k1, 0, "kappa1"), b = at(k2, 0, "kappa2");
  return std::pow(b, n - 1) / (factorial(n) * a * std::pow(a + b, n)) *
         (std::pow(b, n + 1) * at(k1, n - 1, "kappa1") + std::pow(a, n + 1) * at(k2, n - 1, "kappa2"));
}

double closed_form_30(const std::vector<double>& k1, const std::vector<double>& k2, int n) {
  if (n < 1) throw std::invalid_argument("closed form: n = " + std::to_string(n) + " must be >= 1");
  const double a = at(k1, 0, "kappa1"), b = at(k2, 0, "kappa2");
  return std::pow(b, 2 * n) / (factorial(n) * a * a * std::pow(a + b, n)) * at(k1, n, "kappa1");
}

double closed_form_29_corrected(const std::vector<double>& k1, const std::vector<double>& k2, int n) {
  check_n(n);
  const double a = at(k1, 0, "kappa1"), b = at(k2, 0, "kappa2");
  const double lambda1 = (a + b * b) / b;
  return (std::pow(b, n + 1) * at(k1, n - 1, "kappa1") + std::pow(a, n + 1) * at(k2, n - 1, "kappa2")) /
         (factorial(n) * a * b * std::pow(lambda1, n));
}

double closed_form_30_corrected(const std::vector<double>& k1, const std::vector<double>& k2, int n) {
  if (n < 1) throw std::invalid_argument("closed form: n = " + std::to_string(n) + " must be >= 1");
  const double a = at(k1, 0, "kappa1"), b = at(k2, 0, "kappa2");
  const double lambda1 = (a + b * b) / b;
  return -std::pow(b / lambda1, n) * at(k1, n, "kappa1") / (factorial(n) * a * a);
}

}  // namespace saltus
