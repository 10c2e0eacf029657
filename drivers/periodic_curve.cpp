#include "drivers/periodic_curve.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <sstream>

#include "continuation/pseudo_arclength.h"
#include "drivers/map_command.h"
#include "drivers/output.h"
#include "drivers/progress.h"
#include "models/expression.h"
#include "studies/study.h"
#include "testfunctions/cycle_codim2.h"

namespace saltus::drivers {

namespace fs = std::filesystem;

namespace {

// T(p1, p2) of a forced model with both parameters carried, and dT/dp
// exactly (a Jet through the forcing-period expression).
std::function<double(const Vector&, Vector*)> period_of_two(const HybridRun& run, const CurveSpec& curve) {
  std::vector<std::string> names;
  std::vector<double> values;
  int first = -1, second = -1;
  for (const auto& p : run.system->parameters()) {
    if (p.name == curve.first) first = static_cast<int>(names.size());
    if (p.name == curve.second) second = static_cast<int>(names.size());
    names.push_back(p.name);
    values.push_back(p.value);
  }
  const models::Expression period = models::Expression::parse(run.forcing_period_expression, names);
  return [period, values, first, second](const Vector& p, Vector* dT_dp) {
    using J = ceres::Jet<double, 2>;
    std::vector<J> v(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) v[i] = J(values[i]);
    v[first] = J(p[0], 0);
    v[second] = J(p[1], 1);
    const J T = period.evaluate<J>(v.data());
    if (dT_dp) *dT_dp = T.v;
    return T.a;
  };
}

// The shooting problem with both parameters carried; *u = (y, p2) from a
// point y = (x, [T,] p1) of the branch, cut where that point was (the cut
// moves along a branch: ShootingSystem::recut).
periodic::ShootingSystem shooting_in_two(const HybridRun& run, const ShootingStart& start,
                                         const CurveSpec& cs, const Branch& branch, const Vector& y,
                                         Vector* u) {
  const auto hybrid = run.system->with_parameters_in_state({cs.first, cs.second}, run.wrapped_angles);
  periodic::ShootingOptions options = start.system->options();
  for (const auto& pt : branch.points)
    if (pt.y == y && std::isfinite(pt.cut))
      options = start.system->at_cut(pt.cut, start.problem->u(y))->options();
  if (options.period_of) options.period_of = period_of_two(run, cs);
  const int m = start.system->state_size();
  u->resize(m + 2);
  *u << y, run.system->parameter(cs.second);
  Vector reference;  // (x, p1, p2) for the phase condition of an autonomous orbit
  if (options.autonomous) {
    reference.resize(m + 1);
    reference << u->head(m - 1), u->tail(2);
  }
  return periodic::ShootingSystem(hybrid, 2, options, reference);
}

std::string kind_text(const std::string& kind) {
  return kind == "GR"    ? "grazing (GR)"
         : kind == "LPC" ? "fold of cycles (LPC)"
         : kind == "NS"  ? "Neimark-Sacker point (NS)"
                         : "period doubling (PD)";
}

// The curve of one spec, or false with *why.
bool follow(const HybridRun& run, const ShootingStart& start, const CurveSpec& cs,
            const std::vector<GrazingStart>& grazings, const Branch& branch, Branch* curve,
            std::string* why) {
  std::shared_ptr<System> system;
  Vector u;
  if (cs.kind == "GR") {
    if (grazings.empty()) {
      *why = "'periodic.curve': the branch has no located grazing (GR) to start the curve from";
      return false;
    }
    const auto shooting = shooting_in_two(run, start, cs, branch, grazings.front().y, &u);
    system = std::make_shared<periodic::GrazingSystem>(shooting, grazings.front().contact, u);
  } else {
    const SpecialPoint* from = nullptr;
    for (const auto& sp : branch.special_points)
      if (!from && sp.type == cs.kind && sp.status == EventStatus::kLocated) from = &sp;
    if (!from) {
      *why = "'periodic.curve': the branch has no located " + kind_text(cs.kind) +
             " to start the curve from (widen 'periodic.bounds' or start the branch elsewhere)";
      return false;
    }
    const auto shooting = shooting_in_two(run, start, cs, branch, from->y, &u);
    try {
      system = studies::cycle_curve_system(shooting, cs.kind, &u);
    } catch (const std::invalid_argument& e) {
      *why = "'periodic.curve': the " + kind_text(cs.kind) + " curve cannot start: " + e.what();
      return false;
    } catch (const std::logic_error& e) {
      *why = "'periodic.curve': model '" + run.model + "' cannot give " + cs.kind + " curves: " + e.what();
      return false;
    }
  }
  const ContinuationProblem problem(system, Vector::Constant(1, u[u.size() - 1]), {cs.second});
  const std::string label = cs.kind + " curve in (" + cs.first + ", " + cs.second + ")";
  if (run.progress) run.progress->set_stage(label + ": starting");
  *curve = continue_branch(problem, u, staging_points(cs.options, run.progress, label, {cs.first, cs.second}),
                           cycle_curve_tests(cs.kind));
  if (!curve->usable()) {
    *why = "'periodic.curve': the " + kind_text(cs.kind) + " curve could not start: " + curve->message;
    return false;
  }
  return true;
}

// At a GR-PD-LPC point of a grazing curve (testfunctions/grazing_codim2.h),
// the side of it, in the first parameter, where the impacting orbit's PD
// curve lies beside the grazing curve (test value < 0 at the neighbouring
// point) and the side of its LPC curve (> 0).
void add_sides(const CurveSpec& cs, int i1, Branch* curve) {
  const auto column = std::find(curve->test_names.begin(), curve->test_names.end(), "GR-PD-LPC");
  if (column == curve->test_names.end()) return;
  const auto k = static_cast<std::size_t>(column - curve->test_names.begin());
  for (auto& sp : curve->special_points) {
    if (sp.type != "GR-PD-LPC" || sp.index < 0) continue;
    for (int j : {sp.index - 1, sp.index + 1}) {
      if (j < 0 || j >= static_cast<int>(curve->points.size()) || curve->points[j].tests.size() <= k)
        continue;
      const auto& p = curve->points[j];
      std::ostringstream side;
      side << cs.first << (p.y[i1] > sp.y[i1] ? " > " : " < ") << std::setprecision(10) << sp.y[i1];
      sp.data[p.tests[k] < 0 ? "pd_side" : "lpc_side"] = side.str();
    }
  }
}

// Every curve of one parameter pair in one figure, each from its start,
// with its codimension-2 points; the second parameter is the last of y.
Figure curves_figure(const HybridRun& run, const std::vector<const CurveSpec*>& specs,
                     const std::vector<const Branch*>& curves, int i1) {
  Figure f{run.name + ": curves in two parameters", specs.front()->first, specs.front()->second, {}, {}};
  for (std::size_t k = 0; k < specs.size(); ++k) {
    Figure::Series line{kind_text(specs[k]->kind), {}, "linespoints", "pt 7 ps 0.4"};
    for (const auto& p : curves[k]->points) line.points.emplace_back(p.y[i1], p.y[p.y.size() - 1]);
    f.series.push_back(line);
    const auto& y = curves[k]->points.front().y;
    f.labels.push_back({y[i1], y[y.size() - 1], specs[k]->kind + " start"});
    for (const auto& sp : curves[k]->special_points)
      if (sp.type != "EP") f.labels.push_back({sp.y[i1], sp.y[sp.y.size() - 1], sp.label()});
  }
  return f;
}

// The map under the curves of the pair (first, second): its series with
// the axes swapped when the map is over (second, first); none when it is
// over other parameters.
std::vector<Figure::Series> backdrop_for(const std::vector<Figure::Series>& map, const std::string& x,
                                         const std::string& y, const std::string& first,
                                         const std::string& second) {
  if (x == first && y == second) return map;
  if (x != second || y != first) return {};
  auto swapped = map;
  for (auto& s : swapped)
    for (auto& [a, b] : s.points) std::swap(a, b);
  return swapped;
}

}  // namespace

void check_curve_map(const PeriodicSpec& spec, const fs::path& csv) {
  std::string x, y;
  std::vector<Figure::Series> map;
  try {
    map = map_backdrop(csv, &x, &y);
  } catch (const RunFileError& e) {
    throw RunFileError(std::string("--over-map ") + e.what());
  }
  if (spec.curves.empty())
    throw RunFileError("--over-map " + csv.string() +
                       ": the run file has no 'periodic.curve' to draw over it");
  for (const auto& c : spec.curves)
    if (!backdrop_for(map, x, y, c.first, c.second).empty()) return;
  throw RunFileError("--over-map " + csv.string() + ": the map is over (" + x + ", " + y +
                     "), the curves over (" + spec.curves.front().first + ", " + spec.curves.front().second +
                     "): give a map of the curves' two parameters");
}

bool two_parameter_curves(const HybridRun& run, const ShootingStart& start,
                          const std::vector<GrazingStart>& grazings, const Branch& branch,
                          const fs::path& dir, Json* summary, std::vector<std::string>* warnings,
                          std::string* why) {
  const auto& specs = run.periodic->curves;
  const bool list = run.periodic->curve_list;
  std::vector<Figure::Series> map;  // --over-map (checked by check_curve_map)
  std::string map_x, map_y;
  if (!run.periodic->curve_map.empty()) map = map_backdrop(run.periodic->curve_map, &map_x, &map_y);
  std::vector<Branch> curves(specs.size());
  Json all = Json::array();
  for (std::size_t k = 0; k < specs.size(); ++k) {
    if (!follow(run, start, specs[k], grazings, branch, &curves[k], why)) return false;
    add_sides(specs[k], start.system->state_size(), &curves[k]);
    const std::string file = list ? "curve_" + std::to_string(k + 1) + ".csv" : "curve.csv";
    write_file_atomically(dir / file, [&](std::ostream& o) { curves[k].write_csv(o); });
    Json c = curves[k].summary();
    c["kind"] = specs[k].kind;
    c["parameters"] = {specs[k].first, specs[k].second};
    if (list) c["file"] = file;
    all.push_back(c);
  }
  if (list)
    (*summary)["curves"] = all;
  else
    (*summary)["curve"] = all[0];
  // One figure per parameter pair.
  std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> pairs;
  for (std::size_t k = 0; k < specs.size(); ++k) pairs[{specs[k].first, specs[k].second}].push_back(k);
  const int m = start.system->state_size();
  std::vector<Drawing> drawings;
  for (const auto& [pair, members] : pairs) {
    std::vector<const CurveSpec*> s;
    std::vector<const Branch*> b;
    for (std::size_t k : members) s.push_back(&specs[k]), b.push_back(&curves[k]);
    Figure f = curves_figure(run, s, b, m);
    auto under = backdrop_for(map, map_x, map_y, pair.first, pair.second);
    for (auto& line : f.series)
      if (!under.empty()) line.style_options += " lw 2.5";
    f.series.insert(f.series.begin(), under.begin(), under.end());
    drawings.push_back({list ? "curves_" + pair.first + "_" + pair.second : "curve", std::move(f)});
  }
  draw(drawings, dir, warnings);
  return true;
}

}  // namespace saltus::drivers
