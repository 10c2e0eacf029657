#include "drivers/hybrid_commands.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iomanip>
#include <limits>
#include <thread>

#include "continuation/periodic/shooting.h"
#include "continuation/pseudo_arclength.h"
#include "drivers/output.h"
#include "testfunctions/floquet.h"
#include "testfunctions/fold.h"

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
  int mode = run.mode;
  Vector x0 = run.initial;
  if (run.transient > 0) {
    flow::SimulationOptions plain = run.simulation;
    plain.variational = false;
    plain.output_interval = 0.0;
    const flow::Trajectory warm = flow::simulate(system, mode, run.t0 - run.transient, x0, run.t0, plain);
    if (!warm.ok()) {
      err << "saltus simulate: " << run.path.string() << ": during the transient: " << warm.message << '\n';
      return 2;
    }
    mode = warm.mode_end;
    x0 = warm.x_end;
  }
  const flow::Trajectory tr =
      flow::simulate(system, mode, run.t0, x0, run.t1, run.simulation, {}, run.sections());
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
  if (run.section)
    write_file_atomically(dir / "sections.csv", [&](std::ostream& o) {
      o << "t,mode";
      for (const auto& n : names) o << ',' << n;
      o << '\n' << std::setprecision(17);
      for (const auto& h : tr.section_hits) {
        o << h.t << ',' << system.mode_name(h.mode);
        for (int i = 0; i < h.x.size(); ++i) o << ',' << h.x[i];
        o << '\n';
      }
    });
  summary["section_hits"] = tr.section_hits.size();
  write_file_atomically(dir / "summary.json", [&](std::ostream& o) { o << summary.dump(2) << '\n'; });

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
    if (k > 0 && (std::abs(px - shown(tr.x[k - 1], ix)) > M_PI || std::abs(py - shown(tr.x[k - 1], iy)) > M_PI))
      phase.series[0].points.emplace_back(nan, nan);  // gnuplot breaks the line at undefined points
    phase.series[0].points.emplace_back(px, py);
    time.series[0].points.emplace_back(tr.t[k], tr.x[k][0]);
  }
  // Label events only while they stay readable.
  if (tr.events.size() <= 40)
    for (const auto& e : tr.events) time.labels.push_back({e.t, e.x_before[0], ""});
  auto draw_warn = [&](const Figure& f, const std::string& stem) {
    std::string warning;
    draw(f, dir, stem, &warning);
    if (!warning.empty()) err << "saltus simulate: warning: " << warning << '\n';
  };
  draw_warn(phase, "phase");
  draw_warn(time, "time");
  if (run.section && !tr.section_hits.empty()) {
    Figure section{run.name + ": Poincare section " + run.section->variable + " = " + std::to_string(run.section->value),
                   run.plot_x, run.plot_y, {{"section hits", {}, "points", "pt 7 ps 0.4"}}, {}};
    for (const auto& h : tr.section_hits) section.series[0].points.emplace_back(shown(h.x, ix), shown(h.x, iy));
    draw_warn(section, "section");
  }

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

namespace {

struct SweepPoint {
  double value = 0.0;
  std::vector<flow::SectionHit> hits;
  std::string failure;  // why this value ended early, if it did
  int events = 0;
};

}  // namespace

