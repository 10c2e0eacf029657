// `saltus map RUNFILE`: a two-parameter brute-force map of a hybrid model's
// attractors (period on the section, chaotic, escaped), run through the grid
// runner (drivers/grid_runner.h): journal, --resume, Ctrl-C.

#include "drivers/map_command.h"

#include <fstream>
#include <iomanip>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "continuation/worker_threads.h"
#include "drivers/attractor.h"
#include "drivers/grid_runner.h"
#include "studies/map_study.h"
#include "studies/output.h"
#include "studies/periodic_orbit.h"

namespace saltus::drivers {

namespace fs = std::filesystem;

using studies::axis_value;

std::string map_class(const Json& record, int max_period) {
  if (record.contains("failure")) return "escaped";
  return studies::map_class(record["distinct_hits"].get<int>(), false, max_period);
}

namespace {

// Grid point k from its left neighbour's record in a seeded row
// (studies::map_point).
Json map_record(const HybridRun& run, int k, const Json* previous) {
  studies::MapPoint before;
  if (previous) {
    before.settled.end = state_of(*previous);
    if (previous->contains("failure")) before.settled.failure = (*previous)["failure"].get<std::string>();
  }
  const studies::MapPoint p = studies::map_point(run, k, previous ? &before : nullptr);
  Json record;
  put_state(p.settled.end, &record);
  record["distinct_hits"] = p.distinct;
  record["events"] = p.settled.events;
  if (run.map->lyapunov) record["lyapunov"] = json_double(p.lyapunov);
  if (!p.settled.failure.empty()) record["failure"] = p.settled.failure;
  return record;
}

// A record of map_record read back from the journal: its state (the next
// point's start in a seeded row unless it failed), the distinct hits as
// map_record counts them (up to max_period + 1), the event count, the
// exponent when the map asks for it, a failure's message.
void check_map_record(const HybridRun& run, const Json& r) {
  const MapSpec& spec = *run.map;
  std::vector<std::string> required{"mode", "t", "x", "distinct_hits", "events"};
  if (spec.lyapunov) required.push_back("lyapunov");
  record::keys(r, required, {"failure"});
  const bool failed = r.contains("failure");
  if (failed) record::text(r, "failure");
  check_state(r, run.modes, run.system->dimension(), !failed);
  record::integer(r, "distinct_hits", 0, spec.max_period + 1);
  record::integer(r, "events", 0, std::numeric_limits<int>::max());
  if (spec.lyapunov) record::real(r["lyapunov"], "lyapunov", false);
}

void write_map_csv(const HybridRun& run, const GridRun& grid, const fs::path& dir) {
  const MapSpec& spec = *run.map;
  write_file_atomically(dir / "map.csv", [&](std::ostream& o) {
    o << spec.x.label() << ',' << spec.y.label() << ",class,period,distinct_hits,events"
      << (spec.lyapunov ? ",lyapunov" : "") << '\n'
      << std::setprecision(15);
    for (int k = 0; k < static_cast<int>(grid.records.size()); ++k) {
      const Json& r = grid.records[k];
      if (r.is_null()) continue;
      const std::string c = map_class(r, spec.max_period);
      o << axis_value(spec.x, k % spec.x.steps) << ',' << axis_value(spec.y, k / spec.x.steps) << ',' << c
        << ',' << (c.rfind("period-", 0) == 0 ? r["distinct_hits"].get<int>() : 0) << ','
        << r["distinct_hits"].get<int>() << ',' << r["events"].get<int>();
      if (spec.lyapunov) o << ',' << double_of(r["lyapunov"]);
      o << '\n';
    }
  });
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

Json map_summary(const HybridRun& run, const GridRun& grid, std::map<std::string, int>* counts) {
  const MapSpec& spec = *run.map;
  Json summary;
  summary["name"] = run.name;
  summary["status"] = grid.interrupted ? "interrupted" : "finished";
  for (const auto* a : {&spec.x, &spec.y})
    summary[a == &spec.x ? "x" : "y"] = {
        {"parameter", a->label()}, {"from", a->from}, {"to", a->to}, {"steps", a->steps}};
  summary["points"] = spec.x.steps * spec.y.steps;
  summary["seed"] = spec.seed_rows ? "rows" : "none";
  summary["max_period"] = spec.max_period;
  summary["tolerance"] = spec.tolerance;
  int done = 0;
  Json failures = Json::array();  // why points escaped: the first 100
  for (int k = 0; k < static_cast<int>(grid.records.size()); ++k) {
    const Json& r = grid.records[k];
    if (r.is_null()) continue;
    ++(*counts)[map_class(r, spec.max_period)], ++done;
    if (r.contains("failure") && failures.size() < 100)
      failures.push_back({{spec.x.label(), axis_value(spec.x, k % spec.x.steps)},
                          {spec.y.label(), axis_value(spec.y, k / spec.x.steps)},
                          {"message", r["failure"]}});
  }
  if (grid.interrupted) summary["points_done"] = done;
  std::vector<std::pair<int, std::string>> order;
  for (const auto& [c, n] : *counts) order.emplace_back(class_order(c), c);
  std::sort(order.begin(), order.end());
  Json classes = Json::object();
  for (const auto& [o, c] : order) classes[c] = (*counts)[c];
  summary["classes"] = classes;
  summary["failures"] = failures;
  return summary;
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

void draw_map(const HybridRun& run, const GridRun& grid, const fs::path& dir, std::ostream& err) {
  const MapSpec& spec = *run.map;
  std::ostringstream section;
  section << run.section->variable << " = " << run.section->value
          << (run.section->angle ? " (mod 2 pi)" : "");
  std::vector<Cell> cells;
  for (int k = 0; k < static_cast<int>(grid.records.size()); ++k)
    if (!grid.records[k].is_null())
      cells.push_back({axis_value(spec.x, k % spec.x.steps), axis_value(spec.y, k / spec.x.steps),
                       map_class(grid.records[k], spec.max_period)});
  Figure f{run.name + ": attractors on the section " + section.str(), spec.x.label(), spec.y.label(), {}, {}};
  f.series = class_series(cells, spec.x.steps, spec.y.steps);
  std::string warning;
  draw(f, dir, "map", &warning);
  if (!warning.empty()) err << "saltus map: warning: " << warning << '\n';
}

}  // namespace

int map_command(const HybridRun& run, const fs::path& dir, bool json, std::ostream& out, std::ostream& err,
                const GridControl& control) {
  const MapSpec& spec = *run.map;
  const int points = spec.x.steps * spec.y.steps;
  GridJob job;
  job.command = "saltus map";
  job.kind = "map";
  job.points = points;
  // Seeded rows are chains in x; unseeded points are each their own.
  job.chains = studies::map_chains(spec);
  job.threads = worker_count(spec.threads, job.chains);
  std::ifstream in(run.path);
  std::ostringstream identity;
  identity << in.rdbuf() << "\nmap";
  job.identity = identity.str();
  job.compute = [&run](int k, const Json* previous) { return map_record(run, k, previous); };
  job.check = [&run](int, const Json& record) { check_map_record(run, record); };
  job.chains_fixed = true;  // a seeded row is a block; an unseeded point one of its own
  job.interrupt_after = control.interrupt_after;
  const GridRun grid = run_grid(job, dir, control.resume, err);
  if (!grid.writer) return grid.interrupted ? 130 : 0;  // another MPI rank: rank 0 writes

  write_map_csv(run, grid, dir);
  std::map<std::string, int> counts;
  Json summary = map_summary(run, grid, &counts);
  write_file_atomically(dir / "summary.json", [&](std::ostream& o) { o << summary.dump(2) << '\n'; });
  draw_map(run, grid, dir, err);
  if (!grid.interrupted) remove_journal(dir, job.kind);
  if (json) {
    out << summary.dump(2) << '\n';
  } else {
    out << run.name << ": " << (grid.interrupted ? "interrupted, " : "") << grid.done() << " of " << points
        << " points of (" << spec.x.label() << ", " << spec.y.label() << ")"
        << (grid.resumed ? " (" + std::to_string(grid.resumed) + " from the journal)" : "") << ':';
    for (const auto& [c, n] : summary["classes"].items()) out << ' ' << c << ' ' << n.get<int>() << ',';
    out << "\nwrote " << dir.string() << '\n';
  }
  if (grid.interrupted) {
    err << "saltus map: interrupted: " << grid.done() << " of " << points
        << " points written; continue with --resume\n";
    return 130;  // 128 + SIGINT
  }
  return 0;
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

}  // namespace saltus::drivers
