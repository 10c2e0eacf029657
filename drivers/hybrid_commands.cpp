#include "drivers/hybrid_commands.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <limits>
#include <sstream>

#include "analyses/grazing/through_grazing.h"
#include "continuation/periodic/shooting.h"
#include "continuation/pseudo_arclength.h"
#include "drivers/output.h"
#include "drivers/periodic_curve.h"
#include "drivers/periodic_orbit.h"
#include "drivers/progress.h"
#include "testfunctions/floquet.h"
#include "testfunctions/fold.h"
#include "testfunctions/grazing.h"

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

namespace {

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
  Json rows = Json::array();
  for (int i = 0; i < tr.transition_matrix.rows(); ++i) {
    Json row = Json::array();
    for (int j = 0; j < tr.transition_matrix.cols(); ++j) row.push_back(tr.transition_matrix(i, j));
    rows.push_back(row);
  }
  summary["transition_matrix"] = rows;

  summary["section_hits"] = tr.section_hits.size();
  return summary;
}

// trajectory.csv, events.csv and (with a section) sections.csv.
void write_trajectory_files(const HybridRun& run, const flow::Trajectory& tr, const fs::path& dir) {
  const flow::HybridSystem& system = *run.system;
  const auto names = system.state_names();
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
}

void draw_trajectory(const HybridRun& run, const flow::Trajectory& tr, const fs::path& dir,
                     std::ostream& err) {
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
  for (const auto& w : warnings) err << "saltus simulate: warning: " << w << '\n';
}

}  // namespace

int simulate_command(const HybridRun& run, const fs::path& dir, bool json, std::ostream& out,
                     std::ostream& err) {
  const flow::HybridSystem& system = *run.system;
  int mode = run.mode;
  Vector x0 = run.initial;
  if (run.transient > 0) {
    const flow::Trajectory warm =
        flow::simulate(system, mode, run.t0 - run.transient, x0, run.t0, without_samples(run.simulation));
    if (!warm.ok()) {
      err << "saltus simulate: " << run.path.string() << ": during the transient: " << warm.message << '\n';
      return 2;
    }
    mode = warm.mode_end;
    x0 = warm.x_end;
  }
  const flow::Trajectory tr =
      flow::simulate(system, mode, run.t0, x0, run.t1, run.simulation, {}, run.sections());
  // A failed run says so first: its figures (gnuplot on up to 1e7 samples
  // can take many seconds) are not drawn; the files hold the samples up to
  // the failure.
  if (!tr.ok())
    err << "saltus simulate: " << run.path.string() << ": " << tr.message
        << " (the samples up to t = " << tr.t_end << " are in " << (dir / "trajectory.csv").string()
        << "; no figures drawn)" << std::endl;
  const Json summary = trajectory_summary(run, tr);
  fs::create_directories(dir);
  write_trajectory_files(run, tr, dir);
  write_file_atomically(dir / "summary.json", [&](std::ostream& o) { o << summary.dump(2) << '\n'; });
  if (tr.ok()) draw_trajectory(run, tr, dir, err);
  if (json) {
    out << summary.dump(2) << '\n';
  } else {
    out << run.name << ": " << flow::to_string(tr.status) << " (" << tr.message << "), " << tr.events.size()
        << " events, final mode " << system.mode_name(tr.mode_end) << "\nwrote " << dir.string() << '\n';
  }
  return tr.ok() ? 0 : 2;
}

