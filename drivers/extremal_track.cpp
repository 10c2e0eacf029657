// `saltus extremal track`: every extremal point followed along a prescribed
// relative motion (x(t), y(t), phi(t)); degenerate events (folds in t)
// located, classified and reported with the solution counts before and after;
// all post-event solutions found again in the box just after each event (the
// paper's conclusion, Sec. 5). Declared in drivers/extremal_continue.h.

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "continuation/autodiff_system.h"
#include "continuation/pseudo_arclength.h"
#include "drivers/extremal_continue.h"
#include "drivers/output.h"
#include "models/expression.h"
#include "testfunctions/fold.h"

namespace saltus::drivers {

namespace fs = std::filesystem;

namespace {

// f(s1, s2; x(t), y(t), phi(t)): eq. (3) along the motion, state (s1, s2), parameter t.
struct TrackEquations {
  models::ExtremalEquations<models::AnyShape, models::AnyShape> equations;
  models::Expression x, y, phi;  // of t

  int state_size() const { return 2; }
  int parameter_size() const { return 1; }
  std::vector<std::string> state_names() const { return {"s1", "s2"}; }
  std::vector<std::string> parameter_names() const { return {"t"}; }
  template <class T>
  void operator()(const T* u, T* f) const {
    const T t = u[2];
    const T v[5] = {u[0], u[1], x.evaluate<T>(&t), y.evaluate<T>(&t), phi.evaluate<T>(&t)};
    equations(v, f);
  }
  Eigen::Vector3d pose(double t) const { return {x.evaluate<double>(&t), y.evaluate<double>(&t), phi.evaluate<double>(&t)}; }
};

struct TrackSpec {
  TrackEquations motion;
  double t0 = 0, t1 = 1;
  models::ExtremalSearchOptions search;
  ContinuationOptions options;
  int max_events = 20;
};

models::Expression parse_of_t(const Json& track, const char* key, double fallback, const fs::path& path) {
  const std::string where = std::string("track.") + key;
  std::string text = models::format_number(fallback);
  if (track.contains(key)) {
    if (track[key].is_number()) text = models::format_number(number(track[key], path, where));
    else text = string(track[key], path, where);
  }
  try {
    return models::Expression::parse(text, {"t"});
  } catch (const std::exception& e) {
    fail(path, "'" + where + "' = \"" + text + "\": " + e.what());
  }
}

TrackSpec read_track(const ExtremalRun& run) {
  const fs::path& path = run.path;
  if (run.track_json.is_null()) fail(path, "'track' is missing (needed by `extremal track`)");
  const Json& j = run.track_json;
  if (!j.is_object()) fail(path, "'track' must be an object {\"x\", \"y\", \"phi\", \"t\", ...}");
  only_keys(j, {"x", "y", "phi", "t", "box", "grid", "ds", "ds_max", "max_points", "max_events"}, path, "track.");
  TrackSpec spec;
  spec.motion.equations = {run.curve1, run.curve2};
  spec.motion.x = parse_of_t(j, "x", run.point[2], path);
  spec.motion.y = parse_of_t(j, "y", run.point[3], path);
  spec.motion.phi = parse_of_t(j, "phi", run.point[4], path);
  if (!j.contains("t")) fail(path, "'track.t' is missing: the time interval [t0, t1]");
  if (!j["t"].is_array() || j["t"].size() != 2) fail(path, "'track.t' must be [t0, t1], got " + j["t"].dump());
  spec.t0 = number(j["t"][0], path, "track.t[0]");
  spec.t1 = number(j["t"][1], path, "track.t[1]");
  if (!(spec.t0 < spec.t1))
    fail(path, "'track.t' = [" + models::format_number(spec.t0) + ", " + models::format_number(spec.t1) +
                   "] must have t0 < t1");
  spec.search.s1_centre = run.point[0];
  spec.search.s2_centre = run.point[1];
  spec.search.half_width = j.contains("box") ? number(j["box"], path, "track.box") : run.box;
  spec.search.grid = j.contains("grid") ? integer(j["grid"], path, "track.grid") : run.grid;
  if (const std::string why = spec.search.check(); !why.empty()) fail(path, "'track': " + why);
  spec.options.ds = j.contains("ds") ? number(j["ds"], path, "track.ds") : 0.01;
  spec.options.ds_max = j.contains("ds_max") ? number(j["ds_max"], path, "track.ds_max") : 0.05;
  spec.options.max_points = j.contains("max_points") ? integer(j["max_points"], path, "track.max_points") : 400;
  if (const std::string why = spec.options.check(); !why.empty()) fail(path, "'track': " + why);
  if (j.contains("max_events")) spec.max_events = integer(j["max_events"], path, "track.max_events");
  if (spec.max_events < 1) fail(path, "'track.max_events' = " + std::to_string(spec.max_events) + " must be >= 1");
  // The motion must evaluate at both ends (say, no log of a negative number).
  for (double t : {spec.t0, spec.t1})
    if (!spec.motion.pose(t).allFinite())
      fail(path, "'track': the pose at t = " + models::format_number(t) + " is not finite");
  return spec;
}

struct Event {
  double t = 0;
  std::string kind;  // "death" (tracked solutions meet) or "birth" (new ones appear)
  std::array<double, 5> point{};
  int before = 0, after = 0;
  bool classified = false;
  ContactClassification classification;
  std::string message;
};

struct TrackedCurve {
  std::vector<std::array<double, 3>> points;  // (t, s1, s2)
};

// One solution (s at time t) followed in t in `direction` until its first
// fold (LP, returned in *fold) or the end of [lo, hi].
TrackedCurve follow(const std::shared_ptr<const System>& system, const Eigen::Vector2d& s, double t, int direction,
                    double lo, double hi, const TrackSpec& spec, std::optional<std::array<double, 3>>* fold) {
  ContinuationOptions o = spec.options;
  o.direction = direction;
  o.bounds["t"] = Bound{lo, hi};
  const double H = spec.search.half_width;
  o.bounds["s1"] = Bound{spec.search.s1_centre - 1.5 * H, spec.search.s1_centre + 1.5 * H};
  o.bounds["s2"] = Bound{spec.search.s2_centre - 1.5 * H, spec.search.s2_centre + 1.5 * H};
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
  TrackedCurve curve;
  for (const BranchPoint& q : branch.points) curve.points.push_back({q.y[2], q.y[0], q.y[1]});
  fold->reset();
  for (const SpecialPoint& sp : branch.special_points)
    if (sp.type == "LP") {
      *fold = std::array<double, 3>{sp.y[2], sp.y[0], sp.y[1]};
      break;
    }
  if (*fold) {  // keep the curve up to the fold only
    const double tf = (**fold)[0];
    std::erase_if(curve.points, [&](const auto& q) { return direction > 0 ? q[0] > tf : q[0] < tf; });
    curve.points.push_back(**fold);
  }
  return curve;
}

// The two curves at time t with the segments joining each extremal point pair.
Figure snapshot(const ExtremalRun& run, const TrackSpec& spec, double t, const std::vector<Eigen::Vector2d>& points,
                const std::string& title) {
  Figure figure;
  figure.title = title;
  figure.xlabel = "x (body 1's frame)";
  figure.ylabel = "y";
  const Eigen::Vector3d pose = spec.motion.pose(t);
  const Eigen::Matrix2d A = Eigen::Rotation2Dd(pose[2]).toRotationMatrix();
  const double H = 2.0 * spec.search.half_width;
  Figure::Series c1{"curve 1", {}, "lines", ""}, c2{"curve 2", {}, "lines", ""};
  for (int k = 0; k <= 200; ++k) {
    const double a = -H + 2.0 * H * k / 200;
    try {
      const Eigen::Vector2d p1 = run.problem.curve1->point(spec.search.s1_centre + a);
      c1.points.emplace_back(p1[0], p1[1]);
    } catch (const std::exception&) {
    }
    try {
      const Eigen::Vector2d p2 = A * run.problem.curve2->point(spec.search.s2_centre + a) + pose.head<2>();
      c2.points.emplace_back(p2[0], p2[1]);
    } catch (const std::exception&) {
    }
  }
  figure.series.push_back(c1);
  figure.series.push_back(c2);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Eigen::Vector2d p1 = run.problem.curve1->point(points[i][0]);
    const Eigen::Vector2d p2 = A * run.problem.curve2->point(points[i][1]) + pose.head<2>();
    Figure::Series seg{i == 0 ? "extremal points" : "", {{p1[0], p1[1]}, {p2[0], p2[1]}}, "linespoints",
                       "pt 7 ps 0.8 lc rgb '#2ca02c'"};
    figure.series.push_back(seg);
  }
  return figure;
}

std::vector<Eigen::Vector2d> solutions_at(const ExtremalRun& run, const TrackSpec& spec, double t) {
  std::vector<Eigen::Vector2d> out;
  for (const auto& p : models::find_extremal_points(run.problem, spec.motion.pose(t), spec.search).solutions)
    out.emplace_back(p.s1, p.s2);
  return out;
}

}  // namespace

