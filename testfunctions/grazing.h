#pragma once
// Grazing ("GR"): a branch of periodic orbits reaches a guard tangentially,
// or one of its impacts slows to a tangential touch. The second kind is
// the smallest normal speed of the orbit's impacts (impact_speeds below)
// going to zero; the test value is the smallest of those speeds and the
// guard minima described next (both vanish at a grazing, and the event
// sequence changes beyond). A branch cannot be followed into the grazing
// from the impacting side (the square-root singularity), so the point is
// located exactly by the grazing system of continuation/periodic/
// grazing_orbit.h, not by bracketing (analyses/grazing/through_grazing.h).
// Along an orbit of a ShootingSystem, the local minima of the guard's
// distance h (on the side an event comes from: h for a falling guard, -h for
// a rising one, |h| for either) away from the events themselves are where
//
//   s(t) = sgn * dh/dt = sgn * (h_x . f + h_t)
//
// rises through zero. The simulator locates those crossings on its dense
// output like any Poincare section (toms748 to its event_tolerance; after an
// event the section restarts on the reset state, so an impact's own h = 0 is
// not a minimum; nor is the rounding noise of dh/dt just after a release
// from the guard's surface), and the test value is the smallest of those
// minima (and of h at the cut point t0, the ends of a closed orbit). It is
// positive on a branch of orbits whose events stay transversal, and reaches
// zero where a new contact appears: the grazing. Beyond it the orbit has an event the
// branch's orbits did not have; there the value is -1, so the engine
// brackets the grazing between the last orbit without the new event and the
// first with it, and locates it (the orbit that touches) with its usual
// event location. The branch stops there: past a grazing the orbits (if any)
// are of another kind (Nordmark's square-root singularity of their Jacobian).
//
// Like any section, a minimum is found as a sign change of s between the
// ends of a step: a step holding a minimum and the maximum after it (two
// sign changes) would hide it. Nothing here guards against that; the
// simulation's max_step bounds the steps where it matters.
//
// The reference event count is that of the first orbit the test sees (the
// branch's start): use one GrazingTest per branch. The impacts of a
// chattering sequence that ends in permanent contact are not counted (their
// number changes along a branch with the stick threshold, not by a grazing).

#include <functional>
#include <mutex>
#include <optional>

#include "continuation/flow/simulate.h"
#include "continuation/periodic/grazing_orbit.h"
#include "continuation/test_function.h"

namespace saltus {

namespace periodic {
class ShootingSystem;
}

struct GuardMinimum {
  double value = 0.0;  // the signed distance sgn * h at the minimum (>= 0 on an orbit)
  double t = 0.0;
  int mode = 0, guard = -1;  // guard -1: the cut point t0
  Vector x;
};

struct GuardMinima {
  std::vector<GuardMinimum> minima;  // in time order, the cut point first
  std::size_t events = 0;            // events of the orbit over one period, chattering tails not counted
  flow::SimulationStatus status = flow::SimulationStatus::kFinished;
  std::string message;
  // The smallest minimum (the cut point when the orbit has no other).
  const GuardMinimum& smallest() const;
};

// The guard minima along the orbit of `shooting` at u = (x, [T,] p).
GuardMinima guard_minima(const periodic::ShootingSystem& shooting, const Vector& u);

// The normal speed of an impact: how fast the orbit meets the guard,
// -sgn (h_x . f + h_t) at x-, positive for a transversal event and zero at
// the grazing of an impacting orbit (the impact velocity going to zero).
struct ImpactSpeed {
  double speed = 0.0;
  double t = 0.0;
  int mode = 0, guard = 0;
  std::size_t event = 0;  // index into the trajectory's events
};

// The impacts of a trajectory: the counted events (no chattering tail) that
// keep the mode (a restitution law), with their normal speeds. Mode changes
// (sticking, a Filippov crossing) are not impacts here.
std::vector<ImpactSpeed> impact_speeds(const flow::HybridSystem& system, const flow::Trajectory& tr);

// The counted events' guard names in time order, joined by ';' ("none").
std::string event_sequence(const flow::HybridSystem& system, const flow::Trajectory& tr);

// The contact of the orbit u closest to a grazing: the smallest guard
// minimum away from the events (a new contact appearing, `impact` false) or
// the slowest impact (an impact vanishing, `impact` true), with the window
// in which the grazing system (continuation/periodic/grazing_orbit.h)
// switches it off: half the time to the guard's nearest other event, at most
// a quarter period. Empty when the orbit has neither.
struct NearestContact {
  bool impact = false;
  double value = 0.0;  // the minimum's distance, or the impact speed
  periodic::Contact contact;
};
std::optional<NearestContact> nearest_contact(const periodic::ShootingSystem& shooting, const Vector& u);

class GrazingTest : public TestFunction {
 public:
  // How the orbit's events are counted against the first orbit's (a change
  // is a grazing beyond): by default the counted events above; a Filippov
  // orbit's count (analyses/sliding/sliding_bifurcation.h) leaves out the
  // changes of a crossing- or switching-sliding, which their own test locates.
  using EventCount = std::function<std::size_t(const flow::HybridSystem&, const flow::Trajectory&)>;
  GrazingTest() = default;
  explicit GrazingTest(EventCount count) : count_(std::move(count)) {}
  std::string type() const override { return "GR"; }
  // Throws std::invalid_argument when the problem is not a ShootingSystem;
  // std::runtime_error when the orbit cannot be simulated.
  double value(const PointContext& point) const override;
  bool stops_branch() const override { return true; }

 private:
  EventCount count_;
  mutable std::mutex mutex_;
  mutable std::optional<std::size_t> reference_events_;
};

}  // namespace saltus