int lyapunov_command(const HybridRun& run, const fs::path& dir, bool json, std::ostream& out,
                     std::ostream& err) {
  const flow::LyapunovResult r =
      flow::lyapunov_spectrum(*run.system, run.mode, run.t0, run.initial, run.lyapunov);
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
    if (!r.times.empty()) draw(f, dir, "lyapunov", &warning);  // no interval finished: nothing to draw
    if (!warning.empty()) err << "saltus lyapunov: warning: " << warning << '\n';
  }
  if (json) {
    out << summary.dump(2) << '\n';
  } else {
    out << run.name << ": Lyapunov exponents over t = " << r.time << " (" << r.events << " events):";
    for (int i = 0; i < r.exponents.size(); ++i) out << ' ' << std::setprecision(6) << r.exponents[i];
    if (r.time > 0)
      out << "\n  sum " << r.exponents.sum() << ", mean contraction " << r.contraction() << " (divergence "
          << r.divergence_integral / r.time << ", impacts " << r.log_det_saltation / r.time << ")";
    else
      out << " none (no interval finished)";
    if (r.collapsed > 0)
      out << "; not comparable: in " << r.collapsed
          << " intervals contact collapsed directions (set aside, not averaged)";
    out << '\n';
  }
  if (!r.ok()) {
    err << "saltus lyapunov: " << run.path.string() << ": " << r.message << '\n';
    return 2;
  }
  return 0;
}

namespace {

Json complex_pairs(const Eigen::VectorXcd& mu) {
  Json list = Json::array();
  for (int i = 0; i < mu.size(); ++i) list.push_back({mu[i].real(), mu[i].imag()});
  return list;
}

// The multipliers of the orbit u: all of them (forced), or (autonomous) all
// but the trivial one, which goes to *trivial.
Eigen::VectorXcd orbit_multipliers(const periodic::ShootingSystem& system, const Vector& u,
                                   std::complex<double>* trivial) {
  const Matrix M = system.monodromy(u);
  if (system.options().autonomous) return periodic::nontrivial_multipliers(M, trivial);
  return periodic::floquet_multipliers(M);
}

// (parameter, value) points of a sweep CSV's columns.
std::vector<std::pair<double, double>> read_diagram(const fs::path& file, const std::string& parameter,
                                                    const std::string& variable, std::string* warning) {
  std::ifstream in(file);
  std::string line;
  std::vector<std::pair<double, double>> points;
  if (!std::getline(in, line)) {
    *warning = "the diagram " + file.string() + " is empty";
    return points;
  }
  std::vector<std::string> header;
  for (std::stringstream ss(line); std::getline(ss, line, ',');) header.push_back(line);
  const int ix = index_of(header, parameter), iy = index_of(header, variable);
  if (ix >= static_cast<int>(header.size()) || iy >= static_cast<int>(header.size())) {
    *warning = "the diagram " + file.string() + " has no columns '" + parameter + "' and '" + variable + "'";
    return points;
  }
  while (std::getline(in, line)) {
    std::vector<double> row;
    for (std::stringstream ss(line); std::getline(ss, line, ',');)
      row.push_back(std::strtod(line.c_str(), nullptr));
    if (static_cast<int>(row.size()) > std::max(ix, iy)) points.emplace_back(row[ix], row[iy]);
  }
  return points;
}

// The orbit u over one period in the run's phase plane (plot.x, plot.y),
// angles wrapped into (-pi, pi] with the line broken where they wrap, and
// its events (impacts, stick and slip transitions) marked where they occur.
void draw_orbit(const HybridRun& run, const periodic::ShootingSystem& system, const Vector& u,
                const std::filesystem::path& dir, std::ostream& err) {
  const auto names = run.system->state_names();
  const int ix = index_of(names, run.plot_x), iy = index_of(names, run.plot_y);
  if (ix >= static_cast<int>(names.size()) || iy >= static_cast<int>(names.size())) return;
  const auto& options = system.options();
  const double T = system.period(u);
  flow::SimulationOptions simulation = options.simulation;
  simulation.variational = false;
  simulation.output_interval = T / 1000;  // a smooth curve whatever the step size
  const double t0 = system.start_time(u);
  const flow::Trajectory tr =
      flow::simulate(*system.hybrid(), options.mode, t0, system.hybrid_state(u), t0 + T, simulation);
  auto shown = [&](const Vector& x, int i) { return run.angles[i] ? std::remainder(x[i], 2 * M_PI) : x[i]; };
  Figure f{run.name + ": periodic orbit at " + system.parameter_names()[0] + " = " +
               std::to_string(u[u.size() - 1]) + ", period " + std::to_string(T),
           run.plot_x,
           run.plot_y,
           {{"orbit", {}}, {"events", {}, "points", "pt 7 ps 1.0"}},
           {}};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t k = 0; k < tr.t.size(); ++k) {
    const double px = shown(tr.x[k], ix), py = shown(tr.x[k], iy);
    if (k > 0 &&
        (std::abs(px - shown(tr.x[k - 1], ix)) > M_PI || std::abs(py - shown(tr.x[k - 1], iy)) > M_PI))
      f.series[0].points.emplace_back(nan, nan);  // gnuplot breaks the line at undefined points
    f.series[0].points.emplace_back(px, py);
  }
  for (const auto& e : tr.events)
    f.series[1].points.emplace_back(shown(e.x_before, ix), shown(e.x_before, iy));
  if (f.series[1].points.empty()) f.series.pop_back();
  std::string warning;
  draw(f, dir, "orbit", &warning);
  if (!tr.ok())
    warning += (warning.empty() ? "" : "; ") + ("the orbit's simulation ended early: " + tr.message);
  if (!warning.empty()) err << "saltus periodic: warning: " << warning << '\n';
}

}  // namespace

