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

// Plain inputs (parameters that carry no derivative) as doubles: what
// depends on them alone is computed in double, and an operation between a
// T and one of them is the mixed one (Jet * double). The same values as the
// block with every input a T: on double bit for bit (a - c = a + (-c) and
// c - a = (-a) + c exactly in IEEE arithmetic, + and * commute); on Jets and
// Taylor series the value parts bit for bit and the derivative parts to
// rounding (a Jet divided by a Jet with zero derivatives rounds otherwise
// than one divided by a double).
TEMPLATE_TEST_CASE("expression block: plain inputs give the values of T inputs", "[models][expression]",
                   double, Jet2, Taylor2) {
  const std::vector<std::string> names{"x", "y", "a", "b"};
  Definitions defs;
  defs.names = {"ab", "s"};
  defs.expressions = {Expression::parse("a + b", names),
                      Expression::parse("sin(y - a)", {"x", "y", "a", "b", "ab"})};
  const std::vector<std::string> all{"x", "y", "a", "b", "ab", "s"};
  std::vector<Expression> outputs;
  for (const char* text : {"a*x + ab*s - b/x + x/a", "a - x - (x - b) + s*cos(y - a)", "a*b - ab",
                           "atan2(a, x) + min(x, b) + x^a", "exp(a)*y/(1 - b*y)", "2*a + 1"})
    outputs.push_back(Expression::parse(text, all));
  std::vector<const Expression*> pointers;
  for (const auto& e : outputs) pointers.push_back(&e);
  const ExpressionBlock block(4, defs, pointers, {false, false, true, true});
  CHECK(block.has_plain());
  // a + b, -b, a - ... move to doubles: fewer T instructions.
  CHECK(block.program_size(true) < block.program_size());

  std::vector<TestType> in = inputs<TestType>(0.7, -1.3);
  in.push_back(constant<TestType>(0.45));
  in.push_back(constant<TestType>(-2.5));
  const double plain[4] = {0.0, 0.0, 0.45, -2.5};
  std::vector<TestType> expected(outputs.size()), got(outputs.size());
  block.evaluate(in.data(), expected.data());
  block.template evaluate<TestType>(
      [&](TestType* r) {
        ::new (static_cast<void*>(r)) TestType(in[0]);
        ::new (static_cast<void*>(r + 1)) TestType(in[1]);
      },
      plain, [&](int j, const TestType& v) { got[j] = v; });
  for (std::size_t j = 0; j < outputs.size(); ++j) {
    INFO(outputs[j].text());
    std::vector<double> e, g;
    parts(expected[j], &e);
    parts(got[j], &g);
    REQUIRE(e.size() == g.size());
    CHECK(g[0] == e[0]);
    for (std::size_t i = 1; i < e.size(); ++i) CHECK(g[i] == Approx(e[i]).epsilon(1e-14).margin(1e-300));
  }
}
