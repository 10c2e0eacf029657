#pragma once
// The first zero of a guard inside an accepted step, found on the step's
// dense output so that no sign change hides between the step's ends.
//
// Why. A guard checked at the step ends alone misses a sign change and back
// within one step: a ball that leaves a shaken table slowly and is caught
// again by it before the step ends passes through the table unseen. Nothing
// bounds the step there: the flight is a parabola, which the Runge-Kutta
// methods integrate exactly, so their error control lets the step grow over
// a whole period of the table, whose motion appears only in the guard.
//
// How. Along the step the guard is a smooth function g(t) = s h(x(t), t) of
// time (x(t) the dense output, s = +-1 orienting it so that g > 0 is the
// side before the event), known with its rate g' = s (h_x f + h_t) at the
// ends. On [a, b] (w = b - a, theta = (t - a) / w) its cubic Hermite
// interpolant c(theta) from g and w g' at both ends has the error
//
//   g - c = g''''(xi) w^4 / 24 * theta^2 (1 - theta)^2
//
// (the Hermite remainder; de Boor, A Practical Guide to Splines, 2001,
// ch. I). The value at the midpoint measures it: E = |g(1/2) - c(1/2)| is
// the error's amplitude if g'''' were constant on [a, b]. The interval is
// certified free of a zero when the lower envelope
//
//   c(theta) - safety * E * 16 theta^2 (1 - theta)^2   (a quartic in theta)
//
// stays above -floor on [0, 1]: its Bernstein coefficients bound it from
// below, and when they do not clear the floor its minimum is found exactly
// (the zeros of its derivative, a cubic, bracketed between the zeros of the
// quadratic that is its second derivative). Otherwise the interval is
// halved and each half checked (the left one first), down to max_depth
// halvings; a value of g on the after side (g <= 0) gives a bracket,
// located by the caller's root finder, and the part before the located
// root is checked again, so that the zero returned is the first one.
//
// Roughness. A midpoint cannot tell a guard that oscillates several times
// within the step (a table shaken faster than the step) from a smooth one
// when the oscillation happens to match the cubic there. The caller keeps
// the largest E / w^4 = g'''' / 384 that recent steps measured (on a step or
// its halves, where g'''' is resolved) and no interval's E is taken below
// roughness * w^4: a step several periods long is then searched in pieces
// short enough to see them. The same prior, with a hundred times the
// safety, lets a step far from the guard be certified from its ends alone
// (GuardSearchOptions::prior), which saves the dense output's extra stages;
// the caller searches every few steps in full to keep the prior measured.
//
// The floor is the guard's rounding level: a dip deeper than that is found,
// a touch within it (a grazing, exactly) is no crossing. A start on the
// guard (g = 0: just after an event) moving away (g' > 0) is covered by the
// same envelope, which is 0 at theta = 0 with slope w g'; one that never
// leaves to the before side (g <= floor at every value down to max_depth
// halvings) and is past at the far end is an event at the start (a motion
// away too short to resolve: the tail of a Zeno sequence).
//
// Cost: one value of g (and the rate at the step's end) per step and guard
// when the certificate holds at once, as it does away from the guard; a
// halving adds one rate and two values. A guard with a jump (the window of
// periodic::ContactSuppressed) is halved down to the jump, not beyond
// max_values. GuardSearchOptions::interior = false takes no value inside an
// interval whose ends are both before the guard: the ends decide, as they
// did before this search (SimulationOptions::guard_search = false). The
// shooting of periodic orbits still runs that way (continuation/periodic/
// shooting.cpp says why: its grazing test needs the orbits past a grazing).
//
// What it does not promise: the error band is measured, not a bound; a
// guard whose g'''' grows by more than the safety factors within one step
// (and was not rough on the steps before) can still hide a dip. A touch
// within the floor is not a crossing, by design (it is a grazing).

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

