// The run file's "map" for `saltus map` (studies/hybrid_run_file.h MapSpec).

#include <algorithm>

#include "continuation/worker_threads.h"
#include "studies/hybrid_run_file.h"
#include "studies/option_tables.h"

namespace saltus::studies {

namespace {

const KeyTable& keys() { return hybrid_run_file().keys; }

MapAxis read_axis(const Json& a, const HybridRun& run, const std::string& key) {
  if (!a.is_object()) fail(run.path, "'map." + key + "' must be an object {parameter, from, to, steps}");
  only_keys(a, keys_under(keys(), "map." + key + "."), run.path, "map." + key + ".");
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
  read_option_keys(a, map_axis_option_table(), &axis, run.path, "map." + key + ".");
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
  only_keys(m, keys_under(keys(), "map."), path, "map.");
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
  read_option_keys(m, map_option_table(), &spec, path, "map.");
  if (m.contains("seed")) {
    const std::string seed = string(m["seed"], path, "map.seed");
    if (seed != "rows" && seed != "none")
      fail(path, "'map.seed' = '" + excerpt(seed) + "': \"rows\" or \"none\"");
    spec.seed_rows = seed == "rows";
  }
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
