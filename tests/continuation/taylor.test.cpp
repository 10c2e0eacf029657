// Truncated Taylor arithmetic against series known in closed form, the order
// rules, and generic coefficients (ceres::Jet, Boost.Math fvar) and the
// run-file Expression evaluated on series.

#include "continuation/taylor.h"

#include <ceres/jet.h>

#include <boost/math/differentiation/autodiff.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>
#include <vector>

#include "models/expression.h"

using saltus::Taylor;

namespace {

constexpr int kOrder = 12;
using T12 = Taylor<double, kOrder>;

// The series variable t at 0, valid to kOrder.
T12 t() { return T12::variable(0.0, kOrder); }

double factorial(int k) {
  double f = 1.0;
  for (int j = 2; j <= k; ++j) f *= j;
  return f;
}

// Coefficients agree to a relative 1e-13 (the recurrences add a few roundings
// per order; the largest coefficients here are O(1)).
void check_series(const T12& u, const std::vector<double>& expected, double tolerance = 1e-13) {
  REQUIRE(u.order() >= static_cast<int>(expected.size()) - 1);
  for (std::size_t k = 0; k < expected.size(); ++k) {
    INFO("coefficient " << k);
    CHECK(u[static_cast<int>(k)] == Approx(expected[k]).epsilon(tolerance).margin(tolerance));
  }
}

}  // namespace

TEST_CASE("taylor: exp, log, sqrt, 1/(1-t) and powers against known series", "[taylor]") {
  std::vector<double> e, geometric, root, logarithm, inverse_square;
  double binomial = 1.0;  // binom(1/2, k)
  for (int k = 0; k <= kOrder; ++k) {
    e.push_back(1.0 / factorial(k));
    geometric.push_back(1.0);
    root.push_back(binomial);
    binomial *= (0.5 - k) / (k + 1);
    logarithm.push_back(k == 0 ? 0.0 : (k % 2 ? 1.0 : -1.0) / k);
    inverse_square.push_back((k % 2 ? -1.0 : 1.0) * (k + 1));  // (1+t)^-2
  }
  check_series(exp(t()), e);
  check_series(1.0 / (1.0 - t()), geometric);
  check_series(T12(1.0) / (T12(1.0) - t()), geometric);
  check_series(sqrt(1.0 + t()), root);
  check_series(pow(1.0 + t(), 0.5), root);
  check_series(log(1.0 + t()), logarithm);
  check_series(pow(1.0 + t(), -2), inverse_square);
  check_series(pow(1.0 + t(), -2.0), inverse_square);
  // t^3 at t = 0 through the exact integer path: (0, 0, 0, 1, 0, ...).
  check_series(pow(t(), 3), {0, 0, 0, 1, 0, 0, 0});
  check_series(pow(t(), 3.0), {0, 0, 0, 1, 0, 0, 0});
  // 2^t = exp(t log 2).
  std::vector<double> two_t;
  for (int k = 0; k <= kOrder; ++k) two_t.push_back(std::pow(std::log(2.0), k) / factorial(k));
  check_series(pow(2.0, t()), two_t);
  check_series(pow(T12(2.0), t()), two_t);
}

