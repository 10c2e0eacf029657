#pragma once
// Non-determinism at a case-1 two-fold (Szalai & Jeffrey, Phys. Rev. E 90,
// 022914 (2014), Secs. IV-V, Figs. 3 and 5; doi:10.1103/PhysRevE.90.022914).
//
// Arrival. In case 1 both eigenvalues of (30) are negative: the sliding flow
// (16) carries every orbit of the sliding sector near x* into x*, along the
// weak eigenvector, in finite time (the field is homogeneous of degree 0 in
// x - x*: its speed does not vanish at x*). approach_two_fold() integrates
// (16) from points of the sliding sector and stops where |x - x*| reaches
// arrival_distance; the time taken is finite and the remaining distance, at
// the speed there, takes a finite time too (reported as remaining_time).
//
// Futures. From x* the sliding flow continues into the escaping region
// (18): there Sigma repels (F+ points into h > 0, F- into h < 0), so an orbit
// of the sliding flow may lift off into either side at any moment, and every
// such choice is a solution of the Filippov system. sample_futures() samples
// this family: starts x* + rho (xi v+ + eta v-) in the escaping sector
// (the sector opposite the sliding one, Sec. IV; v+- from the
// classification; the angle atan(eta / xi) sampled across it), sliding
// along (16) for a sampled fraction of the time the orbit stays in the
// escaping region, then leaving Sigma into F+ or F- (alternately), and simulated for simulate_time
// by an event-driven Filippov simulation (Piiroinen & Kuznetsov 2008, as the
// paper): the one-sided field until h = 0 (located on the dense output),
// then crossing (H+ H- > 0), sliding (17) along (16) until H+ or H- = 0
// (exit into the side whose field turned away), or stop (escaping region,
// tangency, or a return to within arrival_distance of x*).
//
// Integration: the engine's event-driven simulator (flow::simulate,
// continuation/flow/simulate.h, Dormand-Prince 5(4) with dense output) on
// the Filippov model's hybrid system (models/filippov_hybrid.h: its fields
// F+, F-, (16) and its guards h, H+, H-), seen through a small adapter
// (futures.cpp) that adds what the futures need: the arrival at x* as a
// guard of the sliding mode, the projection onto Sigma and the lift-off
// offset as the reset, the crossing / sliding / stop choice above as the
// transition, and a stop where a future ends. Events are bracketed on the
// dense output (event_samples values per step) and located by the engine's
// locator (continuation/locate.h).

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "analyses/two_fold/two_fold.h"
#include "continuation/flow/hybrid_system.h"
#include "continuation/system.h"
#include "models/filippov.h"
#include "models/filippov_hybrid.h"

namespace saltus {

struct FuturesOptions {
  double approach_radius = 2e-3;   // distance of the sliding starts from x* (state units)
  int approach_samples = 5;        // starts across the sliding sector (>= 1)
  double arrival_distance = 1e-6;  // |x - x*| that counts as arrived
  double approach_time = 50.0;     // give up an approach after this time
  double escape_radius = 2e-3;     // distance of the escaping starts from x*
  int samples = 16;                // futures (>= 1)
  double max_liftoff_time = 2.0;   // lift-off within this time (and before the escaping region ends)
  double lift_offset = 1e-12;      // the first point off Sigma: x + side offset h_x / |h_x|
  double simulate_time = 30.0;     // each future is simulated this long after lift-off
  int max_segments = 400;          // of one future (a chattering orbit stops here)
  double absolute_tolerance = 1e-11, relative_tolerance = 1e-10;  // dopri5
  double max_step = 0.05;                                         // dopri5 step bound (time units)
  double event_tolerance = 1e-13;   // width of an event's final time bracket, relative to 1 + |t|
  double barrier_tolerance = 1e-8;  // see sample_futures' barrier
  int event_samples = 8;            // event values per step (flow::SimulationOptions::event_samples)
  filippov::Options filippov;       // tolerances of the region classification

