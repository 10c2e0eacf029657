#include "studies/orbit_files.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <limits>
#include <sstream>

#include "studies/output.h"
#include "studies/periodic_orbit.h"

namespace saltus::studies {

namespace fs = std::filesystem;

namespace {

int index_of(const std::vector<std::string>& names, const std::string& name) {
  return static_cast<int>(std::find(names.begin(), names.end(), name) - names.begin());
}

Json complex_pairs(const Eigen::VectorXcd& mu) {
  Json list = Json::array();
  for (int i = 0; i < mu.size(); ++i) list.push_back({mu[i].real(), mu[i].imag()});
  return list;
}

// The ordinate's values of the orbit y of `result` (on the cut it was
// computed on): at the section, or the component at t0.
std::vector<double> shown_values(const HybridRun& run, const OrbitView& c, const BranchResult& result,
                                 const Vector& y) {
  if (run.section) return section_values(run, *shooting_at(result, y), result.problem->u(y), c.iv);
  return {y[c.iv]};
}

// Stability and the ordinate's values at each point of the branch.
struct OrbitRow {
  double parameter, period;
  bool stable;
  Eigen::VectorXcd mu;
  std::vector<double> values;
};

std::vector<OrbitRow> orbit_rows(const HybridRun& run, const OrbitView& c, const BranchResult& branch) {
  std::vector<OrbitRow> rows;
  for (const auto& pt : branch.branch.points) {
    OrbitRow r{
        pt.y[c.p], branch.shooting->period(branch.problem->u(pt.y)), false, multipliers(branch, pt.y), {}};
    r.stable = r.mu.size() == 0 || std::abs(r.mu[0]) < 1.0;
    r.values = shown_values(run, c, branch, pt.y);
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

Figure branch_figure(const HybridRun& run, const OrbitView& c, const BranchResult& branch,
                     const std::vector<OrbitRow>& rows, const std::vector<std::pair<double, double>>& diagram) {
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
    for (double v : shown_values(run, c, branch, sp.y)) f.labels.push_back({sp.y[c.p], v, sp.label()});
  return f;
}

}  // namespace

OrbitView orbit_view(const HybridRun& run, const BranchResult& found) {
  const auto names = run.system->state_names();
  OrbitView v;
  v.parameter = run.periodic->parameter.empty() ? run.fixed_parameter : run.periodic->parameter;
  v.p = found.problem->size() - 1;
  v.shown = run.sweep ? run.sweep->plot : run.section ? run.plot_y : names[0];
  v.iv = index_of(names, v.shown);
  return v;
}

Json orbit_summary(const HybridRun& run, const OrbitView& c, const BranchResult& found) {
  const Vector& orbit = found.branch.points[0].y;
  std::complex<double> trivial;
  double unresolved_bound = 0.0;
  const Eigen::VectorXcd mu = multipliers(found, orbit, &trivial, &unresolved_bound);
  const periodic::ShootingSystem& system = *found.shooting;
  const PeriodicSpec& spec = *run.periodic;
  const Vector u = found.problem->u(orbit);
  Json summary;
  summary["name"] = run.name;
  summary["autonomous"] = spec.autonomous;
  summary["period"] = system.period(u);
  summary["t0"] = system.start_time(u);
  summary["mode"] = run.system->mode_name(system.options().mode);
  summary["multipliers"] = complex_pairs(mu);
  if (unresolved_bound > 0.0) summary["unresolved_multipliers_within"] = unresolved_bound;
  if (spec.autonomous) summary["trivial_multiplier"] = {trivial.real(), trivial.imag()};
  summary["stable"] = mu.size() == 0 || std::abs(mu[0]) < 1.0;
  Json state = Json::object();
  const auto names = run.system->state_names();
  for (std::size_t i = 0; i < names.size(); ++i) state[names[i]] = orbit[i];
  summary["state"] = state;
  summary["parameters"] = {{c.parameter, orbit[c.p]}};
  summary["guess"] = found.info["guess"];
  if (run.section) {
    Json values = Json::array();
    for (double v : section_values(run, system, u, c.iv)) values.push_back(v);
    summary["section_" + c.shown] = values;
  }
  return summary;
}

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
std::vector<std::string> draw_orbit(const HybridRun& run, const BranchResult& found, const fs::path& dir) {
  const periodic::ShootingSystem& system = *found.shooting;
  const Vector u = found.problem->u(found.branch.points[0].y);
  const auto names = run.system->state_names();
  const int ix = index_of(names, run.plot_x), iy = index_of(names, run.plot_y);
  if (ix >= static_cast<int>(names.size()) || iy >= static_cast<int>(names.size())) return {};
  if (!figures_drawn()) return {};  // --no-figures: the orbit is simulated for the figure alone
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
  if (!warning.empty()) return {warning};
  return {};
}

std::vector<std::string> write_orbit_branch(const HybridRun& run, const OrbitView& c, const BranchResult& branch,
                                            const std::vector<std::pair<double, double>>& diagram,
                                            const fs::path& dir, Json* summary) {
  const Branch& b = branch.branch;
  fs::create_directories(dir);
  write_file_atomically(dir / "branch.csv", [&](std::ostream& o) { write_branch_csv(b, branch.sequences, o); });
  Json j = b.summary();
  (*summary)["branch"] = j;
  (*summary)["special_points"] = j["special_points"];
  for (std::size_t k = 0; k < b.special_points.size(); ++k)
    (*summary)["special_points"][k]["multipliers"] = complex_pairs(multipliers(branch, b.special_points[k].y));
  const std::vector<OrbitRow> rows = orbit_rows(run, c, branch);
  write_file_atomically(dir / "orbits.csv", [&](std::ostream& o) {
    o << c.parameter << ",period,stable,max_abs_multiplier," << c.shown << '\n' << std::setprecision(15);
    for (const auto& r : rows)
      for (double v : r.values)
        o << r.parameter << ',' << r.period << ',' << r.stable << ',' << (r.mu.size() ? std::abs(r.mu[0]) : 0.0)
          << ',' << v << '\n';
  });
  std::string warning;
  draw(branch_figure(run, c, branch, rows, diagram), dir, "branch", &warning);
  if (!warning.empty()) return {warning};
  return {};
}

}  // namespace saltus::studies
