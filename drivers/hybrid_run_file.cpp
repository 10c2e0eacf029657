#include "drivers/hybrid_run_file.h"

#include <algorithm>

#include "drivers/run_file.h"
#include "models/bouncing_ball.h"

namespace saltus::drivers {

const char* const kHybridRunFileHelp = R"(Run file keys (JSON):
  name, description  strings
  model          "bouncing_ball" (state q, v; modes "flight", "contact")
  parameters     {name: number}  the model's parameters; bouncing_ball: g, e (restitution,
                 in [0, 1]), A, omega (table A sin(omega t)), stick_velocity
  initial        {state name: number}  every state component
  mode           the initial mode's name (default: the model's first)
  time           [t0, t1]  the simulated span
  simulation     absolute_tolerance, relative_tolerance (1e-12), initial_step (1e-4),
                 max_step, event_tolerance (1e-14), max_events, zeno_interval, zeno_events,
                 output_interval (0: every step)
  lyapunov       transient (0), duration (100), interval (1): for `saltus lyapunov`,
                 which starts from the initial state at t0
  plot           {x, y}  state names for the phase portrait (default: the first two)
Output folder (simulate): trajectory.csv, events.csv, summary.json, phase.png/.svg,
time.png/.svg.)";

namespace {

struct Model {
  std::shared_ptr<const flow::HybridSystem> system;
  std::vector<std::string> modes;
};

Model bouncing_ball(const Json& parameters, const std::filesystem::path& path) {
  models::BouncingBall ball;
  only_keys(parameters, {"g", "e", "A", "omega", "stick_velocity"}, path, "parameters.");
  auto set = [&](const char* key, double* field) {
    if (parameters.contains(key)) *field = number(parameters[key], path, std::string("parameters.") + key);
  };
  set("g", &ball.g);
  set("e", &ball.e);
  set("A", &ball.A);
  set("omega", &ball.omega);
  set("stick_velocity", &ball.stick_velocity);
  try {
    ball.check();
  } catch (const std::invalid_argument& e) {
    fail(path, e.what());
  }
  return {flow::make_hybrid(ball), {"flight", "contact"}};
}

}  // namespace

HybridRun read_hybrid_run(const std::filesystem::path& path) {
  const Json json = read_json(path);
  if (!json.is_object()) fail(path, "the top level must be an object");
  only_keys(json, {"name", "description", "model", "parameters", "initial", "mode", "time", "simulation",
                   "lyapunov", "plot"},
            path, "");
  HybridRun run;
  run.path = path;
  run.name = json.contains("name") ? string(json["name"], path, "name") : path.stem().string();
  check_run_name(run.name, path);
  if (json.contains("description")) run.description = string(json["description"], path, "description");
  if (!json.contains("model")) fail(path, "'model' is missing (known: bouncing_ball)");
  const std::string model_name = string(json["model"], path, "model");
  const Json parameters = json.value("parameters", Json::object());
  if (!parameters.is_object()) fail(path, "'parameters' must be an object {name: value}");
  Model model;
  if (model_name == "bouncing_ball") model = bouncing_ball(parameters, path);
  else fail(path, "unknown model '" + model_name + "' (known: bouncing_ball)");
  run.system = model.system;

  const auto names = run.system->state_names();
  const Json initial = json.value("initial", Json::object());
  if (!initial.is_object()) fail(path, "'initial' must be an object {state: value}");
  only_keys(initial, std::set<std::string>(names.begin(), names.end()), path, "initial.");
  run.initial.resize(static_cast<int>(names.size()));
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (!initial.contains(names[i])) fail(path, "'initial." + names[i] + "' is missing: give every state component");
    run.initial[i] = number(initial[names[i]], path, "initial." + names[i]);
  }
  if (json.contains("mode")) {
    const std::string mode = string(json["mode"], path, "mode");
    auto it = std::find(model.modes.begin(), model.modes.end(), mode);
    if (it == model.modes.end()) fail(path, "'mode' = '" + mode + "' is not a mode of " + model_name);
    run.mode = static_cast<int>(it - model.modes.begin());
  }
  if (!json.contains("time")) fail(path, "'time' is missing: give [t0, t1]");
  const Json& time = json["time"];
  if (!time.is_array() || time.size() != 2) fail(path, "'time' must be [t0, t1]");
  run.t0 = number(time[0], path, "time[0]");
  run.t1 = number(time[1], path, "time[1]");
  if (!(run.t1 > run.t0)) fail(path, "'time' must have t1 > t0");

  if (json.contains("simulation")) {
    const Json& s = json["simulation"];
    only_keys(s, {"absolute_tolerance", "relative_tolerance", "initial_step", "max_step", "event_tolerance",
                  "max_events", "zeno_interval", "zeno_events", "output_interval"},
              path, "simulation.");
    auto real = [&](const char* key, double* field) {
      if (s.contains(key)) *field = number(s[key], path, std::string("simulation.") + key);
    };
    real("absolute_tolerance", &run.simulation.absolute_tolerance);
    real("relative_tolerance", &run.simulation.relative_tolerance);
    real("initial_step", &run.simulation.initial_step);
    real("max_step", &run.simulation.max_step);
    real("event_tolerance", &run.simulation.event_tolerance);
    real("zeno_interval", &run.simulation.zeno_interval);
    real("output_interval", &run.simulation.output_interval);
    if (s.contains("max_events")) run.simulation.max_events = integer(s["max_events"], path, "simulation.max_events");
    if (s.contains("zeno_events")) run.simulation.zeno_events = integer(s["zeno_events"], path, "simulation.zeno_events");
  }
  if (const std::string why = run.simulation.check(); !why.empty()) fail(path, "'simulation': " + why);
  run.lyapunov.simulation = run.simulation;
  run.lyapunov.simulation.output_interval = 0.0;
  if (json.contains("lyapunov")) {
    const Json& l = json["lyapunov"];
    only_keys(l, {"transient", "duration", "interval"}, path, "lyapunov.");
    if (l.contains("transient")) run.lyapunov.transient = number(l["transient"], path, "lyapunov.transient");
    if (l.contains("duration")) run.lyapunov.duration = number(l["duration"], path, "lyapunov.duration");
    if (l.contains("interval")) run.lyapunov.interval = number(l["interval"], path, "lyapunov.interval");
  }
  if (const std::string why = run.lyapunov.check(); !why.empty()) fail(path, "'lyapunov': " + why);

  run.plot_x = names[0];
  run.plot_y = names.size() > 1 ? names[1] : names[0];
  if (json.contains("plot")) {
    const Json& p = json["plot"];
    only_keys(p, {"x", "y"}, path, "plot.");
    if (p.contains("x")) run.plot_x = string(p["x"], path, "plot.x");
    if (p.contains("y")) run.plot_y = string(p["y"], path, "plot.y");
    for (const auto& axis : {run.plot_x, run.plot_y})
      if (std::find(names.begin(), names.end(), axis) == names.end())
        fail(path, "'plot' axis '" + axis + "' is not a state component");
  }
  return run;
}

}  // namespace saltus::drivers
