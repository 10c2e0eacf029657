#include "continuation/locate.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>

using namespace saltus;

TEST_CASE("locate_sign_change: the zero of a smooth function to the bracket width",
          "[continuation][locate]") {
  int calls = 0;
  const auto g = [&calls](double s) {
    ++calls;
    return std::cos(s);
  };
  const Location z = locate_sign_change(g, 1.0, 2.0, std::cos(1.0), std::cos(2.0), {1e-14, false, 80});
  CHECK(z.status == EventStatus::kLocated);
  CHECK(z.lo <= M_PI / 2);
  CHECK(z.hi >= M_PI / 2);
  CHECK(z.hi - z.lo <= 1e-14);
  CHECK(z.iterations > 0);
  CHECK(calls < 20);  // superlinear, not bisection's 47 halvings
}

TEST_CASE("locate_sign_change: a relative width for times far from zero", "[continuation][locate]") {
  const double t0 = 1e6;  // a zero at t0 + 0.25 of g = t - t0 - 0.25
  const auto g = [t0](double t) { return (t - t0) - 0.25; };
  const Location z = locate_sign_change(g, t0, t0 + 1.0, g(t0), g(t0 + 1.0), {1e-15, true, 200});
  CHECK(z.status == EventStatus::kLocated);
  CHECK(z.hi - z.lo <= 1e-15 * (1.0 + z.hi));
  CHECK(std::abs(z.lo - (t0 + 0.25)) <= 1e-8);
}

TEST_CASE("locate_sign_change: out of iterations it says bracketed; bad brackets throw",
          "[continuation][locate]") {
  const auto g = [](double s) { return std::cos(s); };
  const Location z = locate_sign_change(g, 1.0, 2.0, g(1.0), g(2.0), {1e-14, false, 1});
  CHECK(z.status == EventStatus::kBracketed);
  CHECK(z.lo <= M_PI / 2);
  CHECK(z.hi >= M_PI / 2);
  CHECK(z.hi - z.lo > 1e-14);
  // A zero at an end is the bracket [a, a].
  const Location at_end = locate_sign_change(g, M_PI / 2, 2.0, 0.0, g(2.0), {1e-14, false, 80});
  CHECK(at_end.status == EventStatus::kLocated);
  CHECK(at_end.lo == M_PI / 2);
  CHECK(at_end.hi == M_PI / 2);
  CHECK_THROWS_AS(locate_sign_change(g, 0.0, 1.0, g(0.0), g(1.0), {}), std::invalid_argument);
  CHECK_THROWS_AS(locate_sign_change(g, 2.0, 1.0, g(2.0), g(1.0), {}), std::invalid_argument);
}
