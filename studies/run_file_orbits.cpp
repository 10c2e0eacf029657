#include "studies/run_file_orbits.h"

#include <algorithm>
#include <map>
#include <set>

#include "studies/option_tables.h"
#include "models/expression_system.h"

namespace saltus::studies {

namespace {

const KeyTable& keys() { return continue_run_file().keys; }

// The "periodic.from_simulation" object: the orbit's guess from a simulation.
periodic::OrbitGuessOptions read_orbit_guess(const Json& g, const flow::SimulationOptions& simulation,
                                             const std::filesystem::path& path) {
  if (!g.is_object())
    fail(path, "'periodic.from_simulation' must be an object {transient, max_period, return_tolerance}");
  only_keys(g, keys_under(keys(), "periodic.from_simulation."), path, "periodic.from_simulation.");
  periodic::OrbitGuessOptions guess;
  read_option_keys(g, orbit_guess_option_table(), &guess, path, "periodic.from_simulation.");
  guess.simulation = simulation;
  if (const std::string why = guess.check(); !why.empty()) fail(path, "'periodic.from_simulation': " + why);
  return guess;
}

}  // namespace

std::vector<std::string> read_phase(const Json& object, const std::vector<std::string>& unknowns,
                                    const std::filesystem::path& path, const std::string& where) {
  const int n = static_cast<int>(unknowns.size());
  std::vector<std::string> phase = {unknowns[0], unknowns[n > 1 ? 1 : 0]};
  if (!object.contains("phase")) return phase;
  phase = strings(object["phase"], path, where + ".phase");
  if (phase.size() != 2) fail(path, "'" + where + ".phase' must name two unknowns");
  for (const auto& name : phase)
    if (std::find(unknowns.begin(), unknowns.end(), name) == unknowns.end())
      fail(path, "'" + where + ".phase' names '" + name + "', which is not an unknown");
  return phase;
}

std::vector<UserEvent> read_events(const Json& events, const std::vector<std::string>& names,
                                   const std::filesystem::path& path, const std::string& key) {
  if (!events.is_array()) fail(path, "'" + key + "' must be a list of {name, expression, stop}");
  std::vector<UserEvent> list;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const std::string where = key + "[" + std::to_string(i) + "]";
    const Json& e = events[i];
    if (!e.is_object()) fail(path, "'" + where + "' must be an object");
    only_keys(e, keys_under(keys(), "events[]."), path, where + ".");
    if (!e.contains("expression")) fail(path, "'" + where + ".expression' is missing");
    UserEvent event;
    const std::string text = string(e["expression"], path, where + ".expression");
    event.name = e.contains("name") ? string(e["name"], path, where + ".name") : text;
    if (e.contains("stop")) event.stop = boolean(e["stop"], path, where + ".stop");
    try {
      event.expression = models::Expression::parse(text, names);
    } catch (const models::ExpressionError& err) {
      fail(path, "'" + where + ".expression': " + err.what());
    }
    if (!seen.insert(event.name).second)
      fail(path, "two events in '" + key + "' are named '" + event.name + "'");
    list.push_back(std::move(event));
  }
  return list;
}

HopfCycles read_hopf_cycles(const Json& object, const std::vector<std::string>& unknowns,
                            const std::vector<std::string>& parameters,
                            const std::vector<std::string>& equations, const ContinuationOptions& base,
                            const std::string& parameter, const std::filesystem::path& path) {
  if (!object.is_object()) fail(path, "'hopf_cycles' must be an object");
  only_keys(object, keys_under(keys(), "hopf_cycles."), path, "hopf_cycles.");
  HopfCycles h;
  read_option_keys(object, hopf_cycles_option_table(), &h, path, "hopf_cycles.");
  if (object.contains("simulation"))
    h.shooting.simulation =
        read_simulation_options(object["simulation"], h.shooting.simulation, path, "hopf_cycles.simulation.");
  h.shooting.autonomous = true;
  if (const std::string why = h.shooting.check(); !why.empty()) fail(path, "'hopf_cycles': " + why);
  h.phase = read_phase(object, unknowns, path, "hopf_cycles");
  ContinuationOptions inherited = base;
  inherited.bounds.clear();
  inherited.eigenvalues = false;
  h.options = read_continuation_options(object, inherited, path, "hopf_cycles.");
  for (const auto& [name, bound] : h.options.bounds)
    if (name != parameter && name != "T" &&
        std::find(unknowns.begin(), unknowns.end(), name) == unknowns.end())
      fail(path, "'hopf_cycles.bounds." + name +
                     "' names neither an unknown, \"T\" nor the continuation parameter");
  // Every parameter rides in the state: the cycles' start (cycle_start.h)
  // gives the whole parameter vector.
  h.flow = models::make_expression_ode(unknowns, parameters, std::vector<double>(parameters.size(), 0.0),
                                       equations)
               ->with_parameters_in_state(parameters);
  std::vector<std::string> names = unknowns;
  names.insert(names.end(), parameters.begin(), parameters.end());
  if (object.contains("events")) h.events = read_events(object["events"], names, path, "hopf_cycles.events");
  return h;
}

