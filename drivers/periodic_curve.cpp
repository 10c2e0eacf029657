#include "drivers/periodic_curve.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <sstream>

#include "studies/map_files.h"
#include "studies/output.h"
#include "studies/study.h"
#include "testfunctions/cycle_codim2.h"

namespace saltus::drivers {

namespace fs = std::filesystem;

namespace {

// Every curve of one parameter pair in one figure, each from its start,
// with its codimension-2 points; the second parameter is the last of y.
Figure curves_figure(const HybridRun& run, const std::vector<const CurveSpec*>& specs,
                     const std::vector<const Branch*>& curves, int i1) {
  Figure f{run.name + ": curves in two parameters", specs.front()->first, specs.front()->second, {}, {}};
  for (std::size_t k = 0; k < specs.size(); ++k) {
    Figure::Series line{studies::curve_kind_text(specs[k]->kind), {}, "linespoints", "pt 7 ps 0.4"};
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

bool two_parameter_curves(const studies::BranchResult& branch, const fs::path& dir, Json* summary,
                          const studies::Progress& progress, std::vector<std::string>* warnings,
                          std::string* why) {
  const HybridRun& run = *branch.hybrid;
  const auto& specs = run.periodic->curves;
  const bool list = run.periodic->curve_list;
  std::vector<Figure::Series> map;  // --over-map (checked by check_curve_map)
  std::string map_x, map_y;
  if (!run.periodic->curve_map.empty()) map = map_backdrop(run.periodic->curve_map, &map_x, &map_y);
  std::vector<studies::BranchResult> followed = {branch};
  try {
    studies::continue_run_follow_ups(&followed, progress);
  } catch (const RunFileError& e) {
    *why = e.what();
  }
  std::vector<Branch> curves;
  Json all = Json::array();
  for (std::size_t k = 0; k + 1 < followed.size(); ++k) {
    curves.push_back(std::move(followed[k + 1].branch));
    const std::string file = list ? "curve_" + std::to_string(k + 1) + ".csv" : "curve.csv";
    write_file_atomically(dir / file, [&](std::ostream& o) { curves[k].write_csv(o); });
    Json c = curves[k].summary();
    c["kind"] = specs[k].kind;
    c["parameters"] = {specs[k].first, specs[k].second};
    if (list) c["file"] = file;
    all.push_back(c);
  }
  if (why->empty() && followed.size() != specs.size() + 1)
    *why = "'periodic.curve': the branch of orbits did not start: " + branch.branch.message;
  if (!why->empty()) return false;
  if (list)
    (*summary)["curves"] = all;
  else
    (*summary)["curve"] = all[0];
  // One figure per parameter pair.
  std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> pairs;
  for (std::size_t k = 0; k < specs.size(); ++k) pairs[{specs[k].first, specs[k].second}].push_back(k);
  const int m = branch.shooting->state_size();
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
