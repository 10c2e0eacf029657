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
#include "studies/orbit_files.h"
#include "studies/output.h"
#include "studies/periodic_orbit.h"
#include "studies/sweep_files.h"
#include "studies/trajectory_files.h"
#include "testfunctions/floquet.h"
#include "testfunctions/fold.h"
#include "testfunctions/grazing.h"

namespace saltus::drivers {

namespace fs = std::filesystem;

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

using PeriodicContext = OrbitView;

// The brute-force diagram underneath: a named sweep CSV, else the run's sweep.
std::vector<std::pair<double, double>> diagram_under(const HybridRun& run, const PeriodicContext& c,
                                                     const fs::path& dir, std::ostream& err) {
  std::vector<std::pair<double, double>> diagram;
  std::string warning;
  if (!run.periodic->diagram.empty()) {
    diagram = read_diagram(run.periodic->diagram, c.parameter, c.shown, &warning);
  } else if (run.sweep && run.section) {
    studies::SweepResult sweep;
    {
      CtrlC ctrl_c;
      sweep = studies::sweep(run, grid_control({}, dir, err));
    }
    if (sweep.writer) {
      for (const auto& w : write_sweep(run, sweep, dir)) err << "saltus periodic: warning: " << w << '\n';
      if (!sweep.interrupted) remove_journal(dir, "sweep");
    }
    if (sweep.writer && !sweep.interrupted)
      diagram = read_diagram(dir / "sweep.csv", run.sweep->parameter, c.shown, &warning);
    else if (sweep.writer)
      warning = "the sweep under the branch was interrupted: no diagram drawn; `saltus sweep " +
                run.path.string() + " --out " + dir.string() + " --resume` completes it";
    if (run.sweep->parameter != c.parameter)
      warning = "the sweep is in " + run.sweep->parameter + ", the branch in " + c.parameter, diagram.clear();
  }
  if (!warning.empty()) err << "saltus periodic: warning: " << warning << '\n';
  return diagram;
}

// The orbit's branch in the run's parameter with LPC, PD, NS (and GR)
// located (studies::continue_orbits): branch.csv, orbits.csv, branch.png
// and summary.json (and the curves' files); the branch and its special
// points (with their multipliers) go into *summary. False with *why when a
// curve cannot start.
bool continue_orbit(const HybridRun& run, const PeriodicContext& c, const BranchResult& found,
                    const fs::path& dir, Json* summary, std::ostream& err, const studies::Progress& progress,
                    std::string* why) {
  const studies::BranchResult branch = studies::continue_orbits(found, progress);
  const auto diagram = diagram_under(run, c, dir, err);
  for (const auto& w : write_orbit_branch(run, c, branch, diagram, dir, summary))
    err << "saltus periodic: warning: " << w << '\n';
  bool ok = true;
  if (!run.periodic->curves.empty()) {
    std::vector<std::string> warnings;
    ok = two_parameter_curves(branch, dir, summary, progress, &warnings, why);
    for (const auto& w : warnings) err << "saltus periodic: warning: " << w << '\n';
  }
  write_file_atomically(dir / "summary.json", [&](std::ostream& o) { o << summary->dump(2) << '\n'; });
  return ok;
}

void print_orbit(const HybridRun& run, const PeriodicContext& c, const Vector& orbit, const Json& summary,
                 const std::vector<std::string>& written, std::ostream& out) {
  const bool autonomous = run.periodic->autonomous;
  out << run.name << ": periodic orbit at " << c.parameter << " = " << std::setprecision(10) << orbit[c.p]
      << ", period " << summary["period"].get<double>() << (autonomous ? " (autonomous)" : "") << ", "
      << (summary["stable"].get<bool>() ? "stable" : "unstable") << "\n  multipliers";
  for (const auto& mu : summary["multipliers"])
    out << " [" << mu[0].get<double>() << ", " << mu[1].get<double>() << "]";
  if (summary.contains("unresolved_multipliers_within"))
    out << (summary["multipliers"].empty() ? " (the leading ones) all" : ", the other leading ones")
        << " within |mu| <= " << std::setprecision(4)
        << summary["unresolved_multipliers_within"].get<double>() << std::setprecision(10)
        << " (a cluster, not resolved one by one)";
  if (autonomous)
    out << "\n  trivial multiplier [" << summary["trivial_multiplier"][0].get<double>() << ", "
        << summary["trivial_multiplier"][1].get<double>() << "]";
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
  const PeriodicContext c = orbit_view(run, found);
  const Vector orbit = found.branch.points[0].y;
  Json summary = orbit_summary(run, c, found);
  fs::create_directories(dir);
  for (const auto& w : draw_orbit(run, found, dir)) err << "saltus periodic: warning: " << w << '\n';
  std::string why;
  if (!run.periodic->parameter.empty() && !continue_orbit(run, c, found, dir, &summary, err, staged, &why)) {
    err << "saltus periodic: " << run.path.string() << ": " << why << '\n';
    return 2;
  }
  if (json)
    out << summary.dump(2) << '\n';
  else
    print_orbit(run, c, orbit, summary, {dir.string()}, out);
  return 0;
}

}  // namespace saltus::drivers
