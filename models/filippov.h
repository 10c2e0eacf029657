#pragma once
// Filippov systems with a switching force linear in lambda (Szalai & Jeffrey,
// "Nondeterministic dynamics of a mechanical system", Phys. Rev. E 90, 022914
// (2014), Sec. IV, doi:10.1103/PhysRevE.90.022914).
//
//   x' = f(x, lambda) = f(x, 0) + lambda f_lambda(x, 0),                     (13)
//   lambda in mu sign(h(x))  where h(x) != 0,   lambda in [-mu, mu]  on h = 0, (12)
//
// with a switching function h: R^n -> R whose zero set Sigma is the
// switching surface. The one-sided fields are F+ = f(x, +mu) (active in h > 0)
// and F- = f(x, -mu) (active in h < 0). On Sigma, with the Lie derivatives
// H+- = h_x . F+- (h_x the gradient of h):
//
//   crossing   H+ H- > 0                 (direction sign H+: upward if > 0)
//   sliding    H+ < 0 < H-   (17)        Sigma attracts from both sides
//   escaping   H- < 0 < H+   (18)        Sigma repels to both sides
//   tangency   H+ = 0 or H- = 0          the boundaries of the regions (folds of F+-)
//   two-fold   H+ = H- = 0   (19)        i.e. h_x . f(x,0) = h_x . f_lambda(x,0) = 0
//
// ((17) is  -h_x.f_lambda > h_x.f(x,0)/mu > h_x.f_lambda, i.e. H+ < 0 < H- after
// multiplying by mu > 0; (18) likewise.) On Sigma the force is Utkin's
// equivalent control, the lambda for which f is tangent to Sigma, (14)-(15):
//
//   h_x . (f(x,0) + lambda f_lambda(x,0)) = 0   =>   lambda_eq = -h_x.f(x,0) / h_x.f_lambda(x,0),
//
// and the sliding vector field is (16)
//
//   F_s(x) = f(x,0) + lambda_eq f_lambda(x,0)
//          = (H- F+ - H+ F-) / (H- - H+)          (the Filippov convex combination;
//                                                  H- - H+ = -2 mu h_x.f_lambda),
//
// so lambda_eq lies in (-mu, mu) exactly in the sliding and escaping regions.
// At a two-fold numerator and denominator of lambda_eq vanish together; the
// scaled field (20),
//
//   G(x) = (h_x.f_lambda) f(x,0) - (h_x.f(x,0)) f_lambda   = (h_x.f_lambda) F_s,
//
// is smooth there (a positive multiple of F_s where h_x.f_lambda > 0, a
// negative one where it is < 0) and has a zero at the two-fold.
//
// A model is a struct (see the concept filippov::Model below) with
//
//   int state_size() const;                                        // n
//   double mu;                                                     // the bound of |lambda|, > 0
//   template <class T> T switching(const T* x) const;              // h(x)
//   template <class T> void field(const T* x, const T& lambda, T* f) const;  // f(x, lambda), affine in
//   lambda
//
// written as the engine's functors are (T(0.0), 2.0 * x, `using std::sin;
// sin(x)`), so that it compiles for double, ceres::Jet and saltus::Taylor<T, 1>
// with T = double or ceres::Jet. Everything below is then exact:
//  - f(x,0) and f_lambda come from ONE pass of `field` with lambda = 0 + t, a
//    Taylor<T,1> variable (the t-coefficient of an affine map is f_lambda);
//  - the derivative of h along a vector w, h_x . w, from one pass of
//    `switching` on x + t w (Taylor<T,1>); so h_x . f is available for T =
//    ceres::Jet as well, i.e. the gradients of the Lie derivatives (the
//    second derivatives of h that the two-fold constants (22) need) and the
//    Jacobian of the sliding field are exact forward-mode derivatives,
//    without nesting ceres::Jet (which does not mix with double).
// The check `affine_defect` tells a model that is not affine in lambda.
//
// Misuse throws: a switching surface that is not regular at the point (|h_x|
// at or below Options::gradient_tolerance) is std::invalid_argument naming
// the point and |h_x|; the sliding field where h_x . f_lambda = 0 (lambda does
// not reach across Sigma: no equivalent control) is std::domain_error.

