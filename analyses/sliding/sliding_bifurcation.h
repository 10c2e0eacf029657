#pragma once
// Sliding bifurcations of periodic orbits of Filippov systems: where on a
// branch of orbits (continued by shooting, models/filippov_hybrid.h) the
// orbit meets the boundary of the sliding region, located, classified and
// gone through, for the four types of
//   [dBKN] di Bernardo, Kowalczyk & Nordmark, "Bifurcations of dynamical
//          systems with sliding: derivation of normal-form mappings",
//          Physica D 170 (2002) 175-205: the four cases (crossing-sliding,
//          grazing-sliding, switching-sliding, adding-sliding or
//          multi-sliding) defined by their local geometry at the boundary
//          of the sliding region, and the discontinuity mapping of each
//          derived in its own section;
//   [dBBCK] di Bernardo, Budd, Champneys & Kowalczyk, Piecewise-smooth
//          Dynamical Systems (Springer 2008), ch. 8 (sliding bifurcations
//          in Filippov systems): the same four cases and their mappings;
//   [JH]   Jeffrey & Hogan, "The geometry of generic sliding bifurcations",
//          SIAM Review 53 (2011): each case an orbit through a fold (or a
//          cusp) of one side's field on Sigma, the reading used below;
//   [KRG]  Kuznetsov, Rinaldi & Gragnani, "One-parameter bifurcations in
//          planar Filippov systems", Int. J. Bifurcation and Chaos 13
//          (2003) 2157-2188: a defining system for each bifurcation, as
//          (S1)-(S5) are here;
// and the dry-friction oscillator where they meet (di Bernardo, Kowalczyk &
// Nordmark, Int. J. Bifurcation and Chaos 13, 2003; tests/studies/
// dry_friction_closed_form.h). The section and equation numbers of [dBKN]
// and [dBBCK] are not quoted: we could not check them against the printed
// pages, and a wrong number is worse than none. Each type below names the
// case of those texts it is, by the case's name and geometry; the defining
// conditions (S1)-(S5) are written out in our notation, each derived from the
// geometry it states, and each is checked against a closed form
// (tests/analyses/sliding/, tests/studies/dry_friction_closed_form.test.cpp).
//
// Notation (models/filippov_hybrid.h). Sigma = {h = 0}, F+ = f(x, +mu) above
// it, F- = f(x, -mu) below, and on it the sliding field F_s = f(x, lambda_eq).
// The sliding region is bounded by the folds of the one-sided fields, where
// one of them is tangent to Sigma:
//
//   dSigma+ = {h = 0, H+ = h_x F+ (+ h_t) = 0},   dSigma- = {h = 0, H- = h_x F- = 0},
//
// the zeros of the sliding mode's exit guards H(x, +-b) (b the stick bound,
// = mu for a Filippov system: then H(x, +-b) = H+-). A fold of F+ is
// visible when the F+ orbit through it lies above Sigma, (F+ . grad) H+ > 0
// (it curves away: an orbit sliding into it leaves there), invisible when
// (F+ . grad) H+ < 0 (the F+ orbit through it dips below Sigma: a virtual
// orbit; the sliding flow leaves such a boundary instead of reaching it),
// and a cusp where (F+ . grad) H+ = 0 (a cubic tangency; the sliding flow is
// tangent to the boundary). The same with the signs turned round for F-.
// Below, the orbit arrives from below (F-) and the boundary is dSigma+; the
// mirror case swaps +- and the signs.
//
// CS, crossing-sliding (Jeffrey & Hogan: a crossing orbit through a
// visible fold). An orbit crossing Sigma upwards at x_c meets dSigma+ there. Before:
// H+(x_c) > 0, it crosses (F- -> F+). After: H+(x_c) < 0, x_c lies in the
// sliding region, the orbit slides from x_c to the fold and leaves there into
// F+ (F- -> sliding -> F+): a short sliding segment is gained. Test function,
// the arrival margin
//
//   (S1)  phi_CS = H(x_c, +b)   (= h_x F+(x_c) + h_t for b = mu),
//
// at the arrival point x_c from below (for an arrival from above
// phi_CS = -H(x_c, -b)); positive where the orbit crosses, negative where it
// slides, continuous through the bifurcation (x_c moves continuously; only
// the mode after the arrival changes). It is the guard of the sliding mode's
// exit evaluated at the arrival: one scalar per arrival, and the test value
// is that of the arrival nearest the boundary. Reference: the
// crossing-sliding case of [dBKN] and [dBBCK] ch. 8 (a crossing point of the
// orbit reaching the boundary of the sliding region, the tangency of F+
// there visible); [JH]'s crossing orbit through a visible fold.
//
// SS, switching-sliding (Jeffrey & Hogan: a crossing orbit through an
// invisible fold). The same zero phi_CS = 0 at a fold of the other kind:
// before, the orbit crosses at x_c into F+, whose orbit dips back to Sigma
// at once and lands in the sliding region (F- -> F+ -> sliding); after, it
// slides from x_c directly (F- -> sliding): a short F+ excursion (a switch)
// is lost. CS and SS are told apart at the zero by the drift of the sliding
// flow across the boundary,
//
//   (S2)  delta = (F_s . grad) H(x, +b) (+ its t-derivative) at x_c,
//
// positive: the sliding flow runs into the boundary, a slide from x_c ends at
// once (visible fold: CS); negative: it runs away from it into the sliding
// region (invisible fold: SS). For b = mu, F_s = F+ at x_c, so delta is the
// curvature (F+ . grad) H+ of the F+ orbit through x_c: the fold's
// visibility, as in the definitions above. Reference: the switching-sliding
// case of [dBKN] and [dBBCK] ch. 8 (the tangency of F+ at the boundary
// invisible: the orbit switches to F+ and is at once brought back to slide);
// [JH]'s crossing orbit through an invisible fold.
//
// GS, grazing-sliding (a one-sided orbit tangent to Sigma at a visible
// fold). An F+ segment of the orbit touches Sigma from above at x_g
// (H+(x_g) = 0: a grazing), at a point where F- points up into Sigma,
// H-(x_g) > 0, so that x_g is on the boundary of the sliding region. After
// it the segment lands on Sigma in the sliding region, slides to the fold and
// leaves (F+ -> F+ becomes F+ -> sliding -> F+: a sliding segment is gained).
// Test function: the grazing test's minimum of h over the segment
// (testfunctions/grazing.h), (S3) phi_GS = min h >= 0, zero at the touch,
// with H-(x_g) > 0 telling it from an ordinary grazing. Where
// F- points away from Sigma instead (H-(x_g) < 0) the touch is on the
// boundary of the crossing region and the grazing is an ordinary one ("GR":
// two crossings appear), not a sliding bifurcation. Reference: the
// grazing-sliding case of [dBKN] and [dBBCK] ch. 8 (an orbit of one side
// tangent to Sigma at the boundary of the sliding region); [JH]'s grazing
// orbit at a visible fold.
//
// AS, adding-sliding (also called multi-sliding; Jeffrey & Hogan: a
// sliding orbit through a cusp). A sliding segment ends at a fold x_e where the F+ orbit leaving it
// has a cubic tangency with Sigma: the exit's rate
//
//   (S4)  phi_AS = (F_s . grad) H(x_e, +b) (the curvature of the leaving F+ orbit),
//
// positive at every ordinary exit, vanishes; on one side the orbit leaving
// the slide comes back to Sigma at once and slides again (a second sliding
// segment is added), on the other one segment. Seen from the side with the
// one segment, the same point is the slide's closest approach to the
// boundary touching it:
//
//   (S5)  phi_AS' = min over the slide of -H(x(t), +b) (the smallest
//         distance of the force that holds the slide from its bound),
//
// positive before, zero at the AS, where the slide's x(t) touches dSigma+ at
// its cusp (H = 0 and (F_s . grad) H = 0 at one time: the two conditions of
// tests/studies/dry_friction_closed_form.h's adding_sliding). The branch sees
// the AS as a change of its event sequence: a GR point whose orbit has an
// exit with phi_AS near zero is labelled AS; where the grazing test only saw
// a jump (the excursion, ~ sqrt(w_AS - w) long, too short for the
// simulation near the point) and the orbit beyond has the slide's
// excursion added or lost (slide_added), (S5) locates it by the secant
// method on the side without the excursion (locate_slide_added; a GS seen
// only as a jump the same way, on (S3)).
// Reference: the adding-sliding (multi-sliding) case of [dBKN] and [dBBCK]
// ch. 8 (the orbit leaving the sliding region at the boundary grazes
// Sigma: a cubic tangency); [JH]'s sliding orbit through a cusp.
//
// Going through. The orbit is continuous through each of the four (the
// segment gained or lost has zero length at the point), so a branch goes on
// from the first orbit beyond the point with another event sequence
// (orbit_beyond_sliding_bifurcation), as "grazing": "continue" goes through
// a grazing of impacting orbits (studies/hybrid_study.cpp, through_sliding).
// A CS or SS whose event count the grazing test does not see change is gone
// through by the engine itself.
//
// Multipliers. Entering a slide, the saltation matrix projects every
// perturbation onto T Sigma (h_x^T S = 0, models/filippov_hybrid.h), so an
// orbit with a sliding segment has a multiplier exactly 0 (to rounding); a
// crossing's saltation has h_x^T S = h_x^T H+ / H-, which tends to 0 at a CS
// or SS point: the multipliers are continuous through CS and SS, one of them
// tending to 0 on the crossing side. Each special point reports the event
// sequences and the multipliers of the nearest computed orbits on both sides
// (describe_sliding_sides).

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "continuation/branch.h"
#include "continuation/continuation_problem.h"
#include "continuation/flow/hybrid_system.h"
#include "continuation/flow/simulate.h"
#include "continuation/test_function.h"

