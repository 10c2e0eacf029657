#include "studies/hybrid_run_file.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "continuation/worker_threads.h"
#include "models/expression.h"
#include "models/filippov_expression.h"
#include "models/hybrid_expression.h"
#include "models/mechanical_expression.h"
#include "models/registry.h"
#include "studies/option_tables.h"
#include "studies/run_file.h"

namespace saltus::studies {

namespace {

// Every key, from the table (studies/option_tables_hybrid.cpp).
const KeyTable& keys() { return hybrid_run_file().keys; }

}  // namespace

const std::string& hybrid_run_file_help() {
  static const std::string help = run_file_help(hybrid_run_file());
  return help;
}

std::shared_ptr<const flow::HybridSystem> HybridRun::with_parameter(const std::string& name,
                                                                    double value) const {
  try {
    return system->with_parameter(name, value);
  } catch (const std::invalid_argument& e) {
    fail(path, name + " = " + std::to_string(value) + ": " + e.what());
  }
}

std::function<double(const Vector&, Vector*)> HybridRun::period_of(const std::string& carried) const {
  std::vector<std::string> names;
  std::vector<double> values;
  int index = -1;
  for (const auto& p : system->parameters()) {
    if (p.name == carried) index = static_cast<int>(names.size());
    names.push_back(p.name);
    values.push_back(p.value);
  }
  if (index < 0) throw std::invalid_argument("'" + carried + "' is not a parameter");
  const models::Expression period = models::Expression::parse(forcing_period_expression, names);
  return [period, values, index](const Vector& p, Vector* dT_dp) {
    using J = ceres::Jet<double, 1>;
    std::vector<J> v(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) v[i] = J(values[i]);
    v[index] = J(p[0], 0);
    const J T = period.evaluate<J>(v.data());
    if (dT_dp) *dT_dp = Vector::Constant(1, T.v[0]);
    return T.a;
  };
}

std::vector<flow::Section> HybridRun::sections() const {
  if (!section) return {};
  const auto names = system->state_names();
  const int i = static_cast<int>(std::find(names.begin(), names.end(), section->variable) - names.begin());
  const double value = section->value;
  if (section->angle)
    return {
        {[i, value](double, const Vector& x) { return std::sin(x[i] - value); }, flow::Crossing::kRising}};
  return {{[i, value](double, const Vector& x) { return x[i] - value; }, flow::Crossing::kRising}};
}

namespace {

// Reads a hybrid run file step by step, each step a method that reads the
// keys its comment names; the steps share the run built so far.
class HybridRunReader {
 public:
  explicit HybridRunReader(const std::filesystem::path& file) : path(file), json(read_json(file)) {}
  HybridRunReader(const Json& description, const std::filesystem::path& where)
      : path(where), json(description) {}
  HybridRunReader(const HybridRunReader&) = delete;
  HybridRunReader& operator=(const HybridRunReader&) = delete;

  HybridRun read() {
    if (!json.is_object()) fail(path, "the top level must be an object");
    only_keys(json, keys_under(keys(), ""), path, "");
    // The two-fold keys of `saltus filippov` may stand beside an own Filippov system.
    for (const char* key : {"guess", "futures", "continuation"})
      if (json.contains(key) && !json.contains("filippov"))
        fail(path, std::string("'") + key + "' is a key of `saltus filippov` for your own Filippov system");
    run.path = path;
    run.keys = json.dump();
    run.name = json.contains("name") ? string(json["name"], path, "name") : path.stem().string();
    check_run_name(run.name, path);
    if (json.contains("description")) run.description = string(json["description"], path, "description");
    read_system();
    read_start();
    read_simulation();
    read_section_and_sweep();
    read_periodic();
    read_plot();
    if (json.contains("map")) run.map = read_map_spec(json["map"], run);
    return run;
  }

