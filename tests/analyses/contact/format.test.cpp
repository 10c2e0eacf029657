// Text of the normal form's coefficients (analyses/contact/format.h): the
// strings the classification's drivers print, from the terms alone.

#include "analyses/contact/format.h"

#include <catch2/catch.hpp>

using namespace saltus;

TEST_CASE("contact format: a normal-form coefficient as text, doubles and exact", "[contact]") {
  NormalFormCoefficient mu;
  mu.power = 0;
  CHECK(polynomial_text(mu) == "0");
  CHECK(polynomial_text(mu, true) == "0");
  mu.terms = {{1, 0, 0, -1.6875, "-27/16"},
              {0, 0, 1, 0.84375, "27/32"},
              {0, 1, 1, 1.0, "1"},
              {2, 0, 1, -1.0, "-1"},
              {0, 0, 0, 1.0 / 3.0, "1/3"}};
  CHECK(polynomial_text(mu) == "-1.6875*x + 0.84375*phi + y*phi - x^2*phi + 0.3333333333");
  CHECK(polynomial_text(mu, true) == "-27/16*x + 27/32*phi + y*phi - x^2*phi + 1/3");
  mu.terms[1].exact.clear();  // a classification that is not exact has no exact strings
  CHECK_THROWS_WITH(polynomial_text(mu, true), Catch::Contains("phi^1 of mu_0 has no exact value"));
  CHECK(polynomial_text(mu) == "-1.6875*x + 0.84375*phi + y*phi - x^2*phi + 0.3333333333");
}
