#pragma once
// The one event locator of saltus. Every event is "a scalar changes sign":
// a continuation test function along the arclength of a branch, a guard or a
// Poincare section along the dense output of a simulation step, a case
// boundary along a two-fold branch. The caller brackets the sign change
// (g(a) g(b) < 0, from values it has anyway: the ends of a step); the zero is
// then located in [a, b] by Alefeld, Potra & Shi's TOMS 748 method (ACM TOMS
// 21 (1995) 327-344, doi:10.1145/210089.210111; Boost.Math toms748_solve),
// which keeps a bracket at every iteration and converges superlinearly on a
// smooth g, so the result is a bracket [lo, hi] around the zero:
//
//   located    hi - lo <= tolerance              (absolute width), or
//              hi - lo <= tolerance (1 + |hi|)   (relative, for times);
//   bracketed  the iterations ran out first.
//
// Which end to use is the caller's: a guard takes lo, so the state there is
// still on the guard's "before" side; a section takes hi. The kJump status is
// the caller's judgement from g at the ends (a sign change without a zero,
// see SpecialPoint in continuation/branch.h). Exceptions that g throws pass
// through, so a caller can keep the bracket it reached.

#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace saltus {

// kLocated: the zero, to the tolerance. kBracketed: the iteration (or the
// caller's corrector) gave up; the point is the best end of the bracket
// reached. kJump: the bracket closed, but on a jump of the function, not on a
// zero (both ends keep more than 1% of the step's larger value): the problem
// changed its structure there (an impact appeared or vanished, a mode
// changed), so the sign change is not a bifurcation.
enum class EventStatus { kLocated, kBracketed, kJump };

struct LocateOptions {
  double tolerance = 1e-10;  // width of the final bracket
  bool relative = false;     // true: width <= tolerance (1 + |hi|)
  int max_iterations = 80;   // evaluations of g in [a, b]
};

struct Location {
  double lo = 0.0, hi = 0.0;  // the final bracket
  int iterations = 0;         // evaluations used
  EventStatus status = EventStatus::kBracketed;
};

// The zero of g in [a, b], given ga = g(a), gb = g(b) of opposite signs (a
// zero at an end is returned as the bracket [a, a] or [b, b]). Throws
// std::invalid_argument when ga and gb have the same strict sign or a > b.
template <class G>
Location locate_sign_change(G&& g, double a, double b, double ga, double gb, const LocateOptions& options) {
  if (!(a <= b)) throw std::invalid_argument("locate_sign_change: the bracket [a, b] has a > b");
  if ((ga > 0 && gb > 0) || (ga < 0 && gb < 0))
    throw std::invalid_argument("locate_sign_change: g has the same sign at both ends of the bracket");
  const auto within = [&options](double lo, double hi) {
    return std::abs(hi - lo) <= options.tolerance * (options.relative ? 1.0 + std::abs(hi) : 1.0);
  };
  Location out;
  if (ga == 0.0 || gb == 0.0) {
    out.lo = out.hi = ga == 0.0 ? a : b;
    out.status = EventStatus::kLocated;
    return out;
  }
  std::uintmax_t iterations = static_cast<std::uintmax_t>(options.max_iterations);
  const auto [lo, hi] = boost::math::tools::toms748_solve(g, a, b, ga, gb, within, iterations);
  out.lo = lo;
  out.hi = hi;
  out.iterations = static_cast<int>(iterations);
  out.status = within(lo, hi) ? EventStatus::kLocated : EventStatus::kBracketed;
  return out;
}

}  // namespace saltus