 private:
  // model, or the run's own system (states, modes, ...); parameters; the forcing period.
  void read_system() {
    // A registered model by name, or the run file's own system by expressions.
    if (json.contains("model")) {
      for (const char* key : {"states", "modes", "coordinates", "mass", "forces", "constraints",
                              "stick_velocity", "filippov", "definitions", "forcing_period", "angles"})
        if (json.contains(key))
          fail(path, std::string("'") + key + "' defines your own system: leave out 'model'");
      run.model = string(json["model"], path, "model");
      model = models::find_hybrid_model(run.model);
      if (!model)
        fail(path, "unknown model '" + run.model + "' (known: " + models::hybrid_model_names() + ")");
    } else if (json.contains("modes") || json.contains("states") || json.contains("coordinates")) {
      try {
        own = models::expression_hybrid_model(json);
      } catch (const std::invalid_argument& e) {
        fail(path, e.what());
      }
      run.model = own.name;
    } else {
      fail(path, "'model' is missing: name a built-in model (" + models::hybrid_model_names() +
                     ") or define your own with 'states', 'parameters' and 'modes'");
    }
    for (const char* key : {"links", "g"})
      if (json.contains(key) &&
          std::find(model->extra_keys.begin(), model->extra_keys.end(), key) == model->extra_keys.end())
        fail(path, std::string("'") + key + "' is not a key of model " + run.model);
    const Json parameters = model == &own ? Json::object() : json.value("parameters", Json::object());
    if (!parameters.is_object()) fail(path, "'parameters' must be an object {name: value}");
    const auto base = model->make();
    for (const auto& p : base->parameters()) known.insert(p.name);
    only_keys(parameters, known, path, "parameters.");
    std::map<std::string, double> values;
    try {
      if (model->parameters_from_keys) values = model->parameters_from_keys(json);
    } catch (const std::invalid_argument& e) {
      fail(path, e.what());
    }
    for (const auto& [name, value] : parameters.items())
      values[name] = number(value, path, "parameters." + name);
    try {
      run.system = values.empty() ? base : base->with_parameters(values);
    } catch (const std::invalid_argument& e) {
      fail(path, std::string("'parameters': ") + e.what());
    }
    run.fixed_parameter = model->shooting_parameter;
    run.wrapped_angles = model->angles;
    if (!model->forcing_period.empty()) {
      run.forcing_period_expression = model->forcing_period;
      try {
        run.forcing_period = run.period_of(model->shooting_parameter)(
            Vector::Constant(1, run.system->parameter(model->shooting_parameter)), nullptr);
      } catch (const std::invalid_argument& e) {
        fail(path, "'forcing_period' = '" + model->forcing_period + "': " + e.what());
      }
      if (!(run.forcing_period > 0) || !std::isfinite(run.forcing_period))
        fail(path, "'forcing_period' = '" + model->forcing_period + "' is " +
                       std::to_string(run.forcing_period) + " at the run's parameters: it must be positive");
    }
  }

  // initial, time, transient, mode.
  void read_start() {
    names = run.system->state_names();
    run.angles.assign(names.size(), false);
    for (int i : model->angles) run.angles[i] = true;
    const Json initial = json.value("initial", Json::object());
    if (!initial.is_object()) fail(path, "'initial' must be an object {state: value}");
    only_keys(initial, std::set<std::string>(names.begin(), names.end()), path, "initial.");
    run.initial.resize(static_cast<int>(names.size()));
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (!initial.contains(names[i]))
        fail(path, "'initial." + names[i] + "' is missing: give every state component");
      run.initial[i] = number(initial[names[i]], path, "initial." + names[i]);
    }
    if (!json.contains("time")) fail(path, "'time' is missing: give [t0, t1]");
    const Json& time = json["time"];
    if (!time.is_array() || time.size() != 2) fail(path, "'time' must be [t0, t1]");
    run.t0 = number(time[0], path, "time[0]");
    run.t1 = number(time[1], path, "time[1]");
    if (!(run.t1 > run.t0)) fail(path, "'time' must have t1 > t0");
    if (json.contains("transient")) run.transient = number(json["transient"], path, "transient");
    if (!(run.transient >= 0)) fail(path, "'transient' must be >= 0");
    run.modes = model->mode_count;
    run.filippov = model->filippov;
    try {
      if (json.contains("mode")) {
        const std::string mode = string(json["mode"], path, "mode");
        std::string modes;
        run.mode = -1;
        for (int i = 0; i < model->mode_count; ++i) {
          if (run.system->mode_name(i) == mode) run.mode = i;
          modes += (i ? ", " : "") + run.system->mode_name(i);
        }
        if (run.mode < 0)
          fail(path, "'mode' = '" + mode + "' is not a mode of " + run.model + " (known: " + modes + ")");
      } else if (model->initial_mode) {
        run.mode = model->initial_mode(*run.system, run.t0, run.initial);
      }
      if (model->check_start) model->check_start(*run.system, run.mode, run.t0, run.initial);
      flow::check_start(*run.system, run.mode, run.t0, run.initial);
    } catch (const std::invalid_argument& e) {
      fail(path, std::string("'initial': ") + e.what());
    }
  }

