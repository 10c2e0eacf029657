#include "studies/branch_files.h"

#include <cmath>
#include <complex>
#include <limits>
#include <optional>

#include "continuation/eigenvalues.h"
#include "continuation/flow/simulate.h"
#include "studies/output.h"

namespace saltus::studies {

namespace fs = std::filesystem;
using NamedBranch = BranchResult;

nlohmann::ordered_json summarize(const RunFile& run, const std::vector<NamedBranch>& branches) {
  nlohmann::ordered_json j;
  j["name"] = run.name;
  j["run_file"] = run.path.string();
  const Branch& first = branches.front().branch;
  j["stop_reason"] = to_string(first.stop_reason);
  j["message"] = first.message;
  j["points"] = first.points.size();
  if (run.expressions)
    j["expressions"] = {{"evaluated", run.expressions->compiled ? "compiled" : "interpreted"},
                        {"note", run.expressions->note}};
  if (run.restart) j["restart"] = {{"from", run.restart->dir.string()}, {"point", run.restart->label}};
  // The references after both keys are in: an ordered_json keeps its keys in
  // a vector, and a key added later moves the ones before it.
  j["special_points"] = nlohmann::ordered_json::array();
  j["branches"] = nlohmann::ordered_json::array();
  auto& specials = j["special_points"];
  auto& list = j["branches"];
  for (const auto& nb : branches) {
    nlohmann::ordered_json b = {{"name", nb.name}, {"file", nb.name + ".csv"}};
    b.update(nb.branch.summary());
    std::size_t k = 0;
    for (auto s : b["special_points"]) {
      s["branch"] = nb.name;
      if (nb.shooting) s.update(point_data(nb, nb.branch.special_points[k]));
      ++k;
      specials.push_back(s);
    }
    list.push_back(b);
  }
  return j;
}

namespace {

double plotted(const Branch& branch, const Vector& y, const std::string& axis) {
  if (axis == "max") return y.head(branch.state_size).lpNorm<Eigen::Infinity>();
  if (axis == "norm") return y.head(branch.state_size).norm() / std::sqrt(double(branch.state_size));
  return branch.component(y, axis);
}

Figure figure_of(const std::string& title, const std::string& x, const std::string& y,
                 const std::vector<const NamedBranch*>& branches) {
  Figure f;
  f.title = title;
  f.xlabel = x;
  f.ylabel = y == "max" ? "max |x_i|" : y == "norm" ? "|x| / sqrt(n)" : y;
  for (const NamedBranch* nb : branches) {
    Figure::Series s{nb->name, {}};
    for (const auto& p : nb->branch.points)
      s.points.emplace_back(plotted(nb->branch, p.y, x), plotted(nb->branch, p.y, y));
    f.series.push_back(std::move(s));
    for (const auto& sp : nb->branch.special_points)
      f.labels.push_back({plotted(nb->branch, sp.y, x), plotted(nb->branch, sp.y, y), sp.label()});
  }
  return f;
}

// One period of the orbit at the point y of a branch of orbits, sampled.
flow::Trajectory orbit_samples(const NamedBranch& nb, const Vector& y, int samples) {
  const auto& shooting = nb.shooting;
  const Vector u = u_of(nb.branch, y);
  const double T = shooting->period(u);
  flow::SimulationOptions plain = shooting->options().simulation;
  plain.variational = false;
  plain.output_interval = T / samples;
  const double t0 = shooting->options().t0;
  return flow::simulate(*shooting->hybrid(), shooting->options().mode, t0, shooting->hybrid_state(u), t0 + T,
                        plain);
}

// The one-parameter branches against the plot axes. Where the points carry
// stability they are drawn as points, stable filled and unstable open:
// equilibria by their eigenvalues, orbits by their multipliers. Cycles born
// at a Hopf point, drawn among equilibria, show the plotted quantity's range
// over the orbit (its maximum and minimum).
Figure branch_figure(const RunFile& run, const std::vector<const NamedBranch*>& branches) {
  Figure f = figure_of(run.periodic ? run.name + ": periodic orbits" : run.name, run.plot.x, run.plot.y, {});
  for (const NamedBranch* nb : branches) {
    const bool extent = nb->shooting && !run.periodic;
    auto ys = [&](const Vector& y) {
      if (!extent) return std::vector<double>{plotted(nb->branch, y, run.plot.y)};
      const int n = nb->branch.state_size - 1;  // the unknowns, then T
      const auto& names = nb->branch.names;
      const auto unknown = std::find(names.begin(), names.begin() + n, run.plot.y) - names.begin();
      if (unknown == n && run.plot.y != "max" && run.plot.y != "norm")
        return std::vector<double>{plotted(nb->branch, y, run.plot.y)};  // a parameter, or T
      double lo = std::numeric_limits<double>::infinity(), hi = -lo;
      for (const auto& x : orbit_samples(*nb, y, 200).x) {
        const double v = run.plot.y == "max"    ? x.head(n).lpNorm<Eigen::Infinity>()
                         : run.plot.y == "norm" ? x.head(n).norm() / std::sqrt(double(n))
                                                : x[unknown];
        lo = std::min(lo, v), hi = std::max(hi, v);
      }
      return std::vector<double>{hi, lo};
    };
    Figure::Series line{nb->name, {}};
    Figure::Series stable{nb->name + " stable", {}, "points", "pt 7 ps 0.6"};
    Figure::Series unstable{nb->name + " unstable", {}, "points", "pt 6 ps 0.6"};
    for (const auto& p : nb->branch.points) {
      const std::optional<bool> s = stable_at(*nb, p);
      if (nb->shooting && !s) continue;  // the orbit cannot be simulated: not drawn
      const double x = plotted(nb->branch, p.y, run.plot.x);
      for (double y : ys(p.y)) (!s ? line : *s ? stable : unstable).points.emplace_back(x, y);
    }
    for (auto* series : {&line, &stable, &unstable})
      if (!series->points.empty()) f.series.push_back(std::move(*series));
    for (const auto& sp : nb->branch.special_points)
      f.labels.push_back({plotted(nb->branch, sp.y, run.plot.x), ys(sp.y).front(), sp.label()});
  }
  return f;
}

// The orbits at the start and at the special points of the branches of
// orbits, in the phase plane.
Figure orbits_figure(const RunFile& run, const std::vector<NamedBranch>& branches) {
  const auto& phase = run.periodic ? run.periodic->phase : run.hopf_cycles->phase;
  Figure f{run.name + ": orbits at the special points", phase[0], phase[1], {}, {}};
  const std::string parameter = run.continuation_parameters[0];
  auto add_orbit = [&](const NamedBranch& nb, const Vector& y, const std::string& what) {
    const auto names = nb.shooting->hybrid()->state_names();
    const auto ix = std::find(names.begin(), names.end(), phase[0]) - names.begin();
    const auto iy = std::find(names.begin(), names.end(), phase[1]) - names.begin();
    std::ostringstream title;
    title << what << ", " << parameter << " = " << std::setprecision(6) << nb.branch.component(y, parameter);
    Figure::Series s{title.str(), {}, "lines", ""};
    for (const auto& x : orbit_samples(nb, y, 400).x) s.points.emplace_back(x[ix], x[iy]);
    f.series.push_back(std::move(s));
  };
  for (const auto& nb : branches) {
    if (!nb.shooting || nb.branch.points.empty()) continue;
    if (&nb == &branches.front() || nb.name == "cycles")
      add_orbit(nb, nb.branch.points.front().y, "start (" + nb.name + ")");
    for (const auto& sp : nb.branch.special_points)
      if (sp.type != "EP") add_orbit(nb, sp.y, sp.type + " (" + nb.name + ")");
  }
  return f;
}

}  // namespace

std::vector<fs::path> write_outputs(const RunFile& run, const std::vector<NamedBranch>& branches,
                                    const fs::path& dir, std::vector<std::string>* warnings) {
  fs::create_directories(dir);
  std::vector<fs::path> files;
  for (const auto& nb : branches) {
    const fs::path csv = dir / (nb.name + ".csv");
    write_file_atomically(csv, [&](std::ostream& out) { nb.branch.write_csv(out); });
    files.push_back(csv);
  }
  const fs::path summary = dir / "summary.json";
  write_file_atomically(summary, [&](std::ostream& out) { out << summarize(run, branches).dump(2) << '\n'; });
  files.push_back(summary);

  // The one-parameter branches share a figure; a fold curve gets its own, in
  // its two parameters.
  std::vector<const NamedBranch*> one_parameter;
  for (const auto& nb : branches)
    if (nb.name != "fold_curve" && nb.name != "hopf_curve" && nb.branch.points.size() > 0)
      one_parameter.push_back(&nb);
  std::vector<Drawing> drawings;
  auto add = [&](Figure f, const std::string& stem) {
    if (!f.series.empty()) drawings.push_back({stem, std::move(f)});  // else a branch that did not start
  };
  add(branch_figure(run, one_parameter), "branch");
  if (run.periodic || run.hopf_cycles) add(orbits_figure(run, branches), "orbits");
  // The curves in two parameters: the fold curve on its own, and with a Hopf
  // curve both in one figure (when they share the parameters).
  const NamedBranch* fold = nullptr;
  const NamedBranch* hopf = nullptr;
  for (const auto& nb : branches) {
    if (nb.branch.points.empty()) continue;
    if (nb.name == "fold_curve") fold = &nb;
    if (nb.name == "hopf_curve") hopf = &nb;
  }
  if (fold)
    add(figure_of(run.name + ": fold curve", run.fold_curve->parameters[0], run.fold_curve->parameters[1],
                  {fold}),
        "fold_curve");
  if (hopf) {
    std::vector<const NamedBranch*> curves = {hopf};
    if (fold && run.fold_curve->parameters == run.hopf_curve->parameters) curves.push_back(fold);
    add(figure_of(run.name + ": curves", run.hopf_curve->parameters[0], run.hopf_curve->parameters[1],
                  curves),
        "curves");
  }
  for (auto& p : draw(drawings, dir, warnings)) files.push_back(p);
  return files;
}

}  // namespace saltus::studies