  // Empty when valid, else a message naming the first bad field and value.
  std::string check() const;
};

enum class SegmentKind { kSliding, kEscaping, kSlipPlus, kSlipMinus };
std::string segment_name(SegmentKind k);  // "sliding", "escaping", "slip+", "slip-"

struct FlowSegment {
  SegmentKind kind = SegmentKind::kSliding;
  std::vector<double> t;
  std::vector<Vector> x;
  std::string end;  // why it ended
};

struct Approach {
  Vector start;
  std::string start_region;  // region_name at the start (must be "sliding")
  bool arrived = false;
  double arrival_time = 0.0;  // time to reach arrival_distance of x*
  double final_distance = 0.0;
  double remaining_time = 0.0;  // final_distance / |F_s| there: the rest is finite too
  FlowSegment path;
  std::string message;
};

struct Future {
  Vector start;                   // on Sigma, in the escaping sector
  std::string start_region;       // region_name at the start ("escaping" expected)
  double escaping_time = 0.0;     // how long the escaping sliding orbit stays escaping (<= max_liftoff_time)
  double liftoff_fraction = 0.0;  // sampled in (0, 1)
  double liftoff_time = 0.0;      // liftoff_fraction * escaping_time
  int side = +1;                  // sampled side (+1: into h > 0)
  std::vector<FlowSegment> segments;  // escaping sliding, then slip / crossing / sliding ...
  int left_side = 0;                  // the side it actually left Sigma to (+1, -1), 0 if it did not
  double max_abs_h = 0.0;             // over the first slip segment: how far it got from Sigma
  double end_time = 0.0;
  std::string end;  // why it ended
};

struct FuturesResult {
  bool ok = false;
  std::string message;
  TwoFoldClassification two_fold;
  std::vector<Approach> approaches;
  std::vector<Future> futures;
};

namespace detail {

// The model-independent part: the Filippov flow (models/filippov_hybrid.h)
// and what the futures add to it, as callables.
struct FilippovCallbacks {
  std::shared_ptr<const flow::HybridSystem> flow;    // modes F+, F-, sliding, escaping (FilippovMode)
  std::function<Vector(const Vector&)> gradient;     // h_x
  std::function<Vector(const Vector&)> project;      // onto Sigma
  std::function<std::string(const Vector&)> region;  // region_name
  std::function<double(const Vector&)> barrier;      // may be empty; see sample_futures
};
FuturesResult sample(const FilippovCallbacks& cb, const TwoFoldClassification& two_fold,
                     const FuturesOptions& options);

}  // namespace detail

// Classifies x_star (which must be a two-fold of case 1, else ok = false with
// the reason), then the approaches and the futures. `barrier`, when given, is
// a second function whose zero set on Sigma the model does not resolve (the
// wheel's g, (5): where h = g = 0 the wheel does not move over the disc and
// the tyre moment sign(g) kappa lambda is undefined); a future that reaches
// Sigma at its zero (|barrier| <= barrier_tolerance) stops there, saying so.
// Throws std::invalid_argument on bad options.
template <filippov::Model M>
FuturesResult sample_futures(const M& model, const Vector& x_star, const FuturesOptions& options = {},
                             const TwoFoldOptions& two_fold_options = {},
                             std::function<double(const Vector&)> barrier = {}) {
  if (const std::string bad = options.check(); !bad.empty())
    throw std::invalid_argument("the futures options: " + bad);
  const TwoFoldClassification c = classify_two_fold(model, x_star, two_fold_options);
  detail::FilippovCallbacks cb;
  cb.flow = filippov::make_filippov_flow(model);
  cb.gradient = [&model](const Vector& x) { return filippov::gradient(model, x); };
  cb.project = [&model, &options](const Vector& x) {
    return filippov::project_onto_surface(model, x, 1e-14, options.filippov);
  };
  cb.region = [&model, &options](const Vector& x) {
    filippov::Options o = options.filippov;
    o.surface_tolerance = 1e-9;
    return filippov::region_name(filippov::classify(model, x, o).region);
  };
  cb.barrier = std::move(barrier);
  return detail::sample(cb, c, options);
}

}  // namespace saltus
