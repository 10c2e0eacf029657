#pragma once
// Two-fold singularities of Filippov systems (Szalai & Jeffrey, Phys. Rev. E
// 90, 022914 (2014), Secs. III-IV, doi:10.1103/PhysRevE.90.022914; the Filippov layer is
// models/filippov.h).
//
// Setting: x' = f(x, lambda) = f0 + lambda f_lambda, lambda = mu sign(h) off
// Sigma = {h = 0}, F+- = f(x, +-mu), H+- = h_x . F+- (the Lie derivatives).
// A two-fold is a point x* of Sigma where both one-sided fields are tangent:
//
//   h(x*) = 0,   h_x . f(x*, 0) = h_x . f_lambda(x*, 0) = 0                      (19)
//
// (equivalently H+ = H- = 0, (8)). It is located by Newton on G(x) = (h,
// h_x.f0, h_x.f_lambda) = 0 with the exact Jacobian (ceres::Jet over the
// Taylor<Jet,1> Lie derivatives of models/filippov.h): the plain Newton step
// for n = 3, the minimum-norm (Moore-Penrose) step for n > 3, where the
// two-folds form an (n-3)-dimensional set, with backtracking on |G|_2.
//
// The constants (22). With grad H+- the gradients of H+- at x*,
//
//   K^{++} = grad H+ . F+,  K^{+-} = grad H+ . F-,  K^{-+} = grad H- . F+,  K^{--} = grad H- . F-.
//
// K^{++} = L_{F+}^2 h is the curvature of the F+ orbit through x* relative
// to Sigma: K^{++} < 0 means the orbit bends back into h < 0, where F+ does not
// act (F+ invisible from h > 0); K^{--} > 0 likewise for F-. (27) K^{++} < 0 <
// K^{--} is the invisible two-fold (Teixeira singularity).
//
// Local sliding dynamics (rederived; (24)-(26) check, (30)'s scaling is
// garbled in the text). Linearize the lines H+ = 0, H- = 0 in the tangent
// plane: v_s = alpha_s f0 + beta_s f_lambda (s = + or -) with
//   alpha_s = grad H_s . f_lambda = (K^{s+} - K^{s-}) / (2 mu),
//   beta_s = -grad H_s . f0 = -(K^{s+} + K^{s-}) / 2
// (the text's mu^+- in beta^+- is mu, and its f_mu is f_lambda), so that
// grad H_s . v_s = 0. In x - x* = xi v+ + eta v- (+ y in the kernel),
//   grad H+ . x = eta D / (2 mu),   grad H- . x = -xi D / (2 mu),
//   D = K^{-+} K^{+-} - K^{++} K^{--},
// so the sliding region H+ < 0 < H- is (28) and the escaping one (29): for
// D < 0 it is xi, eta > 0 (resp. < 0). Writing F+ = (-2 mu K^{-+} v+ + 2 mu
// K^{++} v-)/D and F- = (-2 mu K^{--} v+ + 2 mu K^{+-} v-)/D (apply grad H+-
// to both sides), the scaled field (20) in these coordinates is
//   G(x) = (D / (4 mu^2)) (xi F+ + eta F-),   i.e.  (xi + eta) x' = xi F+ + eta F-   (24),
// and
//   xi'  = -2 mu (K^{-+} xi + K^{--} eta) / (D (xi + eta)),
//   eta' =  2 mu (K^{++} xi + K^{+-} eta) / (D (xi + eta)),                   (26), as printed.
// With P = -K^{++}, Q = K^{--}, PQ > 0, S = sqrt(PQ),
//   J1 = K^{-+} / S,   J2 = -K^{+-} / S,   D = S^2 (1 - J1 J2),
// and the scaling xi_bar = xi sqrt(P/Q), eta_bar = eta (the text's
// "(xi_bar, eta_bar) = (xi, eta) sqrt(-K^{++}/K^{--})" can only mean the
// first component: a common factor does not symmetrize the matrix),
//   d/dt (xi_bar, eta_bar) = 2 mu / (S (J1 J2 - 1)(sqrt(Q/P) xi_bar + eta_bar)) [J1 1; 1 J2] (xi_bar,
//   eta_bar).
// The denominator is not (J1 J2 - 1)(xi_bar + eta_bar) as (30) prints, but it
// has the same sign wherever xi, eta have the same sign (the sliding and
// escaping regions), so (30) holds up to a positive change of time there,
// and its eigen-structure is exact: the matrix M = [J1 1; 1 J2] is symmetric
// (its eigenvalues are real whatever the signs; (27) is what makes the
// symmetric scaling real), with
//   lambda_{1,2} = (J1 + J2 +- sqrt((J1 - J2)^2 + 4)) / 2,  v_{1,2} = (lambda_{1,2} - J2, 1),
// det M = J1 J2 - 1. v1 has both components positive (lambda1 - J2 > 0), v2
// opposite signs: v1 lies in the sliding (or escaping) sector, v2 in the
// crossing sector. In the sliding region the prefactor is positive (it has
// the sign of (J1 J2 - 1)(xi + eta), and xi, eta > 0 there iff J1 J2 > 1), in
// the escaping region negative: the sliding flow is x' ~ +M x in the one and
// ~ -M x in the other. Independent check (tested): the Jacobian of (20) at x*
// restricted to the tangent plane is -(S / (2 mu)) M in (xi_bar, eta_bar), so
// its nonzero eigenvalues are -(S / (2 mu)) lambda_{1,2}.
//
// Cases (Sec. IV, for the invisible two-fold (27)):
//   1. J1 < 0, J2 < 0, J1 J2 > 1: lambda_{1,2} < 0; the sliding flow reaches x*
//      in finite time (the field is homogeneous of degree 0), along the weak
//      eigenvector v1, and the flow in the escaping region leaves x*: the
//      non-deterministic Teixeira singularity.
//   2. J1 > 0, J2 > 0, J1 J2 > 1: lambda_{1,2} > 0; sliding repelled from x*,
//      escaping attracted.
//   3. J1 J2 < 1 (the text prints "> 1"; NOTES.md): a saddle, lambda1 > 0 >
//      lambda2; along v1 (the only invariant ray in the sliding/escaping
//      sectors) sliding is repelled and escaping attracted.
// J1 J2 = 1 (an eigenvalue zero, D = 0) is the boundary between 1-2 and 3.
// The visible-visible two-fold (K^{++} > 0 > K^{--}, so P, Q < 0): the same
// scaling gives the off-diagonal entries Q sqrt(P/Q) = -S and P sqrt(Q/P) =
// -S, i.e. (30) with [J1 -1; -1 J2]: the same eigenvalues, eigenvectors
// (lambda_i - J2, -1), and it is v2 that lies in the sliding/escaping sectors
// (both components negative). J1, J2 and the eigenvalues are reported; the
// text's case numbers are for (27) only.

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "continuation/system.h"
#include "models/filippov.h"
#include "testfunctions/two_fold_case_boundary.h"  // TwoFoldConstants, the K of (22)

