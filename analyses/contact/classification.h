#pragma once
// Classification of a degenerate extremal (contact) point of two smooth
// planar curves: Damerau & Low 2016, Sec. 4.2-4.4
// (J. Comput. Nonlinear Dynam. 11(6), doi:10.1115/1.4034393).
//
// Setting. f(s1, s2; x, y, phi) = 0 is eq. (3) (models/extremal.h: unit
// tangents, outward normals n = (t_y, -t_x), kappa > 0 convex). At a
// degenerate point p* = (s1*, s2*, x*, y*, phi*) the 2x2 Jacobian J_s of (9)
// has det = 0 (10) and trace lambda1 != 0 (11). The extended system (12)
//   p' = g(p) = (f1, f2, 0, 0, 0),  p = (s1, s2, x, y, phi),
// has the eigenvalue lambda1 and a zero eigenvalue of algebraic multiplicity 4
// with one Jordan block of size 2, (15).
//
// What is computed (each step in a file of analyses/contact/, with its
// derivation: curve_jets.cpp, jordan_basis.cpp, reduction.cpp,
// normal_form.cpp, closed_forms.cpp, counts.cpp; classification.cpp runs them):
//  1. Taylor coefficients of (12) at p* in the Jordan coordinates p^ (p = p* +
//     P p^) to order N by multivariate Taylor arithmetic: ExtremalEquations
//     (the same functor the continuation uses) evaluated on the truncated
//     series type contact::Series<S> (analyses/contact/series.h), S =
//     double or an exact rational.
//  2. The Jordan transformation P (columns v1..v5 acting on (s1, s2, x, y,
//     phi)), the centre-manifold constants k_n, k_nm and the Lyapunov
//     coefficients c_n, c_nm by the multinomial / Diophantine procedure of
//     Sec. 4.2.1-4.2.4, eqs. (19)-(24). Independent routes for the tests: the
//     centre manifold solved order by order as a multivariate series, and a
//     Lyapunov-Schmidt reduction (lyapunov_coefficients(..., route)).
//  3. The codimension z (c_2 = ... = c_z = 0 != c_{z+1}; fold z = 1, cusp 2,
//     swallowtail 3), the transversality matrix (25) with entries read as the
//     Taylor coefficients c_nm (row n = 0..z-1, columns m = 3, 4, 5), its rank
//     and versality (rank = z <= 3), and the Tschirnhaus transformation of the
//     (z+1)-jet of the reduced equation to the normal form
//         0 = mu_0 + mu_1 p + ... + mu_{z-1} p^{z-1} + p^{z+1},
//     each mu_i a polynomial in the pose deviations x - x*, y - y*, phi - phi*
//     (written x, y, phi, as the paper's (33)-(45) do) to a total degree T.
//  4. Closed forms (26)-(30) and their corrections (closed_form_*).
//  5. The number of real solutions near p* predicted by the normal form.
//
// Arc length. The paper's c_n, c_nm use the Frenet relations (17), i.e. both
// curves parametrized by arc length; by default the curves are
// reparametrized by arc length before step 1 (series reversion of sigma(s)),
// so that the results depend only on the geometry (curvatures and their
// arc-length derivatives) and reproduce the paper for non-unit-speed curves
// (its examples (37), (40), (43) are not unit speed beyond first order).
//
// Exactness. The same templated code runs on contact::Rational
// (boost::multiprecision::cpp_rational). Chosen over rational reconstruction
// from doubles because it is a proof, not a guess: every exact string is the
// value of the classification for exactly the given data (no denominator
// bound, no tolerance for "zero"), and the codimension and rank decisions are
// exact zero tests. Exact results are produced when the data are exact: the
// curve shapes evaluate on rationals (polynomial shapes, user shapes, curve
// jets given directly, e.g. curve_jet_from_curvature) or, for a type-erased
// ExtremalProblem, when every Taylor coefficient and the point are short
// dyadic rationals (1.5, 0.25, 24, not 0.1 or 1/6 rounded); the arc-length
// speed at the point must be rational and phi* = 0. A rounded double that
// slips into an exact jet (continuation/taylor.h's cos recurrence multiplies
// by sign / double(k), so Circle, Ellipse, FourierProfile jets on rationals
// carry a rounded 1/3 from order 6 on) is detected (a denominator divisible by
// 2^40) and the result stays double, with exact_note saying why.

#include <Eigen/Dense>
#include <array>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "analyses/contact/series.h"
#include "continuation/taylor.h"
#include "models/planar_curve.h"

