#include "models/expression.h"

#include <ceres/jet.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

namespace {

using saltus::models::Expression;
using saltus::models::ExpressionError;
using saltus::models::detail::constant;
using saltus::models::detail::scalar_part;

using Jet2 = ceres::Jet<double, 2>;
using Jet1 = ceres::Jet<double, 1>;
using Nested2 = ceres::Jet<Jet1, 2>;  // what the engine uses for exact second derivatives

const std::vector<std::string> kXMuLambda{"x", "mu", "lambda"};

double eval(std::string_view text, const std::vector<std::string>& names, std::vector<double> values) {
  return Expression::parse(text, names).evaluate(values.data());
}

// Single-variable helper: value of `text` at x.
double at_x(std::string_view text, double x) { return eval(text, {"x"}, {x}); }

Approx rel(double expected) { return Approx(expected).epsilon(1e-13).margin(1e-300); }

std::string error_of(std::string_view text, const std::vector<std::string>& names = kXMuLambda) {
  try {
    Expression::parse(text, names);
  } catch (const ExpressionError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("expression: values on double", "[models][expression]") {
  const double x = 1.5, mu = 0.25, lambda = 2.0;
  auto f = [&](std::string_view text) { return eval(text, kXMuLambda, {x, mu, lambda}); };
  CHECK(f("mu + lambda*x - x^3") == rel(mu + lambda * x - x * x * x));
  CHECK(f("(mu - x) / (lambda + 1)") == rel((mu - x) / (lambda + 1)));
  CHECK(f("2*x*x - 3*x + 7") == rel(2 * x * x - 3 * x + 7));
  CHECK(f("x/lambda/mu") == rel(x / lambda / mu));
  CHECK(f("  mu\t+\n x ") == rel(mu + x));  // whitespace anywhere
  CHECK(f("1.5e1 + 2e-3 + .5 + 3. + 1E2") == rel(15 + 0.002 + 0.5 + 3 + 100));
  CHECK(f("+x - -mu") == rel(x + mu));
  CHECK(f("-(x - mu)") == rel(mu - x));
  CHECK(f("lambda^x") == rel(std::pow(lambda, x)));
  CHECK(f("x^0.5") == rel(std::sqrt(x)));
  CHECK(f("x^-2") == rel(1 / (x * x)));
  CHECK(f("7") == 7.0);
}

TEST_CASE("expression: precedence and associativity", "[models][expression]") {
  CHECK(at_x("2^3^2", 0) == 512);
  CHECK(at_x("(2^3)^2", 0) == 64);
  CHECK(at_x("-2^2", 0) == -4);
  CHECK(at_x("(-2)^2", 0) == 4);
  CHECK(at_x("1-2-3", 0) == -4);
  CHECK(at_x("8/2/2", 0) == 2);
  CHECK(at_x("2+3*4", 0) == 14);
  CHECK(at_x("2*3^2", 0) == 18);
  CHECK(at_x("2^-1", 0) == 0.5);
  CHECK(at_x("-x^2", 3) == -9);
  CHECK(at_x("x^2^-1", 4) == 2);  // x^(2^-1) = sqrt(x)
  CHECK(at_x("2*-x", 3) == -6);
  CHECK(at_x("x-1-x", 5) == -1);   // left-associative with a variable operand
  CHECK(at_x("x^3^2", 2) == 512);  // right-associative with a variable base
  CHECK(at_x("16/x/2", 2) == 4);
}

TEST_CASE("expression: constants pi and e, shadowed by variables", "[models][expression]") {
  CHECK(at_x("pi", 0) == std::numbers::pi);
  CHECK(at_x("e", 0) == std::numbers::e);
  CHECK(at_x("2*pi*x", 0.25) == rel(std::numbers::pi / 2));
  CHECK(eval("e*x", {"x", "e"}, {2.0, 10.0}) == 20.0);
  CHECK(eval("pi", {"pi"}, {3.0}) == 3.0);
  CHECK(Expression::parse("e", {"x", "e"}).used_variables() == std::vector<int>{1});
}

TEST_CASE("expression: every function on double", "[models][expression]") {
  const double x = 0.3;
  CHECK(at_x("sin(x)", x) == rel(std::sin(x)));
  CHECK(at_x("cos(x)", x) == rel(std::cos(x)));
  CHECK(at_x("tan(x)", x) == rel(std::tan(x)));
  CHECK(at_x("asin(x)", x) == rel(std::asin(x)));
  CHECK(at_x("acos(x)", x) == rel(std::acos(x)));
  CHECK(at_x("atan(x)", x) == rel(std::atan(x)));
  CHECK(at_x("sinh(x)", x) == rel(std::sinh(x)));
  CHECK(at_x("cosh(x)", x) == rel(std::cosh(x)));
  CHECK(at_x("tanh(x)", x) == rel(std::tanh(x)));
  CHECK(at_x("exp(x)", x) == rel(std::exp(x)));
  CHECK(at_x("log(x)", x) == rel(std::log(x)));
  CHECK(at_x("sqrt(x)", x) == rel(std::sqrt(x)));
  CHECK(at_x("abs(x)", -x) == rel(x));
  CHECK(at_x("atan2(x, -1)", x) == rel(std::atan2(x, -1.0)));
  CHECK(at_x("atan2(-1, x)", x) == rel(std::atan2(-1.0, x)));
  CHECK(at_x("pow(x, 2.5)", x) == rel(std::pow(x, 2.5)));
  CHECK(at_x("pow(2, x)", x) == rel(std::pow(2.0, x)));
  CHECK(at_x("min(x, 0.1)", x) == 0.1);
  CHECK(at_x("min(0.1, x)", x) == 0.1);
  CHECK(at_x("max(x, 0.1)", x) == x);
  CHECK(at_x("max(0.1, x)", x) == x);
  // Constant arguments are folded at parse time with the same arithmetic.
  CHECK(at_x("sin(pi/6) + exp(log(2)) + atan2(1, 1)", 0) ==
        rel(std::sin(std::numbers::pi / 6) + std::exp(std::log(2.0)) + std::atan2(1.0, 1.0)));
  // A variable named like a function is still a variable; calls stay functions.
  CHECK(eval("exp(exp)", {"exp"}, {1.0}) == rel(std::exp(1.0)));
}

TEMPLATE_TEST_CASE("expression: same values on every scalar type", "[models][expression]", double, Jet2,
                   Nested2) {
  const std::vector<std::string> names{"x", "y"};
  const double x = 0.7, y = -1.3;
  const TestType values[2] = {constant<TestType>(x), constant<TestType>(y)};
  for (const char* text :
       {"x*y - y/x + 3", "x^y", "(-y)^x", "y^3 - y^-2 + x^0.5", "2^x + x^2", "exp(-x)*sin(2*pi*y)",
        "sin(x)+cos(y)+tan(x)+asin(x)+acos(x)+atan(y)", "sinh(y)*cosh(x)-tanh(y)",
        "log(x) + sqrt(x) + abs(y)", "atan2(y, x) + pow(x, y) + min(x, y) - max(x, y)", "1 - x - 2/y"}) {
    INFO(text);
    const Expression e = Expression::parse(text, names);
    const double expected = e.evaluate(std::vector<double>{x, y}.data());
    CHECK(scalar_part(e.evaluate(values)) == rel(expected));
  }
}

TEMPLATE_TEST_CASE("expression: integer powers of negative bases", "[models][expression]", double, Jet2,
                   Nested2) {
  const TestType minus_two[1] = {constant<TestType>(-2.0)};
  const auto f = [&](const char* text) {
    return scalar_part(Expression::parse(text, {"x"}).evaluate(minus_two));
  };
  CHECK(f("x^3") == -8);
  CHECK(f("x^2") == 4);
  CHECK(f("x^-3") == -0.125);
  CHECK(f("x^0") == 1);
  CHECK(f("pow(x, 3)") == -8);
  CHECK(f("x^3.0") == -8);
  CHECK(f("(-2)^3") == -8);
  CHECK(f("x^(1+2)") == -8);                   // folded constant exponent
  CHECK(f("x^70") == rel(std::pow(2.0, 70)));  // beyond repeated squaring: pow(x, double)
}

TEST_CASE("expression: first derivatives with Jet<double, 2>", "[models][expression]") {
  const std::vector<std::string> names{"x", "y"};
  const double x = 0.7, y = 1.3;
  const Jet2 v[2] = {Jet2(x, 0), Jet2(y, 1)};
  struct Case {
    const char* text;
    double f, dx, dy;
  };
  const double pi = std::numbers::pi;
  const double r2 = x * x + y * y;
  const Case cases[] = {
      {"x^3*y - 2*x + y", x * x * x * y - 2 * x + y, 3 * x * x * y - 2, x * x * x + 1},
      {"exp(-x)*sin(2*pi*y)", std::exp(-x) * std::sin(2 * pi * y), -std::exp(-x) * std::sin(2 * pi * y),
       std::exp(-x) * 2 * pi * std::cos(2 * pi * y)},
      {"x^y", std::pow(x, y), y * std::pow(x, y - 1), std::pow(x, y) * std::log(x)},
      {"atan2(y, x)", std::atan2(y, x), -y / r2, x / r2},
      {"sqrt(x*y) + log(x)/y", std::sqrt(x * y) + std::log(x) / y, y / (2 * std::sqrt(x * y)) + 1 / (x * y),
       x / (2 * std::sqrt(x * y)) - std::log(x) / (y * y)},
      {"x^-2 + 2^y", 1 / (x * x) + std::pow(2.0, y), -2 / (x * x * x), std::pow(2.0, y) * std::log(2.0)},
      {"tanh(x)*cosh(y) - sinh(x*y)", std::tanh(x) * std::cosh(y) - std::sinh(x * y),
       std::cosh(y) / (std::cosh(x) * std::cosh(x)) - y * std::cosh(x * y),
       std::tanh(x) * std::sinh(y) - x * std::cosh(x * y)},
      {"asin(x) + acos(y/2) + atan(x*y) + tan(y)",
       std::asin(x) + std::acos(y / 2) + std::atan(x * y) + std::tan(y),
       1 / std::sqrt(1 - x * x) + y / (1 + x * x * y * y),
       -0.5 / std::sqrt(1 - y * y / 4) + x / (1 + x * x * y * y) + 1 / (std::cos(y) * std::cos(y))},
      {"min(x, y) + max(x, y)^2", x + y * y, 1, 2 * y},
      {"abs(x - y) + cos(x)/x", std::abs(x - y) + std::cos(x) / x,
       -1 - std::sin(x) / x - std::cos(x) / (x * x), 1},
      {"(x + 1)/(y - 2)", (x + 1) / (y - 2), 1 / (y - 2), -(x + 1) / ((y - 2) * (y - 2))},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    const Jet2 r = Expression::parse(c.text, names).evaluate(v);
    CHECK(r.a == rel(c.f));
    CHECK(r.v[0] == rel(c.dx));
    CHECK(r.v[1] == rel(c.dy));
  }
}

TEST_CASE("expression: second derivatives with nested jets", "[models][expression]") {
  const std::vector<std::string> names{"x", "y"};
  // Inner direction = x, outer directions = (x, y): r.v[i].v[0] = d2f/dx_i dx.
  const auto seed = [](double x, double y) {
    return std::vector<Nested2>{Nested2(Jet1(x, 0), 0), Nested2(Jet1(y), 1)};
  };

  SECTION("polynomial, trigonometric and general power") {
    const double x = 0.8, y = 1.7;
    const Nested2 r = Expression::parse("x^3*y + sin(x*y) + x^y", names).evaluate(seed(x, y).data());
    const double f = x * x * x * y + std::sin(x * y) + std::pow(x, y);
    const double fx = 3 * x * x * y + y * std::cos(x * y) + y * std::pow(x, y - 1);
    const double fy = x * x * x + x * std::cos(x * y) + std::pow(x, y) * std::log(x);
    const double fxx = 6 * x * y - y * y * std::sin(x * y) + y * (y - 1) * std::pow(x, y - 2);
    const double fxy = 3 * x * x + std::cos(x * y) - x * y * std::sin(x * y) + std::pow(x, y - 1) +
                       y * std::pow(x, y - 1) * std::log(x);
    CHECK(r.a.a == rel(f));
    CHECK(r.a.v[0] == rel(fx));
    CHECK(r.v[0].a == rel(fx));
    CHECK(r.v[1].a == rel(fy));
    CHECK(r.v[0].v[0] == rel(fxx));
    CHECK(r.v[1].v[0] == rel(fxy));
  }

  SECTION("normal form mu + lambda*x - x^3") {
    const double x = -1.5, lambda = 2.0;
    const Nested2 v[2] = {Nested2(Jet1(x, 0), 0), Nested2(Jet1(lambda), 1)};
    const Nested2 r = Expression::parse("0.25 + lambda*x - x^3", {"x", "lambda"}).evaluate(v);
    CHECK(r.v[0].a == rel(lambda - 3 * x * x));
    CHECK(r.v[0].v[0] == rel(-6 * x));
    CHECK(r.v[1].v[0] == rel(1.0));
  }

  SECTION("integer powers are exact at zero and for negative bases") {
    const Nested2 r0 = Expression::parse("x^2", names).evaluate(seed(0.0, 1.0).data());
    CHECK(r0.a.a == 0);
    CHECK(r0.v[0].a == 0);
    CHECK(r0.v[0].v[0] == 2);
    const Nested2 r1 = Expression::parse("x^3", names).evaluate(seed(-2.0, 1.0).data());
    CHECK(r1.a.a == -8);
    CHECK(r1.v[0].a == 12);
    CHECK(r1.v[0].v[0] == -12);
  }

  SECTION("constant base to a variable power") {
    const double x = 0.6;
    const Nested2 r = Expression::parse("3^x", names).evaluate(seed(x, 1.0).data());
    const double l = std::log(3.0);
    CHECK(r.v[0].a == rel(std::pow(3.0, x) * l));
    CHECK(r.v[0].v[0] == rel(std::pow(3.0, x) * l * l));
  }
}

TEMPLATE_TEST_CASE("expression: min and max pick by value and carry that derivative", "[models][expression]",
                   Jet2, Nested2) {
  const TestType v[2] = {TestType(constant<typename TestType::Scalar>(1.0), 0),
                         TestType(constant<typename TestType::Scalar>(2.0), 1)};
  const auto e_min = Expression::parse("min(x, y)", {"x", "y"});
  const auto e_max = Expression::parse("max(x, y)", {"x", "y"});
  CHECK(scalar_part(e_min.evaluate(v)) == 1.0);
  CHECK(scalar_part(e_min.evaluate(v).v[0]) == 1.0);
  CHECK(scalar_part(e_min.evaluate(v).v[1]) == 0.0);
  CHECK(scalar_part(e_max.evaluate(v)) == 2.0);
  CHECK(scalar_part(e_max.evaluate(v).v[0]) == 0.0);
  CHECK(scalar_part(e_max.evaluate(v).v[1]) == 1.0);
}

TEMPLATE_TEST_CASE("expression: deep nesting (jets beyond the inline stack)", "[models][expression]", double,
                   Jet2, Nested2) {
  // Right-nested sums need one stack slot per level; 120 is just below the nesting limit
  // and beyond the inline stack of Nested2 (4096 / 48 = 85 slots).
  const int depth = 120;
  std::string text;
  for (int i = 0; i < depth; ++i) text += "x+(";
  text += "x";
  text += std::string(depth, ')');
  const TestType v[1] = {constant<TestType>(0.5)};
  CHECK(scalar_part(Expression::parse(text, {"x"}).evaluate(v)) == rel(0.5 * (depth + 1)));
}

TEST_CASE("expression: error messages", "[models][expression]") {
  using Catch::Matchers::Contains;

  SECTION("syntax error reports the column") {
    CHECK(error_of("mu + lambda*x -") ==
          "expression 'mu + lambda*x -': syntax error at column 15: expected an operand");
    CHECK(error_of("x * )") ==
          "expression 'x * )': syntax error at column 5: expected an operand, found ')'");
    CHECK(error_of("2x") ==
          "expression '2x': syntax error at column 2: unexpected 'x', expected an operator");
    CHECK_THAT(error_of("* x"), Contains("column 1") && Contains("found '*'"));
    CHECK_THAT(error_of("x y"), Contains("column 3") && Contains("'y'"));
    CHECK_THAT(error_of("x*1e400"), Contains("column 3") && Contains("out of range"));
    CHECK_THAT(error_of("x**2"), Contains("column 3") && Contains("use ^ for powers"));
  }
  SECTION("a quoted token is a whole UTF-8 character, and at most 80 bytes") {
    CHECK(error_of("mu + \u00e9") ==
          "expression 'mu + \u00e9': syntax error at column 6: found '\u00e9' "
          "(expressions are ASCII: names are letters, digits and '_')");
    CHECK_THAT(error_of("x\u00e9 + 1"), Contains("column 2") && Contains("found '\u00e9'"));
    CHECK_THAT(error_of("x " + std::string(1000, 'y')), Contains("'" + std::string(80, 'y') + "...'"));
  }
  SECTION("unknown name is named, with the known names") {
    CHECK(error_of("mu + kappa*x") ==
          "expression 'mu + kappa*x': unknown name 'kappa' at column 6 (known: x, mu, lambda)");
    CHECK_THAT(error_of("sin + x"), Contains("unknown name 'sin'") && Contains("is a function"));
    CHECK_THAT(error_of("inf"), Contains("unknown name 'inf'"));  // no nan/inf literals
  }
  SECTION("unknown function") {
    CHECK_THAT(error_of("x + foo(x)"),
               Contains("unknown function 'foo' at column 5") && Contains("known: sin, cos"));
    CHECK_THAT(error_of("x(2)"), Contains("unknown function 'x' at column 1"));
  }
  SECTION("wrong number of arguments") {
    CHECK(error_of("atan2(x)") ==
          "expression 'atan2(x)': function 'atan2' takes 2 arguments but got 1 at column 1");
    CHECK_THAT(error_of("1 + sin(x, mu)"), Contains("function 'sin' takes 1 argument but got 2 at column 5"));
    CHECK_THAT(error_of("sin()"), Contains("function 'sin' takes 1 argument but got 0"));
  }
  SECTION("unbalanced parentheses") {
    CHECK(error_of("(x+1") ==
          "expression '(x+1': syntax error at column 4: expected ')' (unbalanced parentheses)");
    CHECK(error_of("x+1)") ==
          "expression 'x+1)': syntax error at column 4: unmatched ')' (unbalanced parentheses)");
    CHECK_THAT(error_of("sin(x"), Contains("column 5") && Contains("unbalanced parentheses"));
    CHECK_THAT(error_of("atan2(x mu)"), Contains("column 9") && Contains("expected ',' or ')'"));
  }
  SECTION("empty expression") {
    CHECK(error_of("") == "expression '': empty expression at column 1");
    CHECK(error_of(" \t ") == "expression ' \t ': empty expression at column 1");
    CHECK_THAT(error_of("()"), Contains("column 2") && Contains("expected an operand"));
  }
  SECTION("nesting too deep is an error, not a stack overflow") {
    CHECK_THAT(error_of(std::string(1000, '(') + "x" + std::string(1000, ')')),
               Contains("nesting deeper than 128 levels"));
    CHECK_THAT(error_of(std::string(100000, '-') + "x"), Contains("nesting deeper"));
  }
  SECTION("duplicate variable names") {
    CHECK_THAT(error_of("x", {"x", "y", "x"}), Contains("variable name 'x' is given twice"));
  }
  SECTION("is an std::invalid_argument") {
    CHECK_THROWS_AS(Expression::parse("x +", {"x"}), std::invalid_argument);
  }
}

TEST_CASE("expression: used variables", "[models][expression]") {
  CHECK(Expression::parse("lambda*x + 2", kXMuLambda).used_variables() == std::vector<int>{0, 2});
  CHECK(Expression::parse("x*x + x", kXMuLambda).used_variables() == std::vector<int>{0});
  CHECK(Expression::parse("lambda + mu + x + mu", kXMuLambda).used_variables() == std::vector<int>{0, 1, 2});
  const Expression c = Expression::parse("2*pi", kXMuLambda);
  CHECK(c.used_variables().empty());
  CHECK(c.is_constant());
  CHECK(c.text() == "2*pi");
  CHECK(c.names() == kXMuLambda);
}

TEST_CASE("expression: constant subexpressions are folded", "[models][expression]") {
  CHECK(Expression::parse("2*pi*x", {"x"}).program_size() == 2);   // var, mulc
  CHECK(Expression::parse("x - 1/3", {"x"}).program_size() == 2);  // var, addc
  CHECK(Expression::parse("sin(pi/2)^2", {"x"}).program_size() == 1);
  CHECK(Expression::parse("atan2(1, x)", {"x"}).program_size() == 3);  // const, var, atan2
  CHECK(Expression::parse("atan2(1, x)", {"x"}).evaluate(std::vector<double>{2.0}.data()) ==
        std::atan2(1.0, 2.0));
}

TEST_CASE("expression: default-constructed expression is zero", "[models][expression]") {
  const Expression e;
  CHECK(e.evaluate(static_cast<const double*>(nullptr)) == 0.0);
  CHECK(e.is_constant());
}
