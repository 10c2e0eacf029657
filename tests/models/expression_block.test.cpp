#include "models/expression_block.h"

#include <ceres/jet.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "continuation/taylor.h"

namespace {

using saltus::models::Definitions;
using saltus::models::Expression;
using saltus::models::ExpressionBlock;
using saltus::models::detail::constant;

using Jet2 = ceres::Jet<double, 2>;
using Nested2 = ceres::Jet<ceres::Jet<double, 1>, 2>;
using Taylor2 = saltus::series::Taylor<double, 2>;

// Every part of a scalar, for exact comparison.
void parts(double x, std::vector<double>* out) { out->push_back(x); }
template <class J>
void parts(const J& x, std::vector<double>* out) {
  parts(x.a, out);
  for (int i = 0; i < x.v.size(); ++i) parts(x.v[i], out);
}
void parts(const Taylor2& x, std::vector<double>* out) {
  for (int k = 0; k <= x.order(); ++k) out->push_back(x[k]);
}

// Inputs x, y with distinct derivative parts, so that sharing a wrong
// subexpression would show.
template <class T>
std::vector<T> inputs(double x, double y) {
  if constexpr (std::is_same_v<T, Taylor2>) {
    T tx = T::variable(x, 2), ty = T::variable(y, 2);
    ty[2] = 0.25;
    return {tx, ty};
  } else if constexpr (std::is_same_v<T, double>) {
    return {x, y};
  } else {
    T tx = constant<T>(x), ty = constant<T>(y);
    tx.v[0] = constant<typename T::Scalar>(1.0);
    ty.v[1] = constant<typename T::Scalar>(1.0);
    return {tx, ty};
  }
}

}  // namespace

// A block computes exactly what its expressions compute one by one (the same
// opcode arithmetic, apply_instruction), on every scalar the engine uses.
TEMPLATE_TEST_CASE("expression block: the separate expressions' values, bit for bit", "[models][expression]",
                   double, Jet2, Nested2, Taylor2) {
  const std::vector<std::string> base{"x", "y"};
  Definitions defs;
  defs.names = {"d", "s", "unused"};
  defs.expressions = {Expression::parse("x - y", base), Expression::parse("sin(d)", {"x", "y", "d"}),
                      Expression::parse("log(x - 3)", {"x", "y", "d", "s"})};
  const std::vector<std::string> all{"x", "y", "d", "s", "unused"};
  std::vector<Expression> outputs;
  for (const char* text :
       {"s*cos(d) + x^2", "cos(x - y)", "sin(x)*cos(x) - sin(y)", "exp(-x)*sinh(y)/cosh(y)", "x^y + 2^x",
        "atan2(y, x) + min(x, y) - max(y, x)", "sqrt(x) + abs(y) + tanh(d)", "1 - x - 2/y + s",
        "asin(x) + acos(x) + atan(y) + tan(d)"})
    outputs.push_back(Expression::parse(text, all));
  std::vector<const Expression*> pointers;
  for (const auto& e : outputs) pointers.push_back(&e);
  const ExpressionBlock block(2, defs, pointers);

  const std::vector<TestType> in = inputs<TestType>(0.7, -1.3);
  std::vector<TestType> values(5);
  values[0] = in[0];
  values[1] = in[1];
  values[2] = defs.expressions[0].evaluate(values.data());
  values[3] = defs.expressions[1].evaluate(values.data());
  std::vector<TestType> got(outputs.size());
  block.evaluate(in.data(), got.data());
  for (std::size_t j = 0; j < outputs.size(); ++j) {
    INFO(outputs[j].text());
    std::vector<double> expected, actual;
    parts(outputs[j].evaluate(values.data()), &expected);
    parts(got[j], &actual);
    CHECK(actual == expected);
  }
}

TEST_CASE("expression block: shared subexpressions once, unread definitions never", "[models][expression]") {
  const std::vector<std::string> base{"x", "y"};
  Definitions defs;
  defs.names = {"d", "never"};
  defs.expressions = {Expression::parse("x - y", base), Expression::parse("log(x)", {"x", "y", "d"})};
  const std::vector<std::string> all{"x", "y", "d", "never"};
  const Expression a = Expression::parse("sin(x - y)", all), b = Expression::parse("2*cos(d)", all),
                   c = Expression::parse("y*x + cos(x - y)", all);
  const ExpressionBlock block(2, defs, {&a, &b, &c});
  // x - y (once, though written twice and as a definition), one sincos,
  // 2 * cos, x * y (commuted), the sum: five instructions; no log.
  CHECK(block.program_size() == 5);
  const double in[2] = {-0.4, 0.9};  // log(x) would be NaN: it is not computed
  double out[3];
  block.evaluate(in, out);
  CHECK(out[0] == Approx(std::sin(-1.3)).epsilon(1e-15));
  CHECK(out[1] == Approx(2 * std::cos(-1.3)).epsilon(1e-15));
  CHECK(out[2] == Approx(-0.36 + std::cos(-1.3)).epsilon(1e-15));
}

TEST_CASE("expression block: min and max keep their operand order", "[models][expression]") {
  // min(a, b) returns a on a tie and b when b < a; with a signed zero the
  // order shows: min(0, -0) is 0, min(-0, 0) is -0.
  const std::vector<std::string> names{"x", "y"};
  const Expression m1 = Expression::parse("min(x, y)", names), m2 = Expression::parse("min(y, x)", names);
  const ExpressionBlock block(2, Definitions{}, {&m1, &m2});
  const double in[2] = {0.0, -0.0};
  double out[2];
  block.evaluate(in, out);
  CHECK_FALSE(std::signbit(out[0]));
  CHECK(std::signbit(out[1]));
}
