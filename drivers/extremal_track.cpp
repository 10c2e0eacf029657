// `saltus extremal track`: every extremal point followed along a prescribed
// relative motion (x(t), y(t), phi(t)) by track_contacts()
// (analyses/contact/track.h) in the study studies::track_contact; this file
// writes the track, its figures and the summary. Declared in
// drivers/extremal_continue.h.

#include <algorithm>
#include <cmath>
#include <sstream>

#include "drivers/extremal_continue.h"
#include "drivers/studies.h"
#include "models/expression.h"
#include "studies/contact_branches.h"
#include "studies/output.h"

namespace saltus::drivers {

namespace fs = std::filesystem;

namespace {

using TrackSpec = ContactTrackSpec;

// The two curves at time t with the segments joining each extremal point
// pair, drawn with equal axes (circles stay circles).
Figure snapshot(const ExtremalRun& run, const TrackSpec& spec, double t,
                const std::vector<Eigen::Vector2d>& points, const std::string& title) {
  Figure figure;
  figure.title = title;
  figure.xlabel = "x (body 1's frame)";
  figure.ylabel = "y";
  figure.equal_axes = true;
  const models::ExtremalSearchOptions& search = spec.options.search;
  const Eigen::Vector3d pose = spec.motion.pose(t);
  const Eigen::Matrix2d A = Eigen::Rotation2Dd(pose[2]).toRotationMatrix();
  const double H = 2.0 * search.half_width;
  Figure::Series c1{"curve 1", {}, "lines", ""}, c2{"curve 2", {}, "lines", ""};
  for (int k = 0; k <= 200; ++k) {
    const double a = -H + 2.0 * H * k / 200;
    try {
      const Eigen::Vector2d p1 = run.problem.curve1->point(search.s1_centre + a);
      c1.points.emplace_back(p1[0], p1[1]);
    } catch (const std::exception&) {
    }
    try {
      const Eigen::Vector2d p2 = A * run.problem.curve2->point(search.s2_centre + a) + pose.head<2>();
      c2.points.emplace_back(p2[0], p2[1]);
    } catch (const std::exception&) {
    }
  }
  figure.series.push_back(c1);
  figure.series.push_back(c2);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Eigen::Vector2d p1 = run.problem.curve1->point(points[i][0]);
    const Eigen::Vector2d p2 = A * run.problem.curve2->point(points[i][1]) + pose.head<2>();
    Figure::Series seg{i == 0 ? "extremal points" : "",
                       {{p1[0], p1[1]}, {p2[0], p2[1]}},
                       "linespoints",
                       "pt 7 ps 0.8 lc rgb '#2ca02c'"};
    figure.series.push_back(seg);
  }
  return figure;
}

// s1 or s2 of every tracked piece against t, the events labelled.
Figure component_figure(const ExtremalRun& run, const ContactTrack& track, int component) {
  Figure f;
  f.title = run.name + ": s" + std::to_string(component) + " of every extremal point along the motion";
  f.xlabel = "t";
  f.ylabel = "s" + std::to_string(component);
  for (std::size_t i = 0; i < track.curves.size(); ++i) {
    Figure::Series s{i == 0 ? "extremal points" : "", {}, "lines", ""};
    for (const auto& q : track.curves[i]) s.points.emplace_back(q[0], q[component]);
    f.series.push_back(s);
  }
  for (std::size_t k = 0; k < track.events.size(); ++k)
    f.labels.push_back(
        {track.events[k].t, track.events[k].point[component - 1], "E" + std::to_string(k + 1)});
  f.labels_title = "events";
  return f;
}

// track.csv, the two component figures and three snapshots per event.
std::vector<fs::path> write_track_files(const ExtremalRun& run, const TrackSpec& spec,
                                        const ContactTrack& track, const fs::path& dir,
                                        std::vector<std::string>* warnings) {
  std::vector<fs::path> files;
  const fs::path csv = dir / "track.csv";
  write_file_atomically(csv, [&](std::ostream& o) {
    o << "curve,t,s1,s2\n";
    o.precision(12);
    for (std::size_t i = 0; i < track.curves.size(); ++i)
      for (const auto& q : track.curves[i]) o << i << ',' << q[0] << ',' << q[1] << ',' << q[2] << '\n';
  });
  files.push_back(csv);
  std::vector<Drawing> drawings;
  for (int component : {1, 2})
    if (!track.curves.empty())  // gnuplot needs a series
      drawings.push_back({"track_s" + std::to_string(component), component_figure(run, track, component)});
  const ContactTrackOptions& o = spec.options;
  const double show = std::max(track.delta, 0.02 * (o.t1 - o.t0));
  const auto solutions = [&](double t) {
    return contact_solutions_at(run.problem, spec.motion, o.search, t);
  };
  for (std::size_t k = 0; k < track.events.size(); ++k) {
    const ContactTrackEvent& e = track.events[k];
    const std::string stem = "event" + std::to_string(k + 1), number = std::to_string(k + 1);
    const double tb = std::max(o.t0, e.t - show), ta = std::min(o.t1, e.t + show);
    drawings.push_back({stem + "_before", snapshot(run, spec, tb, solutions(tb),
                                                   run.name + ": before event " + number +
                                                       ", t = " + models::format_number(tb))});
    auto at = solutions(e.t);
    at.emplace_back(e.point[0], e.point[1]);
    const std::string type = e.classified ? e.classification.type : "unclassified";
    drawings.push_back({stem + "_at", snapshot(run, spec, e.t, at,
                                               run.name + ": at event " + number + " (" + type +
                                                   "), t = " + models::format_number(e.t))});
    drawings.push_back({stem + "_after", snapshot(run, spec, ta, solutions(ta),
                                                  run.name + ": after event " + number +
                                                      ", t = " + models::format_number(ta))});
  }
  for (auto& p : draw(drawings, dir, warnings)) files.push_back(p);
  return files;
}

void print_track(const ExtremalRun& run, const TrackSpec& spec, const ContactTrack& track, std::size_t files,
                 const fs::path& dir, std::ostream& out) {
  const std::size_t n = track.events.size();
  out << run.name << ": " << track.initial_count
      << " extremal points at t = " << models::format_number(spec.options.t0) << ", " << n << " event"
      << (n == 1 ? "" : "s") << " (" << track.stop << ")\n";
  for (std::size_t k = 0; k < n; ++k) {
    const ContactTrackEvent& e = track.events[k];
    out << "  E" << k + 1 << " t = " << models::format_number(e.t) << ": "
        << (e.classified ? e.classification.type : "unclassified (" + e.message + ")") << " " << e.before
        << "/" << e.after << " (" << e.kind << ") at s1 = " << models::format_number(e.point[0])
        << ", s2 = " << models::format_number(e.point[1]) << '\n';
  }
  out << "wrote " << files << " files to " << dir.string() << '\n';
}

}  // namespace

int extremal_track_command(const ExtremalRun& run, const fs::path& dir, bool json, std::ostream& out,
                           std::ostream& err) {
  const ContactTrackStudy study = track_contact(run);
  const TrackSpec& spec = study.spec;
  const ContactTrack& track = study.track;
  const Json& summary = study.summary;
  fs::create_directories(dir);
  std::vector<std::string> warnings;
  std::vector<fs::path> files = write_track_files(run, spec, track, dir, &warnings);
  const fs::path summary_file = dir / "track.json";
  write_file_atomically(summary_file, [&](std::ostream& o) { o << summary.dump(2) << '\n'; });
  files.push_back(summary_file);
  for (const auto& w : warnings) err << "saltus extremal track: warning: " << w << '\n';
  if (json)
    out << summary.dump(2) << '\n';
  else
    print_track(run, spec, track, files.size(), dir, out);
  return 0;
}

}  // namespace saltus::drivers
