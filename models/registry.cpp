#include "models/registry.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "continuation/flow/mechanical.h"
#include "models/bouncing_ball.h"
#include "models/filippov_expression.h"
#include "models/hybrid_expression.h"
#include "models/mechanical_expression.h"
#include "models/stick_slip.h"
#include "models/triple_pendulum.h"
#include "models/wheel_turntable.h"

namespace saltus::models {

namespace {

using Json = nlohmann::ordered_json;

template <class Flow>
const Flow& functor(const flow::HybridSystem& system) {
  return dynamic_cast<const flow::AutoDiffHybrid<Flow>&>(system).functor();
}

double finite_number(const Json& value, const std::string& key) {
  if (!value.is_number() || !std::isfinite(value.get<double>()))
    throw std::invalid_argument("'" + key + "' must be a finite number");
  return value.get<double>();
}

// The pendulum's dimensionless parameters from three physical links
// (TriplePendulum::from_links) and the gravity "g".
std::map<std::string, double> pendulum_links(const Json& run) {
  if (!run.contains("links")) {
    if (run.contains("g")) throw std::invalid_argument("'g' sets the gravity of 'links': give the links too");
    return {};
  }
  const Json& links = run["links"];
  if (!links.is_array() || links.size() != 3)
    throw std::invalid_argument("'links' must be a list of three {mass, length, centre, inertia}");
  TriplePendulum::Link l[3];
  for (int i = 0; i < 3; ++i) {
    const std::string where = "links[" + std::to_string(i) + "]";
    if (!links[i].is_object())
      throw std::invalid_argument("'" + where + "' must be {mass, length, centre, inertia}");
    for (const auto& [key, value] : links[i].items())
      if (key != "mass" && key != "length" && key != "centre" && key != "inertia")
        throw std::invalid_argument("'" + where + "." + key +
                                    "' is not a key (known: mass, length, centre, inertia)");
    for (const char* key : {"mass", "length", "centre", "inertia"})
      if (!links[i].contains(key)) throw std::invalid_argument("'" + where + "." + key + "' is missing");
    l[i] = {finite_number(links[i]["mass"], where + ".mass"),
            finite_number(links[i]["length"], where + ".length"),
            finite_number(links[i]["centre"], where + ".centre"),
            finite_number(links[i]["inertia"], where + ".inertia")};
    if (!(l[i].mass > 0) || !(l[i].length > 0) || !(l[i].inertia >= 0))
      throw std::invalid_argument("'" + where + "': mass and length must be positive and inertia >= 0");
  }
  const double g = run.contains("g") ? finite_number(run["g"], "g") : 9.81;
  if (!(g > 0)) throw std::invalid_argument("'g' must be positive");
  std::map<std::string, double> values;
  const TriplePendulum p = TriplePendulum::from_links(l[0], l[1], l[2], g);
  for (const auto& info : flow::parameter_list(p)) values[info.name] = info.value;
  return values;
}

template <class Flow>
void check_filippov_start(const flow::HybridSystem& system, int mode, double t, const Vector& x) {
  functor<Flow>(system).check_mode(mode, x, t);
}

std::vector<HybridModel> make_table() {
  std::vector<HybridModel> table;

  HybridModel ball;
  ball.name = "bouncing_ball";
  ball.description =
      "a ball on a table moving as A sin(omega t), Newton's impact law (models/bouncing_ball.h)";
  ball.mode_count = 2;
  ball.shooting_parameter = "A";
  ball.make = [] { return flow::make_hybrid(BouncingBall{}); };
  ball.forcing_period = "2*pi/omega";
  table.push_back(ball);

  HybridModel pendulum;
  pendulum.name = "triple_pendulum";
  pendulum.description =
      "the triple physical pendulum with a barrier of Awrejcewicz & Kudra, eq. (8) "
      "(models/triple_pendulum.h)";
  pendulum.mode_count = 8;
  pendulum.angles = {0, 1, 2};
  pendulum.shooting_parameter = "q1";
  pendulum.make = [] { return flow::make_mechanical(TriplePendulum{}); };
  pendulum.check_start = [](const flow::HybridSystem& s, int, double t, const Vector& x) {
    functor<flow::Mechanical<TriplePendulum>>(s).check(t, x);
  };
  pendulum.extra_keys = {"links", "g"};
  pendulum.parameters_from_keys = pendulum_links;
  pendulum.extra_keys_help =
      "links [{mass, length, centre, inertia} x 3] and g: the inertia parameters from physical links "
      "(then overridden by \"parameters\")";
  table.push_back(pendulum);

  HybridModel stick_slip;
  stick_slip.name = "stick_slip";
  stick_slip.description =
      "a block on a moving belt with Coulomb friction, mu_s >= mu_k (models/stick_slip.h)";
  stick_slip.mode_count = 3;
  stick_slip.shooting_parameter = "v0";
  stick_slip.make = [] { return make_stick_slip_flow(StickSlip{}); };
  stick_slip.initial_mode = [](const flow::HybridSystem& s, double, const Vector& x) {
    return functor<StickSlipFlow>(s).initial_mode(x);
  };
  stick_slip.check_start = check_filippov_start<StickSlipFlow>;
  stick_slip.filippov = true;
  table.push_back(stick_slip);

  HybridModel wheel;
  wheel.name = "wheel_turntable";
  wheel.description =
      "the wheel on a turntable of Szalai & Jeffrey, a Filippov system on the lateral slip "
      "(models/wheel_turntable.h)";
  wheel.mode_count = 4;
  wheel.make = [] { return filippov::make_filippov_flow(WheelTurntable::paper()); };
  wheel.initial_mode = [](const flow::HybridSystem& s, double, const Vector& x) {
    return functor<filippov::FilippovFlow<WheelTurntable>>(s).initial_mode(x);
  };
  wheel.check_start = check_filippov_start<filippov::FilippovFlow<WheelTurntable>>;
  wheel.filippov = true;
  table.push_back(wheel);
  return table;
}

}  // namespace

const std::vector<HybridModel>& hybrid_models() {
  static const std::vector<HybridModel> table = make_table();
  return table;
}

const HybridModel* find_hybrid_model(const std::string& name) {
  for (const auto& m : hybrid_models())
    if (m.name == name) return &m;
  return nullptr;
}

std::string hybrid_model_names() {
  std::string out;
  for (const auto& m : hybrid_models()) out += (out.empty() ? "" : ", ") + m.name;
  return out;
}

std::string hybrid_models_help() {
  std::ostringstream out;
  for (const auto& m : hybrid_models()) {
    const auto system = m.make();
    out << "  " << m.name << ": " << m.description << "\n    state:";
    for (const auto& s : system->state_names()) out << " " << s;
    out << "; modes:";
    for (int i = 0; i < m.mode_count; ++i) out << (i ? ", \"" : " \"") << system->mode_name(i) << "\"";
    out << (m.forcing_period.empty() ? "; autonomous" : "; forced, period " + m.forcing_period) << "\n";
    for (const auto& p : system->parameters())
      out << "    " << p.name << " = " << p.value << ": " << p.doc << "\n";
    if (!m.extra_keys_help.empty()) out << "    " << m.extra_keys_help << "\n";
  }
  return out.str();
}

HybridModel expression_hybrid_model(const Json& run) {
  HybridModel model;
  std::shared_ptr<const flow::HybridSystem> system;
  if (run.contains("coordinates")) {
    for (const char* key : {"states", "modes"})
      if (run.contains(key))
        throw std::invalid_argument(
            std::string("'") + key +
            "' belongs to a hybrid system by modes; a mechanical one has 'coordinates'");
    const auto mechanical = make_expression_mechanical(run);
    model.name = "own mechanical";
    model.description = "the run file's own mechanical system";
    model.mode_count = 1 << mechanical->functor().model.constraint_count();
    model.check_start = [](const flow::HybridSystem& s, int, double t, const Vector& x) {
      functor<flow::Mechanical<ExpressionMechanical>>(s).check(t, x);
    };
    system = mechanical;
  } else if (run.contains("filippov")) {
    if (run.contains("modes"))
      throw std::invalid_argument(
          "'modes' belongs to a hybrid system by modes; a Filippov one has 'filippov'");
    // The initial state, where given, as the probe of the affinity check.
    Vector probe;
    if (run.contains("states") && run["states"].is_array() && run.contains("initial") &&
        run["initial"].is_object()) {
      const Json& states = run["states"];
      probe.resize(static_cast<int>(states.size()));
      for (std::size_t i = 0; i < states.size(); ++i) {
        const Json& v =
            states[i].is_string() ? run["initial"].value(states[i].get<std::string>(), Json()) : Json();
        if (!v.is_number()) {
          probe.resize(0);
          break;
        }
        probe[static_cast<int>(i)] = v.get<double>();
      }
    }
    using Flow = filippov::FilippovFlow<ExpressionFilippov>;
    system = make_expression_filippov(run, probe);
    model.name = "own Filippov";
    model.description = "the run file's own Filippov system";
    model.mode_count = 4;
    model.initial_mode = [](const flow::HybridSystem& s, double t, const Vector& x) {
      return functor<Flow>(s).initial_mode(x, t);
    };
    model.check_start = check_filippov_start<Flow>;
    model.filippov = true;
    // A forced system's orbits have the forcing's period: without it the
    // shooting would treat t as absent (an autonomous orbit of a wrong system).
    if (functor<Flow>(*system).forced() && run.contains("periodic") && !run.contains("forcing_period"))
      throw std::invalid_argument(
          "'forcing_period' is missing: the Filippov system reads the time t (a forced system), so its "
          "periodic orbits have the forcing's period; give it, e.g. \"2*pi/w\"");
  } else {
    const auto hybrid = make_expression_hybrid(run);
    model.name = "own";
    model.description = "the run file's own hybrid system";
    model.mode_count = static_cast<int>(hybrid->functor().spec->modes.size());
    system = hybrid;
  }
  model.make = [system] { return system; };
  const auto parameters = system->parameters();
  // Shooting carries one parameter: the first the model does not decide on.
  for (const auto& p : parameters)
    if (model.shooting_parameter.empty()) try {
        system->with_parameters_in_state({p.name});
        model.shooting_parameter = p.name;
      } catch (const std::invalid_argument&) {
      }
  const auto names = system->state_names();
  if (run.contains("angles")) {
    const Json& angles = run["angles"];
    if (!angles.is_array()) throw std::invalid_argument("'angles' must be a list of state names");
    for (const auto& a : angles) {
      const auto it =
          a.is_string() ? std::find(names.begin(), names.end(), a.get<std::string>()) : names.end();
      if (it == names.end())
        throw std::invalid_argument("'angles': " + a.dump() + " is not a state component");
      model.angles.push_back(static_cast<int>(it - names.begin()));
    }
  }
  if (run.contains("forcing_period")) {
    // A number stands for itself (issue 35: numbers wherever an expression is).
    const Json& period = run["forcing_period"];
    if (!period.is_string() && !period.is_number())
      throw std::invalid_argument(
          "'forcing_period' must be an expression of the parameters, e.g. \"2*pi/w\", or a number, got " +
          period.dump());
    model.forcing_period = period.is_number() ? period.dump() : period.get<std::string>();
  }
  return model;
}

}  // namespace saltus::models