int sweep_command(const HybridRun& run, const fs::path& dir, bool json, std::ostream& out, std::ostream& err) {
  const SweepSpec& spec = *run.sweep;
  const auto names = run.system->state_names();
  const int plot = index_of(names, spec.plot);
  std::vector<SweepPoint> points(spec.steps);
  for (int k = 0; k < spec.steps; ++k)
    points[k].value = spec.steps == 1 ? spec.from : spec.from + (spec.to - spec.from) * k / (spec.steps - 1);
  const int cores = std::max(1u, std::thread::hardware_concurrency());
  const int chunks = std::min(spec.threads > 0 ? spec.threads : cores, spec.steps);
  std::atomic<int> done{0};
  const auto sections = run.sections();
  flow::SimulationOptions plain = run.simulation;
  plain.variational = false;
  plain.output_interval = 0.0;

  auto chunk = [&](int c) {
    const int begin = c * spec.steps / chunks, end = (c + 1) * spec.steps / chunks;
    int mode = run.mode;
    double t = run.t0;
    Vector x = run.initial;
    for (int k = begin; k < end; ++k) {
      SweepPoint& p = points[k];
      try {
        const auto system = run.with_parameter(spec.parameter, p.value);
        const double transient = k == begin ? 2 * spec.transient : spec.transient;
        if (transient > 0) {
          const flow::Trajectory warm = flow::simulate(*system, mode, t, x, t + transient, plain);
          p.events += static_cast<int>(warm.events.size());
          if (!warm.ok()) p.failure = warm.message;
          else mode = warm.mode_end, t = warm.t_end, x = warm.x_end;
        }
        if (p.failure.empty()) {
          const flow::Trajectory rec = flow::simulate(*system, mode, t, x, t + spec.record, plain, {}, sections);
          p.events += static_cast<int>(rec.events.size());
          p.hits = rec.section_hits;
          if (!rec.ok()) p.failure = rec.message;
          else mode = rec.mode_end, t = rec.t_end, x = rec.x_end;
        }
      } catch (const std::exception& e) {
        p.failure = e.what();
      }
      // A value that failed (Zeno, grazing) does not pass its end state on.
      if (!p.failure.empty()) mode = run.mode, t = run.t0, x = run.initial;
      ++done;
    }
  };
  std::vector<std::thread> workers;
  for (int c = 0; c < chunks; ++c) workers.emplace_back(chunk, c);
  // Progress on stderr while the workers run.
  const auto start = std::chrono::steady_clock::now();
  double last_print = 0;
  while (done < spec.steps) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > 1.0 && elapsed - last_print > 3.0) {
      err << "saltus sweep: " << done << " / " << spec.steps << " values of " << spec.parameter << " on " << chunks
          << " threads, " << std::setprecision(3) << elapsed << " s\n";
      last_print = elapsed;
    }
  }
  for (auto& w : workers) w.join();

  fs::create_directories(dir);
  int failures = 0, hits = 0;
  write_file_atomically(dir / "sweep.csv", [&](std::ostream& o) {
    o << spec.parameter << ",t";
    for (const auto& n : names) o << ',' << n;
    o << '\n' << std::setprecision(15);
    for (const auto& p : points)
      for (const auto& h : p.hits) {
        o << p.value << ',' << h.t;
        for (int i = 0; i < h.x.size(); ++i) o << ',' << h.x[i];
        o << '\n';
      }
  });
  Json summary;
  summary["name"] = run.name;
  summary["parameter"] = spec.parameter;
  summary["values"] = spec.steps;
  summary["threads"] = chunks;
  Json problems = Json::array();
  for (const auto& p : points) {
    hits += static_cast<int>(p.hits.size());
    if (!p.failure.empty()) {
      ++failures;
      problems.push_back({{"value", p.value}, {"message", p.failure}});
    }
  }
  summary["section_hits"] = hits;
  summary["failures"] = problems;
  write_file_atomically(dir / "sweep.json", [&](std::ostream& o) { o << summary.dump(2) << '\n'; });
  Figure f{run.name + ": bifurcation diagram (section " + run.section->variable + ")", spec.parameter, spec.plot, {}, {}};
  Figure::Series s{spec.plot + " at the section", {}, "points", "pt 7 ps 0.3"};
  for (const auto& p : points)
    for (const auto& h : p.hits) s.points.emplace_back(p.value, h.x[plot]);
  f.series.push_back(std::move(s));
  std::string warning;
  draw(f, dir, "sweep", &warning);
  if (!warning.empty()) err << "saltus sweep: warning: " << warning << '\n';
  if (json) out << summary.dump(2) << '\n';
  else
    out << run.name << ": " << spec.steps << " values of " << spec.parameter << " on " << chunks << " threads, "
        << hits << " section hits, " << failures << " values ended early\nwrote " << dir.string() << '\n';
  return 0;
}

