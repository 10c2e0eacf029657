#include "drivers/hybrid_run_file.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "continuation/flow/mechanical.h"
#include "continuation/flow/mechanical_parameter.h"
#include "drivers/run_file.h"
#include "models/bouncing_ball.h"
#include "models/stick_slip.h"
#include "models/wheel_turntable.h"
#include "models/triple_pendulum.h"

namespace saltus::drivers {

const char* const kHybridRunFileHelp = R"(Run file keys (JSON):
  name, description  strings
  model          "bouncing_ball" (state q, v; modes "flight", "contact") or "triple_pendulum"
                 (state psi1..3, psi1_dot..3; modes "free", "contact 1", "contact 2 3", ...)
  parameters     {name: number}  the model's parameters:
                 bouncing_ball: g, e (restitution, in [0, 1]), A, omega (table A sin(omega t)),
                   stick_velocity
                 triple_pendulum: beta2, beta3, v12, v13, v23, mu2, mu3, c1, c2, c3, l1, l2, l3,
                   eta, q1, e, stick_velocity (defaults: three identical uniform rods, eta = 1.2,
                   c_i = 0.8, e = 0.8, q1 = 1)
                 stick_slip: m, k, c, g, v0 (belt speed), mu_s >= mu_k > 0 (static, kinetic
                   friction); state x, v; modes "slip+", "slip-", "stick" (models/stick_slip.h)
                 wheel_turntable: d, m, c1, c2, beta, r0, omega0, mu, gamma, kappa, k2 (defaults:
                   Szalai & Jeffrey's Sec. V system); state r, v, omega; modes "F+", "F-",
                   "sliding", "escaping" (a Filippov system on the lateral slip h, (4))
  links          triple_pendulum only: [{mass, length, centre, inertia} x 3] (and "g"): the
                 dimensionless parameters from physical links; "parameters" then override
  initial        {state name: number}  every state component
  mode           the initial mode's name (default: the model's first; stick_slip: from the
                 initial state, stick on v = v0 where static friction holds)
  time           [t0, t1]  the simulated span
  transient      simulate: time integrated from t0 before [t0, t1] is recorded (default 0)
  simulation     absolute_tolerance, relative_tolerance (1e-12), initial_step (1e-4),
                 max_step, event_tolerance (1e-14), max_events, zeno_interval, zeno_events,
                 output_interval (0: every step), method ("dopri5" or "dop853": the
                 Runge-Kutta method, default the simulator's)
  section        {variable, value, angle}  a Poincare section: crossings of variable = value
                 (upwards; with "angle": true, of value modulo 2 pi)
  lyapunov       transient (0), duration (100), interval (1): for `saltus lyapunov`,
                 which starts from the initial state at t0
  sweep          {parameter, from, to, steps (100), transient (100), record (100), threads (0:
                 all cores), plot}: `saltus sweep` draws the section's hits of `plot` against
                 the parameter, each value starting from the state the previous one ended in
  periodic       {t0, period, parameter, direction, ds, ds_min, ds_max, max_points, bounds,
                 event_tolerance, transient, record, max_returns (8), return_tolerance (1e-3),
                 diagram, grazing (true)}: for `saltus periodic`: a periodic orbit by shooting,
                 its Floquet multipliers (orbit.png: the orbit in the plot's plane, events
                 marked), and with "parameter" (the bouncing ball's A; any triple_pendulum
                 parameter but e; stick_slip's m, k, c, g or v0) its branch with the folds of
                 cycles (LPC), period doublings (PD) and Neimark-Sacker points (NS) located,
                 stopped at a grazing (GR; "grazing": false leaves that test out). Forced model: the orbit through
                 the "initial" guess cut at t0 (period: default the forcing period; with
                 "transient", the state after it is the guess). Autonomous model (the
                 pendulum, stick-slip): the period is unknown (phase condition); the guess comes from a
                 simulation: "transient" (100), then the returns to the "section" over "record"
                 (200) until one closes the orbit. The branch is drawn over a brute-force
                 diagram: the sweep CSV "diagram", else the run's "sweep" computed first
  plot           {x, y}  state names for the phase portrait (default: the first two)
Output folder: simulate: trajectory.csv, events.csv, sections.csv, summary.json, phase.png/.svg,
time.png/.svg; lyapunov (with --out): lyapunov.csv, lyapunov.json, lyapunov.png/.svg;
sweep: sweep.csv, sweep.json, sweep.png/.svg.)";

namespace {

using Values = std::map<std::string, double>;

template <class Model>
void set_fields(const Values& values, const std::map<std::string, double Model::*>& fields, Model* model) {
  for (const auto& [name, value] : values) model->*fields.at(name) = value;
}

const std::map<std::string, double models::BouncingBall::*> kBallFields = {
    {"g", &models::BouncingBall::g}, {"e", &models::BouncingBall::e}, {"A", &models::BouncingBall::A},
    {"omega", &models::BouncingBall::omega}, {"stick_velocity", &models::BouncingBall::stick_velocity}};

const std::map<std::string, double models::TriplePendulum::*> kPendulumFields = {
    {"beta2", &models::TriplePendulum::beta2}, {"beta3", &models::TriplePendulum::beta3},
    {"v12", &models::TriplePendulum::v12},     {"v13", &models::TriplePendulum::v13},
    {"v23", &models::TriplePendulum::v23},     {"mu2", &models::TriplePendulum::mu2},
    {"mu3", &models::TriplePendulum::mu3},     {"c1", &models::TriplePendulum::c1},
    {"c2", &models::TriplePendulum::c2},       {"c3", &models::TriplePendulum::c3},
    {"l1", &models::TriplePendulum::l1},       {"l2", &models::TriplePendulum::l2},
    {"l3", &models::TriplePendulum::l3},       {"eta", &models::TriplePendulum::eta},
    {"q1", &models::TriplePendulum::q1},       {"e", &models::TriplePendulum::e}};

// The run file's mu_k is the model's kinetic bound mu.
const std::map<std::string, double models::StickSlip::*> kStickSlipFields = {
    {"m", &models::StickSlip::m},   {"k", &models::StickSlip::k},       {"c", &models::StickSlip::c},
    {"g", &models::StickSlip::g},   {"v0", &models::StickSlip::v0},     {"mu_s", &models::StickSlip::mu_s},
    {"mu_k", &models::StickSlip::mu}};

const std::map<std::string, double models::WheelTurntable::*> kWheelFields = {
    {"d", &models::WheelTurntable::d},         {"m", &models::WheelTurntable::m},
    {"c1", &models::WheelTurntable::c1},       {"c2", &models::WheelTurntable::c2},
    {"beta", &models::WheelTurntable::beta},   {"r0", &models::WheelTurntable::r0},
    {"omega0", &models::WheelTurntable::omega0}, {"mu", &models::WheelTurntable::mu},
    {"gamma", &models::WheelTurntable::gamma}, {"kappa", &models::WheelTurntable::kappa},
    {"k2", &models::WheelTurntable::k2}};

// A Filippov model's start: without "mode", the mode from the side of h = 0
// the initial state is on (on h = 0: sliding where the force holds it); a
// given mode must fit the state. Names the values when it does not.
template <class Model>
void filippov_start(const Json& json, const std::filesystem::path& path, HybridRun* run) {
  const auto& flow = dynamic_cast<const flow::AutoDiffHybrid<filippov::FilippovFlow<Model>>&>(*run->system).functor();
  try {
    if (!json.contains("mode")) run->mode = flow.initial_mode(run->initial);
    flow.check_mode(run->mode, run->initial);
  } catch (const std::invalid_argument& e) {
    fail(path, e.what());
  }
}

template <class Map>
std::set<std::string> keys(const Map& m) {
  std::set<std::string> out;
  for (const auto& [k, v] : m) out.insert(k);
  return out;
}

models::TriplePendulum pendulum_from_links(const Json& links, const Json& g, const std::filesystem::path& path) {
  if (!links.is_array() || links.size() != 3) fail(path, "'links' must be a list of three {mass, length, centre, inertia}");
  models::TriplePendulum::Link l[3];
  for (int i = 0; i < 3; ++i) {
    const std::string where = "links[" + std::to_string(i) + "]";
    only_keys(links[i], {"mass", "length", "centre", "inertia"}, path, where + ".");
    for (const char* key : {"mass", "length", "centre", "inertia"})
      if (!links[i].contains(key)) fail(path, "'" + where + "." + key + "' is missing");
    l[i] = {number(links[i]["mass"], path, where + ".mass"), number(links[i]["length"], path, where + ".length"),
            number(links[i]["centre"], path, where + ".centre"), number(links[i]["inertia"], path, where + ".inertia")};
    if (!(l[i].mass > 0) || !(l[i].length > 0) || !(l[i].inertia >= 0))
      fail(path, "'" + where + "': mass and length must be positive and inertia >= 0");
  }
  return models::TriplePendulum::from_links(l[0], l[1], l[2], g.is_null() ? 9.81 : number(g, path, "g"));
}

}  // namespace

std::vector<flow::Section> HybridRun::sections() const {
  if (!section) return {};
  const auto names = system->state_names();
  const int i = static_cast<int>(std::find(names.begin(), names.end(), section->variable) - names.begin());
  const double value = section->value;
  if (section->angle)
    return {{[i, value](double, const Vector& x) { return std::sin(x[i] - value); }, flow::Crossing::kRising}};
  return {{[i, value](double, const Vector& x) { return x[i] - value; }, flow::Crossing::kRising}};
}

HybridRun read_hybrid_run(const std::filesystem::path& path) {
  const Json json = read_json(path);
  if (!json.is_object()) fail(path, "the top level must be an object");
  only_keys(json, {"name", "description", "model", "parameters", "links", "g", "initial", "mode", "time", "transient", "periodic", "simulation",
                   "section", "lyapunov", "sweep", "plot"},
            path, "");
  HybridRun run;
  run.path = path;
  run.name = json.contains("name") ? string(json["name"], path, "name") : path.stem().string();
  check_run_name(run.name, path);
  if (json.contains("description")) run.description = string(json["description"], path, "description");
  if (!json.contains("model")) fail(path, "'model' is missing (known: bouncing_ball, triple_pendulum, stick_slip, wheel_turntable)");
  run.model = string(json["model"], path, "model");
  const Json parameters = json.value("parameters", Json::object());
  if (!parameters.is_object()) fail(path, "'parameters' must be an object {name: value}");
  Values values;
  for (const auto& [name, value] : parameters.items()) values[name] = number(value, path, "parameters." + name);
  if ((json.contains("links") || json.contains("g")) && run.model != "triple_pendulum")
    fail(path, "'links' and 'g' belong to the triple_pendulum model");

  std::vector<std::string> modes;
  if (run.model == "bouncing_ball") {
    only_keys(parameters, keys(kBallFields), path, "parameters.");
    run.parameter_names = {"g", "e", "A", "omega", "stick_velocity"};
    run.with_parameter = [values, path](const std::string& name, double value) {
      models::BouncingBall ball;
      Values v = values;
      if (!name.empty()) v[name] = value;
      set_fields(v, kBallFields, &ball);
      try {
        ball.check();
      } catch (const std::invalid_argument& e) {
        fail(path, e.what());
      }
      return std::shared_ptr<const flow::HybridSystem>(flow::make_hybrid(ball));
    };
    modes = {"flight", "contact"};
    models::BouncingBall ball;
    set_fields(values, kBallFields, &ball);
    run.forcing_period = 2 * M_PI / ball.omega;
    run.fixed_parameter = "A";
    run.parameter_value = [ball](const std::string& name) { return ball.*kBallFields.at(name); };
    run.with_parameter_in_state = [ball, path](const std::string& name) mutable {
      if (name != "A") fail(path, "'periodic.parameter' = '" + name + "': the bouncing ball carries only A in its state");
      ball.amplitude_in_state = true;  // shooting in A: the amplitude rides in the state
      return std::shared_ptr<const flow::HybridSystem>(flow::make_hybrid(ball));
    };
  } else if (run.model == "triple_pendulum") {
    std::set<std::string> allowed = keys(kPendulumFields);
    allowed.insert("stick_velocity");
    only_keys(parameters, allowed, path, "parameters.");
    run.parameter_names.assign(allowed.begin(), allowed.end());
    const models::TriplePendulum base =
        json.contains("links") ? pendulum_from_links(json["links"], json.value("g", Json()), path) : models::TriplePendulum{};
    run.with_parameter = [values, base, path](const std::string& name, double value) {
      models::TriplePendulum p = base;
      Values v = values;
      if (!name.empty()) v[name] = value;
      double stick = 1e-6;
      if (auto it = v.find("stick_velocity"); it != v.end()) {
        stick = it->second;
        v.erase(it);
      }
      set_fields(v, kPendulumFields, &p);
      if (!(p.e >= 0.0 && p.e <= 1.0))
        fail(path, "restitution e = " + std::to_string(p.e) + " must be in [0, 1]");
      return std::shared_ptr<const flow::HybridSystem>(flow::make_mechanical(p, stick));
    };
    for (int m = 0; m < 8; ++m) modes.push_back(flow::Mechanical<models::TriplePendulum>{}.mode_name(m));
    // Shooting: the parameter rides in the state (exact derivatives through
    // the model's Jet parameters) and the three angles are wrapped into
    // [-pi, pi], so that orbits on which a link goes round close.
    run.fixed_parameter = "q1";
    run.parameter_value = [values, base](const std::string& name) {
      const auto it = values.find(name);
      return it != values.end() ? it->second : base.*kPendulumFields.at(name);
    };
    run.with_parameter_in_state = [values, base, path](const std::string& name) {
      if (name == "e" || name == "stick_velocity")
        fail(path, "'periodic.parameter' = '" + name +
                       "': the impact law decides on it as a number; continue in another parameter");
      models::TriplePendulum p = base;
      Values v = values;
      double stick = 1e-6;
      if (auto it = v.find("stick_velocity"); it != v.end()) {
        stick = it->second;
        v.erase(it);
      }
      set_fields(v, kPendulumFields, &p);
      return std::shared_ptr<const flow::HybridSystem>(
          flow::make_hybrid(flow::MechanicalWithParameter<models::TriplePendulumT>(p, name, stick, {0, 1, 2})));
    };
  } else if (run.model == "stick_slip") {
    only_keys(parameters, keys(kStickSlipFields), path, "parameters.");
    run.parameter_names = {"m", "k", "c", "g", "v0", "mu_s", "mu_k"};
    run.with_parameter = [values, path](const std::string& name, double value) {
      models::StickSlip p;
      Values v = values;
      if (!name.empty()) v[name] = value;
      set_fields(v, kStickSlipFields, &p);
      try {
        return std::shared_ptr<const flow::HybridSystem>(models::make_stick_slip_flow(p));
      } catch (const std::invalid_argument& e) {
        fail(path, e.what());
      }
    };
    modes = {"slip+", "slip-", "stick"};
    // Shooting: the stick-slip cycle is autonomous; its parameter (m, k, c,
    // g or v0) rides in the state, so its Jacobian column is exact.
    run.fixed_parameter = "v0";
    run.parameter_value = [values](const std::string& name) {
      models::StickSlip p;
      set_fields(values, kStickSlipFields, &p);
      return p.*kStickSlipFields.at(name);
    };
    run.with_parameter_in_state = [values, path](const std::string& name) {
      models::StickSlip p;
      set_fields(values, kStickSlipFields, &p);
      try {
        return std::shared_ptr<const flow::HybridSystem>(models::make_stick_slip_flow(p, name));
      } catch (const std::invalid_argument& e) {
        fail(path, "'periodic.parameter' = '" + name + "': " + e.what());
      }
    };
  } else if (run.model == "wheel_turntable") {
    only_keys(parameters, keys(kWheelFields), path, "parameters.");
    for (const auto& [name, field] : kWheelFields) run.parameter_names.push_back(name);
    run.with_parameter = [values, path](const std::string& name, double value) {
      models::WheelTurntable wheel = models::WheelTurntable::paper();  // Sec. V, two-fold at (0.1859, -1.037)
      Values v = values;
      if (!name.empty()) v[name] = value;
      set_fields(v, kWheelFields, &wheel);
      try {
        wheel.check();
        return std::shared_ptr<const flow::HybridSystem>(filippov::make_filippov_flow(wheel));
      } catch (const std::invalid_argument& e) {
        fail(path, e.what());
      }
    };
    modes = {"F+", "F-", "sliding", "escaping"};
  } else {
    fail(path, "unknown model '" + run.model + "' (known: bouncing_ball, triple_pendulum, stick_slip, wheel_turntable)");
  }
  run.system = run.with_parameter("", 0.0);

  const auto names = run.system->state_names();
  run.angles.assign(names.size(), false);
  if (run.model == "triple_pendulum") run.angles[0] = run.angles[1] = run.angles[2] = true;
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
    auto it = std::find(modes.begin(), modes.end(), mode);
    if (it == modes.end()) fail(path, "'mode' = '" + mode + "' is not a mode of " + run.model);
    run.mode = static_cast<int>(it - modes.begin());
  }
  if (!json.contains("time")) fail(path, "'time' is missing: give [t0, t1]");
  const Json& time = json["time"];
  if (!time.is_array() || time.size() != 2) fail(path, "'time' must be [t0, t1]");
  run.t0 = number(time[0], path, "time[0]");
  run.t1 = number(time[1], path, "time[1]");
  if (!(run.t1 > run.t0)) fail(path, "'time' must have t1 > t0");
  if (json.contains("transient")) run.transient = number(json["transient"], path, "transient");
  if (!(run.transient >= 0)) fail(path, "'transient' must be >= 0");
  if (run.model == "triple_pendulum") {
    // Restitution, mass matrix and constraints at the initial state, with the value named.
    try {
      const auto* mech = dynamic_cast<const flow::AutoDiffHybrid<flow::Mechanical<models::TriplePendulum>>*>(run.system.get());
      mech->functor().check(run.t0, run.initial);
    } catch (const std::invalid_argument& e) {
      fail(path, e.what());
    }
  }
  if (run.model == "stick_slip") filippov_start<models::StickSlip>(json, path, &run);
  if (run.model == "wheel_turntable") filippov_start<models::WheelTurntable>(json, path, &run);

  if (json.contains("simulation")) {
    const Json& s = json["simulation"];
    only_keys(s, {"absolute_tolerance", "relative_tolerance", "initial_step", "max_step", "event_tolerance",
                  "max_events", "zeno_interval", "zeno_events", "output_interval", "method"},
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
    if (s.contains("method")) {
      const std::string method = string(s["method"], path, "simulation.method");
      try {
        run.simulation.method = flow::integration_method_from_string(method);
      } catch (const std::invalid_argument& e) {
        fail(path, std::string("'simulation.method': ") + e.what());
      }
    }
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

  auto state_name = [&](const std::string& name, const std::string& key) {
    if (std::find(names.begin(), names.end(), name) == names.end())
      fail(path, "'" + key + "' = '" + name + "' is not a state component");
  };
  if (json.contains("section")) {
    const Json& s = json["section"];
    only_keys(s, {"variable", "value", "angle"}, path, "section.");
    SectionSpec spec;
    if (!s.contains("variable")) fail(path, "'section.variable' is missing");
    spec.variable = string(s["variable"], path, "section.variable");
    state_name(spec.variable, "section.variable");
    if (s.contains("value")) spec.value = number(s["value"], path, "section.value");
    if (s.contains("angle")) spec.angle = boolean(s["angle"], path, "section.angle");
    run.section = spec;
  }
  if (json.contains("sweep")) {
    const Json& s = json["sweep"];
    only_keys(s, {"parameter", "from", "to", "steps", "transient", "record", "threads", "plot"}, path, "sweep.");
    SweepSpec spec;
    for (const char* key : {"parameter", "from", "to"})
      if (!s.contains(key)) fail(path, std::string("'sweep.") + key + "' is missing");
    spec.parameter = string(s["parameter"], path, "sweep.parameter");
    if (std::find(run.parameter_names.begin(), run.parameter_names.end(), spec.parameter) == run.parameter_names.end())
      fail(path, "'sweep.parameter' = '" + spec.parameter + "' is not a parameter of " + run.model);
    spec.from = number(s["from"], path, "sweep.from");
    spec.to = number(s["to"], path, "sweep.to");
    if (s.contains("steps")) spec.steps = integer(s["steps"], path, "sweep.steps");
    if (s.contains("transient")) spec.transient = number(s["transient"], path, "sweep.transient");
    if (s.contains("record")) spec.record = number(s["record"], path, "sweep.record");
    if (s.contains("threads")) spec.threads = integer(s["threads"], path, "sweep.threads");
    spec.plot = s.contains("plot") ? string(s["plot"], path, "sweep.plot") : names.back();
    state_name(spec.plot, "sweep.plot");
    if (spec.steps < 1 || !(spec.transient >= 0) || !(spec.record > 0) || spec.threads < 0)
      fail(path, "'sweep': steps >= 1, transient >= 0, record > 0 and threads >= 0 are needed");
    if (!run.section) fail(path, "'sweep' records section hits: give a 'section'");
    // Every value of the range must make a valid model.
    run.with_parameter(spec.parameter, spec.from);
    run.with_parameter(spec.parameter, spec.to);
    run.sweep = spec;
  }

  if (json.contains("periodic")) {
    const Json& p = json["periodic"];
    if (!p.is_object()) fail(path, "'periodic' must be an object");
    std::set<std::string> allowed = {"t0", "period", "parameter", "direction", "ds", "ds_min", "ds_max",
                                     "max_points", "bounds", "event_tolerance", "transient", "record",
                                     "max_returns", "return_tolerance", "diagram", "grazing"};
    only_keys(p, allowed, path, "periodic.");
    if (!run.with_parameter_in_state)
      fail(path, "'periodic': periodic orbits of model '" + run.model +
                     "' are not supported yet (bouncing_ball, triple_pendulum and stick_slip are)");
    PeriodicSpec spec;
    auto real = [&](const char* key, double* field) {
      if (p.contains(key)) *field = number(p[key], path, std::string("periodic.") + key);
    };
    if (p.contains("t0")) spec.t0 = number(p["t0"], path, "periodic.t0");
    spec.autonomous = run.forcing_period == 0.0;
    if (spec.autonomous && p.contains("period"))
      fail(path, "'periodic.period': " + run.model + " is autonomous; its period is found (leave 'period' out)");
    spec.period = p.contains("period") ? number(p["period"], path, "periodic.period") : run.forcing_period;
    if (!spec.autonomous && !(spec.period > 0)) fail(path, "'periodic.period' must be positive");
    real("transient", &spec.transient);
    real("record", &spec.record);
    real("return_tolerance", &spec.return_tolerance);
    if (p.contains("max_returns")) spec.max_returns = integer(p["max_returns"], path, "periodic.max_returns");
    if (p.contains("transient") && !(spec.transient >= 0)) fail(path, "'periodic.transient' must be >= 0");
    if (spec.autonomous && spec.transient < 0) spec.transient = 100.0;  // the guess always comes from a simulation
    if (!(spec.record > 0) || spec.max_returns < 1 || !(spec.return_tolerance > 0))
      fail(path, "'periodic': record > 0, max_returns >= 1 and return_tolerance > 0 are needed");
    if (spec.autonomous && !run.section)
      fail(path, "'periodic': the guess of an autonomous orbit comes from returns to a 'section': give one");
    if (p.contains("grazing")) {
      if (!p["grazing"].is_boolean()) fail(path, "'periodic.grazing' = " + p["grazing"].dump() + " must be true or false");
      spec.grazing = p["grazing"].get<bool>();
    }
    if (p.contains("diagram")) {
      spec.diagram = string(p["diagram"], path, "periodic.diagram");
      if (spec.diagram.is_relative()) spec.diagram = path.parent_path() / spec.diagram;
      if (!std::filesystem::exists(spec.diagram))
        fail(path, "'periodic.diagram' = '" + spec.diagram.string() + "' does not exist (a sweep.csv of `saltus sweep`)");
    }
    if (p.contains("parameter")) {
      spec.parameter = string(p["parameter"], path, "periodic.parameter");
      if (std::find(run.parameter_names.begin(), run.parameter_names.end(), spec.parameter) == run.parameter_names.end())
        fail(path, "'periodic.parameter' = '" + spec.parameter + "' is not a parameter of " + run.model);
      run.with_parameter_in_state(spec.parameter);  // throws when the model cannot carry it
    }
    real("ds", &spec.options.ds);
    real("ds_min", &spec.options.ds_min);
    real("ds_max", &spec.options.ds_max);
    real("event_tolerance", &spec.options.event_tolerance);
    if (p.contains("direction")) spec.options.direction = integer(p["direction"], path, "periodic.direction");
    if (p.contains("max_points")) spec.options.max_points = integer(p["max_points"], path, "periodic.max_points");
    if (p.contains("bounds")) {
      const Json& b = p["bounds"];
      if (!b.is_object()) fail(path, "'periodic.bounds' must be {name: [min, max]}");
      for (const auto& [name, range] : b.items()) {
        if (!range.is_array() || range.size() != 2) fail(path, "'periodic.bounds." + name + "' must be [min, max]");
        Bound bound;
        if (!range[0].is_null()) bound.min = number(range[0], path, "periodic.bounds." + name + "[0]");
        if (!range[1].is_null()) bound.max = number(range[1], path, "periodic.bounds." + name + "[1]");
        spec.options.bounds[name] = bound;
      }
    }
    if (const std::string why = spec.options.check(); !why.empty()) fail(path, "'periodic': " + why);
    run.periodic = spec;
  }

  run.plot_x = names[0];
  run.plot_y = names.size() > 1 ? names[names.size() / 2] : names[0];
  if (json.contains("plot")) {
    const Json& p = json["plot"];
    only_keys(p, {"x", "y"}, path, "plot.");
    if (p.contains("x")) run.plot_x = string(p["x"], path, "plot.x");
    if (p.contains("y")) run.plot_y = string(p["y"], path, "plot.y");
    state_name(run.plot_x, "plot.x");
    state_name(run.plot_y, "plot.y");
  }
  return run;
}

}  // namespace saltus::drivers
