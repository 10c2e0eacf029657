// The run file's "map" for `saltus map` (studies/hybrid_run_file.h MapSpec).

#include <algorithm>

#include "continuation/worker_threads.h"
#include "studies/hybrid_run_file.h"

namespace saltus::studies {

const char* const kMapRunFileHelp =
    R"(map (`saltus map`)  {x, y, transient (100), record (100), max_period (8), tolerance (1e-4),
                 lyapunov (false), seed ("none" | "rows"), threads (0: all cores)}: a two-parameter
                 brute-force map. x and y are {parameter, from, to, steps (20)}, any parameters of the
                 model (a list of names sets them all to the value: ["c1", "c2", "c3"]) (x.steps * y.steps at most 1e6). Per grid point a transient, then the section's
                 hits over "record"; the attractor's period is the number of distinct hits (one when
                 every component is within tolerance (1 + |x|), angles modulo 2 pi), "chaotic" above
                 max_period, "escaped" when the simulation fails (Zeno, grazing, a step budget),
                 "no hits" when the attractor does not cross the section. "lyapunov": true adds the
                 largest Lyapunov exponent from the point's end state (the run's "lyapunov" options).
                 "seed": "rows" starts each point from the end state of its neighbour in x (the
                 first of a row from "initial" with a doubled transient). Writes map.csv (one row per
                 point), summary.json (counts per class) and map.png/.svg (the classes coloured);
                 --resume continues a stopped map, Ctrl-C writes the finished points.
)";

namespace {

MapAxis read_axis(const Json& a, const HybridRun& run, const std::string& key) {
  if (!a.is_object()) fail(run.path, "'map." + key + "' must be an object {parameter, from, to, steps}");
  only_keys(a, {"parameter", "from", "to", "steps"}, run.path, "map." + key + ".");
  for (const char* k : {"parameter", "from", "to"})
    if (!a.contains(k)) fail(run.path, "'map." + key + "." + k + "' is missing");
  MapAxis axis;
  const std::string where = "map." + key + ".parameter";
  axis.parameters = a["parameter"].is_array()
                        ? strings(a["parameter"], run.path, where)
                        : std::vector<std::string>{string(a["parameter"], run.path, where)};
  if (axis.parameters.empty() || axis.parameters.size() > 16)
    fail(run.path, "'" + where + "': one parameter name, or a list of 1 to 16 set to the same value");
  const auto parameters = run.system->parameters();
  for (const auto& name : axis.parameters)
    if (std::none_of(parameters.begin(), parameters.end(), [&](const auto& p) { return p.name == name; })) {
      std::string known;
      for (const auto& p : parameters) known += (known.empty() ? "" : ", ") + p.name;
      fail(run.path, "'" + where + "' = '" + excerpt(name) + "' is not a parameter of " + run.model +
                         " (known: " + known + ")");
    }
  axis.from = number(a["from"], run.path, "map." + key + ".from");
  axis.to = number(a["to"], run.path, "map." + key + ".to");
  if (a.contains("steps")) axis.steps = integer(a["steps"], run.path, "map." + key + ".steps");
  if (axis.steps < 1 || axis.steps > kMaxMapPoints)
    fail(run.path, "'map." + key + ".steps' = " + std::to_string(axis.steps) + " must be in [1, " +
                       std::to_string(kMaxMapPoints) + "]");
  return axis;
}

}  // namespace

std::string MapAxis::label() const {
  std::string s;
  for (const auto& p : parameters) s += (s.empty() ? "" : "=") + p;
  return s;
}

std::map<std::string, double> map_parameters(const MapSpec& spec, double x, double y) {
  std::map<std::string, double> values;
  for (const auto& p : spec.x.parameters) values[p] = x;
  for (const auto& p : spec.y.parameters) values[p] = y;
  return values;
}

MapSpec read_map_spec(const Json& m, const HybridRun& run) {
  const auto& path = run.path;
  if (!m.is_object()) fail(path, "'map' must be an object");
  only_keys(m, {"x", "y", "transient", "record", "max_period", "tolerance", "lyapunov", "seed", "threads"},
            path, "map.");
  for (const char* k : {"x", "y"})
    if (!m.contains(k)) fail(path, std::string("'map.") + k + "' is missing: {parameter, from, to, steps}");
  MapSpec spec;
  spec.x = read_axis(m["x"], run, "x");
  spec.y = read_axis(m["y"], run, "y");
  for (const auto& name : spec.x.parameters)
    if (std::find(spec.y.parameters.begin(), spec.y.parameters.end(), name) != spec.y.parameters.end())
      fail(path, "'map.x.parameter' and 'map.y.parameter' both set '" + name + "': take different ones");
  if (static_cast<long long>(spec.x.steps) * spec.y.steps > kMaxMapPoints)
    fail(path,
         "'map': x.steps * y.steps = " + std::to_string(static_cast<long long>(spec.x.steps) * spec.y.steps) +
             " points, at most " + std::to_string(kMaxMapPoints) + " (each is a simulation)");
  if (m.contains("transient")) spec.transient = number(m["transient"], path, "map.transient");
  if (m.contains("record")) spec.record = number(m["record"], path, "map.record");
  if (!(spec.transient >= 0) || !(spec.record > 0))
    fail(path, "'map': transient >= 0 and record > 0 are needed");
  if (m.contains("max_period")) spec.max_period = integer(m["max_period"], path, "map.max_period");
  if (spec.max_period < 1 || spec.max_period > 64)
    fail(path, "'map.max_period' = " + std::to_string(spec.max_period) + " must be in [1, 64]");
  if (m.contains("tolerance")) spec.tolerance = number(m["tolerance"], path, "map.tolerance");
  if (!(spec.tolerance > 0)) fail(path, "'map.tolerance' must be positive");
  if (m.contains("lyapunov")) spec.lyapunov = boolean(m["lyapunov"], path, "map.lyapunov");
  if (m.contains("seed")) {
    const std::string seed = string(m["seed"], path, "map.seed");
    if (seed != "rows" && seed != "none")
      fail(path, "'map.seed' = '" + excerpt(seed) + "': \"rows\" or \"none\"");
    spec.seed_rows = seed == "rows";
  }
  if (m.contains("threads")) spec.threads = integer(m["threads"], path, "map.threads");
  if (const std::string bad = check_threads(spec.threads, "'map.threads'"); !bad.empty()) fail(path, bad);
  if (!run.section) fail(path, "'map' counts section hits: give a 'section'");
  // Every corner of the grid must make a valid model.
  for (double x : {spec.x.from, spec.x.to})
    for (double y : {spec.y.from, spec.y.to}) try {
        run.system->with_parameters(map_parameters(spec, x, y));
      } catch (const std::invalid_argument& e) {
        fail(path, "'map': " + spec.x.label() + " = " + std::to_string(x) + ", " + spec.y.label() + " = " +
                       std::to_string(y) + ": " + e.what());
      }
  if (spec.lyapunov)
    if (const std::string bad = run.lyapunov.check(); !bad.empty()) fail(path, "'lyapunov': " + bad);
  return spec;
}

}  // namespace saltus::studies
