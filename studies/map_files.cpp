#include "studies/map_files.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>

namespace saltus::studies {

namespace fs = std::filesystem;

namespace {

std::string class_of(const MapResult& map, int k, int max_period) {
  const MapPoint& p = map.points[k];
  return map_class(p.distinct, !p.settled.failure.empty(), max_period);
}

// The classes in the legend's order: period-1, period-2, ..., chaotic, escaped, no hits.
int class_order(const std::string& c) {
  if (c.rfind("period-", 0) == 0) return std::stoi(c.substr(7));
  return c == "chaotic" ? 1000 : c == "escaped" ? 1001 : 1002;
}

std::string class_colour(const std::string& c) {
  static const char* const periods[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                        "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};
  if (c == "chaotic") return "#000000";
  if (c == "escaped") return "#c8c8c8";
  if (c == "no hits") return "#f5deb3";
  return periods[(class_order(c) - 1) % 10];
}

// A grid point of a map and its class.
struct Cell {
  double x, y;
  std::string c;
};

// One series per class in the legend's order, squares about one grid cell
// wide (the plot is some 650 x 500 pixels; a point of size 1 some 6 pixels);
// faded (each colour halfway to white) under other lines.
std::vector<Figure::Series> class_series(const std::vector<Cell>& cells, int x_steps, int y_steps,
                                         bool faded = false) {
  const double cell = std::min(650.0 / x_steps, 500.0 / y_steps);
  std::ostringstream size;
  size << "pt 5 ps " << std::clamp(cell / 6.0, 0.2, 5.0);
  std::map<int, Figure::Series> by_class;
  for (const Cell& p : cells) {
    auto [it, fresh] = by_class.try_emplace(class_order(p.c));
    std::string colour = class_colour(p.c);
    if (faded) {
      const unsigned rgb = std::stoul(colour.substr(1), nullptr, 16);
      std::ostringstream half;
      half << '#' << std::hex << std::setfill('0');
      for (int shift : {16, 8, 0}) half << std::setw(2) << (((rgb >> shift) & 0xff) + 0xff + 1) / 2;
      colour = half.str();
    }
    if (fresh) it->second = {p.c, {}, "points", size.str() + " lc rgb '" + colour + "'"};
    it->second.points.emplace_back(p.x, p.y);
  }
  std::vector<Figure::Series> series;
  for (auto& [o, s] : by_class) series.push_back(std::move(s));
  return series;
}

void write_map_csv(const HybridRun& run, const MapResult& map, const fs::path& dir) {
  const MapSpec& spec = *run.map;
  write_file_atomically(dir / "map.csv", [&](std::ostream& o) {
    o << spec.x.label() << ',' << spec.y.label() << ",class,period,distinct_hits,events"
      << (spec.lyapunov ? ",lyapunov" : "") << '\n'
      << std::setprecision(15);
    for (int k = 0; k < static_cast<int>(map.points.size()); ++k) {
      if (!map.done[k]) continue;
      const MapPoint& p = map.points[k];
      const std::string c = class_of(map, k, spec.max_period);
      o << axis_value(spec.x, k % spec.x.steps) << ',' << axis_value(spec.y, k / spec.x.steps) << ',' << c
        << ',' << (c.rfind("period-", 0) == 0 ? p.distinct : 0) << ',' << p.distinct << ','
        << p.settled.events;
      if (spec.lyapunov) o << ',' << p.lyapunov;
      o << '\n';
    }
  });
}

std::vector<std::string> draw_map(const HybridRun& run, const MapResult& map, const fs::path& dir) {
  const MapSpec& spec = *run.map;
  std::ostringstream section;
  section << run.section->variable << " = " << run.section->value
          << (run.section->angle ? " (mod 2 pi)" : "");
  std::vector<Cell> cells;
  for (int k = 0; k < static_cast<int>(map.points.size()); ++k)
    if (map.done[k])
      cells.push_back({axis_value(spec.x, k % spec.x.steps), axis_value(spec.y, k / spec.x.steps),
                       class_of(map, k, spec.max_period)});
  Figure f{run.name + ": attractors on the section " + section.str(), spec.x.label(), spec.y.label(), {}, {}};
  f.series = class_series(cells, spec.x.steps, spec.y.steps);
  std::string warning;
  draw(f, dir, "map", &warning);
  if (!warning.empty()) return {warning};
  return {};
}

}  // namespace

Json map_summary(const HybridRun& run, const MapResult& map) {
  const MapSpec& spec = *run.map;
  Json summary;
  summary["name"] = run.name;
  summary["status"] = map.interrupted ? "interrupted" : "finished";
  for (const auto* a : {&spec.x, &spec.y})
    summary[a == &spec.x ? "x" : "y"] = {
        {"parameter", a->label()}, {"from", a->from}, {"to", a->to}, {"steps", a->steps}};
  summary["points"] = spec.x.steps * spec.y.steps;
  summary["seed"] = spec.seed_rows ? "rows" : "none";
  summary["max_period"] = spec.max_period;
  summary["tolerance"] = spec.tolerance;
  int done = 0;
  std::map<std::string, int> counts;
  Json failures = Json::array();  // why points escaped: the first 100
  for (int k = 0; k < static_cast<int>(map.points.size()); ++k) {
    if (!map.done[k]) continue;
    ++counts[class_of(map, k, spec.max_period)], ++done;
    const std::string& failure = map.points[k].settled.failure;
    if (!failure.empty() && failures.size() < 100)
      failures.push_back({{spec.x.label(), axis_value(spec.x, k % spec.x.steps)},
                          {spec.y.label(), axis_value(spec.y, k / spec.x.steps)},
                          {"message", failure}});
  }
  if (map.interrupted) summary["points_done"] = done;
  std::vector<std::pair<int, std::string>> order;
  for (const auto& [c, n] : counts) order.emplace_back(class_order(c), c);
  std::sort(order.begin(), order.end());
  Json classes = Json::object();
  for (const auto& [o, c] : order) classes[c] = counts[c];
  summary["classes"] = classes;
  summary["failures"] = failures;
  return summary;
}

std::vector<std::string> write_map(const HybridRun& run, const MapResult& map, const fs::path& dir) {
  fs::create_directories(dir);
  write_map_csv(run, map, dir);
  const Json summary = map_summary(run, map);
  write_file_atomically(dir / "summary.json", [&](std::ostream& o) { o << summary.dump(2) << '\n'; });
  return draw_map(run, map, dir);
}

std::vector<Figure::Series> map_backdrop(const fs::path& csv, std::string* x, std::string* y) {
  std::ifstream in(csv);
  if (!in) throw RunFileError(csv.string() + ": cannot be read (give the map.csv of a `saltus map` run)");
  const auto columns = [](const std::string& line) {
    std::vector<std::string> c;
    for (std::stringstream ss(line); std::getline(ss, c.emplace_back(), ',');) {
    }
    c.pop_back();
    return c;
  };
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = columns(line);
  if (header.size() < 3 || header[2] != "class")
    throw RunFileError(csv.string() + ": not a map.csv of `saltus map` (its header is '" +
                       line.substr(0, 80) + "'; expected 'x,y,class,...')");
  *x = header[0], *y = header[1];
  std::vector<Cell> cells;
  std::set<double> xs, ys;
  for (int row = 2; std::getline(in, line); ++row) {
    const std::vector<std::string> c = columns(line);
    char* end_x = nullptr;
    char* end_y = nullptr;
    const double vx = c.size() >= 3 ? std::strtod(c[0].c_str(), &end_x) : 0.0;
    const double vy = c.size() >= 3 ? std::strtod(c[1].c_str(), &end_y) : 0.0;
    if (c.size() < 3 || end_x == c[0].c_str() || end_y == c[1].c_str() || !std::isfinite(vx) ||
        !std::isfinite(vy))
      throw RunFileError(csv.string() + ": line " + std::to_string(row) + " is not 'x,y,class,...' (" +
                         line.substr(0, 80) + ")");
    const std::string& k = c[2];
    const bool period = k.size() > 7 && k.size() < 12 && k.rfind("period-", 0) == 0 && k[7] != '0' &&
                        k.find_first_not_of("0123456789", 7) == std::string::npos;
    if (!period && k != "chaotic" && k != "escaped" && k != "no hits")
      throw RunFileError(csv.string() + ": line " + std::to_string(row) + ": '" + k.substr(0, 40) +
                         "' is not a class of `saltus map` (period-N, chaotic, escaped, no hits)");
    cells.push_back({vx, vy, k});
    xs.insert(vx), ys.insert(vy);
  }
  if (cells.empty()) throw RunFileError(csv.string() + ": the map has no points");
  return class_series(cells, static_cast<int>(xs.size()), static_cast<int>(ys.size()), true);
}

}  // namespace saltus::studies
