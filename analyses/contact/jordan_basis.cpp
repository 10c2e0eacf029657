// The degenerate point and its Jordan basis (step 2's P) for the contact
// classification (analyses/contact/classification.h): geometry of eqs.
// (8)-(11), the checks that the point is an extremal, degenerate point, and
// the reconstruction of P with the free choices of JordanChoice.

#include <stdexcept>

#include "analyses/contact/detail.h"
#include "models/extremal.h"

namespace saltus::contact {

namespace {

using detail::absd;
using detail::arclength_jet;
using detail::constant_series;
using detail::jet_shape;
using detail::JetShape;
using detail::near_zero;
using detail::num;

// ---- small exact linear algebra on S ------------------------------------------------

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

}  // namespace

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
//        (the basis vector v2 of Sec. 4.3); when kappa1 = kappa2 = 0 (case 1) this vanishes and
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
// In case 2 this basis (a reconstruction of the paper's) reproduces (41), (42),
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

}  // namespace saltus::contact