namespace saltus::periodic {
class ShootingSystem;
}

namespace saltus::sliding {

// One arrival of the orbit at Sigma from F+ or F- (a crossing or the start
// of a slide), with the arrival margin phi_CS and the drift delta above.
struct Arrival {
  std::size_t event = 0;  // index into the trajectory's events
  double t = 0.0;
  Vector x;
  int from = 0, to = 0;  // modes
  double margin = 0.0;   // phi_CS: > 0 the orbit crosses, < 0 it slides
  double drift = 0.0;    // delta: > 0 a visible fold (CS), < 0 an invisible one (SS)
};

// The arrivals of a trajectory of a Filippov flow (modes of FilippovMode).
std::vector<Arrival> arrivals(const flow::HybridSystem& system, const flow::Trajectory& tr);

// The exits from sliding of a trajectory with their rates phi_AS.
struct Exit {
  std::size_t event = 0;
  double t = 0.0;
  Vector x;
  int to = 0;
  double rate = 0.0;  // phi_AS > 0
};
std::vector<Exit> exits(const flow::HybridSystem& system, const flow::Trajectory& tr);

// The orbit's events as mode changes in time order, "F- -> F+; F+ ->
// sliding; sliding -> F+" (the system's mode names), or "none". Unlike the
// guard names (a crossing and the start of a slide are both "h = 0 from
// below") this shows what a sliding bifurcation changes.
std::string mode_sequence(const flow::HybridSystem& system, const flow::Trajectory& tr);

// The count the grazing test (GR) compares along a branch of Filippov
// orbits: crossings plus starts of slides, less the crossings whose next
// event (cyclically over the period) is the start of a slide. It is the same
// on both sides of a CS (a crossing becomes a start of a slide) and of an SS
// (a crossing followed by a landing into a slide becomes one start of a
// slide), which the CS test locates, and changes at a grazing (GR, GS: two
// crossings, or a slide, appear) and at an AS (a slide is added).
std::size_t sliding_event_count(const flow::HybridSystem& system, const flow::Trajectory& tr);

// CS and SS on a branch of periodic orbits of a Filippov flow (a
// ShootingSystem over FilippovFlow): the value is phi_CS of the arrival
// nearest the boundary (1 when the orbit has no arrival). A located zero is
// labelled "CS" or "SS" by the drift there, with the arrival, phi_CS, delta
// and the event sequence in its data; a sign change that is a jump (two
// arrivals trading places as the nearest, no zero) is not reported.
class CrossingSlidingTest : public TestFunction {
 public:
  std::string type() const override { return "CS"; }
  double value(const PointContext& point) const override;
  bool describe(const PointContext& point, SpecialPoint* special) const override;
  bool reads_eigenvalues() const override { return false; }
};

// The type of a grazing (GR) located on a branch of Filippov orbits, from
// the orbit at the point u: "GS" when it touches Sigma (a guard minimum of a
// segment of F+ or F- within `touch_tolerance` of h = 0: the grazing
// system's solution has it to ~1e-11) at the boundary of the sliding region
// (the other side's field pointing into Sigma); "AS" when it touches Sigma
// nowhere and one of its exits from sliding has phi_AS within
// `rate_tolerance` of 0 (relative to |F_s| |grad H|); else "GR" (an ordinary
// grazing, two crossings appearing). `why` gets the quantities.
std::string grazing_type(const periodic::ShootingSystem& shooting, const Vector& u,
                         nlohmann::ordered_json* why, double touch_tolerance = 1e-6,
                         double rate_tolerance = 1e-3);

// A CS or SS the engine only bracketed (the corrector failed inside the
// bracket: near an SS, the orbit's excursion on the crossing side is too
// short for the shooting's simulation), located by the secant method in the
// continued parameter on phi_CS: each iterate's orbit corrected at its
// parameter by damped Newton (the exact shooting Jacobian) from the
// secant's extrapolation of the last two, starting from the special point
// and the nearest branch point on its side of the zero. On success the
// point (and the branch point at its index) moves there with status
// located, precision the last parameter step and test_value phi_CS; else it
// is left as it was, with the reason in data["refinement"].
bool locate_bracketed(const ContinuationProblem& problem, const periodic::ShootingSystem& shooting,
                      Branch* branch, SpecialPoint* special, double tolerance = 1e-12);

// The orbit's events as a multiset of mode transitions ((from, to) -> how
// many per period): what a sliding bifurcation changes, independent of
// where the shooting cuts the orbit.
std::map<std::pair<int, int>, int> transitions(const flow::Trajectory& tr);

// Beyond a sliding bifurcation (GS, CS, SS, AS) at the orbit y_b of a
// branch: the first orbit whose transitions differ from those of the orbit
// before it (y_b - ds t corrected: a sliding segment gained or lost, a
// crossing turned into a slide, a switch lost), at y_b + s t for s = ds,
// 2 ds, 4 ds, ... (t the branch's unit tangent there), then at y_b - s t
// (beyond a non-smooth fold the new orbit lies back along the branch), each
// corrected at its parameter by damped Newton on the true flow. The orbit is
// continuous through each of the four (the segment gained or lost has zero
// length there, a crossing point moves continuously into a slide's start),
// so the orbit beyond starts near y_b. False, with the reason in `why`, when
// no such orbit is found.
bool orbit_beyond_sliding_bifurcation(const ContinuationProblem& problem,
                                      const periodic::ShootingSystem& shooting, const Vector& y_b,
                                      const Vector& tangent, double ds, Vector* start, std::string* why);

// Whether the orbit `more` is `fewer` with one slide added and nothing else
// changed: "AS" when the slide interrupts another by an excursion into one
// side, (sliding -> s), (s -> sliding) next to each other (the two sides of
// an adding-sliding); "GS" when it lies within a segment of one side, (s ->
// sliding), (sliding -> s) (the two sides of a grazing-sliding); else "".
// `side` gets s.
std::string slide_added(const flow::Trajectory& fewer, const flow::Trajectory& more, int* side);

// The margin of the side without the slide added at an AS or GS, the
// smallest interior minimum over the orbit's segments in `mode` of a
// guard's distance from its boundary:
//  - mode sliding (AS), (S5): the exit guards -H(x, +b) and H(x, -b) (= b -+
//    lambda_eq times |h_x f_lambda|: how far the force that holds the slide
//    is from its bound at its closest approach); zero at the AS, where the
//    slide touches dSigma+- at the cusp;
//  - mode F+ or F- (GS): the distance |h| of that side's segments from
//    Sigma, the grazing test's (S3); zero at the touch.
// NaN when the guards searched inside the steps see an event the shooting's
// run did not (then the orbit is not one without the slide: a virtual orbit
// whose short excursion the shooting stepped over).
double sliding_margin(const periodic::ShootingSystem& shooting, const Vector& u, int mode);

// An AS or GS between the orbit `fewer` (the side without the slide added,
// margin > 0 in `mode`: sliding for an AS, the touching side for a GS) and
// `more` (with it), located by the secant method in the continued parameter
// on sliding_margin, from `fewer` and the orbit one bracket's width further
// from the bifurcation, each iterate corrected at its parameter; an iterate
// with the slide (or with NaN, a virtual orbit) narrows the bracket
// instead, and a secant step leaving the bracket is replaced by its
// midpoint. Located from that side because there the margin is smooth and
// crosses 0 linearly, while on the other the excursion (AS) or the slide
// (GS) lasts ~ sqrt(|w - w_b|): near the point too short for the
// simulation to see. On success y_b and the parameter's last step
// (`precision`); else false with `why`.
bool locate_slide_added(const ContinuationProblem& problem, const periodic::ShootingSystem& shooting,
                        const Vector& fewer, const Vector& more, int mode, Vector* y_b, double* precision,
                        std::string* why);

// For each CS, SS, GS and AS special point of a branch of Filippov orbits:
// the event sequences (mode_sequence) and all multipliers of the nearest
// computed orbits before and after it (the points at index -+ 1), the number
// of multipliers below `zero` in modulus on each side, into its data
// ("sequence_before", "sequence_after", "before", "after").
void describe_sliding_sides(const ContinuationProblem& problem, const periodic::ShootingSystem& shooting,
                            Branch* branch, double zero = 1e-10);

}  // namespace saltus::sliding