TEST_CASE("taylor: trigonometric and hyperbolic functions against known series", "[taylor]") {
  std::vector<double> s, c, sh, ch;
  for (int k = 0; k <= kOrder; ++k) {
    const double inv = 1.0 / factorial(k);
    s.push_back(k % 2 ? ((k / 2) % 2 ? -inv : inv) : 0.0);
    c.push_back(k % 2 ? 0.0 : ((k / 2) % 2 ? -inv : inv));
    sh.push_back(k % 2 ? inv : 0.0);
    ch.push_back(k % 2 ? 0.0 : inv);
  }
  check_series(sin(t()), s);
  check_series(cos(t()), c);
  check_series(sinh(t()), sh);
  check_series(cosh(t()), ch);
  // tan t = t + t^3/3 + 2t^5/15 + 17t^7/315 + 62t^9/2835; tanh alternates.
  check_series(tan(t()), {0, 1, 0, 1.0 / 3, 0, 2.0 / 15, 0, 17.0 / 315, 0, 62.0 / 2835});
  check_series(tanh(t()), {0, 1, 0, -1.0 / 3, 0, 2.0 / 15, 0, -17.0 / 315, 0, 62.0 / 2835});
  // atan t = t - t^3/3 + t^5/5 - ...; asin t = t + t^3/6 + 3t^5/40 + 5t^7/112.
  check_series(atan(t()), {0, 1, 0, -1.0 / 3, 0, 1.0 / 5, 0, -1.0 / 7, 0, 1.0 / 9});
  check_series(asin(t()), {0, 1, 0, 1.0 / 6, 0, 3.0 / 40, 0, 5.0 / 112});
  check_series(acos(t()), {std::numbers::pi / 2, -1, 0, -1.0 / 6, 0, -3.0 / 40, 0, -5.0 / 112});
  check_series(atan2(t(), T12(1.0)), {0, 1, 0, -1.0 / 3, 0, 1.0 / 5, 0, -1.0 / 7});
  // atan2 keeps the quadrant: atan2(sin u, cos u) = u for u = 2.5 + t.
  const T12 u = T12::variable(2.5, kOrder);
  check_series(atan2(sin(u), cos(u)), {2.5, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
}

TEST_CASE("taylor: identities on a generic series", "[taylor]") {
  // u(t) = 0.7 + 0.3 t - 0.2 t^2 + 0.05 t^3 + ... (valid to kOrder): a base
  // point where every function below is analytic.
  std::vector<double> coefficients(kOrder + 1);
  for (int k = 0; k <= kOrder; ++k) coefficients[k] = (k == 0 ? 0.7 : std::sin(1.0 + k) / (k + 1));
  const T12 u = T12::from_coefficients(coefficients);
  const T12 w = 1.3 + 0.5 * u;
  const T12 one(1.0);
  auto check_equal = [](const T12& a, const T12& b) {
    REQUIRE(a.order() == b.order());
    for (int k = 0; k <= a.order(); ++k) {
      INFO("coefficient " << k);
      CHECK(a[k] == Approx(b[k]).margin(1e-13));
    }
  };
  check_equal(exp(log(u)), u);
  check_equal(sin(u) * sin(u) + cos(u) * cos(u), one.truncated(kOrder));
  check_equal(cosh(u) * cosh(u) - sinh(u) * sinh(u), one.truncated(kOrder));
  check_equal(sqrt(u) * sqrt(u), u);
  check_equal(tan(u), sin(u) / cos(u));
  check_equal(tanh(u), sinh(u) / cosh(u));
  check_equal(sin(asin(u)), u);
  check_equal(cos(acos(u)), u);
  check_equal(tan(atan(u)), u);
  check_equal((u / w) * w, u);
  check_equal(pow(u, 2.5), u * u * sqrt(u));
  check_equal(pow(u, w), exp(w * log(u)));
  check_equal(abs(-u), u);
  // d/dt sin(u) = cos(u) u'.
  check_equal(differentiate(sin(u)), cos(u).truncated(kOrder - 1) * differentiate(u));
  check_equal(integrate(differentiate(u), u[0]), u);
}

TEST_CASE("taylor: orders, constants, derivatives and checks", "[taylor]") {
  using T8 = Taylor<double, 8>;
  const T8 a = T8::variable(1.0, 5), b = T8::variable(2.0, 3);
  CHECK(T8(2.0).order() == 8);  // numbers are exact constants
  CHECK((a * T8(2.0)).order() == 5);
  CHECK((a + 1.0).order() == 5);
  CHECK((a * b).order() == 3);  // what both operands know
  CHECK(differentiate(a).order() == 4);
  CHECK(integrate(a, 0.0).order() == 6);
  // (1 + t)^4 = 1 + 4t + 6t^2 + 4t^3 + t^4: derivatives k! c_k.
  const T8 p = pow(T8::variable(1.0, 6), 4);
  CHECK(p.derivative(0) == 1.0);
  CHECK(p.derivative(1) == 4.0);
  CHECK(p.derivative(2) == 12.0);
  CHECK(p.derivative(4) == 24.0);
  CHECK(p.derivative(5) == 0.0);
  CHECK(static_cast<double>(p) == 1.0);
  CHECK_THROWS_WITH(p.derivative(7), Catch::Contains("order 7 is outside 0..6"));
  CHECK_THROWS_WITH(T8::variable(0.0, 9), Catch::Contains("order 9 is outside 0..8"));
  CHECK_THROWS_WITH(differentiate(T8::variable(0.0, 0)), Catch::Contains("order 0"));
  CHECK_THROWS_WITH(T8::from_coefficients({}), Catch::Contains("no coefficients"));
}

TEST_CASE("taylor: first order (the dual numbers of the tangent lift) keeps the rules of every order",
          "[taylor]") {
  // Taylor<C, 1> takes straight-line code (continuation/taylor.h): the dual
  // number's rules (u v)' = u' v + u v', (u / v)' = (u' - (u / v) v') / v,
  // and a series known to order 0 only (from one coefficient) makes every
  // result order 0, its first coefficient zero, as at any capacity.
  using T1 = Taylor<double, 1>;
  const T1 u = T1::from_coefficients({1.5, -0.25}), v = T1::from_coefficients({-2.0, 3.0});
  const T1 c = T1::from_coefficients({4.0});
  const T1 product = u * v, quotient = u / v, sum = u + v, difference = u - v, minus = -u;
  CHECK(product.order() == 1);
  CHECK(product[0] == -3.0);
  CHECK(product[1] == 1.5 * 3.0 + -0.25 * -2.0);
  CHECK(quotient[0] == -0.75);
  CHECK(quotient[1] == (-0.25 - -0.75 * 3.0) / -2.0);
  CHECK(sum[1] == 2.75);
  CHECK(difference[1] == -3.25);
  CHECK(minus[1] == 0.25);
  CHECK((u * 2.0)[1] == -0.5);
  CHECK((u / 2.0)[1] == -0.125);
  for (const T1& r : {u * c, c * u, u / c, c / u, u + c, c + u, u - c, c - u, -c, c * 2.0, c / 2.0}) {
    CHECK(r.order() == 0);
    CHECK(r[1] == 0.0);
  }
  T1 w = u;
  w += c;
  CHECK(w.order() == 0);
  CHECK(w[0] == 5.5);
  CHECK(w[1] == 0.0);
  w = v;
  w -= c;
  CHECK(w.order() == 0);
  CHECK(w[1] == 0.0);
  CHECK((T1(2.0) * u).order() == 1);  // numbers are exact constants
  CHECK((T1(2.0) * u)[1] == -0.5);
}

TEST_CASE("taylor: ceres::Jet coefficients carry the derivative of each coefficient", "[taylor]") {
  // exp(a t) with a a jet variable: c_k = a^k / k!, dc_k/da = k a^(k-1) / k!.
  using Jet = ceres::Jet<double, 1>;
  using TJ = Taylor<Jet, 8>;
  const Jet a(0.7, 0);
  const TJ series = exp(TJ::variable(Jet(0.0), 8) * a);
  for (int k = 0; k <= 8; ++k) {
    CHECK(series[k].a == Approx(std::pow(0.7, k) / factorial(k)).epsilon(1e-14));
    CHECK(series[k].v[0] == Approx(k * std::pow(0.7, k - 1) / factorial(k)).epsilon(1e-14).margin(1e-300));
  }
  // Mixed operations with jets and numbers compile and agree.
  const TJ s = sin(2.0 * TJ::variable(a, 3) + a) / (1.0 + TJ::variable(a, 3));
  CHECK(s.order() == 3);
  CHECK(s[0].a == Approx(std::sin(3 * 0.7) / 1.7).epsilon(1e-14));
}

TEST_CASE("taylor: Boost.Math fvar coefficients", "[taylor]") {
  namespace ad = boost::math::differentiation;
  using F = ad::detail::fvar<double, 2>;
  using TF = Taylor<F, 4>;
  const F x = ad::make_fvar<double, 2>(0.3);
  // cos(x + t): c_1 = -sin(x), whose second x-derivative is sin(x).
  const TF c = cos(TF::variable(x, 4));
  CHECK(static_cast<double>(c[1]) == Approx(-std::sin(0.3)).epsilon(1e-14));
  CHECK(c[1].derivative(2) == Approx(std::sin(0.3)).epsilon(1e-14));
}

TEST_CASE("taylor: a run-file Expression evaluates on series", "[taylor]") {
  using saltus::models::Expression;
  const Expression e = Expression::parse("exp(s)*cos(s) + s^3 - atan2(s, 2) + sqrt(1 + s^2)", {"s"});
  const T12 s = T12::variable(0.4, kOrder);
  const T12 direct = exp(s) * cos(s) + pow(s, 3) - atan2(s, T12(2.0)) + sqrt(1.0 + s * s);
  const T12 via = e.evaluate(&s);
  REQUIRE(via.order() == kOrder);
  for (int k = 0; k <= kOrder; ++k) CHECK(via[k] == Approx(direct[k]).margin(1e-14));
}
