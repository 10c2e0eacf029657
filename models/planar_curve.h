#pragma once
// Smooth planar curves c(s) = (x(s), y(s)): the boundaries of the bodies of
// the plane extremal-distance (contact-point) problem of Damerau & Low,
// "Classification of solutions to the plane extremal distance problem for
// bodies with smooth boundaries", J. Comput. Nonlinear Dynam. 11(6), 2016
// (doi:10.1115/1.4034393).
//
// Conventions (those of the paper, Sec. 2 and eq. (17), rederived):
// - The parameter runs so that the body lies to the LEFT of the direction of
//   travel: counter-clockwise around a convex body. Any speed |c'(s)| > 0 is
//   allowed (the paper's examples are not unit-speed).
// - Unit tangent t = c' / |c'|; outward normal n = (t_y, -t_x), t turned
//   clockwise by 90 degrees (it points away from the body). Example: the
//   counter-clockwise unit circle (cos s, sin s) has n = (cos s, sin s).
// - Signed curvature kappa = (x' y'' - y' x'') / |c'|^3: positive where the
//   body is convex, negative where it is concave (a hole). With sigma the arc
//   length, the Frenet formulas for this normal read, as the paper's (17)
//   (its "modified signs"):  dt/dsigma = -kappa n,  dn/dsigma = kappa t.
// - d^k kappa / dsigma^k is computed from the Taylor coefficients of x(s),
//   y(s) (continuation/taylor.h): kappa as a series in t = s - s0, then k
//   times g <- (dg/dt) / |c'(t)|, each a series operation. No hand-written
//   derivative formulas, no finite differences.
//
// The concrete shapes are plain structs (designated initializers, a check()
// that throws std::invalid_argument naming the bad field) with a
// scalar-templated
//
//   template <class T> void eval(const T& s, T* xy) const;
//
// that compiles for double, ceres::Jet, Boost.Math fvar and saltus::Taylor
// (over any of those), so the extremal-point equations (models/extremal.h)
// get exact Jacobians and high-order Taylor coefficients from one code.
// PlanarCurve is the type-erased, double-only interface for geometry
// queries; AnyShape holds any of the shapes chosen at run time.

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "continuation/taylor.h"
#include "models/expression.h"

namespace saltus::models {

// Throws std::invalid_argument:
//   curve '<name>' is not regular at s = <s>: |c'(s)| = <speed>; ...
// (shared by PlanarCurve and the templated extremal equations).
[[noreturn]] void throw_not_regular(const std::string& name, double s, double speed, double threshold);
// A double written in its shortest round-trip form ("0.5", "1e-12").
std::string format_number(double value);

// A point is regular when |c'(s)| > kRegularity * scale() (scale: a length
// of the curve, see each shape).
inline constexpr double kRegularity = 1e-12;

// centre + radius (cos(s + phase), orientation sin(s + phase)). orientation
// +1: counter-clockwise, the body is the disc (kappa = 1/radius);
// -1: clockwise, the body is the outside of the circle, a round hole
// (kappa = -1/radius). Scale: radius. Period 2 pi.
struct Circle {
  double radius = 1.0;
  double cx = 0.0, cy = 0.0;
  int orientation = +1;
  double phase = 0.0;
  std::string name = "circle";

  void check() const;
  double scale() const { return radius; }
  double period() const { return 2.0 * std::numbers::pi; }
  template <class T>
  void eval(const T& s, T* xy) const {
    using std::cos, std::sin;
    const T theta = s + phase;
    xy[0] = cx + radius * cos(theta);
    xy[1] = cy + (orientation * radius) * sin(theta);
  }
};

// centre + (a cos(s + phase), orientation b sin(s + phase)), semi-axes a
// along x and b along y. kappa = a b / (a^2 sin^2 + b^2 cos^2)^(3/2) (times
// orientation): a/b^2 at s = 0, b/a^2 at s = pi/2. Scale: max(a, b).
struct Ellipse {
  double a = 1.0, b = 1.0;
  double cx = 0.0, cy = 0.0;
  int orientation = +1;
  double phase = 0.0;
  std::string name = "ellipse";