namespace saltus {

namespace models {
struct ExtremalProblem;
}

// The free choices in the Jordan transformation P (Sec. 4.2 leaves P partly
// free). Defaults: the reconstruction documented in jordan_basis.cpp
// (it reproduces (32), (33), (35), (36), (38)'s first rows, (41), (42), (44),
// (45)). With columns v1..v5 of the default P, the basis used is
//   v1 <- v1_scale v1,  v2 <- v2_scale v2,
//   v4 <- [v4 v5] (kernel_mix[0], kernel_mix[2])^T + v4_plus_v2 v2,
//   v5 <- [v4 v5] (kernel_mix[1], kernel_mix[3])^T + v5_plus_v2 v2,
//   v3 <- v2_scale v3 + v3_plus_v2 v2 + v3_plus_v4 v4 + v3_plus_v5 v5  (new v2, v4, v5)
// which is again a Jordan basis of (15) whenever the scales are nonzero and
// the 2x2 kernel_mix is invertible. Numbers are taken exactly (as dyadics) on
// the exact path. The invariant content (codimension, rank, bifurcation set,
// solution counts) does not depend on them; the entries of (25) and the
// coefficients of the normal form do.
struct JordanChoice {
  double v1_scale = 1.0;
  double v2_scale = 1.0;
  double v3_plus_v2 = 0.0, v3_plus_v4 = 0.0, v3_plus_v5 = 0.0;
  std::array<double, 4> kernel_mix{1.0, 0.0, 0.0, 1.0};  // row-major 2x2
  double v4_plus_v2 = 0.0, v5_plus_v2 = 0.0;

  std::string check() const;  // empty when valid, else names the bad field

  // Case 1 (kappa1 = kappa2 = 0): v3, v4, v5 each minus v2, i.e. the kernel
  // vector w with sigma1 = 0 (body 1's contact point fixed) instead of
  // sigma2 = 0. In this basis the closed forms (27) and (28) hold as printed
  // (for N >= 3, under the stated conditions); the default basis reproduces
  // (33) instead (see jordan_basis.cpp).
  static JordanChoice closed_forms_case1() {
    JordanChoice c;
    c.v3_plus_v2 = c.v4_plus_v2 = c.v5_plus_v2 = -1.0;
    return c;
  }
};

struct ContactClassificationOptions {
  int order = 10;            // N >= 2: Taylor order of (12); c_n for n <= N, c_nm for n <= N - 1
  int truncation_order = 3;  // T >= 1: total degree in (x, y, phi) kept in each mu_i of the normal form
  bool arclength = true;     // reparametrize both curves by arc length first (the paper's (17))
  bool exact = true;         // also compute exact rationals when the data are exact
  double degenerate_tolerance = 1e-8;  // |det J| (arc length, eq. (10)) above this: not degenerate (throws)
  double extremal_tolerance = 1e-8;    // |f|_inf at the point above this: not an extremal point (throws)
  double zero_tolerance = 1e-9;        // double path: |c_n| <= this * max(1, max_k |c_k|) counts as zero
  double rank_tolerance = 1e-9;        // double path: singular values <= this * (1 + largest) count as zero
  double curvature_tolerance = 1e-12;  // |kappa_i| <= this: the vanishing-curvature case 1 of Sec. 4.2
  JordanChoice jordan;                 // free choices in P

  std::string check() const;  // empty when valid, else "field = value must ..." for the first bad field
};

enum class ClassificationStatus {
  kClassified,            // codimension found (some c_n != 0 with n <= N)
  kCodimensionUndecided,  // c_2 = ... = c_N = 0: codimension > N - 1 (raise the order)
};

// One term coefficient * x^ex y^ey phi^ephi of a normal-form coefficient.
struct PolynomialTerm {
  int ex = 0, ey = 0, ephi = 0;
  double value = 0.0;
  std::string exact;  // "-27/16" when exact, else empty
};

// mu_power of the normal form, a polynomial in the pose deviations (as text:
// polynomial_text, analyses/contact/format.h).
struct NormalFormCoefficient {
  int power = 0;                      // i in mu_i p^i
  std::vector<PolynomialTerm> terms;  // nonzero terms, by total degree then (x, y, phi)
};

struct ContactClassification {
  ClassificationStatus status = ClassificationStatus::kClassified;
  std::string message;  // one line: what was found, or why it is undecided

