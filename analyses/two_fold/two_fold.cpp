#include "analyses/two_fold/two_fold.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "continuation/newton.h"

namespace saltus {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string num(double x) {
  std::ostringstream out;
  out.precision(6);
  out << x;
  return out.str();
}

}  // namespace

std::string TwoFoldOptions::check() const {
  std::ostringstream msg;
  if (max_iterations < 0)
    msg << "max_iterations = " << max_iterations << " must be >= 0";
  else if (!(residual_tolerance > 0.0))
    msg << "residual_tolerance = " << residual_tolerance << " must be > 0";
  else if (max_backtracks < 0)
    msg << "max_backtracks = " << max_backtracks << " must be >= 0";
  else if (!(singular_tolerance >= 0.0 && singular_tolerance < 1.0))
    msg << "singular_tolerance = " << singular_tolerance << " must be in [0, 1)";
  else if (!(gradient_tolerance >= 0.0))
    msg << "gradient_tolerance = " << gradient_tolerance << " must be >= 0";
  else if (!(point_tolerance > 0.0))
    msg << "point_tolerance = " << point_tolerance << " must be > 0";
  else if (!(zero_tolerance >= 0.0 && zero_tolerance < 1.0))
    msg << "zero_tolerance = " << zero_tolerance << " must be in [0, 1)";
  return msg.str();
}

std::string TwoFoldScanOptions::check(int n) const {
  std::ostringstream msg;
  if (lower.size() != n || upper.size() != n) {
    msg << "lower and upper must have the state's " << n << " components (have " << lower.size() << " and "
        << upper.size() << ")";
    return msg.str();
  }
  for (int i = 0; i < n; ++i) {
    if (!(std::isfinite(lower[i]) && std::isfinite(upper[i]) && lower[i] < upper[i])) {
      msg << "the box [lower, upper] must be finite with lower < upper: component " << i << " is ["
          << lower[i] << ", " << upper[i] << "]";
      return msg.str();
    }
  }
  if (grid < 1) {
    msg << "grid = " << grid << " must be >= 1";
  } else if (!(std::pow(static_cast<double>(grid), n) <= static_cast<double>(max_starts))) {
    msg << "grid = " << grid << " gives grid^n = " << std::pow(static_cast<double>(grid), n)
        << " starts, above max_starts = " << max_starts;
  } else if (!(duplicate_tolerance > 0.0)) {
    msg << "duplicate_tolerance = " << duplicate_tolerance << " must be > 0";
  } else if (const std::string bad = newton.check(); !bad.empty()) {
    msg << "newton." << bad;
  }
  return msg.str();
}

std::string visibility_name(FoldVisibility v) {
  switch (v) {
    case FoldVisibility::kVisible:
      return "visible";
    case FoldVisibility::kInvisible:
      return "invisible";
    case FoldVisibility::kDegenerate:
      return "degenerate";
  }
  return "unknown";
}

std::string type_name(TwoFoldType t) {
  switch (t) {
    case TwoFoldType::kInvisibleInvisible:
      return "invisible-invisible (Teixeira)";
    case TwoFoldType::kVisibleVisible:
      return "visible-visible";
    case TwoFoldType::kVisibleInvisible:
      return "visible-invisible";
    case TwoFoldType::kInvisibleVisible:
      return "invisible-visible";
    case TwoFoldType::kDegenerate:
      return "degenerate";
  }
  return "unknown";
}

std::string case_name(TwoFoldCase c) {
  switch (c) {
    case TwoFoldCase::kNone:
      return "none";
    case TwoFoldCase::kCase1:
      return "case 1";
    case TwoFoldCase::kCase2:
      return "case 2";
    case TwoFoldCase::kCase3:
      return "case 3";
    case TwoFoldCase::kBoundary:
      return "boundary";
  }
  return "unknown";
}

std::string status_name(TwoFoldStatus s) {
  switch (s) {
    case TwoFoldStatus::kLocated:
      return "located";
    case TwoFoldStatus::kNotConverged:
      return "not converged";
    case TwoFoldStatus::kSingularJacobian:
      return "singular Jacobian";
    case TwoFoldStatus::kNoDescent:
      return "no descent";
    case TwoFoldStatus::kNonFinite:
      return "non-finite";
  }
  return "unknown";
}

