// The search for a guard's first zero inside a step (continuation/flow/
// guard_search.h) on functions whose zeros are known in closed form.

#include "continuation/flow/guard_search.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <functional>

#include "continuation/locate.h"

using namespace saltus::flow::detail;

namespace {

struct Scan {
  std::function<double(double)> g, rate;
  long values = 0;
  double roughness = 0.0;  // carried from one run to the next, as the simulator does
  GuardSearchResult run(double a, double b, double g_a) {
    GuardSearchOptions options;
    options.floor = 1e-14;
    options.min_width = 1e-14;
    options.roughness = roughness;
    auto locate = [&](double lo, double hi, double g_lo, double g_hi) {
      return saltus::locate_sign_change(g, lo, hi, g_lo, g_hi, {1e-15, true, 200}).lo;
    };
    auto search = make_guard_search(options, g, rate, locate);
    const GuardSearchResult r = search.first_zero({a, g_a}, {b, g(b)});
    values = search.values();
    roughness = search.roughness();
    return r;
  }
};

}  // namespace

TEST_CASE("polynomial_minimum: the minimum of a quartic on [0, 1]", "[flow][guard_search]") {
  // (x - 0.3)^2 (x - 0.8)^2 - 0.01: minima at 0.3 and 0.8, both -0.01.
  // Expanded: x^4 - 2.2 x^3 + 1.69 x^2 - 0.528 x + 0.0576 - 0.01.
  CHECK(polynomial_minimum({0.0476, -0.528, 1.69, -2.2, 1.0}) == Approx(-0.01).margin(1e-14));
  // Monotone on [0, 1]: the minimum at an end.
  CHECK(polynomial_minimum({1.0, 2.0, 0.0, 0.0, 0.0}) == 1.0);
  CHECK(polynomial_minimum({1.0, -2.0, 0.0, 0.0, 0.0}) == -1.0);
  // A cubic with its minimum inside: x^3 - x at x = 1/sqrt(3).
  CHECK(polynomial_minimum({0.0, -1.0, 0.0, 1.0, 0.0}) ==
        Approx(-2.0 / (3.0 * std::sqrt(3.0))).margin(1e-15));
}

TEST_CASE("guard search: a dip through zero and back between positive ends is found, the first of two",
          "[flow][guard_search]") {
  // g = 0.5 + cos(2 pi t) on [0, 3]: positive at both ends (1.5), zero first
  // at t = 1/3 (cos = -1/2), then 2/3, 4/3, ...
  Scan s;
  s.g = [](double t) { return 0.5 + std::cos(2 * M_PI * t); };
  s.rate = [](double t) { return -2 * M_PI * std::sin(2 * M_PI * t); };
  const GuardSearchResult r = s.run(0.0, 3.0, 1.5);
  REQUIRE(r.kind == GuardSearchResult::kZero);
  CHECK(r.t == Approx(1.0 / 3.0).margin(1e-13));
  // A step of exactly four periods: its ends, their rates and its quarter
  // points all agree (1.5, 0), and a cubic through them is the constant 1.5.
  // Sampled values cannot tell this guard from a constant, and nothing
  // bounds the step: alone it is taken as free of zeros. But the step
  // before it (0.1 long, a tenth of a period) measured the guard's
  // roughness g'''' / 384 = (2 pi)^4 / 384, and with it as the prior the
  // long step is searched in pieces short enough to see the oscillation.
  s.roughness = 0.0;
  CHECK(s.run(0.0, 4.0, 1.5).kind == GuardSearchResult::kNone);
  REQUIRE(s.run(-0.1, 0.0, s.g(-0.1)).kind == GuardSearchResult::kNone);
  CHECK(s.roughness == Approx(std::pow(2 * M_PI, 4) / 384).epsilon(0.1));
  const GuardSearchResult four = s.run(0.0, 4.0, 1.5);
  REQUIRE(four.kind == GuardSearchResult::kZero);
  CHECK(four.t == Approx(1.0 / 3.0).margin(1e-13));
}

TEST_CASE("guard search: between opposite ends the first of three zeros", "[flow][guard_search]") {
  // g = (t - 0.2)(t - 0.25)(t - 0.9) * -1 on [0, 1]: g(0) = 0.045 > 0,
  // g(1) < 0; zeros at 0.2, 0.25 and 0.9: the first is 0.2.
  Scan s;
  s.g = [](double t) { return -(t - 0.2) * (t - 0.25) * (t - 0.9); };
  s.rate = [](double t) {
    return -((t - 0.25) * (t - 0.9) + (t - 0.2) * (t - 0.9) + (t - 0.2) * (t - 0.25));
  };
  const GuardSearchResult r = s.run(0.0, 1.0, s.g(0.0));
  REQUIRE(r.kind == GuardSearchResult::kZero);
  CHECK(r.t == Approx(0.2).margin(1e-13));
}

TEST_CASE("guard search: a touch is no zero, a dip of 1e-12 is one", "[flow][guard_search]") {
  Scan s;
  double depth = 0.0;
  s.g = [&](double t) { return (t - 0.7) * (t - 0.7) - depth; };
  s.rate = [](double t) { return 2 * (t - 0.7); };
  depth = -1e-12;  // a graze that stays 1e-12 above the guard
  CHECK(s.run(0.0, 1.0, s.g(0.0)).kind == GuardSearchResult::kNone);
  CHECK(s.values < 200);
  depth = 1e-12;  // 1e-12 through it: zeros at 0.7 -+ 1e-6
  const GuardSearchResult r = s.run(0.0, 1.0, s.g(0.0));
  REQUIRE(r.kind == GuardSearchResult::kZero);
  CHECK(r.t == Approx(0.7 - 1e-6).margin(1e-12));
}

TEST_CASE("guard search: from on the guard, a slow departure and return is found", "[flow][guard_search]") {
  // Just after an event: g = t (0.01 - t) leaves the guard at t = 0 and
  // comes back at t = 0.01; the step is 100 times longer, g(1) < 0.
  Scan s;
  s.g = [](double t) { return t * (0.01 - t) + 0.02 * t * t * t; };
  s.rate = [](double t) { return 0.01 - 2 * t + 0.06 * t * t; };
  // The far end past the guard or, with the cubic, back before it: both find 0.01...
  const GuardSearchResult r = s.run(0.0, 1.0, 0.0);
  REQUIRE(r.kind == GuardSearchResult::kZero);
  CHECK(r.t == Approx(0.01 / (1 - 0.02 * 0.01) * (1 + 0)).margin(1e-6));
  // ... and over [0, 60], where g(60) = 0.01 * 60 - 3600 + 4320 > 0 again.
  REQUIRE(s.g(60.0) > 0);
  const GuardSearchResult far = s.run(0.0, 60.0, 0.0);
  REQUIRE(far.kind == GuardSearchResult::kZero);
  CHECK(far.t == Approx(r.t).margin(1e-12));
  // A departure as t^3 (a take-off with zero relative velocity and
  // acceleration) that never returns: no zero, and few values.
  s.g = [](double t) { return t * t * t; };
  s.rate = [](double t) { return 3 * t * t; };
  CHECK(s.run(0.0, 2.0, 0.0).kind == GuardSearchResult::kNone);
  CHECK(s.values < 100);
  // On the guard and past it at once: the event is at the start.
  s.g = [](double t) { return -t; };
  s.rate = [](double) { return -1.0; };
  const GuardSearchResult at = s.run(0.0, 1.0, 0.0);
  CHECK(at.kind == GuardSearchResult::kAtStart);
  CHECK(at.t == 0.0);
}