  // The point and its geometry (arc-length quantities, eqs. (9)-(11)).
  std::array<double, 5> degenerate_point{};  // s1, s2, x, y, phi
  double kappa1 = 0, kappa2 = 0;             // signed curvatures at s1*, s2*
  double d = 0;                              // (c2 - c1) . n1
  double epsilon = 0;                        // t1 . t2 (-1: opposing, the paper's case)
  double det = 0;                            // det of the arc-length Jacobian, eq. (10): 0 here
  double trace = 0;                          // its trace = lambda1, eq. (11)
  std::string degeneracy_case;  // "vanishing curvature" (case 1) or "concentric osculating circles" (case 2)

  // Lyapunov coefficients of the reduced equation (21): c[n] (n >= 2) and
  // cm["n,m"] (n >= 0, m = 3, 4, 5), as Taylor coefficients.
  int order = 0;  // N used
  std::map<int, double> c;
  std::map<std::string, double> cm;
  std::map<int, double> k;           // centre-manifold constants k_n of (19)
  std::map<std::string, double> km;  // k_nm
  std::map<int, std::string> c_exact;
  std::map<std::string, std::string> cm_exact;

  int codimension = 0;                                         // z (0 when undecided)
  std::vector<std::vector<double>> transversality_matrix;      // (25): z rows, 3 columns
  std::vector<std::vector<std::string>> transversality_exact;  // same, exact strings
  int rank = 0;
  bool versal = false;  // rank == z (possible only for z <= 3)
  std::string type;     // "fold", "cusp", "swallowtail", "butterfly", "A<z+1>"

  // Normal form 0 = sum_i mu_i p^i + p^(z+1): normal_form[i] = mu_i,
  // i = 0 .. z (mu_z = 0 after the Tschirnhaus shift).
  std::vector<NormalFormCoefficient> normal_form;
  int truncation_order = 0;

  // The Jordan basis P (rows: s1 (or sigma1), s2 (sigma2), x, y, phi;
  // columns v1..v5) and the coordinates it acts on.
  std::array<std::array<double, 5>, 5> jordan_basis{};
  bool arclength = true;

