#include "studies/trajectory_files.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>

#include "studies/output.h"

namespace saltus::studies {

namespace fs = std::filesystem;

namespace {

int index_of(const std::vector<std::string>& names, const std::string& name) {
  return static_cast<int>(std::find(names.begin(), names.end(), name) - names.begin());
}

Json exponents_json(const Vector& v) {
  Json list = Json::array();
  for (int i = 0; i < v.size(); ++i) list.push_back(std::isfinite(v[i]) ? Json(v[i]) : Json("-inf"));
  return list;
}

}  // namespace

Json trajectory_summary(const HybridRun& run, const flow::Trajectory& tr) {
  const flow::HybridSystem& system = *run.system;
  const auto names = system.state_names();
  Json summary;
  summary["name"] = run.name;
  summary["run_file"] = run.path.string();
  summary["status"] = flow::to_string(tr.status);
  summary["message"] = tr.message;
  summary["t_end"] = tr.t_end;
  summary["mode_end"] = system.mode_name(tr.mode_end);
  Json state = Json::object();
  for (std::size_t i = 0; i < names.size(); ++i) state[names[i]] = tr.x_end[i];
  summary["state_end"] = state;
  summary["events"] = tr.events.size();
  summary["samples"] = tr.t.size();
  // Only when asked (--transition-matrix): the variational equations are
  // most of a simulation's cost.
  if (tr.transition_matrix.size() > 0) {
    Json rows = Json::array();
    for (int i = 0; i < tr.transition_matrix.rows(); ++i) {
      Json row = Json::array();
      for (int j = 0; j < tr.transition_matrix.cols(); ++j) row.push_back(tr.transition_matrix(i, j));
      rows.push_back(row);
    }
    summary["transition_matrix"] = rows;
  }

  summary["section_hits"] = tr.section_hits.size();
  return summary;
}

namespace {

// trajectory.csv, events.csv and (with a section) sections.csv.
void write_samples(const HybridRun& run, const flow::Trajectory& tr, const fs::path& dir) {
  const flow::HybridSystem& system = *run.system;
  const auto names = system.state_names();
  write_file_atomically(dir / "trajectory.csv", [&](std::ostream& o) {
    o << "t,mode";
    for (const auto& n : names) o << ',' << n;
    o << '\n';
    for (std::size_t k = 0; k < tr.t.size(); ++k) {
      write_number(o, tr.t[k], 17);
      o << ',' << system.mode_name(tr.mode[k]);
      for (int i = 0; i < tr.x[k].size(); ++i) {
        o << ',';
        write_number(o, tr.x[k][i], 17);
      }
      o << '\n';
    }
  });
  write_file_atomically(dir / "events.csv", [&](std::ostream& o) {
    o << "t,guard,mode_before,mode_after";
    for (const auto& n : names) o << ',' << n << "_before";
    for (const auto& n : names) o << ',' << n << "_after";
    o << '\n';
    for (const auto& e : tr.events) {
      write_number(o, e.t, 17);
      o << ',' << e.guard_name << ',' << system.mode_name(e.mode_before) << ','
        << system.mode_name(e.mode_after);
      for (const Vector* x : {&e.x_before, &e.x_after})
        for (int i = 0; i < x->size(); ++i) {
          o << ',';
          write_number(o, (*x)[i], 17);
        }
      o << '\n';
    }
  });
  if (run.section)
    write_file_atomically(dir / "sections.csv", [&](std::ostream& o) {
      o << "t,mode";
      for (const auto& n : names) o << ',' << n;
      o << '\n';
      for (const auto& h : tr.section_hits) {
        write_number(o, h.t, 17);
        o << ',' << system.mode_name(h.mode);
        for (int i = 0; i < h.x.size(); ++i) {
          o << ',';
          write_number(o, h.x[i], 17);
        }
        o << '\n';
      }
    });
}

std::vector<std::string> draw_trajectory(const HybridRun& run, const flow::Trajectory& tr, const fs::path& dir) {
  const auto names = run.system->state_names();
  // Figures: the phase portrait (angles wrapped into (-pi, pi], the line
  // broken where they wrap), the first component against time with the
  // events, and the Poincare section.
  const int ix = index_of(names, run.plot_x), iy = index_of(names, run.plot_y);
  auto shown = [&](const Vector& x, int i) { return run.angles[i] ? std::remainder(x[i], 2 * M_PI) : x[i]; };
  Figure phase{run.name + ": phase portrait", run.plot_x, run.plot_y, {{"trajectory", {}}}, {}};
  Figure time{run.name, "t", names[0], {{names[0], {}}}, {}, "events"};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t k = 0; k < tr.t.size(); ++k) {
    const double px = shown(tr.x[k], ix), py = shown(tr.x[k], iy);
    if (k > 0 &&
        (std::abs(px - shown(tr.x[k - 1], ix)) > M_PI || std::abs(py - shown(tr.x[k - 1], iy)) > M_PI))
      phase.series[0].points.emplace_back(nan, nan);  // gnuplot breaks the line at undefined points
    phase.series[0].points.emplace_back(px, py);
    time.series[0].points.emplace_back(tr.t[k], tr.x[k][0]);
  }
  // Label events only while they stay readable.
  if (tr.events.size() <= 40)
    for (const auto& e : tr.events) time.labels.push_back({e.t, e.x_before[0], ""});
  std::vector<Drawing> drawings{{"phase", std::move(phase)}, {"time", std::move(time)}};
  if (run.section && !tr.section_hits.empty()) {
    Figure section{
        run.name + ": Poincare section " + run.section->variable + " = " + std::to_string(run.section->value),
        run.plot_x,
        run.plot_y,
        {{"section hits", {}, "points", "pt 7 ps 0.4"}},
        {}};
    for (const auto& h : tr.section_hits)
      section.series[0].points.emplace_back(shown(h.x, ix), shown(h.x, iy));
    drawings.push_back({"section", std::move(section)});
  }
  std::vector<std::string> warnings;
  draw(drawings, dir, &warnings);
  return warnings;
}

}  // namespace