#include <ceres/jet.h>

#include <algorithm>
#include <cmath>
#include <concepts>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "continuation/newton.h"
#include "continuation/system.h"
#include "continuation/taylor.h"

namespace saltus::filippov {

// The field and switching function are templates on the state's scalar T;
// a model whose parameters are of a scalar P (a cast for shooting in a
// parameter, continuation/flow/parameters.h) is called with T = P only.
template <class M>
concept Model = requires(const M& m) {
  { m.state_size() } -> std::convertible_to<int>;
  { m.mu } -> std::convertible_to<double>;
};

// ---- scalar-templated core (T = double, ceres::Jet, ...) --------------------

// f(x, 0) and f_lambda(x, 0) in one pass: the field on Taylor<T, 1> with the
// state constant and lambda = 0 + t.
template <class T, Model M>
void split_field(const M& model, const T* x, T* f0, T* f_lambda) {
  using S = series::Taylor<T, 1>;
  const int n = model.state_size();
  std::vector<S> xs(n), fs(n);
  for (int i = 0; i < n; ++i) xs[i] = S(x[i]);
  const S lambda = S::variable(T(0.0), 1);
  model.field(xs.data(), lambda, fs.data());
  for (int i = 0; i < n; ++i) {
    f0[i] = fs[i][0];
    f_lambda[i] = fs[i][1];
  }
}

// h_x(x) . w: the derivative of h along w, one pass of h on x + t w.
template <class T, Model M>
T switching_derivative(const M& model, const T* x, const T* w) {
  using S = series::Taylor<T, 1>;
  const int n = model.state_size();
  std::vector<S> z(n);
  for (int i = 0; i < n; ++i) {
    z[i] = S(x[i]);
    z[i][1] = w[i];
  }
  const S h = model.switching(z.data());
  return h[1];
}

// h_x(x), n passes of switching_derivative.
template <class T, Model M>
void switching_gradient(const M& model, const T* x, T* h_x) {
  const int n = model.state_size();
  std::vector<T> e(n, T(0.0));
  for (int i = 0; i < n; ++i) {
    e[i] = T(1.0);
    h_x[i] = switching_derivative(model, x, e.data());
    e[i] = T(0.0);
  }
}

// H(x, lambda) = h_x(x) . f(x, lambda), the Lie derivative of h along the
// field with force lambda (H+- at lambda = +-mu).
template <class T, Model M>
T lie_derivative(const M& model, const T* x, const T& lambda) {
  const int n = model.state_size();
  std::vector<T> f(n);
  model.field(x, lambda, f.data());
  return switching_derivative(model, x, f.data());
}

// h_x . f(x, 0) and h_x . f_lambda(x, 0) (the two functions of (19)), and the
// fields themselves.
template <class T, Model M>
void split_lie_derivatives(const M& model, const T* x, T* lie0, T* lie_lambda, T* f0 = nullptr,
                           T* f_lambda = nullptr) {
  const int n = model.state_size();
  std::vector<T> a(n), b(n);
  split_field(model, x, a.data(), b.data());
  *lie0 = switching_derivative(model, x, a.data());
  *lie_lambda = switching_derivative(model, x, b.data());
  if (f0) std::copy(a.begin(), a.end(), f0);
  if (f_lambda) std::copy(b.begin(), b.end(), f_lambda);
}

// lambda_eq = -h_x.f(x,0) / h_x.f_lambda(x,0), (15). Unchecked (a division
// by zero where h_x.f_lambda = 0, like double); the Vector form below checks.
template <class T, Model M>
T equivalent_control(const M& model, const T* x) {
  T lie0, lie_lambda;
  split_lie_derivatives(model, x, &lie0, &lie_lambda);
  return -lie0 / lie_lambda;
}

// F_s = f(x,0) + lambda_eq f_lambda(x,0), (16). Unchecked, as above.
template <class T, Model M>
void sliding_field(const M& model, const T* x, T* fs) {
  const int n = model.state_size();
  std::vector<T> f_lambda(n);
  T lie0, lie_lambda;
  split_lie_derivatives(model, x, &lie0, &lie_lambda, fs, f_lambda.data());
  const T lambda = -lie0 / lie_lambda;
  for (int i = 0; i < n; ++i) fs[i] += lambda * f_lambda[i];
}

// G = (h_x.f_lambda) f(x,0) - (h_x.f(x,0)) f_lambda, (20): smooth through
// two-folds, zero at them.
template <class T, Model M>
void scaled_sliding_field(const M& model, const T* x, T* g) {
  const int n = model.state_size();
  std::vector<T> f0(n), f_lambda(n);
  T lie0, lie_lambda;
  split_lie_derivatives(model, x, &lie0, &lie_lambda, f0.data(), f_lambda.data());
  for (int i = 0; i < n; ++i) g[i] = lie_lambda * f0[i] - lie0 * f_lambda[i];
}

// ---- double-level API with checks --------------------------------------------

struct Options {
  // |h_x|_2 at or below this: Sigma is not a regular surface at x (throws).
  // In units of h per unit of x.
  double gradient_tolerance = 1e-12;
  // |h(x)| above this: x is not on Sigma (classify and project throw; set
  // to infinity to classify the projection of any x).
  double surface_tolerance = 1e-8;
  // |h_x . F+-| <= this |h_x| |F+-| (the sine of the angle between F+- and
  // the tangent plane of Sigma): F+- is tangent to Sigma at x.
  double tangency_tolerance = 1e-10;
  // project_onto_surface: Newton steps along h_x.
  int max_projection_iterations = 50;