namespace saltus::flow::detail {

// The guard at one time of the step, oriented (g > 0 before the event).
struct GuardNode {
  double t = 0.0;
  double g = 0.0;
  double rate = std::numeric_limits<double>::quiet_NaN();  // dg/dt; NaN until asked for
};

struct GuardSearchResult {
  enum Kind {
    kNone,     // no zero in (a, b]
    kZero,     // the first zero: the near end of its located bracket (g(t) >= 0)
    kAtStart,  // on the guard at a and never before it again: the event is at a
  } kind = kNone;
  double t = 0.0;
};

struct GuardSearchOptions {
  double floor = 0.0;      // |g| <= floor: on the guard (the rounding level of g)
  double min_width = 0.0;  // intervals this short are not halved again
  int max_depth = 30;      // halvings below the step
  // Values of g in one search: past them it ends with what it has found (a
  // guard rough or discontinuous everywhere, say a window of
  // ContactSuppressed, would otherwise be halved into 2^max_depth pieces).
  long max_values = 400;
  double safety = 2.0;  // on the error amplitude E (a g'''' varying over the interval)
  // A bound on |g''''| / 384 known from earlier steps (GuardSearch::roughness):
  // no interval's error amplitude is taken below roughness * w^4.
  double roughness = 0.0;
  // > 0: a bound on the error amplitude per w^4 (g'''' / 384) that a step may
  // be certified with from its ends alone, without a value inside: with
  // prior_safety on it, over the safety above. The caller keeps it from a
  // recent step searched in full (simulate.cpp: at most 3 steps before).
  double prior = 0.0;
  double prior_safety = 100.0;
  // false: no value inside an interval whose ends are both before the guard
  // (SimulationOptions::guard_search = false: the ends decide, as before
  // the search existed).
  bool interior = true;
};

// The minimum over theta in [0, 1] of p(theta) = sum_k p[k] theta^k
// (degree <= 4): at the ends and at the zeros of p', each bracketed in an
// interval where p' is monotone (between the zeros of p'') and bisected.
inline double polynomial_minimum(const std::array<double, 5>& p) {
  auto value = [&](double x) { return (((p[4] * x + p[3]) * x + p[2]) * x + p[1]) * x + p[0]; };
  auto slope = [&](double x) { return ((4 * p[4] * x + 3 * p[3]) * x + 2 * p[2]) * x + p[1]; };
  // p'' = qa x^2 + qb x + qc: its zeros in (0, 1), in order, split [0, 1]
  // into pieces where p' is monotone.
  const double qa = 12 * p[4], qb = 6 * p[3], qc = 2 * p[2];
  double r1 = -1.0, r2 = -1.0;  // -1: no zero
  if (qa != 0.0) {
    const double disc = qb * qb - 4 * qa * qc;
    if (disc >= 0.0) {
      // The stable pair of roots (no cancellation between -qb and the root).
      const double q = -0.5 * (qb + std::copysign(std::sqrt(disc), qb));
      if (q != 0.0) r1 = q / qa, r2 = qc / q;
    }
  } else if (qb != 0.0) {
    r1 = -qc / qb;
  }
  if (r1 > r2) std::swap(r1, r2);
  std::array<double, 4> cuts{};
  int count = 0;
  cuts[count++] = 0.0;
  for (const double r : {r1, r2})
    if (r > 0.0 && r < 1.0) cuts[count++] = r;
  cuts[count++] = 1.0;
  double lowest = std::min(value(0.0), value(1.0));
  for (int i = 0; i + 1 < count; ++i) {
    double lo = cuts[i], hi = cuts[i + 1];
    // p' monotone here: a minimum inside only where it goes from - to +.
    if (!(slope(lo) < 0.0 && slope(hi) > 0.0)) continue;
    for (int it = 0; it < 60 && hi - lo > 1e-15; ++it) {
      const double mid = 0.5 * (lo + hi);
      (slope(mid) < 0.0 ? lo : hi) = mid;
    }
    lowest = std::min(lowest, value(0.5 * (lo + hi)));
  }
  return lowest;
}

// value(t) -> g(t); rate(t) -> g'(t); locate(lo, hi, g_lo, g_hi) -> the near
// end of a located bracket of the zero (g > 0 there, or lo itself).
template <class Value, class Rate, class Locate>
class GuardSearch {
 public:
  GuardSearch(const GuardSearchOptions& options, Value value, Rate rate, Locate locate)
      : opt_(options), value_(value), rate_(rate), locate_(locate) {}

