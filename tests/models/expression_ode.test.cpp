// An expression ODE with parameters in its state (models::ExpressionOdeInState,
// what its with_parameters_in_state makes) against the generic
// flow::ParametersInState over the same ODE: the same names, and the same
// field, Jacobian and tangent products bit for bit (both evaluate the same
// block programs on the same inputs), for one parameter, tied ones, and the
// same errors for bad names.

#include <bit>
#include <catch2/catch.hpp>
#include <random>

#include "models/expression_system.h"

using namespace saltus;

namespace {

using Generic = flow::AutoDiffHybrid<flow::ParametersInState<models::ExpressionOde>>;

void require_same_bits(const Matrix& a, const Matrix& b) {
  REQUIRE(a.rows() == b.rows());
  REQUIRE(a.cols() == b.cols());
  for (Eigen::Index i = 0; i < a.size(); ++i) {
    INFO("entry " << i << ": " << a.data()[i] << " against " << b.data()[i]);
    CHECK(std::bit_cast<std::uint64_t>(a.data()[i]) == std::bit_cast<std::uint64_t>(b.data()[i]));
  }
}

// The two carried forms of `ode` with `names` in the state agree at random states.
void check_against_generic(const flow::AutoDiffHybrid<models::ExpressionOde>& ode,
                           const std::vector<std::string>& names) {
  const auto carried = ode.with_parameters_in_state(names);
  REQUIRE(dynamic_cast<const flow::AutoDiffHybrid<models::ExpressionOdeInState>*>(carried.get()));
  const Generic generic(flow::ParametersInState<models::ExpressionOde>(ode.functor(), names));
  const int n = generic.dimension();
  REQUIRE(carried->dimension() == n);
  CHECK(carried->state_names() == generic.state_names());
  std::mt19937 random(3);
  std::uniform_real_distribution<double> value(-2.0, 2.0);
  for (int sample = 0; sample < 20; ++sample) {
    Vector x(n);
    for (int i = 0; i < n; ++i) x[i] = value(random);
    const double t = value(random);
    Vector f, g;
    carried->field(0, t, x, &f);
    generic.field(0, t, x, &g);
    require_same_bits(f, g);
    Matrix A, B;
    carried->field_jacobian(0, t, x, &A);
    generic.field_jacobian(0, t, x, &B);
    require_same_bits(A, B);
    // The variational equations' right-hand side over the integrated rows.
    const int m = ode.dimension();
    Matrix P(m, n), dP(m, n), dQ(m, n);
    for (Eigen::Index i = 0; i < P.size(); ++i) P.data()[i] = value(random);
    carried->field_and_tangent(0, t, x, P, &f, dP);
    generic.field_and_tangent(0, t, x, P, &g, dQ);
    require_same_bits(f, g);
    require_same_bits(dP, dQ);
  }
}

}  // namespace

TEST_CASE("expression ODE in state: the generic carried form's values bit for bit", "[models][expression]") {
  const auto lorenz =
      models::make_expression_ode({"x", "y", "z"}, {"sigma", "rho", "beta"}, {10, 28, 8.0 / 3},
                                  {"sigma*(y - x)", "x*(rho - z) - y", "x*y - beta*z"});
  check_against_generic(*lorenz, {"rho"});
  check_against_generic(*lorenz, {"beta", "sigma"});
  // Tied: one component sets a and b; time in the rates.
  const auto forced = models::make_expression_ode({"u", "v"}, {"a", "b", "w"}, {0.5, 0.5, 1.3},
                                                  {"v", "-a*u - b*v^3 + cos(w*t)"});
  check_against_generic(*forced, {"a=b"});
  check_against_generic(*forced, {"w", "a=b"});
}

TEST_CASE("expression ODE in state: bad names fail as the generic form's", "[models][expression]") {
  const auto ode = models::make_expression_ode({"x"}, {"a", "b"}, {1.0, 2.0}, {"a - b*x"});
  const auto message = [&](const std::vector<std::string>& names) {
    std::string carried, generic;
    try {
      ode->with_parameters_in_state(names);
    } catch (const std::invalid_argument& e) {
      carried = e.what();
    }
    try {
      flow::ParametersInState<models::ExpressionOde>(ode->functor(), names);
    } catch (const std::invalid_argument& e) {
      generic = e.what();
    }
    CHECK(carried == generic);
    return carried;
  };
  CHECK(message({"c"}).find("'c' is not a parameter") != std::string::npos);
  CHECK(message({"a", "a"}).find("carried twice") != std::string::npos);
  CHECK(message({"a=b"}).find("differ") != std::string::npos);  // tied, but 1 != 2
  // Wrapped angles: the generic form.
  CHECK(dynamic_cast<const Generic*>(ode->with_parameters_in_state({"a"}, {0}).get()));
}