int periodic_command(const HybridRun& run, const fs::path& dir, bool json, std::ostream& out, std::ostream& err) {
  if (!run.periodic) throw RunFileError("run file " + run.path.string() + ": 'periodic' is missing");
  if (!run.with_parameter_in_state)
    throw RunFileError("run file " + run.path.string() + ": periodic orbits of model '" + run.model +
                       "' are not supported yet (the bouncing ball is)");
  const PeriodicSpec& spec = *run.periodic;
  periodic::ShootingOptions shooting;
  shooting.t0 = spec.t0;
  shooting.period = spec.period;
  shooting.mode = run.mode;
  shooting.simulation = run.simulation;
  auto system = std::make_shared<periodic::ShootingSystem>(run.with_parameter_in_state(), 1, shooting);
  ContinuationProblem problem(system, run.parameter_in_state_value, system->parameter_names());
  Vector y(problem.size());
  y << run.initial, run.parameter_in_state_value;

  // The orbit: the guess corrected with the parameter fixed.
  ContinuationOptions one = spec.options;
  one.max_points = 1;
  one.bounds.clear();
  const Branch start = continue_branch(problem, y, one);
  if (!start.ok()) {
    err << "saltus periodic: " << run.path.string() << ": no periodic orbit near the guess: " << start.message << '\n';
    return 2;
  }
  const Vector orbit = start.points[0].y;
  const Eigen::VectorXcd mu = periodic::floquet_multipliers(system->monodromy(problem.u(orbit)));
  Json summary;
  summary["name"] = run.name;
  summary["period"] = spec.period;
  summary["t0"] = spec.t0;
  Json multipliers = Json::array();
  for (int i = 0; i < mu.size(); ++i) multipliers.push_back({mu[i].real(), mu[i].imag()});
  summary["multipliers"] = multipliers;
  summary["stable"] = mu.size() == 0 || std::abs(mu[0]) < 1.0;
  Json state = Json::object();
  const auto names = system->state_names();
  for (std::size_t i = 0; i < names.size(); ++i) state[names[i]] = orbit[i];
  summary["state"] = state;
  summary["parameters"] = {{system->parameter_names()[0], orbit[orbit.size() - 1]}};

  std::vector<std::string> written;
  if (!spec.parameter.empty()) {
    const Branch b = continue_branch(problem, orbit, spec.options,
                                     {std::make_shared<FoldTest>("LPC"), std::make_shared<PeriodDoublingTest>(),
                                      std::make_shared<NeimarkSackerTest>()});
    fs::create_directories(dir);
    write_file_atomically(dir / "branch.csv", [&](std::ostream& o) { b.write_csv(o); });
    Json branch = b.summary();
    summary["branch"] = branch;
    summary["special_points"] = branch["special_points"];
    write_file_atomically(dir / "summary.json", [&](std::ostream& o) { o << summary.dump(2) << '\n'; });
    // The branch against the parameter, stable and unstable parts apart.
    Figure f{run.name + ": periodic orbits", spec.parameter, names[0] + "(t0)", {}, {}};
    Figure::Series stable{"stable", {}, "points", "pt 7 ps 0.5"}, unstable{"unstable", {}, "points", "pt 6 ps 0.5"};
    const int p = static_cast<int>(orbit.size()) - 1;
    for (const auto& pt : b.points) {
      const Eigen::VectorXcd m = periodic::floquet_multipliers(system->monodromy(problem.u(pt.y)));
      (std::abs(m[0]) < 1.0 ? stable : unstable).points.emplace_back(pt.y[p], pt.y[0]);
    }
    f.series = {stable, unstable};
    for (const auto& sp : b.special_points) f.labels.push_back({sp.y[p], sp.y[0], sp.type});
    std::string warning;
    draw(f, dir, "branch", &warning);
    if (!warning.empty()) err << "saltus periodic: warning: " << warning << '\n';
    written.push_back(dir.string());
  }
  if (json) {
    out << summary.dump(2) << '\n';
  } else {
    out << run.name << ": periodic orbit, period " << spec.period << ", multipliers";
    for (int i = 0; i < mu.size(); ++i) out << ' ' << std::setprecision(10) << mu[i];
    out << '\n';
    if (summary.contains("special_points"))
      for (const auto& sp : summary["special_points"])
        out << "  " << sp["type"].get<std::string>() << ' ' << sp["status"].get<std::string>() << ' '
            << sp["parameters"].dump() << '\n';
    for (const auto& w : written) out << "wrote " << w << '\n';
  }
  return 0;
}

}  // namespace saltus::drivers