  // The first zero in (a.t, b.t], a before the guard (g > 0) or on it (g = 0).
  GuardSearchResult first_zero(GuardNode a, GuardNode b) {
    if (opt_.interior && opt_.prior > 0.0 && a.g >= 0.0 && b.g > 0.0) {
      // Both ends before the guard (or a on it): the ends and the prior may do.
      with_rate(&a);
      with_rate(&b);
      const double w = b.t - a.t;
      if (envelope_clear(a, b, opt_.prior_safety * opt_.prior * w * w * w * w)) return {};
    }
    searched_ = true;
    return search(a, b, 0);
  }
  // Whether the last first_zero() took values inside (else the prior did).
  bool searched() const { return searched_; }

  long values() const { return values_; }
  // The largest E / w^4 (g'''' / 384 where g'''' is resolved) of the
  // intervals checked, E above the rounding level: the next step's prior.
  double roughness() const { return roughness_; }

 private:
  GuardNode node(double t) {
    ++values_;
    return {t, value_(t)};
  }
  void with_rate(GuardNode* n) {
    if (std::isnan(n->rate)) n->rate = rate_(n->t);
  }
  // at_zero: b is a located zero (g(b) = 0 taken as before the guard).
  GuardSearchResult search(GuardNode a, GuardNode b, int depth, bool at_zero = false) {
    // From before the guard to on or past it: a zero to locate.
    if (a.g > 0.0 && !(b.g > 0.0) && !at_zero) return locate_first(a, b, depth);
    if (!opt_.interior && a.g > 0.0) return {};
    const double w = b.t - a.t;
    if (depth > opt_.max_depth || !(w > opt_.min_width)) {
      // Unresolved within the floor: no crossing seen, or (on the guard at
      // a and clearly past it at b) none away from a.
      if (a.g > 0.0 || b.g >= -opt_.floor) return {};
      return {GuardSearchResult::kAtStart, a.t};
    }
    GuardNode m = node(a.t + 0.5 * w);
    if (a.g > 0.0) {
      // On or past the guard at the midpoint: the first zero is before it.
      if (!(m.g > 0.0)) return search(a, m, depth + 1);
    } else {
      // On the guard at a (g = 0): only values beyond the floor count, on
      // either side. Before it at the midpoint and past it at b: the
      // departure [a, m], then a search from before the guard [m, b].
      const bool b_past = b.g < -opt_.floor;
      if (m.g > opt_.floor && b_past) return split(a, m, b, depth);
      if (m.g < -opt_.floor || (b_past && !(m.g > opt_.floor))) {
        // Past the guard before any value before it: a departure shorter
        // than that, if any, is found by halving towards a.
        for (int j = 1; j <= 60; ++j) {
          const GuardNode s = node(a.t + 0.5 * w * std::ldexp(1.0, -j));
          if (s.g > opt_.floor) return split(a, s, b, depth);
        }
        return {GuardSearchResult::kAtStart, a.t};
      }
      // Before the guard or within the floor of it at the midpoint, and b
      // not past it: as from before the guard.
    }
    if (!opt_.interior) return {};
    with_rate(&a);
    with_rate(&b);
    if (certified(a, b, m, depth) || values_ > opt_.max_values) return {};
    if (!(m.g > 0.0)) m.g = 0.0;  // within the floor of the guard (a value past it returned above)
    return split(a, m, b, depth);
  }

  // [a, s] first, then [s, b].
  GuardSearchResult split(const GuardNode& a, GuardNode s, const GuardNode& b, int depth) {
    with_rate(&s);
    if (const GuardSearchResult r = search(a, s, depth + 1); r.kind != GuardSearchResult::kNone) return r;
    return search(s, b, depth + 1);
  }