  // simulation, lyapunov.
  void read_simulation() {
    if (json.contains("simulation"))
      run.simulation = read_simulation_options(json["simulation"], run.simulation, path, "simulation.");
    run.lyapunov.simulation = run.simulation;
    run.lyapunov.simulation.output_interval = 0.0;
    if (json.contains("lyapunov")) {
      const Json& l = json["lyapunov"];
      if (!l.is_object()) fail(path, "'lyapunov' must be an object {transient, duration, interval}");
      only_keys(l, keys_under(keys(), "lyapunov."), path, "lyapunov.");
      read_option_keys(l, lyapunov_option_table(), &run.lyapunov, path, "lyapunov.");
    }
    if (const std::string why = run.lyapunov.check(); !why.empty()) fail(path, "'lyapunov': " + why);
  }

  void parameter_name(const std::string& name, const std::string& key) const {
    if (!known.count(name)) {
      std::string list;
      for (const auto& p : known) list += (list.empty() ? "" : ", ") + p;
      fail(path,
           "'" + key + "' = '" + name + "' is not a parameter of " + run.model + " (known: " + list + ")");
    }
  }
  // Every name in options.bounds is one of `components` (checked here, before
  // anything is computed, not when the branch starts).
  void bound_names(const ContinuationOptions& options, const std::vector<std::string>& components,
                   const std::string& key) const {
    for (const auto& [name, bound] : options.bounds)
      if (std::find(components.begin(), components.end(), name) == components.end()) {
        std::string list;
        for (const auto& c : components) list += (list.empty() ? "" : ", ") + c;
        fail(path, "'" + key + "." + excerpt(name) + "': '" + excerpt(name) +
                       "' is not a component of the branch (known: " + list + ")");
      }
  }
  void state_name(const std::string& name, const std::string& key) const {
    if (std::find(names.begin(), names.end(), name) == names.end())
      fail(path, "'" + key + "' = '" + name + "' is not a state component");
  }

  // section, sweep.
  void read_section_and_sweep() {
    if (json.contains("section")) {
      const Json& s = json["section"];
      only_keys(s, keys_under(keys(), "section."), path, "section.");
      SectionSpec spec;
      if (!s.contains("variable")) fail(path, "'section.variable' is missing");
      spec.variable = string(s["variable"], path, "section.variable");
      state_name(spec.variable, "section.variable");
      if (s.contains("value")) spec.value = number(s["value"], path, "section.value");
      if (s.contains("angle")) spec.angle = boolean(s["angle"], path, "section.angle");
      // A section "angle": true declares its variable an angle, as "angles"
      // does (issue 35): returns compared modulo 2 pi, wrapped for shooting.
      const int i = static_cast<int>(std::find(names.begin(), names.end(), spec.variable) - names.begin());
      if (spec.angle && !run.angles[i]) {
        run.angles[i] = true;
        run.wrapped_angles.push_back(i);
      }
      run.section = spec;
    }
    if (json.contains("sweep")) {
      const Json& s = json["sweep"];
      only_keys(s, keys_under(keys(), "sweep."), path, "sweep.");
      SweepSpec spec;
      for (const char* key : {"parameter", "from", "to"})
        if (!s.contains(key)) fail(path, std::string("'sweep.") + key + "' is missing");
      spec.parameter = string(s["parameter"], path, "sweep.parameter");
      parameter_name(spec.parameter, "sweep.parameter");
      spec.from = number(s["from"], path, "sweep.from");
      spec.to = number(s["to"], path, "sweep.to");
      read_option_keys(s, sweep_option_table(), &spec, path, "sweep.");
      spec.plot = s.contains("plot") ? string(s["plot"], path, "sweep.plot") : names.back();
      state_name(spec.plot, "sweep.plot");
      if (!run.section) fail(path, "'sweep' records section hits: give a 'section'");
      // Every value of the range must make a valid model.
      run.with_parameter(spec.parameter, spec.from);
      run.with_parameter(spec.parameter, spec.to);
      run.sweep = spec;
    }
  }

