#include "drivers/hybrid_commands.h"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <limits>
#include <sstream>

#include "analyses/grazing/through_grazing.h"
#include "continuation/periodic/shooting.h"
#include "continuation/pseudo_arclength.h"
#include "drivers/periodic_curve.h"
#include "drivers/progress.h"
#include "studies/hybrid_study.h"
#include "studies/output.h"
#include "studies/periodic_orbit.h"
#include "studies/trajectory_files.h"
#include "testfunctions/floquet.h"
#include "testfunctions/fold.h"
#include "testfunctions/grazing.h"

namespace saltus::drivers {

namespace fs = std::filesystem;

namespace {

int index_of(const std::vector<std::string>& names, const std::string& name) {
  return static_cast<int>(std::find(names.begin(), names.end(), name) - names.begin());
}

}  // namespace

int simulate_command(const HybridRun& run, const fs::path& dir, bool json, std::ostream& out,
                     std::ostream& err, bool transition_matrix) {
  const flow::HybridSystem& system = *run.system;
  const flow::Trajectory tr = studies::simulate(run, transition_matrix);
  if (!tr.ok())
    err << "saltus simulate: " << run.path.string() << ": " << tr.message
        << " (the samples up to t = " << tr.t_end << " are in " << (dir / "trajectory.csv").string()
        << "; no figures drawn)" << std::endl;
  for (const auto& w : write_trajectory(run, tr, dir)) err << "saltus simulate: warning: " << w << '\n';
  if (json) {
    out << trajectory_summary(run, tr).dump(2) << '\n';
  } else {
    out << run.name << ": " << flow::to_string(tr.status) << " (" << tr.message << "), " << tr.events.size()
        << " events, final mode " << system.mode_name(tr.mode_end) << "\nwrote " << dir.string() << '\n';
  }
  return tr.ok() ? 0 : 2;
}

int lyapunov_command(const HybridRun& run, const fs::path& dir, bool json, std::ostream& out,
                     std::ostream& err) {
  const flow::LyapunovResult r = studies::lyapunov(run);
  if (!dir.empty())
    for (const auto& w : write_lyapunov(run, r, dir)) err << "saltus lyapunov: warning: " << w << '\n';
  if (json) {
    out << lyapunov_summary(run, r).dump(2) << '\n';
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
  if (!figures_drawn()) return;  // --no-figures: the orbit is simulated for the figure alone
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
  const studies::BranchResult& orbit;  // studies::find_orbit's
  std::string parameter;               // carried in the state (held fixed without periodic.parameter)
  int p;                               // its index in y
  std::string shown;                   // the ordinate's state component
  int iv;                              // its index
  const ContinuationProblem& problem() const { return *orbit.problem; }
  const periodic::ShootingSystem& system() const { return *orbit.shooting; }
};

// The ordinate's values of the orbit y of `result` (on the cut it was
// computed on): at the section, or the component at t0.
std::vector<double> shown_values(const PeriodicContext& c, const studies::BranchResult& result,
                                 const Vector& y) {
  if (c.run.section) return section_values(c.run, *studies::shooting_at(result, y), c.problem().u(y), c.iv);
  return {y[c.iv]};
}

Json orbit_summary(const PeriodicContext& c, const Vector& orbit, const Eigen::VectorXcd& mu,
                   std::complex<double> trivial) {
  const HybridRun& run = c.run;
  const PeriodicSpec& spec = *run.periodic;
  const Vector u = c.problem().u(orbit);
  Json summary;
  summary["name"] = run.name;
  summary["autonomous"] = spec.autonomous;
  summary["period"] = c.system().period(u);
  summary["t0"] = c.system().start_time(u);
  summary["mode"] = run.system->mode_name(c.system().options().mode);
  summary["multipliers"] = complex_pairs(mu);
  if (spec.autonomous) summary["trivial_multiplier"] = {trivial.real(), trivial.imag()};
  summary["stable"] = mu.size() == 0 || std::abs(mu[0]) < 1.0;
  Json state = Json::object();
  const auto names = run.system->state_names();
  for (std::size_t i = 0; i < names.size(); ++i) state[names[i]] = orbit[i];
  summary["state"] = state;
  summary["parameters"] = {{c.parameter, orbit[c.p]}};
  summary["guess"] = c.orbit.info["guess"];
  if (run.section) {
    Json values = Json::array();
    for (double v : section_values(run, c.system(), u, c.iv)) values.push_back(v);
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

std::vector<OrbitRow> orbit_rows(const PeriodicContext& c, const studies::BranchResult& branch) {
  std::vector<OrbitRow> rows;
  for (const auto& pt : branch.branch.points) {
    OrbitRow r{
        pt.y[c.p], c.system().period(c.problem().u(pt.y)), false, studies::multipliers(branch, pt.y), {}};
    r.stable = r.mu.size() == 0 || std::abs(r.mu[0]) < 1.0;
    r.values = shown_values(c, branch, pt.y);
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
    diagram = read_diagram(run.periodic->diagram, c.parameter, c.shown, &warning);
  } else if (run.sweep && run.section) {
    std::ostringstream quiet;
    if (sweep_command(run, dir, false, quiet, err) == 0)
      diagram = read_diagram(dir / "sweep.csv", run.sweep->parameter, c.shown, &warning);
    if (run.sweep->parameter != c.parameter)
      warning = "the sweep is in " + run.sweep->parameter + ", the branch in " + c.parameter, diagram.clear();
  }
  if (!warning.empty()) err << "saltus periodic: warning: " << warning << '\n';
  return diagram;
}

Figure branch_figure(const PeriodicContext& c, const studies::BranchResult& branch,
                     const std::vector<OrbitRow>& rows,
                     const std::vector<std::pair<double, double>>& diagram) {
  const HybridRun& run = c.run;
  std::ostringstream ylabel;
  if (run.section)
    ylabel << c.shown << " at the section " << run.section->variable << " = " << run.section->value;
  else
    ylabel << c.shown << "(t0)";
  Figure f{run.name + ": periodic orbits", c.parameter, ylabel.str(), {}, {}};
  Figure::Series brute{"brute-force diagram", diagram, "points", "pt 7 ps 0.25 lc rgb '#999999'"},
      stable{"stable orbit", {}, "points", "pt 7 ps 0.6"},
      unstable{"unstable orbit", {}, "points", "pt 6 ps 0.6"};
  for (const auto& r : rows)
    for (double v : r.values) (r.stable ? stable : unstable).points.emplace_back(r.parameter, v);
  if (!diagram.empty()) f.series.push_back(brute);
  f.series.push_back(stable);
  f.series.push_back(unstable);
  for (const auto& sp : branch.branch.special_points)
    for (double v : shown_values(c, branch, sp.y)) f.labels.push_back({sp.y[c.p], v, sp.label()});
  return f;
}

// The orbit's branch in the run's parameter with LPC, PD, NS (and GR)
// located (studies::continue_orbits): branch.csv, orbits.csv, branch.png
// and summary.json (and the curves' files); the branch and its special
// points (with their multipliers) go into *summary. False with *why when a
// curve cannot start.
bool continue_orbit(const PeriodicContext& c, const fs::path& dir, Json* summary, std::ostream& err,
                    const studies::Progress& progress, std::string* why) {
  const studies::BranchResult branch = studies::continue_orbits(c.orbit, progress);
  const Branch& b = branch.branch;
  fs::create_directories(dir);
  write_file_atomically(dir / "branch.csv",
                        [&](std::ostream& o) { write_branch_csv(b, branch.sequences, o); });
  Json j = b.summary();
  (*summary)["branch"] = j;
  (*summary)["special_points"] = j["special_points"];
  for (std::size_t k = 0; k < b.special_points.size(); ++k)
    (*summary)["special_points"][k]["multipliers"] =
        complex_pairs(studies::multipliers(branch, b.special_points[k].y));
  const std::vector<OrbitRow> rows = orbit_rows(c, branch);
  write_file_atomically(dir / "orbits.csv", [&](std::ostream& o) {
    o << c.parameter << ",period,stable,max_abs_multiplier," << c.shown << '\n' << std::setprecision(15);
    for (const auto& r : rows)
      for (double v : r.values)
        o << r.parameter << ',' << r.period << ',' << r.stable << ','
          << (r.mu.size() ? std::abs(r.mu[0]) : 0.0) << ',' << v << '\n';
  });
  const auto diagram = diagram_under(c, dir, err);
  std::string warning;
  draw(branch_figure(c, branch, rows, diagram), dir, "branch", &warning);
  if (!warning.empty()) err << "saltus periodic: warning: " << warning << '\n';
  bool ok = true;
  if (!c.run.periodic->curves.empty()) {
    std::vector<std::string> warnings;
    ok = two_parameter_curves(branch, dir, summary, progress, &warnings, why);
    for (const auto& w : warnings) err << "saltus periodic: warning: " << w << '\n';
  }
  write_file_atomically(dir / "summary.json", [&](std::ostream& o) { o << summary->dump(2) << '\n'; });
  return ok;
}

void print_orbit(const PeriodicContext& c, const Vector& orbit, const Json& summary,
                 const Eigen::VectorXcd& mu, std::complex<double> trivial,
                 const std::vector<std::string>& written, std::ostream& out) {
  const bool autonomous = c.run.periodic->autonomous;
  out << c.run.name << ": periodic orbit at " << c.parameter << " = " << std::setprecision(10) << orbit[c.p]
      << ", period " << summary["period"].get<double>() << (autonomous ? " (autonomous)" : "") << ", "
      << (summary["stable"].get<bool>() ? "stable" : "unstable") << "\n  multipliers";
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
                     std::ostream& err, std::shared_ptr<TimeProgress> progress) {
  const auto shared = std::make_shared<const HybridRun>(run);
  const studies::Progress staged = staging(progress);
  const studies::BranchResult found = studies::find_orbit(shared, staged);
  if (!found.branch.usable()) {
    err << "saltus periodic: " << run.path.string() << ": " << found.branch.message << '\n';
    return 2;
  }
  const PeriodicSpec& spec = *run.periodic;
  const auto names = run.system->state_names();
  const std::string shown = run.sweep ? run.sweep->plot : run.section ? run.plot_y : names[0];
  const PeriodicContext c{run,
                          found,
                          spec.parameter.empty() ? run.fixed_parameter : spec.parameter,
                          found.problem->size() - 1,
                          shown,
                          index_of(names, shown)};
  const Vector orbit = found.branch.points[0].y;
  std::complex<double> trivial;
  const Eigen::VectorXcd mu = studies::multipliers(found, orbit, &trivial);
  Json summary = orbit_summary(c, orbit, mu, trivial);

  fs::create_directories(dir);
  draw_orbit(run, *found.shooting, found.problem->u(orbit), dir, err);
  std::string why;
  if (!spec.parameter.empty() && !continue_orbit(c, dir, &summary, err, staged, &why)) {
    err << "saltus periodic: " << run.path.string() << ": " << why << '\n';
    return 2;
  }
  if (json)
    out << summary.dump(2) << '\n';
  else
    print_orbit(c, orbit, summary, mu, trivial, {dir.string()}, out);
  return 0;
}

}  // namespace saltus::drivers