void read_periodic(const Json& object, const std::shared_ptr<const flow::HybridSystem>& ode,
                   const std::string& carried, const std::filesystem::path& path,
                   const std::vector<std::string>& unknowns, std::vector<std::string>* parameters,
                   RunFile* run) {
  std::map<std::string, double> values;
  for (std::size_t i = 0; i < parameters->size(); ++i)
    values[(*parameters)[i]] = run->parameters[static_cast<Eigen::Index>(i)];
  const auto all_fixed = ode->with_parameters(values);
  const auto flow = all_fixed->with_parameters_in_state({carried});
  run->parameters = Vector::Constant(1, values.at(carried));
  *parameters = {carried};
  if (!object.is_object()) fail(path, "'periodic' must be an object");
  only_keys(object, keys_under(keys(), "periodic."), path, "periodic.");
  PeriodicRun p;
  p.ode = all_fixed;
  p.flow = flow;
  periodic::ShootingOptions shooting;
  bool forced = false;
  if (const auto* expressions = dynamic_cast<const flow::AutoDiffHybrid<models::ExpressionOde>*>(ode.get()))
    forced = expressions->functor().uses_time();
  shooting.autonomous =
      object.contains("autonomous") ? boolean(object["autonomous"], path, "periodic.autonomous") : !forced;
  if (shooting.autonomous && forced)
    fail(path,
         "'periodic.autonomous' is true, but the equations use the time t: a forced orbit has the forcing's "
         "period; set \"autonomous\": false and give it as 'periodic.period'");
  read_option_keys(object, shooting_option_table(), &shooting, path, "periodic.");
  if (object.contains("simulation"))
    shooting.simulation =
        read_simulation_options(object["simulation"], shooting.simulation, path, "periodic.simulation.");
  if (object.contains("from_simulation")) {
    if (!shooting.autonomous)
      fail(path, "'periodic.from_simulation' is for autonomous orbits; a forced one starts from 'start'");
    p.from_simulation = read_orbit_guess(object["from_simulation"], shooting.simulation, path);
    // The guess only has to land in Newton's basin: the branch's accuracy.
    if (shooting.stepping_tolerance > 0)
      p.from_simulation->simulation.absolute_tolerance = p.from_simulation->simulation.relative_tolerance =
          shooting.stepping_tolerance;
  }
  double period = 1.0;  // replaced by the simulation's when from_simulation
  if (object.contains("period"))
    period = read_number(keys(), "periodic.period", object["period"], path);
  else if (!p.from_simulation)
    fail(path, std::string("'periodic.period' is missing: give ") +
                   (shooting.autonomous ? "a guess of the period (or use 'periodic.from_simulation')"
                                        : "the forcing period"));
  if (!shooting.autonomous) shooting.period = period;
  if (const std::string why = shooting.check(); !why.empty()) fail(path, "'periodic': " + why);

  const int n = static_cast<int>(unknowns.size()), q = 1;
  Vector reference(n + q);
  reference << run->start_state, run->parameters;
  try {
    p.shooting = std::make_shared<periodic::ShootingSystem>(flow, q, shooting, reference);
  } catch (const std::invalid_argument& e) {
    fail(path, std::string("'periodic' at 'start': ") + e.what() + "; start from a point off the equilibria");
  }
  if (shooting.autonomous) {
    Vector x(n + 1);
    x << run->start_state, period;
    run->start_state = x;
  }
  if (object.contains("period_doubling")) {
    const Json& d = object["period_doubling"];
    if (!d.is_object()) fail(path, "'periodic.period_doubling' must be an object {levels, ...}");
    only_keys(d, keys_under(keys(), "periodic.period_doubling."), path, "periodic.period_doubling.");
    p.doublings =
        d.contains("levels") ? read_integer(keys(), "periodic.period_doubling.levels", d["levels"], path) : 1;
  }
  p.phase = read_phase(object, unknowns, path, "periodic");
  run->system = p.shooting;
  run->periodic = std::move(p);
}

}  // namespace saltus::studies