  bool exact = false;      // exact strings present
  std::string exact_note;  // why not exact, when not
};

// Classify the degenerate point u = (s1, s2, x, y, phi) of a problem built by
// models::make_extremal_problem. Throws std::invalid_argument for bad options,
// a point that is not an extremal point (naming |f|), a point that is not
// degenerate ("... is not degenerate: det J = 4 (eq. (10)) ..."), a
// non-regular curve point, or a double zero eigenvalue (trace = 0). An order
// too low to decide is a status (kCodimensionUndecided, "codimension > N-1").
ContactClassification classify(const models::ExtremalProblem& problem, const std::array<double, 5>& point,
                               const ContactClassificationOptions& options = {});

// The number of distinct real roots of the normal form at the pose (x, y,
// phi) (absolute; the deviations from the degenerate pose are formed here):
// the predicted number of extremal points near the degenerate point.
// Throws std::invalid_argument when the classification is undecided.
int predicted_solution_count(const ContactClassification& result, const Eigen::Vector3d& pose);
// The normal-form coefficients mu_0 .. mu_z at the pose (absolute).
std::vector<double> normal_form_coefficients(const ContactClassification& result,
                                             const Eigen::Vector3d& pose);

// ---- closed forms (26)-(30) -------------------------------------------------------
// kappa1_derivatives[i] = d^i kappa1 / dsigma1^i at the point (i = 0 ..), the
// same for curve 2; n >= 2. The printed forms, as functions:
//   (26) c_N  = ((-1)^(N-1) kappa1^(N-1) + kappa2^(N-1)) / N!                 (kappa1 = kappa2 = 0)
//   (27) c_N3 = ((-1)^(N-1) kappa1^(N) + (dc2/dphi . t1 - 1) kappa2^(N)) / N!
//   (28) c_N4 = c_N5 = -kappa2^(N) / N!
//   (29) c_N  = kappa2^(N-1) / (N! kappa1 (kappa1 + kappa2)^N) (kappa2^(N+1) kappa1^(N-1) + kappa1^(N+1)
//   kappa2^(N-1)) (30) c_N5 = kappa2^(2N) / (N! kappa1^2 (kappa1 + kappa2)^N) kappa1^(N)
// and the corrected ones, derived in closed_forms.cpp (see there):
//   (29') c_N = (kappa2^(N+1) kappa1^(N-1) + kappa1^(N+1) kappa2^(N-1)) / (N! kappa1 kappa2 lambda1^N),
//         lambda1 = (kappa1 + kappa2^2) / kappa2 (the trace (11) at the point),
//         i.e. (29) with (kappa1 + kappa2)^N replaced by (kappa1 + kappa2^2)^N;
//   (30') c_N5 = -kappa2^(2N) kappa1^(N) / (N! kappa1^2 (kappa1 + kappa2^2)^N)
//              = -(kappa2 / lambda1)^N kappa1^(N) / (N! kappa1^2),
//         (30) with the same replacement and the opposite sign (it gives
//         c_25 = 192/49 of (44); the printed (30) gives -192 there).
// Both hold under the stated conditions (d^i kappa_j / dsigma^i = 0, i = 1..N-2,
// N >= 3) in the default basis; (26)-(28) in case 1 hold under the stated
// conditions for N >= 3 in the basis JordanChoice::closed_forms_case1() ((26)
// in both). In the default case-1 basis, under the stricter condition
// (i = 1..N-1): c_N3 = 0 (N >= 2) and c_N4 = c_N5 = (-1)^N kappa1^(N) / N!.
double closed_form_26(const std::vector<double>& kappa1_derivatives,
                      const std::vector<double>& kappa2_derivatives, int n);
double closed_form_27(const std::vector<double>& kappa1_derivatives,
                      const std::vector<double>& kappa2_derivatives, int n, double dc2_dphi_dot_t1 = 0.0);
double closed_form_28(const std::vector<double>& kappa2_derivatives, int n);
double closed_form_29(const std::vector<double>& kappa1_derivatives,
                      const std::vector<double>& kappa2_derivatives, int n);
double closed_form_30(const std::vector<double>& kappa1_derivatives,
                      const std::vector<double>& kappa2_derivatives, int n);
double closed_form_29_corrected(const std::vector<double>& kappa1_derivatives,
                                const std::vector<double>& kappa2_derivatives, int n);
double closed_form_30_corrected(const std::vector<double>& kappa1_derivatives,
                                const std::vector<double>& kappa2_derivatives, int n);

// ---- lower level: curve jets, routes, exact data -------------------------------------
namespace contact {

// Taylor coefficients of a curve at a point: x(s* + t) = sum_k x[k] t^k, same for y.
template <class S>
struct CurveJet {
  std::vector<S> x, y;
  std::string name = "curve";
};

// The jet of a scalar-templated shape (anything with
// `template <class T> void eval(const T& s, T* xy) const`) at s* to `order`,
// by Taylor arithmetic on S. On S = Rational a non-rational value throws
// InexactError.
template <class S, class Shape>
CurveJet<S> curve_jet(const Shape& shape, const S& s_star, int order, std::string name = "curve") {
  constexpr int kCapacity = 48;
  if (order < 0 || order > kCapacity)
    throw std::invalid_argument("curve_jet: order " + std::to_string(order) + " is outside 0.." +
                                std::to_string(kCapacity));
  using T = Taylor<S, kCapacity>;
  T xy[2];
  shape.eval(T::variable(s_star, order), xy);
  CurveJet<S> jet;
  jet.name = std::move(name);
  for (int k = 0; k <= order; ++k) {
    jet.x.push_back(xy[0][k]);
    jet.y.push_back(xy[1][k]);
  }
  return jet;
}

// The arc-length jet of a curve whose curvature is kappa(sigma) = sum_k
// kappa_taylor[k] sigma^k, through `point` with unit tangent `tangent`
// (exact on Rational when the tangent is (+-1, 0) or (0, +-1)): theta' =
// kappa, c' = (cos theta, sin theta) by Taylor arithmetic. For tests of the
// closed forms (curves whose curvature derivatives vanish to a given order).
template <class S>
CurveJet<S> curve_jet_from_curvature(const std::vector<S>& kappa_taylor, int order,
                                     const std::array<S, 2>& point, const std::array<S, 2>& tangent,
                                     std::string name = "curve");

// The reduced equation's coefficients by one route (for cross-checks).
enum class Route {
  kPaper,            // Sec. 4.2.1-4.2.4: multinomial / Diophantine procedure on the Taylor coefficients
  kCentreManifold,   // invariance equation (20) solved order by order as a multivariate series
  kLyapunovSchmidt,  // p^1 = w(p^2, params) from the first equation of (16), then the second
};

template <class S>
struct ReducedCoefficients {
  std::map<int, S> c;           // c_n, n = 2 .. N
  std::map<std::string, S> cm;  // "n,m": n = 0 .. N-1, m = 3, 4, 5
  std::map<int, S> k;           // k_n (paper and centre-manifold routes)
  std::map<std::string, S> km;  // k_nm (paper route; centre manifold: the same coefficients of h)
  S lambda1{};                  // the nonzero eigenvalue
};

// Everything the classification computes, on S (double or Rational).
template <class S>
struct Analysis {
  CurveJet<S> jet1, jet2;  // as used (arc length if options.arclength), centred at the point
  S x0{}, y0{};            // pose translation; the rotation phi* is baked into jet2
  double phi0 = 0.0;
  S kappa1{}, kappa2{}, d{}, epsilon{}, det{}, trace{};
  std::array<std::array<S, 5>, 5> P{};  // Jordan basis
  bool vanishing_curvature = false;
};

// The analysis of the point (jets at the point, P) from jets given directly
// (the point is s* = 0 of both jets; (x0, y0, phi0) the pose). Throws as classify().
template <class S>
Analysis<S> analyse(const CurveJet<S>& jet1, const CurveJet<S>& jet2, const S& x0, const S& y0, double phi0,
                    const ContactClassificationOptions& options);

template <class S>
ReducedCoefficients<S> reduced_coefficients(const Analysis<S>& analysis, int order, Route route);

// Step 1 on its own: the Taylor coefficients of the two equations of (12) at
// the point, as multivariate series over `set` (5 variables). jordan = false:
// in the deviations (sigma1, sigma2, x - x*, y - y*, phi - phi*) (sigma_i the
// arc lengths, or s_i - s_i* when options.arclength was false); jordan = true:
// g^_1, g^_2 in the Jordan coordinates p^ (p = p* + P p^), as the procedure uses them.
template <class S>
std::array<Series<S>, 2> extended_system(const Analysis<S>& analysis,
                                         const std::shared_ptr<const MonomialSet>& set, bool jordan);

// Throws InexactError if a coefficient has a denominator divisible by 2^40:
// a rounded double entered an exact computation.
void check_not_rounded(const CurveJet<Rational>& jet);

// classify() from jets (double and, optionally, exact jets of the same data).
ContactClassification classify_jets(const CurveJet<double>& jet1, const CurveJet<double>& jet2,
                                    const std::array<double, 5>& point,
                                    const ContactClassificationOptions& options,
                                    const std::optional<CurveJet<Rational>>& exact_jet1 = std::nullopt,
                                    const std::optional<CurveJet<Rational>>& exact_jet2 = std::nullopt,
                                    const std::string& exact_note = "");

// Shapes that can be evaluated on Rational (their eval uses only + - * / and
// sin/cos/sqrt at exactly representable points). False for run-file
// expressions (models::ExpressionCurve, models::AnyShape), whose evaluator
// needs a trivially destructible scalar.
template <class Shape>
inline constexpr bool exact_capable_v = true;
template <>
inline constexpr bool exact_capable_v<models::AnyShape> = false;
template <>
inline constexpr bool exact_capable_v<models::ExpressionCurve> = false;

}  // namespace contact

// classify() for two scalar-templated shapes (models/planar_curve.h's, or a
// user's), with exact rationals when the shapes evaluate on them exactly.
template <class Shape1, class Shape2>
ContactClassification classify(const Shape1& curve1, const Shape2& curve2, const std::array<double, 5>& point,
                               const ContactClassificationOptions& options = {}) {
  const int jet_order = options.order + 2;
  const auto jet1 = contact::curve_jet<double>(curve1, point[0], jet_order, "curve 1");
  const auto jet2 = contact::curve_jet<double>(curve2, point[1], jet_order, "curve 2");
  std::optional<contact::CurveJet<contact::Rational>> e1, e2;
  std::string note = "the shapes do not evaluate on exact rationals (run-file expressions)";
  if constexpr (contact::exact_capable_v<Shape1> && contact::exact_capable_v<Shape2>) {
    note.clear();
    if (options.exact) {
      try {
        e1 = contact::curve_jet<contact::Rational>(curve1, contact::Rational(point[0]), jet_order, "curve 1");
        e2 = contact::curve_jet<contact::Rational>(curve2, contact::Rational(point[1]), jet_order, "curve 2");
      } catch (const std::exception& e) {
        e1.reset();
        e2.reset();
        note = std::string("the curve data are not exact: ") + e.what();
      }
    }
  }
  return contact::classify_jets(jet1, jet2, point, options, e1, e2, note);
}

}  // namespace saltus