TwoFoldInvariants two_fold_invariants(const TwoFoldConstants& K, double zero_tolerance) {
  if (!(zero_tolerance >= 0.0 && zero_tolerance < 1.0))
    throw std::invalid_argument("two_fold_invariants: zero_tolerance = " + num(zero_tolerance) +
                                " must be in [0, 1)");
  TwoFoldInvariants inv;
  inv.K = K;
  inv.J1 = inv.J2 = kNaN;
  inv.eigenvalues = {kNaN, kNaN};
  inv.eigenvectors = {Eigen::Vector2d::Constant(kNaN), Eigen::Vector2d::Constant(kNaN)};
  const double kmax = std::max({std::abs(K.pp), std::abs(K.pm), std::abs(K.mp), std::abs(K.mm)});
  std::ostringstream msg;
  msg << "K++ = " << num(K.pp) << ", K+- = " << num(K.pm) << ", K-+ = " << num(K.mp)
      << ", K-- = " << num(K.mm);
  if (!std::isfinite(kmax) || kmax == 0.0) {
    inv.message =
        msg.str() + ": " + (kmax == 0.0 ? "all K vanish" : "K is not finite") + ", degenerate two-fold";
    return inv;
  }
  const auto is_zero = [&](double v, double scale) { return !(std::abs(v) > zero_tolerance * scale); };
  inv.plus = is_zero(K.pp, kmax) ? FoldVisibility::kDegenerate
                                 : (K.pp < 0.0 ? FoldVisibility::kInvisible : FoldVisibility::kVisible);
  inv.minus = is_zero(K.mm, kmax) ? FoldVisibility::kDegenerate
                                  : (K.mm > 0.0 ? FoldVisibility::kInvisible : FoldVisibility::kVisible);
  inv.D = K.mp * K.pm - K.pp * K.mm;
  const bool d_zero = is_zero(inv.D, kmax * kmax);
  inv.sliding_quadrant = d_zero ? 0 : (inv.D < 0.0 ? +1 : -1);

  if (inv.plus == FoldVisibility::kDegenerate || inv.minus == FoldVisibility::kDegenerate) {
    inv.type = TwoFoldType::kDegenerate;
  } else if (inv.plus == FoldVisibility::kInvisible) {
    inv.type = inv.minus == FoldVisibility::kInvisible ? TwoFoldType::kInvisibleInvisible
                                                       : TwoFoldType::kInvisibleVisible;
  } else {
    inv.type = inv.minus == FoldVisibility::kInvisible ? TwoFoldType::kVisibleInvisible
                                                       : TwoFoldType::kVisibleVisible;
  }
  inv.j_defined = inv.type != TwoFoldType::kDegenerate && K.pp * K.mm < 0.0;
  if (!inv.j_defined && d_zero && inv.type != TwoFoldType::kDegenerate) {
    // Mixed visibility with D = 0: the lines H+ = 0 and H- = 0 are tangent.
    inv.type = TwoFoldType::kDegenerate;
  }
  msg << "; F+ " << visibility_name(inv.plus) << ", F- " << visibility_name(inv.minus) << ": "
      << type_name(inv.type);

  if (inv.j_defined) {
    const double S = std::sqrt(-K.pp * K.mm);
    inv.J1 = K.mp / S;
    inv.J2 = -K.pm / S;
    // The off-diagonal of (30) is sign(K--): +1 for (27), -1 visible-visible.
    inv.off_diagonal = K.mm > 0.0 ? +1 : -1;
    const double root = std::sqrt((inv.J1 - inv.J2) * (inv.J1 - inv.J2) + 4.0);
    inv.eigenvalues = {0.5 * (inv.J1 + inv.J2 + root), 0.5 * (inv.J1 + inv.J2 - root)};
    for (int i = 0; i < 2; ++i)
      inv.eigenvectors[i] =
          Eigen::Vector2d(inv.eigenvalues[i] - inv.J2, static_cast<double>(inv.off_diagonal));
    // (lambda1 - J2 > 0 > lambda2 - J2): v1 has components of one sign for
    // off_diagonal = +1, v2 for -1; that one lies in the sliding/escaping sectors.
    inv.sliding_eigenvector = inv.off_diagonal > 0 ? 0 : 1;
    msg << "; J1 = " << num(inv.J1) << ", J2 = " << num(inv.J2) << ", J1 J2 = " << num(inv.J1 * inv.J2)
        << ", eigenvalues of (30) " << num(inv.eigenvalues[0]) << ", " << num(inv.eigenvalues[1]);
  } else if (inv.type != TwoFoldType::kDegenerate) {
    msg << "; K++ K-- > 0, so J1, J2 and (30) are undefined";
  }

  if (inv.type == TwoFoldType::kInvisibleInvisible) {
    const double product = inv.J1 * inv.J2;
    if (std::abs(product - 1.0) <= zero_tolerance) {
      inv.twofold_case = TwoFoldCase::kBoundary;
      inv.sliding_quadrant = 0;
      msg << "; J1 J2 = 1: an eigenvalue of (30) vanishes (boundary between cases 1-2 and 3)";
    } else if (product > 1.0) {
      inv.twofold_case = inv.J1 < 0.0 ? TwoFoldCase::kCase1 : TwoFoldCase::kCase2;
      if (inv.twofold_case == TwoFoldCase::kCase1)
        msg << "; case 1: both eigenvalues negative, sliding orbits reach the singularity in finite time "
               "along "
               "the weak eigenvector and leave it through the escaping region (non-deterministic)";
      else
        msg << "; case 2: both eigenvalues positive, the singularity repels sliding and attracts escaping "
               "orbits";
    } else {
      inv.twofold_case = TwoFoldCase::kCase3;
      msg << "; case 3: J1 J2 < 1, eigenvalues of opposite signs (a saddle), the singularity repels sliding "
             "orbits";
    }
  } else if (inv.type == TwoFoldType::kDegenerate) {
    msg << (d_zero ? " (D = K-+ K+- - K++ K-- vanishes)" : "") << "; no case";
  } else {
    msg << "; the cases 1-3 of Sec. IV are for the invisible two-fold (27)";
  }
  inv.nondeterministic =
      inv.type == TwoFoldType::kInvisibleInvisible && inv.twofold_case == TwoFoldCase::kCase1;
  inv.message = msg.str();
  return inv;
}

