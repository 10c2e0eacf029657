#pragma once
// Every extremal point followed along a prescribed relative motion
// (x(t), y(t), phi(t)) of two planar curves (Damerau & Low 2016, Sec. 5):
// the extremal-point equations (3) f(s1, s2; x(t), y(t), phi(t)) = 0 with the
// time t as the continuation parameter. Points die where two tracked ones meet
// (a fold in t, located by the continuation engine's FoldTest) and are born
// where new ones appear (a fold of a branch followed backwards from just
// before the next death, or from t1). Each event is classified
// (analyses/contact/classification.h) with the solution counts just before
// and after, and the solutions are found again in the box just after it.

#include <Eigen/Core>
#include <array>
#include <functional>
#include <string>
#include <vector>

#include "analyses/contact/classification.h"
#include "continuation/options.h"
#include "models/expression.h"
#include "models/extremal.h"

namespace saltus {

struct ContactMotion {
  models::Expression x, y, phi;  // of t
  Eigen::Vector3d pose(double t) const;
};

struct ContactTrackOptions {
  double t0 = 0.0, t1 = 1.0;             // the time interval
  models::ExtremalSearchOptions search;  // the box and grid where the solutions are found
  ContinuationOptions continuation;      // of each tracked point in t
  int max_events = 20;                   // the track stops after this many events
  ContactClassificationOptions classification;
  // Polled before each step to the next event: true ends the track there
  // (stop "interrupted"; a Ctrl-C); may be empty.
  std::function<bool()> stop_requested;

  // Empty when valid, else a message naming the first bad field and value.
  std::string check() const;
};

struct ContactTrackEvent {
  double t = 0;
  std::string kind;               // "death" (tracked solutions meet) or "birth" (new ones appear)
  std::array<double, 5> point{};  // s1, s2, x, y, phi
  int before = 0, after = 0;      // solution counts at t -+ delta
  bool classified = false;
  ContactClassification classification;
  std::string message;  // why it is not classified
};

struct ContactTrack {
  std::vector<std::vector<std::array<double, 3>>> curves;  // each tracked piece: (t, s1, s2) rows
  std::vector<ContactTrackEvent> events;
  int initial_count = 0;  // solutions at t0
  std::string stop;       // "reached t1" or why it stopped
  double delta = 0.0;     // 1e-3 (t1 - t0): events are counted at t -+ delta
};

// The extremal points in the search box at the pose of time t.
std::vector<Eigen::Vector2d> contact_solutions_at(const models::ExtremalProblem& problem,
                                                  const ContactMotion& motion,
                                                  const models::ExtremalSearchOptions& search, double t);

// Throws std::invalid_argument on bad options (naming the field).
ContactTrack track_contacts(const models::ExtremalProblem& problem, const models::AnyShape& curve1,
                            const models::AnyShape& curve2, const ContactMotion& motion,
                            const ContactTrackOptions& options);

}  // namespace saltus
