#include "models/planar_curve.h"

#include <charconv>
#include <sstream>

namespace saltus::models {

std::string format_number(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

void throw_not_regular(const std::string& name, double s, double speed, double threshold) {
  throw std::invalid_argument(
      "curve '" + name + "' is not regular at s = " + format_number(s) +
      ": |c'(s)| = " + format_number(speed) +
      "; its tangent, normal and curvature are undefined there (a regular point needs "
      "|c'(s)| > " +
      format_number(kRegularity) + " * scale = " + format_number(threshold) + ")");
}

namespace {

// "<kind> '<name>': <field> = <value> <why>"
[[noreturn]] void bad(const std::string& kind, const std::string& name, const std::string& field,
                      double value, const std::string& why) {
  throw std::invalid_argument(kind + " '" + name + "': " + field + " = " + format_number(value) + " " + why);
}

void check_finite(const std::string& kind, const std::string& name, const std::string& field, double value) {
  if (!std::isfinite(value)) bad(kind, name, field, value, "must be finite");
}

void check_positive(const std::string& kind, const std::string& name, const std::string& field,
                    double value) {
  if (!(std::isfinite(value) && value > 0.0)) bad(kind, name, field, value, "must be positive and finite");
}

void check_orientation(const std::string& kind, const std::string& name, int orientation) {
  if (orientation != 1 && orientation != -1)
    throw std::invalid_argument(
        kind + " '" + name + "': orientation = " + std::to_string(orientation) +
        " must be +1 (counter-clockwise, the body is inside) or -1 (clockwise, a hole)");
}

void check_coefficients(const std::string& kind, const std::string& name, const std::string& field,
                        const std::vector<double>& c, bool allow_empty) {
  if (c.empty() && !allow_empty)
    throw std::invalid_argument(kind + " '" + name + "': " + field + " has no coefficients");
  // Each coefficient costs in every evaluation of the search grid and the
  // series: a thousand made `extremal solutions` run silent for minutes.
  constexpr std::size_t kMaxCoefficients = 100;
  if (c.size() > kMaxCoefficients)
    throw std::invalid_argument(kind + " '" + name + "': " + field + " has " + std::to_string(c.size()) +
                                " coefficients, more than " + std::to_string(kMaxCoefficients) +
                                ": give a curve of lower degree");
  for (std::size_t i = 0; i < c.size(); ++i)
    check_finite(kind, name, field + "[" + std::to_string(i) + "]", c[i]);
}

void check_expression(const std::string& name, const std::string& field, const Expression& e) {
  if (e.names() != std::vector<std::string>{"s"}) {
    std::string names;
    for (const auto& n : e.names()) names += (names.empty() ? "" : ", ") + n;
    throw std::invalid_argument(
        "expression curve '" + name + "': " + field +
        " must be an expression in the single variable s (use ExpressionCurve::make), "
        "got variables {" +
        names + "}");
  }
}

// The curvature series and its arc-length derivatives from the Taylor
// coefficients of x and y to order k + 2 (see planar_curve.h).
template <int N>
std::vector<double> curvature_series(const CurveTaylor& jet, int k) {
  using Series = Taylor<double, N>;
  const Series x = Series::from_coefficients(jet.x), y = Series::from_coefficients(jet.y);  // order k + 2
  const Series dx = differentiate(x), dy = differentiate(y);                                // k + 1
  const Series ddx = differentiate(dx), ddy = differentiate(dy);                            // k
  const Series speed2 = dx * dx + dy * dy;
  const Series speed = sqrt(speed2);                    // |c'(s0 + t)|, order k + 1
  Series g = (dx * ddy - dy * ddx) / (speed2 * speed);  // kappa(s0 + t), order k
  std::vector<double> out(k + 1);
  out[0] = g[0];
  for (int j = 1; j <= k; ++j) {
    g = differentiate(g) / speed;  // d/dsigma = (1/|c'|) d/dt; order k - j
    out[j] = g[0];
  }
  return out;
}

}  // namespace

namespace detail {
double variation(const std::vector<double>& coefficients) {
  double sum = 0.0;
  for (std::size_t i = 1; i < coefficients.size(); ++i) sum += std::abs(coefficients[i]);
  return sum;
}
}  // namespace detail

void Circle::check() const {
  check_positive("circle", name, "radius", radius);
  check_finite("circle", name, "cx", cx);
  check_finite("circle", name, "cy", cy);
  check_finite("circle", name, "phase", phase);
  check_orientation("circle", name, orientation);
}

void Ellipse::check() const {
  check_positive("ellipse", name, "a", a);
  check_positive("ellipse", name, "b", b);
  check_finite("ellipse", name, "cx", cx);
  check_finite("ellipse", name, "cy", cy);
  check_finite("ellipse", name, "phase", phase);
  check_orientation("ellipse", name, orientation);
}

void ParametricPolynomial::check() const {
  check_coefficients("polynomial curve", name, "x", x, false);
  check_coefficients("polynomial curve", name, "y", y, false);
}

void PolynomialGraph::check() const { check_coefficients("graph", name, "p", p, false); }

void FourierProfile::check() const {
  check_positive("Fourier profile", name, "r0", r0);
  check_coefficients("Fourier profile", name, "a", a, true);
  check_coefficients("Fourier profile", name, "b", b, true);
}

double FourierProfile::scale() const {
  double sum = r0;
  for (double c : a) sum += std::abs(c);
  for (double c : b) sum += std::abs(c);
  return sum;
}

ExpressionCurve ExpressionCurve::make(const std::string& x_text, const std::string& y_text, std::string name,
                                      double scale, double period) {
  ExpressionCurve curve;
  curve.x = Expression::parse(x_text, {"s"});
  curve.y = Expression::parse(y_text, {"s"});
  curve.scale_length = scale;
  curve.period_length = period;
  curve.name = std::move(name);
  curve.check();
  return curve;
}

void ExpressionCurve::check() const {
  check_expression(name, "x", x);
  check_expression(name, "y", y);
  check_positive("expression curve", name, "scale", scale_length);
  if (!(std::isfinite(period_length) && period_length >= 0.0))
    bad("expression curve", name, "period", period_length, "must be >= 0 (0: not periodic) and finite");
}

Eigen::Vector2d PlanarCurve::point(double s) const {
  const CurveTaylor c = taylor(s, 0);
  return {c.x[0], c.y[0]};
}

Eigen::Vector2d PlanarCurve::velocity(double s) const {
  const CurveTaylor c = taylor(s, 1);
  return {c.x[1], c.y[1]};
}

double PlanarCurve::speed(double s) const { return velocity(s).norm(); }

bool PlanarCurve::is_regular(double s) const { return speed(s) > kRegularity * scale(); }

void PlanarCurve::check_regular(double s) const {
  const double v = speed(s);
  if (!(v > kRegularity * scale())) throw_not_regular(name(), s, v, kRegularity * scale());
}

Eigen::Vector2d PlanarCurve::tangent(double s) const {
  const Eigen::Vector2d v = velocity(s);
  if (!(v.norm() > kRegularity * scale())) throw_not_regular(name(), s, v.norm(), kRegularity * scale());
  return v / v.norm();
}

Eigen::Vector2d PlanarCurve::normal(double s) const {
  const Eigen::Vector2d t = tangent(s);
  return {t.y(), -t.x()};
}

double PlanarCurve::curvature(double s) const { return curvature_derivatives(s, 0)[0]; }

std::vector<double> PlanarCurve::curvature_derivatives(double s, int k) const {
  if (k < 0 || k > kMaxTaylorOrder - 2)
    throw std::invalid_argument("curve '" + name() + "': curvature derivative order k = " +
                                std::to_string(k) + " is outside 0.." + std::to_string(kMaxTaylorOrder - 2));
  const CurveTaylor jet = taylor(s, k + 2);
  const double v = std::hypot(jet.x[1], jet.y[1]);
  if (!(v > kRegularity * scale())) throw_not_regular(name(), s, v, kRegularity * scale());
  return k + 2 <= 15 ? curvature_series<15>(jet, k) : curvature_series<kMaxTaylorOrder>(jet, k);
}

}  // namespace saltus::models