namespace detail {

std::string format(const Vector& x) {
  std::ostringstream out;
  out.precision(12);
  out << "(";
  for (int i = 0; i < x.size(); ++i) out << (i ? ", " : "") << x[i];
  out << ")";
  return out.str();
}

bool in_box(const Vector& x, const Vector& lower, const Vector& upper) {
  for (int i = 0; i < x.size(); ++i)
    if (!(x[i] >= lower[i] && x[i] <= upper[i])) return false;
  return true;
}

void check_options(const TwoFoldOptions& options, const char* /*where*/) {
  if (const std::string bad = options.check(); !bad.empty())
    throw std::invalid_argument(std::string("the two-fold options: ") + bad);
}

TwoFoldClassification finish(const Vector& x, double residual, const Vector& h_x, const Vector& f0,
                             const Vector& f_lambda, const Vector& f_plus, const Vector& f_minus,
                             const Vector& grad_plus, const Vector& grad_minus,
                             const TwoFoldOptions& options) {
  TwoFoldConstants K;  // (22)
  K.pp = grad_plus.dot(f_plus);
  K.pm = grad_plus.dot(f_minus);
  K.mp = grad_minus.dot(f_plus);
  K.mm = grad_minus.dot(f_minus);
  TwoFoldClassification c;
  static_cast<TwoFoldInvariants&>(c) = two_fold_invariants(K, options.zero_tolerance);
  c.x = x;
  c.residual = residual;
  c.gradient = h_x;
  c.f0 = f0;
  c.f_lambda = f_lambda;
  c.f_plus = f_plus;
  c.f_minus = f_minus;
  c.grad_plus = grad_plus;
  c.grad_minus = grad_minus;

  // The sine between f0 and f_lambda (0 when either vanishes).
  const double n0 = f0.norm(), nl = f_lambda.norm();
  c.independence =
      (n0 == 0.0 || nl == 0.0) ? 0.0 : (f_lambda - (f_lambda.dot(f0) / (n0 * n0)) * f0).norm() / nl;
  if (!(c.independence > options.zero_tolerance)) {
    // F+ parallel to F- at x*: v+ and v- collapse onto one line. Since
    // D = det(grad H+-|_T) det(F+, F-|_T) on the tangent plane T, this is where
    // D = 0, i.e. J1 J2 = 1 when K++ K-- < 0: the case boundary stays marked.
    c.type = TwoFoldType::kDegenerate;
    if (c.twofold_case != TwoFoldCase::kBoundary) c.twofold_case = TwoFoldCase::kNone;
    c.nondeterministic = false;
    c.message =
        "f(x*,0) and f_lambda(x*,0) are dependent (sine " + num(c.independence) +
        (nl == 0.0 ? ", f_lambda = 0: F+ = F- at x*" : "") +
        "), so the tangent lines of the sliding boundaries are not transversal: degenerate two-fold; " +
        c.message;
  }

  // v+- = alpha+- f0 + beta+- f_lambda (Sec. IV).
  c.v_plus = grad_plus.dot(f_lambda) * f0 - grad_plus.dot(f0) * f_lambda;
  c.v_minus = grad_minus.dot(f_lambda) * f0 - grad_minus.dot(f0) * f_lambda;
  if (c.j_defined) {
    // xi = xi_bar sqrt(K-- / -K++), eta = eta_bar.
    const double ratio = std::sqrt(K.mm / -K.pp);
    for (int i = 0; i < 2; ++i) {
      Vector d = (c.eigenvectors[i][0] * ratio) * c.v_plus + c.eigenvectors[i][1] * c.v_minus;
      const double norm = d.norm();
      c.directions[i] = norm > 0.0 ? Vector(d / norm) : d;
    }
    if (c.sliding_quadrant != 0 && c.type != TwoFoldType::kDegenerate) {
      // Orient the sliding/escaping eigenvector so that xi, eta have the sign
      // of the sliding sector.
      const int k = c.sliding_eigenvector;
      const double sign = c.eigenvectors[k][1] > 0.0 ? 1.0 : -1.0;
      c.sliding_direction = (sign * c.sliding_quadrant) * c.directions[k];
    }
  }
  return c;
}

TwoFoldResult newton(const Evaluate& evaluate, const Vector& guess, const TwoFoldOptions& options) {
  TwoFoldResult r;
  r.guess = guess;
  const int full_rank = std::min(3, static_cast<int>(guess.size()));
  // evaluate() gives G and G_x together: the Jacobian of the last residual is
  // kept for the step from that point.
  Vector cached_x;
  Matrix cached_J;
  NewtonProblem problem;
  problem.residual = [&](const Vector& x, Vector* G) {
    evaluate(x, G, &cached_J);
    cached_x = x;
  };
  problem.jacobian = [&](const Vector& x, Matrix* J) {
    if (!(cached_x.size() == x.size() && cached_x == x)) {
      Vector G;
      evaluate(x, &G, &cached_J);
      cached_x = x;
    }
    *J = cached_J;
  };
  // The minimum-norm solution by a complete orthogonal decomposition; rank
  // below min(3, n) means no transversal two-fold here.
  int rank = full_rank;
  problem.solve = [&](const Matrix& J, const Vector& G, Vector* dx) {
    Eigen::CompleteOrthogonalDecomposition<Matrix> cod(J.rows(), J.cols());
    cod.setThreshold(options.singular_tolerance);
    cod.compute(J);
    rank = static_cast<int>(cod.rank());
    if (rank < full_rank) return false;
    *dx = cod.solve(G);
    return true;
  };
  NewtonOptions settings;
  settings.max_iterations = options.max_iterations;
  settings.residual_tolerance = options.residual_tolerance;
  settings.min_damping = std::ldexp(1.0, -options.max_backtracks);
  settings.sufficient_decrease = 1e-4;  // Armijo on |G|_2: the Newton direction descends |G|_2^2
  settings.norm = NewtonNorm::kTwo;
  settings.polish = true;  // one more step, kept only if it lowers |G|_inf
  const NewtonResult n = damped_newton(problem, guess, settings);
  r.x = n.x;
  r.residual = n.residual;
  r.iterations = n.iterations;
  const std::string what = "two-fold Newton on (h, h_x.f(x,0), h_x.f_lambda(x,0)) = 0 from " + format(guess);
  const std::string at = " at x = " + format(r.x) + " after " + std::to_string(r.iterations) + " iterations";
  switch (n.status) {
    case NewtonStatus::kConverged:
      r.status = TwoFoldStatus::kLocated;
      r.message = "two-fold located in " + std::to_string(r.iterations) + " Newton iterations from " +
                  format(guess) + ": x* = " + format(r.x) + ", |G|_inf = " + num(r.residual);
      break;
    case NewtonStatus::kNotConverged:
    case NewtonStatus::kLeftDomain:
      r.status = TwoFoldStatus::kNotConverged;
      r.message = what + ": not converged in " + std::to_string(r.iterations) +
                  " iterations; |G|_inf = " + num(r.residual) +
                  " > residual_tolerance = " + num(options.residual_tolerance) + " at x = " + format(r.x) +
                  " (no two-fold near the guess?)";
      break;
    case NewtonStatus::kSingular:
      r.status = TwoFoldStatus::kSingularJacobian;
      r.message =
          what + ": the Jacobian of G has rank " + std::to_string(rank) + " < " + std::to_string(full_rank) +
          at + " (|G|_inf = " + num(r.residual) +
          "): h_x and the gradients of h_x.f(x,0), h_x.f_lambda are dependent, no transversal two-fold here";
      break;
    case NewtonStatus::kNoDescent:
      r.status = TwoFoldStatus::kNoDescent;
      r.message = what + ": no step along the Newton direction lowers |G|" + at +
                  " (|G|_inf = " + num(r.residual) +
                  "): a minimum of |G| that is not a zero, no two-fold near the guess";
      break;
    case NewtonStatus::kNonFinite:
    case NewtonStatus::kEvaluationFailed:
      r.status = TwoFoldStatus::kNonFinite;
      r.message = what + ": the residual or its Jacobian is not finite" + at;
      break;
  }
  return r;
}

}  // namespace detail

std::string short_case(const TwoFoldInvariants& c) {
  return c.type == TwoFoldType::kInvisibleInvisible ? case_name(c.twofold_case) : type_name(c.type);
}

}  // namespace saltus