  // periodic.curve: the kind, the two parameters (the first the branch's), steps.
  CurveSpec read_curve(const Json& c, const PeriodicSpec& spec) const {
    if (!c.is_object()) fail(path, "'periodic.curve' must be an object or a list of objects");
    only_keys(c, keys_under(keys(), "periodic.curve."), path, "periodic.curve.");
    CurveSpec curve;
    if (c.contains("kind")) curve.kind = string(c["kind"], path, "periodic.curve.kind");
    if (curve.kind != "GR" && curve.kind != "LPC" && curve.kind != "PD" && curve.kind != "NS" &&
        curve.kind != "CS" && curve.kind != "SS")
      fail(path, "'periodic.curve.kind' = '" + curve.kind +
                     "': give \"GR\", \"LPC\", \"PD\", \"NS\", or \"CS\" or \"SS\" (Filippov orbits)");
    if ((curve.kind == "CS" || curve.kind == "SS") && !run.filippov)
      fail(path, "'periodic.curve.kind' = '" + curve.kind +
                     "': crossing- and switching-sliding curves are of Filippov orbits; this run file has no "
                     "'filippov' system");
    if (!c.contains("parameters") || !c["parameters"].is_array() || c["parameters"].size() != 2)
      fail(path,
           "'periodic.curve.parameters' must be two parameter names [first, second] (an entry may be a list "
           "of names moved together, as a map axis: [\"q1\", [\"c1\", \"c2\", \"c3\"]])");
    // A list of names is one tied parameter, labelled "c1=c2=c3" as the
    // map's axis (flow::tied_names): the labels meet the map's columns.
    std::vector<std::string> seen;
    const auto entry = [&](const Json& e) {
      const std::string key = "periodic.curve.parameters";
      const auto names =
          e.is_array() ? strings(e, path, key) : std::vector<std::string>{string(e, path, key)};
      if (names.empty()) fail(path, "'" + key + "': an empty list of tied parameters");
      std::string label;
      for (const auto& name : names) {
        parameter_name(name, key);
        if (std::find(seen.begin(), seen.end(), name) != seen.end())
          fail(path, "'" + key + "' names '" + name +
                         "' twice: a curve needs two different parameters, each named once");
        seen.push_back(name);
        label += (label.empty() ? "" : "=") + name;
      }
      return label;
    };
    curve.first = entry(c["parameters"][0]);
    curve.second = entry(c["parameters"][1]);
    if (curve.first != spec.parameter)
      fail(path, "'periodic.curve.parameters' = ['" + curve.first + "', '" + curve.second +
                     "']: the first must be the branch's 'periodic.parameter' ('" + spec.parameter + "')");
    try {
      run.system->with_parameters_in_state({curve.first, curve.second});
    } catch (const std::invalid_argument& e) {
      fail(path, "'periodic.curve.parameters': '" + curve.second + "': " + e.what());
    }
    curve.options = read_continuation_options(c, spec.options, path, "periodic.curve.");
    // A curve's components: the orbit's, its first parameter (and an NS
    // curve's kappa = cos theta), the second.
    std::vector<std::string> components = names;
    if (spec.autonomous) components.push_back("T");
    components.push_back(curve.first);
    if (curve.kind == "NS") components.push_back("kappa");
    components.push_back(curve.second);
    bound_names(curve.options, components, "periodic.curve.bounds");
    return curve;
  }