namespace saltus {

struct TwoFoldOptions {
  int max_iterations = 50;  // Newton iterations
  double residual_tolerance =
      1e-12;                // |(h, h_x.f0, h_x.f_lambda)|_inf at a located two-fold (units of h, h per time)
  int max_backtracks = 30;  // halvings of a Newton step that does not decrease |G|_2
  double singular_tolerance = 1e-13;  // G_x is rank deficient where a pivot is below this times the largest
  double gradient_tolerance = 1e-12;  // |h_x| at or below this: Sigma is not a surface there (throws)
  double point_tolerance = 1e-8;      // classify_two_fold: |G|_inf above this is not a two-fold (throws)
  double zero_tolerance = 1e-9;       // relative: K^{++}, K^{--} (to max|K|), D (to max|K|^2), the sine
                                      // between f0 and f_lambda, J1 J2 - 1: at or below this count as zero

  // Empty when valid, else a message naming the first bad field and value.
  std::string check() const;
};

// Of F+ seen from h > 0 (invisible: K^{++} < 0) and of F- from h < 0
// (invisible: K^{--} > 0).
enum class FoldVisibility { kVisible, kInvisible, kDegenerate };
enum class TwoFoldType {
  kInvisibleInvisible,  // (27): the Teixeira singularity
  kVisibleVisible,
  kVisibleInvisible,  // F+ visible, F- invisible
  kInvisibleVisible,  // F+ invisible, F- visible
  kDegenerate,        // K^{++} or K^{--} zero, D = 0, or f0, f_lambda dependent
};
enum class TwoFoldCase {
  kNone,      // not an invisible two-fold (the cases are for (27)), or degenerate
  kCase1,     // J1, J2 < 0, J1 J2 > 1: non-deterministic
  kCase2,     // J1, J2 > 0, J1 J2 > 1
  kCase3,     // J1 J2 < 1
  kBoundary,  // J1 J2 = 1 (within zero_tolerance)
};
std::string visibility_name(FoldVisibility v);  // "visible", "invisible", "degenerate"
std::string type_name(TwoFoldType t);           // "invisible-invisible (Teixeira)", ...
std::string case_name(TwoFoldCase c);           // "none", "case 1", "case 2", "case 3", "boundary"

// What follows from the K's alone (Sec. IV).
struct TwoFoldInvariants {
  TwoFoldConstants K;
  FoldVisibility plus = FoldVisibility::kDegenerate;
  FoldVisibility minus = FoldVisibility::kDegenerate;
  TwoFoldType type = TwoFoldType::kDegenerate;
  double D = 0.0;            // K^{-+} K^{+-} - K^{++} K^{--}; sliding is xi, eta > 0 iff D < 0
  int sliding_quadrant = 0;  // +1: sliding where xi, eta > 0; -1: where xi, eta < 0; 0: D = 0
  bool j_defined = false;    // K^{++} K^{--} < 0: J1, J2, (30) are defined (else they are NaN)
  double J1 = 0.0, J2 = 0.0;
  int off_diagonal = 0;  // sign(K^{--}): the off-diagonal of (30), +1 for (27), -1 visible-visible
  std::array<double, 2> eigenvalues{};            // lambda1 > lambda2 of (30)
  std::array<Eigen::Vector2d, 2> eigenvectors{};  // (lambda_i - J2, off_diagonal) in (xi_bar, eta_bar)
  int sliding_eigenvector =
      -1;  // which of them lies in the sliding/escaping sectors: 0 for (27), 1 visible-visible
  TwoFoldCase twofold_case = TwoFoldCase::kNone;
  bool nondeterministic = false;  // invisible two-fold in case 1
  std::string message;            // one line: type, case and why
};

// The classification in a few words: case_name for an invisible two-fold
// (27), else type_name (the cases are defined for (27) only).
std::string short_case(const TwoFoldInvariants& c);

// The classification from the K's (zero tests relative, see TwoFoldOptions).
TwoFoldInvariants two_fold_invariants(const TwoFoldConstants& K, double zero_tolerance = 1e-9);

// Everything at a two-fold x*.
struct TwoFoldClassification : TwoFoldInvariants {
  Vector x;                      // x*
  double residual = 0.0;         // |(h, h_x.f0, h_x.f_lambda)|_inf at x*
  Vector gradient;               // h_x(x*)
  Vector f0, f_lambda;           // f(x*, 0), f_lambda(x*, 0)
  Vector f_plus, f_minus;        // F+-(x*)
  Vector grad_plus, grad_minus;  // grad (h_x . F+-) at x*
  double independence = 0.0;     // |f0 ^ f_lambda| / (|f0| |f_lambda|): the sine between them (generic: > 0)
  Vector v_plus, v_minus;        // v+- (the lines H+- = 0 in the tangent plane)
  std::array<Vector, 2> directions;  // unit state-space directions of eigenvectors[0], [1]: xi v+ + eta v-
                                     // (empty unless j_defined)
  Vector sliding_direction;          // directions[sliding_eigenvector] oriented into the sliding region
                                     // (minus it: into the escaping region); empty when undefined
};

enum class TwoFoldStatus {
  kLocated,           // |G|_inf <= residual_tolerance
  kNotConverged,      // max_iterations reached
  kSingularJacobian,  // G_x rank deficient: no transversal two-fold there
  kNoDescent,         // no step along the Newton direction lowers |G|_2 (a non-zero minimum)
  kNonFinite,         // G or G_x not finite
};
std::string status_name(TwoFoldStatus s);  // "located", "not converged", ...

struct TwoFoldResult {
  TwoFoldStatus status = TwoFoldStatus::kNotConverged;
  std::string message;    // one line: what happened (why it failed, with the point and |G|)
  Vector guess;           // the start
  Vector x;               // x* when located, else the last iterate
  double residual = 0.0;  // |G|_inf at x
  int iterations = 0;     // Newton steps taken
  std::optional<TwoFoldClassification> classification;  // when located
  bool located() const { return status == TwoFoldStatus::kLocated; }
};

// A scan for all two-folds in a box: Newton from the centres of a grid^n
// lattice of cells, the located points inside the box kept once each.
struct TwoFoldScanOptions {
  Vector lower, upper;                // the box in state space (lower < upper componentwise)
  int grid = 8;                       // starts per side (>= 1)
  long max_starts = 1000000;          // grid^n must not exceed this
  double duplicate_tolerance = 1e-7;  // points closer than this (1 + |x|_inf) in the inf-norm are one
  TwoFoldOptions newton;

