#include "analyses/contact/track.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>

#include "continuation/autodiff_system.h"
#include "continuation/pseudo_arclength.h"
#include "testfunctions/fold.h"

namespace saltus {

Eigen::Vector3d ContactMotion::pose(double t) const {
  return {x.evaluate<double>(&t), y.evaluate<double>(&t), phi.evaluate<double>(&t)};
}

std::string ContactTrackOptions::check() const {
  if (!(t0 < t1) || !std::isfinite(t0) || !std::isfinite(t1))
    return "t = [" + models::format_number(t0) + ", " + models::format_number(t1) +
           "] must be finite with t0 < t1";
  if (max_events < 1) return "max_events = " + std::to_string(max_events) + " must be >= 1";
  if (const std::string why = search.check(); !why.empty()) return why;
  return continuation.check();
}

namespace {

using Curve = std::vector<std::array<double, 3>>;

// f(s1, s2; x(t), y(t), phi(t)): eq. (3) along the motion, state (s1, s2), parameter t.
struct TrackEquations {
  models::ExtremalEquations<models::AnyShape, models::AnyShape> equations;
  ContactMotion motion;

  int state_size() const { return 2; }
  int parameter_size() const { return 1; }
  std::vector<std::string> state_names() const { return {"s1", "s2"}; }
  std::vector<std::string> parameter_names() const { return {"t"}; }
  template <class T>
  void operator()(const T* u, T* f) const {
    const T t = u[2];
    const T v[5] = {u[0], u[1], motion.x.evaluate<T>(&t), motion.y.evaluate<T>(&t),
                    motion.phi.evaluate<T>(&t)};
    equations(v, f);
  }
};

// One solution (s at time t) followed in t in `direction` until its first
// fold (LP, returned in *fold) or the end of [lo, hi]; the curve up to it.
Curve follow(const std::shared_ptr<const System>& system, const Eigen::Vector2d& s, double t, int direction,
             double lo, double hi, const ContactTrackOptions& options,
             std::optional<std::array<double, 3>>* fold) {
  ContinuationOptions o = options.continuation;
  o.direction = direction;
  o.bounds["t"] = Bound{lo, hi};
  const double H = options.search.half_width;
  o.bounds["s1"] = Bound{options.search.s1_centre - 1.5 * H, options.search.s1_centre + 1.5 * H};
  o.bounds["s2"] = Bound{options.search.s2_centre - 1.5 * H, options.search.s2_centre + 1.5 * H};
  o.callback = [](const Branch& b) {
    return std::none_of(b.special_points.begin(), b.special_points.end(),
                        [](const SpecialPoint& p) { return p.type == "LP"; });
  };
  Vector p(1);
  p[0] = t;
  ContinuationProblem problem(system, p, {"t"});
  Vector y(3);
  y << s[0], s[1], t;
  const Branch branch = continue_branch(problem, y, o, {std::make_shared<FoldTest>()});
  Curve curve;
  for (const BranchPoint& q : branch.points) curve.push_back({q.y[2], q.y[0], q.y[1]});
  fold->reset();
  for (const SpecialPoint& sp : branch.special_points)
    if (sp.type == "LP") {
      *fold = std::array<double, 3>{sp.y[2], sp.y[0], sp.y[1]};
      break;
    }
  if (*fold) {  // keep the curve up to the fold only
    const double tf = (**fold)[0];
    std::erase_if(curve, [&](const auto& q) { return direction > 0 ? q[0] > tf : q[0] < tf; });
    curve.push_back(**fold);
  }
  return curve;
}

struct NextEvent {
  double t = std::numeric_limits<double>::infinity();
  std::array<double, 3> point{};  // (t, s1, s2)
  std::string kind;
};

}  // namespace

std::vector<Eigen::Vector2d> contact_solutions_at(const models::ExtremalProblem& problem,
                                                  const ContactMotion& motion,
                                                  const models::ExtremalSearchOptions& search, double t) {
  std::vector<Eigen::Vector2d> out;
  for (const auto& p : models::find_extremal_points(problem, motion.pose(t), search).solutions)
    out.emplace_back(p.s1, p.s2);
  return out;
}

ContactTrack track_contacts(const models::ExtremalProblem& problem, const models::AnyShape& curve1,
                            const models::AnyShape& curve2, const ContactMotion& motion,
                            const ContactTrackOptions& options) {
  if (const std::string why = options.check(); !why.empty())
    throw std::invalid_argument("the contact tracking options: " + why);
  const auto system = make_system(TrackEquations{{curve1, curve2}, motion});
  const auto solutions = [&](double t) { return contact_solutions_at(problem, motion, options.search, t); };
  ContactTrack out;
  out.delta =
      1e-3 * (options.t1 - options.t0);  // after an event, the solutions are found again at t_e + delta
  const double delta = out.delta;
  double t = options.t0;
  std::vector<Eigen::Vector2d> current = solutions(t);
  out.initial_count = static_cast<int>(current.size());
  out.stop = "reached t1";
  while (t < options.t1) {
    if (options.stop_requested && options.stop_requested()) {
      out.stop = "interrupted";
      break;
    }
    if (static_cast<int>(out.events.size()) >= options.max_events) {
      out.stop = "stopped after max_events = " + std::to_string(options.max_events) + " events";
      break;
    }
    // Forward from every current solution to its first fold: the next death.
    NextEvent next;
    std::vector<Curve> forward;
    for (const auto& s : current) {
      std::optional<std::array<double, 3>> fold;
      forward.push_back(follow(system, s, t, +1, t, options.t1, options, &fold));
      if (fold && (*fold)[0] < next.t) next = {(*fold)[0], *fold, "death"};
    }
    // Births before that: the solutions just before the next death (or at
    // t1) followed backwards to their first fold after t.
    const double t_check = std::isfinite(next.t) ? std::max(t, next.t - delta) : options.t1;
    for (const auto& s : solutions(t_check)) {
      std::optional<std::array<double, 3>> fold;
      follow(system, s, t_check, -1, t, t_check, options, &fold);
      if (fold && (*fold)[0] > t + 0.5 * delta && (*fold)[0] < next.t - 0.5 * delta)
        next = {(*fold)[0], *fold, "birth"};
    }
    for (auto& c : forward) {
      std::erase_if(c, [&](const auto& q) { return q[0] > next.t + 1e-12; });
      if (!c.empty()) out.curves.push_back(std::move(c));
    }
    if (!std::isfinite(next.t)) break;
    ContactTrackEvent e;
    e.t = next.t;
    e.kind = next.kind;
    const Eigen::Vector3d pose = motion.pose(next.t);
    e.point = {next.point[1], next.point[2], pose[0], pose[1], pose[2]};
    e.before = static_cast<int>(solutions(std::max(options.t0, next.t - delta)).size());
    const double t_after = std::min(options.t1, next.t + delta);
    current = solutions(t_after);
    e.after = static_cast<int>(current.size());
    try {
      e.classification = classify(problem, e.point, options.classification);
      e.classified = true;
    } catch (const std::exception& ex) {
      e.message = ex.what();
    }
    out.events.push_back(e);
    t = t_after;
  }
  return out;
}

}  // namespace saltus