  // periodic: the orbit, its search and its continuation.
  void read_periodic() {
    if (json.contains("periodic")) {
      const Json& p = json["periodic"];
      if (!p.is_object()) fail(path, "'periodic' must be an object");
      only_keys(p, keys_under(keys(), "periodic."), path, "periodic.");
      if (run.fixed_parameter.empty())
        fail(path, "'periodic': periodic orbits of model '" + run.model + "' are not supported");
      PeriodicSpec spec;
      read_option_keys(p, hybrid_periodic_option_table(), &spec, path, "periodic.");
      spec.autonomous = run.forcing_period == 0.0;
      if (spec.autonomous && p.contains("period"))
        fail(path,
             "'periodic.period': " + run.model + " is autonomous; its period is found (leave 'period' out)");
      spec.period = p.contains("period") ? read_number(keys(), "periodic.period", p["period"], path)
                                         : run.forcing_period;
      spec.period_follows_forcing = !spec.autonomous && !p.contains("period");
      if (!spec.autonomous && !(spec.period > 0)) fail(path, "'periodic.period' must be positive");
      if (p.contains("transient"))
        spec.transient = read_number(keys(), "periodic.transient", p["transient"], path);
      if (spec.autonomous && spec.transient < 0)
        spec.transient = 100.0;  // the guess always comes from a simulation
      if (p.contains("grazing")) {
        const Json& g = p["grazing"];
        if (g.is_boolean())
          spec.grazing = g.get<bool>();
        else if (g == "stop" || g == "continue")
          spec.grazing_continue = g == "continue";
        else
          fail(path, "'periodic.grazing' = " + g.dump() + " must be \"stop\", \"continue\", true or false");
      }
      if (p.contains("diagram")) {
        spec.diagram = string(p["diagram"], path, "periodic.diagram");
        if (spec.diagram.is_relative()) spec.diagram = path.parent_path() / spec.diagram;
        if (!std::filesystem::exists(spec.diagram))
          fail(path, "'periodic.diagram' = '" + spec.diagram.string() +
                         "' does not exist (a sweep.csv of `saltus sweep`)");
      }
      if (p.contains("parameter")) {
        spec.parameter = string(p["parameter"], path, "periodic.parameter");
        parameter_name(spec.parameter, "periodic.parameter");
        try {
          run.system->with_parameters_in_state({spec.parameter});
        } catch (const std::invalid_argument& e) {
          fail(path, "'periodic.parameter' = '" + spec.parameter + "': " + e.what());
        }
      }
      spec.options = read_continuation_options(p, spec.options, path, "periodic.");
      // The branch's components: the state at the cut, the period of an
      // autonomous orbit, the parameter (without one there is no branch, and
      // the bounds are not used).
      std::vector<std::string> components = names;
      if (spec.autonomous) components.push_back("T");
      components.push_back(spec.parameter);
      if (!spec.parameter.empty()) bound_names(spec.options, components, "periodic.bounds");
      if (p.contains("curve")) {
        spec.curve_list = p["curve"].is_array();
        if (spec.curve_list && p["curve"].empty()) fail(path, "'periodic.curve' is an empty list");
        for (const Json& c : spec.curve_list ? p["curve"] : Json::array({p["curve"]}))
          spec.curves.push_back(read_curve(c, spec));
      }
      run.periodic = spec;
    }
  }

  // plot.
  void read_plot() {
    run.plot_x = names[0];
    run.plot_y = names.size() > 1 ? names[names.size() / 2] : names[0];
    if (json.contains("plot")) {
      const Json& p = json["plot"];
      only_keys(p, keys_under(keys(), "plot."), path, "plot.");
      if (p.contains("x")) run.plot_x = string(p["x"], path, "plot.x");
      if (p.contains("y")) run.plot_y = string(p["y"], path, "plot.y");
      state_name(run.plot_x, "plot.x");
      state_name(run.plot_y, "plot.y");
    }
  }

  const std::filesystem::path path;
  const Json json;
  HybridRun run;
  models::HybridModel own;                  // the run's own system, when it defines one
  const models::HybridModel* model = &own;  // the model read
  std::set<std::string> known;              // its parameters
  std::vector<std::string> names;           // its state components
};

}  // namespace

HybridRun read_hybrid_run(const std::filesystem::path& path) { return HybridRunReader(path).read(); }

HybridRun parse_hybrid_run(const Json& description, const std::filesystem::path& where) {
  return HybridRunReader(description, where).read();
}

}  // namespace saltus::studies