int extremal_track_command(const ExtremalRun& run, const fs::path& dir, bool json, std::ostream& out,
                           std::ostream& err) {
  const TrackSpec spec = read_track(run);
  const auto system = make_system(spec.motion);
  const double span = spec.t1 - spec.t0;
  const double delta = 1e-3 * span;  // after an event, the solutions are found again at t_e + delta

  std::vector<TrackedCurve> curves;
  std::vector<Event> events;
  double t = spec.t0;
  std::vector<Eigen::Vector2d> current = solutions_at(run, spec, t);
  const int initial_count = static_cast<int>(current.size());
  std::string stop = "reached t1";
  while (t < spec.t1) {
    if (static_cast<int>(events.size()) >= spec.max_events) {
      stop = "stopped after max_events = " + std::to_string(spec.max_events) + " events";
      break;
    }
    // Forward from every current solution to its first fold.
    double t_event = std::numeric_limits<double>::infinity();
    std::array<double, 3> event_point{};
    std::string kind;
    std::vector<TrackedCurve> forward;
    for (const auto& s : current) {
      std::optional<std::array<double, 3>> fold;
      forward.push_back(follow(system, s, t, +1, t, spec.t1, spec, &fold));
      if (fold && (*fold)[0] < t_event) {
        t_event = (*fold)[0];
        event_point = *fold;
        kind = "death";
      }
    }
    // Births before that: the solutions just before the next death (or at
    // t1) followed backwards to their first fold after t.
    const double t_check = std::isfinite(t_event) ? std::max(t, t_event - delta) : spec.t1;
    for (const auto& s : solutions_at(run, spec, t_check)) {
      std::optional<std::array<double, 3>> fold;
      follow(system, s, t_check, -1, t, t_check, spec, &fold);
      if (fold && (*fold)[0] > t + 0.5 * delta && (*fold)[0] < t_event - 0.5 * delta) {
        t_event = (*fold)[0];
        event_point = *fold;
        kind = "birth";
      }
    }
    for (auto& c : forward) {
      std::erase_if(c.points, [&](const auto& q) { return q[0] > t_event + 1e-12; });
      if (!c.points.empty()) curves.push_back(std::move(c));
    }
    if (!std::isfinite(t_event)) break;
    Event e;
    e.t = t_event;
    e.kind = kind;
    const Eigen::Vector3d pose = spec.motion.pose(t_event);
    e.point = {event_point[1], event_point[2], pose[0], pose[1], pose[2]};
    e.before = static_cast<int>(solutions_at(run, spec, std::max(spec.t0, t_event - delta)).size());
    const double t_after = std::min(spec.t1, t_event + delta);
    current = solutions_at(run, spec, t_after);
    e.after = static_cast<int>(current.size());
    try {
      e.classification = classify(run.problem, e.point, run.options);
      e.classified = true;
    } catch (const std::exception& ex) {
      e.message = ex.what();
    }
    events.push_back(e);
    t = t_after;
  }

  fs::create_directories(dir);
  std::vector<fs::path> files;
  std::string warning;
  auto add = [&](const std::vector<fs::path>& made) { files.insert(files.end(), made.begin(), made.end()); };
  const fs::path csv = dir / "track.csv";
  write_file_atomically(csv, [&](std::ostream& o) {
    o << "curve,t,s1,s2\n";
    o.precision(12);
    for (std::size_t i = 0; i < curves.size(); ++i)
      for (const auto& q : curves[i].points) o << i << ',' << q[0] << ',' << q[1] << ',' << q[2] << '\n';
  });
  files.push_back(csv);
  for (int component : {1, 2}) {
    if (curves.empty()) break;  // nothing to draw (gnuplot needs a series)
    Figure f;
    f.title = run.name + ": s" + std::to_string(component) + " of every extremal point along the motion";
    f.xlabel = "t";
    f.ylabel = "s" + std::to_string(component);
    for (std::size_t i = 0; i < curves.size(); ++i) {
      Figure::Series s{i == 0 ? "extremal points" : "", {}, "lines", ""};
      for (const auto& q : curves[i].points) s.points.emplace_back(q[0], q[component]);
      f.series.push_back(s);
    }
    for (std::size_t k = 0; k < events.size(); ++k)
      f.labels.push_back({events[k].t, events[k].point[component - 1], "E" + std::to_string(k + 1)});
    f.labels_title = "events";
    add(draw(f, dir, "track_s" + std::to_string(component), &warning));
  }
  const double show = std::max(delta, 0.02 * span);
  for (std::size_t k = 0; k < events.size(); ++k) {
    const Event& e = events[k];
    const std::string stem = "event" + std::to_string(k + 1);
    const double tb = std::max(spec.t0, e.t - show), ta = std::min(spec.t1, e.t + show);
    add(draw(snapshot(run, spec, tb, solutions_at(run, spec, tb), run.name + ": before event " + std::to_string(k + 1) +
                                                                      ", t = " + models::format_number(tb)),
             dir, stem + "_before", &warning));
    auto at = solutions_at(run, spec, e.t);
    at.emplace_back(e.point[0], e.point[1]);
    add(draw(snapshot(run, spec, e.t, at, run.name + ": at event " + std::to_string(k + 1) + " (" +
                                              (e.classified ? e.classification.type : "unclassified") +
                                              "), t = " + models::format_number(e.t)),
             dir, stem + "_at", &warning));
    add(draw(snapshot(run, spec, ta, solutions_at(run, spec, ta), run.name + ": after event " + std::to_string(k + 1) +
                                                                      ", t = " + models::format_number(ta)),
             dir, stem + "_after", &warning));
  }

  Json summary;
  summary["name"] = run.name;
  summary["run_file"] = run.path.string();
  summary["motion"] = {{"x", spec.motion.x.text()}, {"y", spec.motion.y.text()}, {"phi", spec.motion.phi.text()}};
  summary["t"] = {spec.t0, spec.t1};
  summary["initial_count"] = initial_count;
  summary["stop"] = stop;
  Json list = Json::array();
  for (const Event& e : events) {
    Json j;
    j["t"] = e.t;
    j["kind"] = e.kind;
    j["point"] = {{"s1", e.point[0]}, {"s2", e.point[1]}, {"x", e.point[2]}, {"y", e.point[3]}, {"phi", e.point[4]}};
    j["before"] = e.before;
    j["after"] = e.after;
    j["classified"] = e.classified;
    if (e.classified) {
      j["type"] = e.classification.type;
      j["codimension"] = e.classification.codimension;
    } else {
      j["message"] = e.message;
    }
    list.push_back(j);
  }
  summary["events"] = list;
  const fs::path summary_file = dir / "track.json";
  write_file_atomically(summary_file, [&](std::ostream& o) { o << summary.dump(2) << '\n'; });
  files.push_back(summary_file);
  if (!warning.empty()) err << "saltus extremal track: warning: " << warning << '\n';
  if (json) {
    out << summary.dump(2) << '\n';
  } else {
    out << run.name << ": " << initial_count << " extremal points at t = " << models::format_number(spec.t0) << ", "
        << events.size() << " event" << (events.size() == 1 ? "" : "s") << " (" << stop << ")\n";
    for (std::size_t k = 0; k < events.size(); ++k) {
      const Event& e = events[k];
      out << "  E" << k + 1 << " t = " << models::format_number(e.t) << ": "
          << (e.classified ? e.classification.type : "unclassified (" + e.message + ")") << " " << e.before << "/"
          << e.after << " (" << e.kind << ") at s1 = " << models::format_number(e.point[0])
          << ", s2 = " << models::format_number(e.point[1]) << '\n';
    }
    out << "wrote " << files.size() << " files to " << dir.string() << '\n';
  }
  return 0;
}

}  // namespace saltus::drivers