  // a before, b on or past the guard: locate a zero, then make sure none
  // comes before it.
  GuardSearchResult locate_first(const GuardNode& a, const GuardNode& b, int depth) {
    const double t = b.g == 0.0 ? b.t : locate_(a.t, b.t, a.g, b.g);
    if (!(t > a.t) || depth >= opt_.max_depth) return {GuardSearchResult::kZero, t};
    GuardNode near = node(t);
    const bool at_zero =
        !(near.g > 0.0);  // the zero itself (an exact 0): none before it is checked as before
    if (at_zero) near.g = 0.0;
    with_rate(&near);
    GuardNode start = a;
    with_rate(&start);
    if (const GuardSearchResult r = search(start, near, depth + 1, at_zero);
        r.kind != GuardSearchResult::kNone)
      return r;
    return {GuardSearchResult::kZero, t};
  }

  // Whether g >= -floor on [a, b] by the Hermite model and its error band.
  bool certified(const GuardNode& a, const GuardNode& b, const GuardNode& m, int depth) {
    const double w = b.t - a.t;
    const double p0 = a.g, p1 = b.g, m0 = w * a.rate, m1 = w * b.rate;
    if (!std::isfinite(p0 + p1 + m0 + m1)) return false;
    // c(theta) = p0 + m0 theta + c2 theta^2 + c3 theta^3; at theta = 1/2
    // the error's weight 16 theta^2 (1 - theta)^2 is 1.
    const double c2 = 3 * (p1 - p0) - 2 * m0 - m1, c3 = 2 * (p0 - p1) + m0 + m1;
    double E = std::abs(m.g - (((0.5 * c3 + c2) * 0.5 + m0) * 0.5 + p0));
    if (!std::isfinite(E)) return false;
    const double w4 = w * w * w * w;
    // The roughness is measured on the step and its halves only, and only
    // from an error well above the rounding of g and of the dense output
    // (1e6 floors, some 1e-8 of the state's scale): on short intervals
    // E / w^4 is noise, or a jump of g (ContactSuppressed's window), over a
    // tiny w^4.
    if (depth <= 1 && E > 1e6 * opt_.floor) roughness_ = std::max(roughness_, E / w4);
    return envelope_clear(a, b, std::max(E, opt_.roughness * w4));
  }

  // Whether the Hermite cubic c from a and b (values and rates) less the
  // error band safety E 16 theta^2 (1 - theta)^2 stays >= -floor on [0, 1].
  bool envelope_clear(const GuardNode& a, const GuardNode& b, double E) const {
    const double w = b.t - a.t;
    const double p0 = a.g, p1 = b.g, m0 = w * a.rate, m1 = w * b.rate;
    if (!std::isfinite(p0 + p1 + m0 + m1 + E)) return false;
    const double c2 = 3 * (p1 - p0) - 2 * m0 - m1, c3 = 2 * (p0 - p1) + m0 + m1;
    // c - k (theta^2 - 2 theta^3 + theta^4), k = 16 safety E.
    const double k = opt_.safety * 16 * E;
    const std::array<double, 5> phi{p0, m0, c2 - k, c3 + 2 * k, -k};
    // Its Bernstein coefficients on [0, 1] bound it from below (the convex
    // hull property): when they clear the floor, as they do far from the
    // guard, no minimum need be found.
    const double b1 = p0 + 0.25 * phi[1], b2 = p0 + 0.5 * phi[1] + phi[2] / 6.0,
                 b3 = p0 + 0.75 * phi[1] + 0.5 * phi[2] + 0.25 * phi[3],
                 b4 = phi[0] + phi[1] + phi[2] + phi[3] + phi[4];
    if (std::min({p0, b1, b2, b3, b4}) >= -opt_.floor) return true;
    return polynomial_minimum(phi) >= -opt_.floor;
  }

  GuardSearchOptions opt_;
  Value value_;
  Rate rate_;
  Locate locate_;
  long values_ = 0;
  double roughness_ = 0.0;
  bool searched_ = false;
};

template <class Value, class Rate, class Locate>
GuardSearch<Value, Rate, Locate> make_guard_search(const GuardSearchOptions& options, Value value, Rate rate,
                                                   Locate locate) {
  return GuardSearch<Value, Rate, Locate>(options, value, rate, locate);
}

}  // namespace saltus::flow::detail
