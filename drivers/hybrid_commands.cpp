#include "drivers/hybrid_commands.h"

#include <algorithm>
#include <iomanip>

#include "drivers/output.h"

namespace saltus::drivers {

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

int simulate_command(const HybridRun& run, const fs::path& dir, bool json, std::ostream& out, std::ostream& err) {
  const flow::HybridSystem& system = *run.system;
  const flow::Trajectory tr = flow::simulate(system, run.mode, run.t0, run.initial, run.t1, run.simulation);
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
  Json rows = Json::array();
  for (int i = 0; i < tr.transition_matrix.rows(); ++i) {
    Json row = Json::array();
    for (int j = 0; j < tr.transition_matrix.cols(); ++j) row.push_back(tr.transition_matrix(i, j));
    rows.push_back(row);
  }
  summary["transition_matrix"] = rows;

  fs::create_directories(dir);
  write_file_atomically(dir / "trajectory.csv", [&](std::ostream& o) {
    o << "t,mode";
    for (const auto& n : names) o << ',' << n;
    o << '\n' << std::setprecision(17);
    for (std::size_t k = 0; k < tr.t.size(); ++k) {
      o << tr.t[k] << ',' << system.mode_name(tr.mode[k]);
      for (int i = 0; i < tr.x[k].size(); ++i) o << ',' << tr.x[k][i];
      o << '\n';
    }
  });
  write_file_atomically(dir / "events.csv", [&](std::ostream& o) {
    o << "t,guard,mode_before,mode_after";
    for (const auto& n : names) o << ',' << n << "_before";
    for (const auto& n : names) o << ',' << n << "_after";
    o << '\n' << std::setprecision(17);
    for (const auto& e : tr.events) {
      o << e.t << ',' << e.guard_name << ',' << system.mode_name(e.mode_before) << ','
        << system.mode_name(e.mode_after);
      for (int i = 0; i < e.x_before.size(); ++i) o << ',' << e.x_before[i];
      for (int i = 0; i < e.x_after.size(); ++i) o << ',' << e.x_after[i];
      o << '\n';
    }
  });
  write_file_atomically(dir / "summary.json", [&](std::ostream& o) { o << summary.dump(2) << '\n'; });

  // Figures: the phase portrait and the first component against time, with the events.
  const int ix = index_of(names, run.plot_x), iy = index_of(names, run.plot_y);
  Figure phase{run.name + ": phase portrait", run.plot_x, run.plot_y, {{"trajectory", {}}}, {}};
  Figure time{run.name, "t", names[0], {{names[0], {}}}, {}, "events"};
  for (std::size_t k = 0; k < tr.t.size(); ++k) {
    phase.series[0].points.emplace_back(tr.x[k][ix], tr.x[k][iy]);
    time.series[0].points.emplace_back(tr.t[k], tr.x[k][0]);
  }
  // Label events only while they stay readable.
  if (tr.events.size() <= 40)
    for (const auto& e : tr.events) time.labels.push_back({e.t, e.x_before[0], ""});
  std::string warning;
  draw(phase, dir, "phase", &warning);
  if (!warning.empty()) err << "saltus simulate: warning: " << warning << '\n';
  warning.clear();
  draw(time, dir, "time", &warning);
  if (!warning.empty()) err << "saltus simulate: warning: " << warning << '\n';

  if (json) {
    out << summary.dump(2) << '\n';
  } else {
    out << run.name << ": " << flow::to_string(tr.status) << " (" << tr.message << "), " << tr.events.size()
        << " events, final mode " << system.mode_name(tr.mode_end) << "\nwrote " << dir.string() << '\n';
  }
  if (!tr.ok()) {
    err << "saltus simulate: " << run.path.string() << ": " << tr.message << '\n';
    return 2;
  }
  return 0;
}

int lyapunov_command(const HybridRun& run, const fs::path& dir, bool json, std::ostream& out, std::ostream& err) {
  const flow::LyapunovResult r = flow::lyapunov_spectrum(*run.system, run.mode, run.t0, run.initial, run.lyapunov);
  Json summary;
  summary["name"] = run.name;
  summary["status"] = flow::to_string(r.status);
  summary["message"] = r.message;
  summary["exponents"] = exponents_json(r.exponents);
  summary["sum"] = r.exponents.size() ? r.exponents.sum() : 0.0;
  summary["mean_log_det_saltation"] = r.time > 0 ? r.log_det_saltation / r.time : 0.0;
  summary["time"] = r.time;
  summary["events"] = r.events;
  summary["transient"] = run.lyapunov.transient;
  summary["interval"] = run.lyapunov.interval;
  if (!dir.empty()) {
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
    draw(f, dir, "lyapunov", &warning);
    if (!warning.empty()) err << "saltus lyapunov: warning: " << warning << '\n';
  }
  if (json) {
    out << summary.dump(2) << '\n';
  } else {
    out << run.name << ": Lyapunov exponents over t = " << r.time << " (" << r.events << " events):";
    for (int i = 0; i < r.exponents.size(); ++i) out << ' ' << std::setprecision(6) << r.exponents[i];
    out << '\n';
  }
  if (!r.ok()) {
    err << "saltus lyapunov: " << run.path.string() << ": " << r.message << '\n';
    return 2;
  }
  return 0;
}

}  // namespace saltus::drivers