  // Empty when valid, else a message naming the first bad field and value.
  std::string check() const;
};

enum class Region {
  kCrossing,      // H+ H- > 0: the orbit crosses Sigma (SurfacePoint::direction says which way)
  kSliding,       // H+ < 0 < H- (17): attracting, the sliding flow F_s
  kEscaping,      // H- < 0 < H+ (18): repelling, the sliding flow F_s (non-unique exits)
  kTangentPlus,   // H+ = 0 != H-: F+ tangent to Sigma (a boundary of the regions)
  kTangentMinus,  // H- = 0 != H+: F- tangent to Sigma
  kTwoFold,       // H+ = H- = 0 (19)
};
std::string region_name(
    Region region);  // "crossing", "sliding", "escaping", "tangent+", "tangent-", "two-fold"

struct SurfacePoint {
  Region region = Region::kCrossing;
  int direction = 0;                // crossing: +1 from h < 0 into h > 0 (H+-> 0), -1 the other way; else 0
  Vector x;                         // the point
  double h = 0.0;                   // h(x)
  Vector gradient;                  // h_x(x)
  double lie_plus = 0.0;            // H+ = h_x . F+
  double lie_minus = 0.0;           // H- = h_x . F-
  double lie0 = 0.0;                // h_x . f(x, 0)
  double lie_lambda = 0.0;          // h_x . f_lambda(x, 0)
  std::optional<double> lambda_eq;  // (15), when h_x . f_lambda != 0; in (-mu, mu) iff sliding or escaping
};

namespace detail {

std::string format_point(const Vector& x);
void check_point(const Vector& x, int n, const char* where);
// Throws std::invalid_argument when |h_x| <= tolerance: names the point and |h_x|.
void require_regular(const Vector& x, const Vector& h_x, double tolerance, const char* where);
SurfacePoint classify_values(const Vector& x, double h, const Vector& h_x, const Vector& f_plus,
                             const Vector& f_minus, double lie0, double lie_lambda, const Options& options);

// Jacobian of out = fn(z) (rows outputs) at x by ceres::Jet, in passes of 4
// directions; fn is a generic callable (const auto* z, auto* out).
template <class Fn>
Matrix jet_jacobian(const Vector& x, int rows, Fn&& fn, Vector* value = nullptr) {
  using Jet = ceres::Jet<double, 4>;
  const int n = static_cast<int>(x.size());
  Matrix J(rows, n);
  std::vector<Jet> z(n), r(rows);
  for (int j = 0; j < n; ++j) z[j] = Jet(x[j]);
  for (int start = 0; start < n; start += 4) {
    const int width = std::min(4, n - start);
    for (int k = 0; k < width; ++k) z[start + k].v[k] = 1.0;
    fn(static_cast<const Jet*>(z.data()), r.data());
    for (int i = 0; i < rows; ++i)
      for (int k = 0; k < width; ++k) J(i, start + k) = r[i].v[k];
    for (int k = 0; k < width; ++k) z[start + k].v[k] = 0.0;
  }
  if (value) {
    value->resize(rows);
    for (int i = 0; i < rows; ++i) (*value)[i] = r[i].a;
  }
  return J;
}

}  // namespace detail

template <Model M>
double switching(const M& model, const Vector& x) {
  detail::check_point(x, model.state_size(), "switching");
  return model.switching(x.data());
}

template <Model M>
Vector gradient(const M& model, const Vector& x) {
  detail::check_point(x, model.state_size(), "gradient");
  Vector h_x(x.size());
  switching_gradient(model, x.data(), h_x.data());
  return h_x;
}

template <Model M>
Vector field(const M& model, const Vector& x, double lambda) {
  detail::check_point(x, model.state_size(), "field");
  Vector f(x.size());
  model.field(x.data(), lambda, f.data());
  return f;
}
template <Model M>
Vector plus_field(const M& model, const Vector& x) {
  return field(model, x, +model.mu);
}  // F+
template <Model M>
Vector minus_field(const M& model, const Vector& x) {
  return field(model, x, -model.mu);
}  // F-

// f(x, 0) and f_lambda(x, 0).
template <Model M>
void split_field(const M& model, const Vector& x, Vector* f0, Vector* f_lambda) {
  detail::check_point(x, model.state_size(), "split_field");
  f0->resize(x.size());
  f_lambda->resize(x.size());
  split_field(model, x.data(), f0->data(), f_lambda->data());
}

// max over lambda = +-mu of |f(x, lambda) - f(x,0) - lambda f_lambda|_inf /
// (1 + |f(x, lambda)|_inf): of the order of the rounding error for a model
// affine in lambda, O(1) for one that is not.
template <Model M>
double affine_defect(const M& model, const Vector& x) {
  Vector f0, fl;
  split_field(model, x, &f0, &fl);
  double defect = 0.0;
  for (double lambda : {model.mu, -model.mu}) {
    const Vector f = field(model, x, lambda);
    defect = std::max(defect,
                      (f - f0 - lambda * fl).lpNorm<Eigen::Infinity>() / (1.0 + f.lpNorm<Eigen::Infinity>()));
  }
  return defect;
}

// d f(x, lambda) / dx.
template <Model M>
Matrix field_jacobian(const M& model, const Vector& x, double lambda) {
  detail::check_point(x, model.state_size(), "field_jacobian");
  return detail::jet_jacobian(x, model.state_size(), [&](const auto* z, auto* out) {
    using Scalar = std::remove_cvref_t<decltype(*z)>;
    model.field(z, Scalar(lambda), out);
  });
}

// The gradient of H(x, lambda) = h_x . f(x, lambda) (exact; row vector as a Vector).
template <Model M>
Vector lie_gradient(const M& model, const Vector& x, double lambda) {
  detail::check_point(x, model.state_size(), "lie_gradient");
  const Matrix row = detail::jet_jacobian(x, 1, [&](const auto* z, auto* out) {
    using Scalar = std::remove_cvref_t<decltype(*z)>;
    out[0] = lie_derivative(model, z, Scalar(lambda));
  });
  return row.row(0).transpose();
}

// The crossing / sliding / escaping classification of x on Sigma from the
// signs of H+- = h_x . F+- ((17), (18)). Throws std::invalid_argument if
// |h(x)| > surface_tolerance or the surface is not regular at x.
template <Model M>
SurfacePoint classify(const M& model, const Vector& x, const Options& options = {}) {
  detail::check_point(x, model.state_size(), "classify");
  if (const std::string bad = options.check(); !bad.empty())
    throw std::invalid_argument("the Filippov options: " + bad);
  const Vector h_x = gradient(model, x);
  detail::require_regular(x, h_x, options.gradient_tolerance, "classify");
  Vector f0, fl;
  split_field(model, x, &f0, &fl);
  return detail::classify_values(x, model.switching(x.data()), h_x, field(model, x, model.mu),
                                 field(model, x, -model.mu), h_x.dot(f0), h_x.dot(fl), options);
}

// Throws std::domain_error where h_x . f_lambda = 0 (no equivalent control).
template <Model M>
double equivalent_control(const M& model, const Vector& x, const Options& options = {}) {
  detail::check_point(x, model.state_size(), "equivalent_control");
  const Vector h_x = gradient(model, x);
  detail::require_regular(x, h_x, options.gradient_tolerance, "equivalent_control");
  double lie0, lie_lambda;
  split_lie_derivatives(model, x.data(), &lie0, &lie_lambda);
  if (lie_lambda == 0.0)
    throw std::domain_error("h_x . f_lambda = 0 at x = " + detail::format_point(x) +
                            ": lambda does not act across the switching surface, (15) is undefined");
  return -lie0 / lie_lambda;
}

// F_s(x), (16). Throws as equivalent_control.
template <Model M>
Vector sliding_field(const M& model, const Vector& x, const Options& options = {}) {
  const double lambda = equivalent_control(model, x, options);
  return field(model, x, lambda);
}

// d F_s / dx (exact), at a point where (16) is defined.
template <Model M>
Matrix sliding_jacobian(const M& model, const Vector& x, const Options& options = {}) {
  equivalent_control(model, x, options);  // the checks
  return detail::jet_jacobian(x, model.state_size(),
                              [&](const auto* z, auto* out) { sliding_field(model, z, out); });
}

// G(x), (20), and its Jacobian.
template <Model M>
Vector scaled_sliding_field(const M& model, const Vector& x) {
  detail::check_point(x, model.state_size(), "scaled_sliding_field");
  Vector g(x.size());
  scaled_sliding_field(model, x.data(), g.data());
  return g;
}
template <Model M>
Matrix scaled_sliding_jacobian(const M& model, const Vector& x) {
  detail::check_point(x, model.state_size(), "scaled_sliding_jacobian");
  return detail::jet_jacobian(x, model.state_size(),
                              [&](const auto* z, auto* out) { scaled_sliding_field(model, z, out); });
}

// The point of Sigma reached from x by Newton steps along the gradient,
// x <- x - h(x) h_x / |h_x|^2 (the minimum-norm Newton step of the one
// equation h = 0; continuation/newton.h without damping), until
// |h| <= tolerance. Throws std::invalid_argument where the surface is not
// regular on the way, and std::runtime_error when max_projection_iterations
// do not reach it.
template <Model M>
Vector project_onto_surface(const M& model, const Vector& x0, double tolerance = 1e-14,
                            const Options& options = {}) {
  detail::check_point(x0, model.state_size(), "project_onto_surface");
  NewtonProblem problem;
  problem.residual = [&model](const Vector& x, Vector* h) {
    *h = Vector::Constant(1, model.switching(x.data()));
  };
  problem.jacobian = [&model, &options](const Vector& x, Matrix* J) {
    const Vector h_x = gradient(model, x);
    detail::require_regular(x, h_x, options.gradient_tolerance, "project_onto_surface");
    *J = h_x.transpose();
  };
  problem.solve = [](const Matrix& J, const Vector& h, Vector* dx) {
    const Vector h_x = J.row(0).transpose();
    *dx = (h[0] / h_x.squaredNorm()) * h_x;
    return true;
  };
  NewtonOptions newton;
  newton.max_iterations = options.max_projection_iterations;
  newton.residual_tolerance = tolerance;
  newton.damping = false;
  const NewtonResult r = damped_newton(problem, x0, newton);
  if (r.converged()) return r.x;
  std::ostringstream msg;
  msg << "no point of the switching surface (|h| <= " << tolerance
      << ") reached from x = " << detail::format_point(x0) << " in " << options.max_projection_iterations
      << " Newton steps along the gradient of h (last |h| = " << r.residual
      << "): h = 0 is far from there, or h is too flat or too steep for Newton; start nearer the surface";
  throw std::runtime_error(msg.str());
}

}  // namespace saltus::filippov