namespace {

// The periodic command's orbit and what is drawn of it: the figure's
// ordinate is the sweep's variable (else plot.y) at the run's section;
// without a section, the first state component at t0.
struct PeriodicContext {
  const HybridRun& run;
  const ShootingStart& start;
  const ContinuationProblem& problem;
  int p;              // the parameter's index in y
  std::string shown;  // the ordinate's state component
  int iv;             // its index
};

// The shooting system the point y of b was computed on, cut at its t0: the
// cut moves along a branch (ShootingSystem::recut), and y is the state there.
std::shared_ptr<const periodic::ShootingSystem> system_at(const PeriodicContext& c, const Branch& b,
                                                          const Vector& y) {
  const auto& system = c.start.system;
  const Vector u = c.problem.u(y);
  for (const auto& pt : b.points)
    if (pt.y == y && std::isfinite(pt.cut) && pt.cut != system->cut(u)) return system->at_cut(pt.cut, u);
  return system;
}

// The ordinate's values of the orbit y of b: at the section, or the component at t0.
std::vector<double> shown_values(const PeriodicContext& c, const Branch& b, const Vector& y) {
  if (c.run.section) return section_values(c.run, *system_at(c, b, y), c.problem.u(y), c.iv);
  return {y[c.iv]};
}

Json orbit_summary(const PeriodicContext& c, const Vector& orbit, const Eigen::VectorXcd& mu,
                   std::complex<double> trivial) {
  const HybridRun& run = c.run;
  const PeriodicSpec& spec = *run.periodic;
  const auto& system = c.start.system;
  const Vector u = c.problem.u(orbit);
  Json summary;
  summary["name"] = run.name;
  summary["autonomous"] = spec.autonomous;
  summary["period"] = system->period(u);
  summary["t0"] = system->start_time(u);
  summary["mode"] = run.system->mode_name(system->options().mode);
  summary["multipliers"] = complex_pairs(mu);
  if (spec.autonomous) summary["trivial_multiplier"] = {trivial.real(), trivial.imag()};
  summary["stable"] = mu.size() == 0 || std::abs(mu[0]) < 1.0;
  Json state = Json::object();
  const auto names = run.system->state_names();
  for (std::size_t i = 0; i < names.size(); ++i) state[names[i]] = orbit[i];
  summary["state"] = state;
  summary["parameters"] = {{c.start.parameter, orbit[c.p]}};
  summary["guess"] = {{"source", c.start.source}, {"period", system->period(c.problem.u(c.start.y))}};
  if (c.start.source == "section") {
    summary["guess"]["section_returns"] = c.start.returns;
    summary["guess"]["distance"] = c.start.distance;
  }
  if (run.section) {
    Json values = Json::array();
    for (double v : section_values(run, *system, u, c.iv)) values.push_back(v);
    summary["section_" + c.shown] = values;
  }
  return summary;
}

// Stability and the ordinate's values at each point of the branch.
struct OrbitRow {
  double parameter, period;
  bool stable;
  Eigen::VectorXcd mu;
  std::vector<double> values;
};

// The multipliers of the orbit y of b. A grazing orbit touches its guard
// (the true flow's saltation there is 1 / 0, or huge by rounding): it gets
// the smooth side's, those of the orbit without the contact.
Eigen::VectorXcd point_multipliers(const PeriodicContext& c, const Branch& b, const Vector& y) {
  for (const auto& sp : b.special_points)
    if (sp.type == "GR" && sp.y == y && sp.data.contains("smooth_side_multipliers")) {
      const auto& list = sp.data["smooth_side_multipliers"];
      Eigen::VectorXcd mu(list.size());
      for (std::size_t i = 0; i < list.size(); ++i)
        mu[i] = {list[i][0].get<double>(), list[i][1].get<double>()};
      return mu;
    }
  std::complex<double> t;
  return orbit_multipliers(*system_at(c, b, y), c.problem.u(y), &t);
}

std::vector<OrbitRow> orbit_rows(const PeriodicContext& c, const Branch& b) {
  std::vector<OrbitRow> rows;
  for (const auto& pt : b.points) {
    const Vector up = c.problem.u(pt.y);
    OrbitRow r{pt.y[c.p], c.start.system->period(up), false, point_multipliers(c, b, pt.y), {}};
    r.stable = r.mu.size() == 0 || std::abs(r.mu[0]) < 1.0;
    r.values = shown_values(c, b, pt.y);
    rows.push_back(std::move(r));
  }
  return rows;
}

// branch.csv with the event sequence of each orbit (guard names per period,
// "before -> after" at a grazing) as its last column, when known.
void write_branch_csv(const Branch& b, const std::vector<std::string>& sequences, std::ostream& o) {
  if (sequences.size() != b.points.size()) return b.write_csv(o);
  std::stringstream csv;
  b.write_csv(csv);
  std::string line;
  std::getline(csv, line);
  o << line << ",events\n";
  for (std::size_t i = 0; std::getline(csv, line) && i < sequences.size(); ++i)
    o << line << ',' << sequences[i] << '\n';
}

// The brute-force diagram underneath: a named sweep CSV, else the run's sweep.
std::vector<std::pair<double, double>> diagram_under(const PeriodicContext& c, const fs::path& dir,
                                                     std::ostream& err) {
  const HybridRun& run = c.run;
  std::vector<std::pair<double, double>> diagram;
  std::string warning;
  if (!run.periodic->diagram.empty()) {
    diagram = read_diagram(run.periodic->diagram, c.start.parameter, c.shown, &warning);
  } else if (run.sweep && run.section) {
    std::ostringstream quiet;
    if (sweep_command(run, dir, false, quiet, err) == 0)
      diagram = read_diagram(dir / "sweep.csv", run.sweep->parameter, c.shown, &warning);
    if (run.sweep->parameter != c.start.parameter)
      warning = "the sweep is in " + run.sweep->parameter + ", the branch in " + c.start.parameter,
      diagram.clear();
  }
  if (!warning.empty()) err << "saltus periodic: warning: " << warning << '\n';
  return diagram;
}

Figure branch_figure(const PeriodicContext& c, const Branch& b, const std::vector<OrbitRow>& rows,
                     const std::vector<std::pair<double, double>>& diagram) {
  const HybridRun& run = c.run;
  std::ostringstream ylabel;
  if (run.section)
    ylabel << c.shown << " at the section " << run.section->variable << " = " << run.section->value;
  else
    ylabel << c.shown << "(t0)";
  Figure f{run.name + ": periodic orbits", c.start.parameter, ylabel.str(), {}, {}};
  Figure::Series brute{"brute-force diagram", diagram, "points", "pt 7 ps 0.25 lc rgb '#999999'"},
      stable{"stable orbit", {}, "points", "pt 7 ps 0.6"},
      unstable{"unstable orbit", {}, "points", "pt 6 ps 0.6"};
  for (const auto& r : rows)
    for (double v : r.values) (r.stable ? stable : unstable).points.emplace_back(r.parameter, v);
  if (!diagram.empty()) f.series.push_back(brute);
  f.series.push_back(stable);
  f.series.push_back(unstable);
  for (const auto& sp : b.special_points)
    for (double v : shown_values(c, b, sp.y)) f.labels.push_back({sp.y[c.p], v, sp.label()});
  return f;
}

// The branch with the grazing test (and through grazings when asked).
grazing::ThroughGrazing follow_branch(const PeriodicContext& c, const Vector& orbit) {
  const PeriodicSpec& spec = *c.run.periodic;
  TestFunctions tests = {std::make_shared<FoldTest>("LPC"), std::make_shared<PeriodDoublingTest>(),
                         std::make_shared<NeimarkSackerTest>()};
  // Grazing ("GR") stops the branch: past it the orbits have another event
  // sequence. A fresh GrazingTest per segment, since it keeps the first
  // orbit's events. With "grazing": "continue" it goes on with the new
  // event sequence.
  grazing::ThroughGrazing through;
  const ContinuationOptions options =
      staging_points(spec.options, c.run.progress, "branch", {spec.parameter});
  if (!spec.grazing) {
    through.branch = continue_branch(c.problem, orbit, options, tests);
    return through;
  }
  const auto set = [&] {
    TestFunctions t = tests;
    t.push_back(std::make_shared<GrazingTest>());
    return t;
  };
  return grazing::continue_through_grazing(c.problem, orbit, options, set, spec.grazing_continue);
}

// The orbit's branch in the run's parameter with LPC, PD, NS (and GR)
// located: branch.csv, orbits.csv, branch.png and summary.json (and the
// grazing curve's files); the branch and its special points (with their
// multipliers) go into *summary. False with *why when the curve cannot start.
bool continue_orbit(const PeriodicContext& c, const Vector& orbit, const fs::path& dir, Json* summary,
                    std::ostream& err, std::string* why) {
  const grazing::ThroughGrazing through = follow_branch(c, orbit);
  if (c.run.progress) c.run.progress->set_stage("branch: its orbits, files and figure");
  const Branch& b = through.branch;
  fs::create_directories(dir);
  write_file_atomically(dir / "branch.csv",
                        [&](std::ostream& o) { write_branch_csv(b, through.sequences, o); });
  Json branch = b.summary();
  (*summary)["branch"] = branch;
  (*summary)["special_points"] = branch["special_points"];
  for (std::size_t k = 0; k < b.special_points.size(); ++k)
    (*summary)["special_points"][k]["multipliers"] =
        complex_pairs(point_multipliers(c, b, b.special_points[k].y));
  const std::vector<OrbitRow> rows = orbit_rows(c, b);
  write_file_atomically(dir / "orbits.csv", [&](std::ostream& o) {
    o << c.start.parameter << ",period,stable,max_abs_multiplier," << c.shown << '\n'
      << std::setprecision(15);
    for (const auto& r : rows)
      for (double v : r.values)
        o << r.parameter << ',' << r.period << ',' << r.stable << ','
          << (r.mu.size() ? std::abs(r.mu[0]) : 0.0) << ',' << v << '\n';
  });
  const auto diagram = diagram_under(c, dir, err);
  std::string warning;
  draw(branch_figure(c, b, rows, diagram), dir, "branch", &warning);
  if (!warning.empty()) err << "saltus periodic: warning: " << warning << '\n';
  bool ok = true;
  if (!c.run.periodic->curves.empty()) {
    std::vector<GrazingStart> grazings;
    for (const auto& g : through.crossings) grazings.push_back({g.orbit.y, g.orbit.contact});
    std::vector<std::string> warnings;
    ok = two_parameter_curves(c.run, c.start, grazings, b, dir, summary, &warnings, why);
    for (const auto& w : warnings) err << "saltus periodic: warning: " << w << '\n';
  }
  write_file_atomically(dir / "summary.json", [&](std::ostream& o) { o << summary->dump(2) << '\n'; });
  return ok;
}

void print_orbit(const PeriodicContext& c, const Vector& orbit, const Json& summary,
                 const Eigen::VectorXcd& mu, std::complex<double> trivial,
                 const std::vector<std::string>& written, std::ostream& out) {
  const bool autonomous = c.run.periodic->autonomous;
  out << c.run.name << ": periodic orbit at " << c.start.parameter << " = " << std::setprecision(10)
      << orbit[c.p] << ", period " << summary["period"].get<double>() << (autonomous ? " (autonomous)" : "")
      << ", " << (summary["stable"].get<bool>() ? "stable" : "unstable") << "\n  multipliers";
  for (int i = 0; i < mu.size(); ++i) out << " [" << mu[i].real() << ", " << mu[i].imag() << "]";
  if (autonomous) out << "\n  trivial multiplier [" << trivial.real() << ", " << trivial.imag() << "]";
  out << '\n';
  if (summary.contains("special_points"))
    for (const auto& sp : summary["special_points"])
      out << "  " << sp["type"].get<std::string>() << ' ' << sp["status"].get<std::string>() << ' '
          << sp["parameters"].dump() << '\n';
  for (const auto& w : written) out << "wrote " << w << '\n';
}

}  // namespace

