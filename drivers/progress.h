#pragma once
// Progress of a long simulation-based run on stderr (no run may sit
// silent for more than a few seconds). Nothing during the first second; then
// a line at most every 2 s: what runs, how far it got in time, how long it
// has taken and, when the span is known, about how long is left.
//
// The runs report through their system: with_progress() wraps a hybrid
// system so that its field evaluations carry the time t to a TimeProgress.
// Every integration (transients, Lyapunov intervals, shooting, the systems
// made from it by with_parameters...) is seen, and no algorithm needs a hook.
// A continuation of orbits, whose time stands still, names its point instead
// through the continuation's own callback (staging_points). Single-threaded
// runs only: the line is printed on the evaluating thread.

#include <chrono>
#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "continuation/branch.h"
#include "continuation/flow/hybrid_system.h"
#include "continuation/options.h"
#include "studies/study.h"

namespace saltus::drivers {

class TimeProgress {
 public:
  // `what` starts each line ("saltus lyapunov: run.json"); the first line
  // comes after `first`, the next ones `every` apart.
  TimeProgress(std::ostream& err, std::string what, std::chrono::milliseconds first = std::chrono::seconds(1),
               std::chrono::milliseconds every = std::chrono::seconds(2));
  // The run integrates from t_begin to t_end in all (for the fraction and the
  // time left); without it a line gives the time reached only.
  void set_span(double t_begin, double t_end);
  // Cheap: a counter, the clock every few hundred calls, a line when due.
  void at(double t);
  // What the run does now, shown in place of the time reached: a
  // continuation of orbits integrates one period after another, so the time
  // stands still while its branch moves. Empty: the time again.
  void set_stage(std::string stage) { stage_ = std::move(stage); }

 private:
  void print();
  std::ostream& err_;
  std::string what_, stage_;
  double begin_ = 0, end_ = 0;
  double t_max_ = -std::numeric_limits<double>::infinity();
  std::chrono::milliseconds first_, every_;
  unsigned calls_ = 0;
  bool printed_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_ = start_;
};

// `system` with its field evaluations reported to `progress` (kept alive by
// the returned system and every system made from it).
std::shared_ptr<const flow::HybridSystem> with_progress(std::shared_ptr<const flow::HybridSystem> system,
                                                        std::shared_ptr<TimeProgress> progress);

// A study's progress (studies/study.h) as the stage of `progress`:
// "<branch>: point k, <free parameter> = value" at each new point (null:
// none).
studies::Progress staging(std::shared_ptr<TimeProgress> progress);

}  // namespace saltus::drivers