  void check() const;
  double scale() const { return std::max(a, b); }
  double period() const { return 2.0 * std::numbers::pi; }
  template <class T>
  void eval(const T& s, T* xy) const {
    using std::cos, std::sin;
    const T theta = s + phase;
    xy[0] = cx + a * cos(theta);
    xy[1] = cy + (orientation * b) * sin(theta);
  }
};

namespace detail {
// sum_i coefficients[i] s^i by Horner's rule.
template <class T>
T polynomial(const std::vector<double>& coefficients, const T& s) {
  T p(coefficients.back());
  for (std::size_t i = coefficients.size() - 1; i-- > 0;) p = p * s + coefficients[i];
  return p;
}
// sum_{i >= 1} |coefficients[i]|: bounds |p(s) - p(0)| on |s| <= 1.
double variation(const std::vector<double>& coefficients);
}  // namespace detail

// x(s) = sum_i x[i] s^i, y(s) = sum_i y[i] s^i (ascending powers), e.g. the
// paper's (31) c1 = -(s, s^4): x = {0, -1}, y = {0, 0, 0, 0, -1}.
// Scale: the sum of the absolute non-constant coefficients of x and y.
struct ParametricPolynomial {
  std::vector<double> x{0.0, 1.0};
  std::vector<double> y{0.0};
  std::string name = "polynomial";

  void check() const;
  double scale() const { return detail::variation(x) + detail::variation(y); }
  double period() const { return 0.0; }
  template <class T>
  void eval(const T& s, T* xy) const {
    xy[0] = detail::polynomial(x, s);
    xy[1] = detail::polynomial(y, s);
  }
};

// The graph y = p(s), x = s (ascending coefficients of p). The parameter
// runs in +x, so the body is the region above the graph (y > p(x)) and the
// outward normal points down. Scale: 1 + sum of |p_i|, i >= 1.
struct PolynomialGraph {
  std::vector<double> p{0.0};
  std::string name = "graph";

  void check() const;
  double scale() const { return 1.0 + detail::variation(p); }
  double period() const { return 0.0; }
  template <class T>
  void eval(const T& s, T* xy) const {
    xy[0] = s;
    xy[1] = detail::polynomial(p, s);
  }
};

// A cam in polar form: r(s) = r0 + sum_{k=1}^{K} (a_k cos(k s) + b_k sin(k s)),
// c(s) = r(s) (cos s, sin s), counter-clockwise (a[k-1] is a_k, b[k-1] is
// b_k; the lists may differ in length). Regular wherever r or r' is nonzero.
// Scale: r0 + sum(|a_k| + |b_k|). Period 2 pi.
struct FourierProfile {
  double r0 = 1.0;
  std::vector<double> a, b;
  std::string name = "fourier";

  void check() const;
  double scale() const;
  double period() const { return 2.0 * std::numbers::pi; }
  template <class T>
  void eval(const T& s, T* xy) const {
    using std::cos, std::sin;
    T r(r0);
    for (std::size_t k = 0; k < a.size(); ++k) r = r + a[k] * cos(static_cast<double>(k + 1) * s);
    for (std::size_t k = 0; k < b.size(); ++k) r = r + b[k] * sin(static_cast<double>(k + 1) * s);
    xy[0] = r * cos(s);
    xy[1] = r * sin(s);
  }
};

// x(s), y(s) given as run-file expressions in the single variable s, e.g.
// the paper's (40) c1 = -(sin s1, cos s1): make("-sin(s)", "-cos(s)").
// scale (a length, default 1) sets the regularity threshold; period (0: not
// periodic) lets the extremal-point search merge s and s + period.
struct ExpressionCurve {
  Expression x, y;
  double scale_length = 1.0;
  double period_length = 0.0;
  std::string name = "expression";

  // Parses both (ExpressionError, naming the text, on a bad one) and checks.
  static ExpressionCurve make(const std::string& x_text, const std::string& y_text,
                              std::string name = "expression", double scale = 1.0, double period = 0.0);
  void check() const;
  double scale() const { return scale_length; }
  double period() const { return period_length; }
  template <class T>
  void eval(const T& s, T* xy) const {
    xy[0] = x.evaluate<T>(&s);
    xy[1] = y.evaluate<T>(&s);
  }
};

// Any of the shapes above, chosen at run time (a run file), with the same
// templated eval (one std::visit per evaluation).
struct AnyShape {
  std::variant<Circle, Ellipse, ParametricPolynomial, PolynomialGraph, FourierProfile, ExpressionCurve> shape;

