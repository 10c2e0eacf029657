#include "studies/sweep_files.h"

#include <algorithm>
#include <iomanip>

#include "studies/output.h"

namespace saltus::studies {

namespace fs = std::filesystem;

namespace {

void write_sweep_csv(const HybridRun& run, const SweepResult& sweep, const fs::path& dir) {
  const auto names = run.system->state_names();
  write_file_atomically(dir / "sweep.csv", [&](std::ostream& o) {
    o << run.sweep->parameter << ",t";
    for (const auto& n : names) o << ',' << n;
    o << '\n' << std::setprecision(15);
    for (std::size_t k = 0; k < sweep.values.size(); ++k)
      for (const auto& h : sweep.points[k].hits) {
        o << sweep.values[k] << ',' << h.t;
        for (int i = 0; i < h.x.size(); ++i) o << ',' << h.x[i];
        o << '\n';
      }
  });
}

std::vector<std::string> draw_sweep(const HybridRun& run, const SweepResult& sweep, const fs::path& dir) {
  const SweepSpec& spec = *run.sweep;
  const auto names = run.system->state_names();
  const int plot = static_cast<int>(std::find(names.begin(), names.end(), spec.plot) - names.begin());
  Figure f{run.name + ": bifurcation diagram (section " + run.section->variable + ")",
           spec.parameter,
           spec.plot,
           {},
           {}};
  Figure::Series s{spec.plot + " at the section", {}, "points", "pt 7 ps 0.3"};
  for (std::size_t k = 0; k < sweep.values.size(); ++k)
    for (const auto& h : sweep.points[k].hits) s.points.emplace_back(sweep.values[k], h.x[plot]);
  f.series.push_back(std::move(s));
  std::string warning;
  draw(f, dir, "sweep", &warning);
  if (!warning.empty()) return {warning};
  return {};
}

}  // namespace

Json sweep_summary(const HybridRun& run, const SweepResult& sweep) {
  const SweepSpec& spec = *run.sweep;
  Json summary;
  summary["name"] = run.name;
  summary["status"] = sweep.interrupted ? "interrupted" : "finished";
  summary["parameter"] = spec.parameter;
  summary["values"] = spec.steps;
  summary["threads"] = sweep.chains;
  int hits = 0, done = 0;
  Json problems = Json::array();
  for (std::size_t k = 0; k < sweep.values.size(); ++k) {
    hits += static_cast<int>(sweep.points[k].hits.size());
    done += sweep.done[k];
    if (!sweep.points[k].failure.empty())
      problems.push_back({{"value", sweep.values[k]}, {"message", sweep.points[k].failure}});
  }
  if (sweep.interrupted) summary["values_done"] = done;
  summary["section_hits"] = hits;
  summary["failures"] = problems;
  return summary;
}

std::vector<std::string> write_sweep(const HybridRun& run, const SweepResult& sweep, const fs::path& dir) {
  fs::create_directories(dir);
  write_sweep_csv(run, sweep, dir);
  const Json summary = sweep_summary(run, sweep);
  write_file_atomically(dir / "sweep.json", [&](std::ostream& o) { o << summary.dump(2) << '\n'; });
  return draw_sweep(run, sweep, dir);
}

}  // namespace saltus::studies