int periodic_command(const HybridRun& run, const fs::path& dir, bool json, std::ostream& out,
                     std::ostream& err) {
  const ShootingStart start = shooting_start(run);
  if (!start.ok) {
    err << "saltus periodic: " << run.path.string() << ": no guess of a periodic orbit: " << start.message
        << '\n';
    return 2;
  }
  const PeriodicSpec& spec = *run.periodic;
  const ContinuationProblem& problem = *start.problem;
  const auto names = run.system->state_names();
  const std::string shown = run.sweep ? run.sweep->plot : run.section ? run.plot_y : names[0];
  const PeriodicContext c{run, start, problem, problem.size() - 1, shown, index_of(names, shown)};

  // The orbit: the guess corrected with the parameter fixed.
  ContinuationOptions one = spec.options;
  one.max_points = 1;
  one.bounds.clear();
  const Branch first = continue_branch(problem, start.y, one);
  if (!first.usable()) {
    err << "saltus periodic: " << run.path.string() << ": no periodic orbit near the guess (" << start.source
        << "): " << first.message << '\n';
    return 2;
  }
  const Vector orbit = first.points[0].y;
  const Vector u = problem.u(orbit);
  std::complex<double> trivial;
  const Eigen::VectorXcd mu = orbit_multipliers(*start.system, u, &trivial);
  Json summary = orbit_summary(c, orbit, mu, trivial);

  std::vector<std::string> written;
  fs::create_directories(dir);
  draw_orbit(run, *start.system, u, dir, err);
  if (spec.parameter.empty())
    written.push_back(dir.string());
  else {
    std::string why;
    if (!continue_orbit(c, orbit, dir, &summary, err, &why)) {
      err << "saltus periodic: " << run.path.string() << ": " << why << '\n';
      return 2;
    }
    written.push_back(dir.string());
  }
  if (json)
    out << summary.dump(2) << '\n';
  else
    print_orbit(c, orbit, summary, mu, trivial, written, out);
  return 0;
}

}  // namespace saltus::drivers