  void check() const {
    std::visit([](const auto& c) { c.check(); }, shape);
  }
  double scale() const {
    return std::visit([](const auto& c) { return c.scale(); }, shape);
  }
  double period() const {
    return std::visit([](const auto& c) { return c.period(); }, shape);
  }
  template <class T>
  void eval(const T& s, T* xy) const {
    std::visit([&](const auto& c) { c.eval(s, xy); }, shape);
  }
};

// The name of a shape (its `name` field; the held shape's for AnyShape).
template <class Shape>
const std::string& shape_name(const Shape& shape) {
  return shape.name;
}
inline const std::string& shape_name(const AnyShape& any) {
  return std::visit([](const auto& c) -> const std::string& { return c.name; }, any.shape);
}

// Taylor coefficients of x(s0 + t) and y(s0 + t): x[k] = x^(k)(s0) / k!.
struct CurveTaylor {
  std::vector<double> x, y;
};

// The type-erased curve (double only). Geometry is computed from taylor();
// each query at a non-regular point throws (see throw_not_regular).
class PlanarCurve {
 public:
  // Largest Taylor order taylor() provides (curvature derivatives to
  // kMaxTaylorOrder - 2).
  static constexpr int kMaxTaylorOrder = 63;

  virtual ~PlanarCurve() = default;
  virtual std::string name() const = 0;
  virtual double scale() const = 0;   // a length; regular means |c'| > kRegularity * scale
  virtual double period() const = 0;  // 0 when not periodic
  // Coefficients 0..order (0 <= order <= kMaxTaylorOrder, else throws).
  virtual CurveTaylor taylor(double s, int order) const = 0;

  Eigen::Vector2d point(double s) const;
  Eigen::Vector2d velocity(double s) const;  // c'(s), any length (no regularity check)
  double speed(double s) const;              // |c'(s)|, ds_arc/ds (no check)
  bool is_regular(double s) const;
  void check_regular(double s) const;       // throws when not regular
  Eigen::Vector2d tangent(double s) const;  // unit
  Eigen::Vector2d normal(double s) const;   // unit outward, (t_y, -t_x)
  double curvature(double s) const;         // signed kappa
  // [kappa, dkappa/dsigma, ..., d^k kappa/dsigma^k] at s, sigma the arc
  // length (0 <= k <= kMaxTaylorOrder - 2, else throws naming k).
  std::vector<double> curvature_derivatives(double s, int k) const;
};

// PlanarCurve for a shape with templated eval (any of the above, AnyShape,
// or a user's struct with name, check(), scale(), period() and eval).
template <class Shape>
class Curve : public PlanarCurve {
 public:
  explicit Curve(Shape shape) : shape_(std::move(shape)) { shape_.check(); }
  const Shape& shape() const { return shape_; }
  std::string name() const override { return shape_name(shape_); }
  double scale() const override { return shape_.scale(); }
  double period() const override { return shape_.period(); }
  CurveTaylor taylor(double s, int order) const override {
    if (order < 0 || order > kMaxTaylorOrder)
      throw std::invalid_argument("curve '" + name() + "': Taylor order " + std::to_string(order) +
                                  " is outside 0.." + std::to_string(kMaxTaylorOrder));
    // Two capacities keep the common low orders cheap.
    return order <= 15 ? expand<15>(s, order) : expand<kMaxTaylorOrder>(s, order);
  }

 private:
  template <int N>
  CurveTaylor expand(double s, int order) const {
    using Series = Taylor<double, N>;
    Series xy[2];
    shape_.eval(Series::variable(s, order), xy);
    CurveTaylor out{std::vector<double>(order + 1), std::vector<double>(order + 1)};
    for (int k = 0; k <= order; ++k) {
      out.x[k] = xy[0][k];
      out.y[k] = xy[1][k];
    }
    return out;
  }

  Shape shape_;
};

template <class Shape>
std::shared_ptr<const PlanarCurve> make_curve(Shape shape) {
  return std::make_shared<Curve<Shape>>(std::move(shape));
}

}  // namespace saltus::models
