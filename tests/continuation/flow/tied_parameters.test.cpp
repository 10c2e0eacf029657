// Tied parameters carried in the state (flow::ParametersInState, names
// "a=b"): one component that sets several parameters together, as a map axis
// over c1 = c2 = c3 does (drivers/map_spec.cpp).

#include <catch2/catch.hpp>
#include <cmath>

#include "continuation/flow/simulate.h"
#include "models/bouncing_ball.h"

using namespace saltus;

TEST_CASE("tied parameters: one carried component, its derivative the sum of the tied ones'",
          "[flow][parameters]") {
  models::BouncingBall b;
  b.e = 0.5;
  b.A = b.omega = 2.5;  // tied: equal values
  const auto base = flow::make_hybrid(b);
  CHECK(base->parameter("A=omega") == 2.5);
  const auto tied = base->with_parameters_in_state({"A=omega"});
  const auto both = base->with_parameters_in_state({"A", "omega"});
  REQUIRE(tied->dimension() == 3);
  CHECK(tied->state_names()[2] == "A=omega");
  flow::SimulationOptions o;
  o.absolute_tolerance = o.relative_tolerance = 1e-12;
  Vector x3(3), x4(4);
  x3 << 1.2, 0.3, 2.5;
  x4 << 1.2, 0.3, 2.5, 2.5;
  const flow::Trajectory a = flow::simulate(*tied, 0, 0.1, x3, 3.1, o);
  const flow::Trajectory c = flow::simulate(*both, 0, 0.1, x4, 3.1, o);
  REQUIRE(a.ok());
  REQUIRE(c.ok());
  REQUIRE(a.events.size() >= 1);
  REQUIRE(a.events.size() == c.events.size());
  CHECK((a.x_end.head(2) - c.x_end.head(2)).norm() < 1e-12);
  // d/dp with A = omega = p: the chain rule, d/dA + d/domega.
  const Vector sum = c.transition_matrix.col(2).head(2) + c.transition_matrix.col(3).head(2);
  CHECK((a.transition_matrix.col(2).head(2) - sum).norm() < 1e-9 * (1 + sum.norm()));

  // Bad input: unknown, twice, different values, an empty name.
  CHECK_THROWS_WITH(base->with_parameters_in_state({"A=nope"}), Catch::Contains("'nope' is not a parameter"));
  CHECK_THROWS_WITH(base->with_parameters_in_state({"A", "A=omega"}), Catch::Contains("carried twice"));
  CHECK_THROWS_WITH(base->with_parameters_in_state({"A=A"}), Catch::Contains("carried twice"));
  CHECK_THROWS_WITH(base->with_parameter("omega", 3.0)->with_parameters_in_state({"A=omega"}),
                    Catch::Contains("differ"));
  CHECK_THROWS_WITH(base->with_parameter("omega", 3.0)->parameter("A=omega"), Catch::Contains("differ"));
  CHECK_THROWS_WITH(base->with_parameters_in_state({"A="}), Catch::Contains("empty parameter name"));
}