  // Empty when valid for a state of size n, else names the first bad field.
  std::string check(int n) const;
};

struct TwoFoldScan {
  std::vector<TwoFoldResult> two_folds;  // located, distinct, in the box, lexicographic in x
  int starts = 0;
  int located = 0;          // starts that located a two-fold (in or out of the box)
  int outside = 0;          // of them outside the box
  int singular_starts = 0;  // starts where the surface is not regular (|h_x| vanishes)
  std::string message;
};

namespace detail {

using Evaluate = std::function<void(const Vector& x, Vector* G, Matrix* J)>;
// Newton with backtracking on G(x) = 0, G: R^n -> R^3.
TwoFoldResult newton(const Evaluate& evaluate, const Vector& guess, const TwoFoldOptions& options);
// Fills the classification from the values at x*.
TwoFoldClassification finish(const Vector& x, double residual, const Vector& h_x, const Vector& f0,
                             const Vector& f_lambda, const Vector& f_plus, const Vector& f_minus,
                             const Vector& grad_plus, const Vector& grad_minus,
                             const TwoFoldOptions& options);
void check_options(const TwoFoldOptions& options, const char* where);
std::string format(const Vector& x);
bool in_box(const Vector& x, const Vector& lower, const Vector& upper);

template <filippov::Model M>
void check_model(const M& model) {
  if constexpr (requires { model.check(); }) model.check();
  if (!(model.mu > 0.0)) {
    std::ostringstream why;
    why << "the bound of lambda mu = " << model.mu << " must be > 0";
    throw std::invalid_argument(why.str());
  }
}

}  // namespace detail

// The classification at x*. Throws std::invalid_argument if x* is not a
// two-fold (|G|_inf > point_tolerance) or the surface is not regular there.
template <filippov::Model M>
TwoFoldClassification classify_two_fold(const M& model, const Vector& x, const TwoFoldOptions& options = {}) {
  detail::check_options(options, "classify_two_fold");
  detail::check_model(model);
  const Vector h_x = filippov::gradient(model, x);
  filippov::detail::require_regular(x, h_x, options.gradient_tolerance, "classify_two_fold");
  Vector f0, fl;
  filippov::split_field(model, x, &f0, &fl);
  const double residual =
      std::max({std::abs(model.switching(x.data())), std::abs(h_x.dot(f0)), std::abs(h_x.dot(fl))});
  if (!(residual <= options.point_tolerance))
    throw std::invalid_argument("x = " + detail::format(x) +
                                " is not a two-fold: |(h, h_x.f(x,0), h_x.f_lambda)|_inf = " +
                                std::to_string(residual) + " > point_tolerance (locate it first)");
  const double mu = model.mu;
  return detail::finish(x, residual, h_x, f0, fl, filippov::field(model, x, mu),
                        filippov::field(model, x, -mu), filippov::lie_gradient(model, x, mu),
                        filippov::lie_gradient(model, x, -mu), options);
}

// Newton on (19) with h = 0 from `guess`; classified when located. Throws
// std::invalid_argument on bad options, a bad model, or a guess where the
// surface is not regular; a search that fails is a status and a message.
template <filippov::Model M>
TwoFoldResult locate_two_fold(const M& model, const Vector& guess, const TwoFoldOptions& options = {}) {
  detail::check_options(options, "locate_two_fold");
  detail::check_model(model);
  const Vector h_x = filippov::gradient(model, guess);
  filippov::detail::require_regular(guess, h_x, options.gradient_tolerance, "locate_two_fold");
  const auto evaluate = [&model](const Vector& x, Vector* G, Matrix* J) {
    *J = filippov::detail::jet_jacobian(
        x, 3,
        [&model](const auto* z, auto* out) {
          out[0] = model.switching(z);
          filippov::split_lie_derivatives(model, z, &out[1], &out[2]);
        },
        G);
  };
  TwoFoldResult result = detail::newton(evaluate, guess, options);
  if (result.located()) result.classification = classify_two_fold(model, result.x, options);
  return result;
}

// All two-folds in the box (see TwoFoldScanOptions). Throws
// std::invalid_argument on bad options or a bad model.
template <filippov::Model M>
TwoFoldScan scan_two_folds(const M& model, const TwoFoldScanOptions& options) {
  const int n = model.state_size();
  if (const std::string bad = options.check(n); !bad.empty())
    throw std::invalid_argument("the two-fold scan options: " + bad);
  detail::check_model(model);
  TwoFoldScan scan;
  std::vector<int> index(n, 0);
  Vector start(n);
  for (;;) {
    for (int i = 0; i < n; ++i)
      start[i] = options.lower[i] + (index[i] + 0.5) * (options.upper[i] - options.lower[i]) / options.grid;
    ++scan.starts;
    std::optional<TwoFoldResult> result;
    const Vector h_x = filippov::gradient(model, start);
    if (h_x.norm() <= options.newton.gradient_tolerance) {
      ++scan.singular_starts;
    } else {
      result = locate_two_fold(model, start, options.newton);
    }
    if (result && result->located()) {
      ++scan.located;
      if (!detail::in_box(result->x, options.lower, options.upper)) {
        ++scan.outside;
      } else {
        bool duplicate = false;
        for (const auto& known : scan.two_folds)
          duplicate =
              duplicate || (known.x - result->x).lpNorm<Eigen::Infinity>() <=
                               options.duplicate_tolerance * (1.0 + known.x.lpNorm<Eigen::Infinity>());
        if (!duplicate) scan.two_folds.push_back(*result);
      }
    }
    int i = 0;
    while (i < n && ++index[i] == options.grid) index[i++] = 0;
    if (i == n) break;
  }
  std::sort(scan.two_folds.begin(), scan.two_folds.end(), [](const TwoFoldResult& a, const TwoFoldResult& b) {
    return std::lexicographical_compare(a.x.data(), a.x.data() + a.x.size(), b.x.data(),
                                        b.x.data() + b.x.size());
  });
  scan.message = std::to_string(scan.two_folds.size()) + " two-fold(s) in the box from " +
                 std::to_string(scan.starts) + " Newton starts (" + std::to_string(scan.located) +
                 " located, " + std::to_string(scan.outside) + " of them outside the box, " +
                 std::to_string(scan.singular_starts) + " starts where h_x vanishes)";
  return scan;
}

}  // namespace saltus