std::vector<std::string> write_trajectory(const HybridRun& run, const flow::Trajectory& tr, const fs::path& dir) {
  const Json summary = trajectory_summary(run, tr);
  fs::create_directories(dir);
  write_samples(run, tr, dir);
  write_file_atomically(dir / "summary.json", [&](std::ostream& o) { o << summary.dump(2) << '\n'; });
  // A failed run's figures (gnuplot on up to 1e7 samples can take many
  // seconds) are not drawn; the files hold the samples up to the failure.
  if (tr.ok() && figures_drawn()) return draw_trajectory(run, tr, dir);
  return {};
}

Json lyapunov_summary(const HybridRun& run, const flow::LyapunovResult& r) {
  Json summary;
  summary["name"] = run.name;
  summary["status"] = flow::to_string(r.status);
  summary["message"] = r.message;
  summary["exponents"] = exponents_json(r.exponents);
  summary["sum"] = exponents_json(Vector::Constant(1, r.exponents.size() ? r.exponents.sum() : 0.0))[0];
  summary["mean_log_det_saltation"] =
      exponents_json(Vector::Constant(1, r.time > 0 ? r.log_det_saltation / r.time : 0.0))[0];
  summary["mean_divergence"] = r.time > 0 ? r.divergence_integral / r.time : 0.0;
  // What the sum must equal (Liouville with jumps); "-inf" when a plastic
  // impact collapsed the phase volume.
  summary["contraction"] = exponents_json(Vector::Constant(1, r.time > 0 ? r.contraction() : 0.0))[0];
  summary["time"] = r.time;
  summary["events"] = r.events;
  summary["collapsed_intervals"] = r.collapsed;  // intervals on a constraint or with a plastic impact
  summary["transient"] = run.lyapunov.transient;
  summary["interval"] = run.lyapunov.interval;
  return summary;
}

std::vector<std::string> write_lyapunov(const HybridRun& run, const flow::LyapunovResult& r, const fs::path& dir) {
  const Json summary = lyapunov_summary(run, r);
    fs::create_directories(dir);
    write_file_atomically(dir / "lyapunov.csv", [&](std::ostream& o) {
      o << "t";
      for (int i = 0; i < r.exponents.size(); ++i) o << ",lambda" << i + 1;
      o << '\n' << std::setprecision(12);
      for (std::size_t k = 0; k < r.times.size(); ++k) {
        o << r.times[k];
        for (int i = 0; i < r.running[k].size(); ++i) o << ',' << r.running[k][i];
        o << '\n';
      }
    });
    write_file_atomically(dir / "lyapunov.json", [&](std::ostream& o) { o << summary.dump(2) << '\n'; });
    Figure f{run.name + ": Lyapunov exponents", "t", "running estimate", {}, {}};
    for (int i = 0; i < r.exponents.size(); ++i) {
      Figure::Series s{"lambda" + std::to_string(i + 1), {}};
      for (std::size_t k = 0; k < r.times.size(); ++k)
        if (std::isfinite(r.running[k][i])) s.points.emplace_back(r.times[k], r.running[k][i]);
      f.series.push_back(std::move(s));
    }
    std::string warning;
    if (!r.times.empty()) draw(f, dir, "lyapunov", &warning);  // no interval finished: nothing to draw
    if (!warning.empty()) return {warning};
    return {};
}

}  // namespace saltus::studies
