#include "studies/run_file.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "continuation/autodiff_system.h"
#include "studies/option_tables.h"
#include "studies/run_file_orbits.h"
#include "models/algebraic_models.h"
#include "models/expression_system.h"
#include "models/lorenz.h"
#include "models/mechanical_expression.h"
#include "models/mechanical_rates.h"
#include "models/triple_pendulum.h"

namespace saltus::studies {

namespace {

// Every key, from the table (studies/option_tables_continue.cpp).
const KeyTable& keys() { return continue_run_file().keys; }

}  // namespace

const std::string& run_file_help() {
  static const std::string help = studies::run_file_help(continue_run_file());
  return help;
}

namespace {

// The built-in systems a run file can name with "model".
std::shared_ptr<const System> built_in_model(const std::string& name, const Json& options,
                                             const std::filesystem::path& path) {
  const models::AlgebraicModel* model = models::find_algebraic_model(name);
  if (!model)
    fail(path, "unknown model '" + name + "' (known: " + models::algebraic_model_names() + ", triple_pendulum)");
  only_keys(options, model->sized ? std::set<std::string>{"n"} : std::set<std::string>{}, path, "model_options.");
  int n = model->default_size;
  if (options.contains("n")) n = read_integer(keys(), "model_options.n", options["n"], path);
  if (n < model->min_size || n > model->max_size)
    fail(path, "'model_options.n' = " + std::to_string(n) + " must be in " + std::to_string(model->min_size) +
                   ".." + std::to_string(model->max_size) + " for " + name);
  return model->make(n);
}

FollowUp read_follow_up(const Json& object, const ContinuationOptions& base, bool needs_parameters,
                        const std::filesystem::path& path, const std::string& where, bool from_bt = false) {
  if (!object.is_object()) fail(path, "'" + where + "' must be an object");
  only_keys(object, keys_under(keys(), where + "."), path, where + ".");
  FollowUp f;
  read_option_keys(object, follow_up_option_table(), &f, path, where + ".");
  if (object.contains("from_bt")) {
    if (object.contains("from")) fail(path, "give '" + where + ".from' or '" + where + ".from_bt', not both");
    f.from_bt = read_integer(keys(), where + ".from_bt", object["from_bt"], path);
  }
  if (needs_parameters) {
    if (!object.contains("parameters"))
      fail(path, "'" + where + ".parameters' is missing: give two parameter names");
    f.parameters = strings(object["parameters"], path, where + ".parameters");
    if (f.parameters.size() != 2) fail(path, "'" + where + ".parameters' must name two parameters");
  }
  ContinuationOptions inherited = base;
  inherited.bounds.clear();
  f.options = read_continuation_options(object, inherited, path, where + ".");
  return f;
}

// The system's names, shared by the steps of parse_run_file.
struct Names {
  std::vector<std::string> unknowns, parameters;
  // A mechanical system: its parameters' own values (the start), and the
  // ones its impact law decides on (given, but not continuation parameters).
  bool mechanical = false;
  Vector values;
  std::set<std::string> decided;
};

// The one parameter "continuation" names (as 'parameter', or a list of one
// as 'parameters'), checked against the model's.
std::string continuation_parameter(const Json& json, const std::filesystem::path& path,
                                   const std::vector<std::string>& parameters) {
  if (!json.contains("continuation")) fail(path, "'continuation' is missing");
  const Json& c = json["continuation"];
  if (!c.is_object()) fail(path, "'continuation' must be an object");
  if (c.contains("parameter") && c.contains("parameters"))
    fail(path, "give 'continuation.parameter' or 'continuation.parameters', not both");
  std::vector<std::string> names;
  if (c.contains("parameter"))
    names = {string(c["parameter"], path, "continuation.parameter")};
  else if (c.contains("parameters"))
    names = strings(c["parameters"], path, "continuation.parameters");
  if (names.size() != 1) fail(path, "'continuation.parameter' must name exactly one parameter");
  if (std::find(parameters.begin(), parameters.end(), names[0]) == parameters.end())
    fail(path, "'continuation.parameter' = '" + names[0] + "' is not a parameter");
  return names[0];
}

}  // namespace

void check_identifier(const std::string& name, const std::filesystem::path& path, const std::string& key) {
  const bool ok = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') &&
                  std::all_of(name.begin(), name.end(),
                              [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
  if (!ok)
    fail(path, "'" + key + "' has the name '" + name +
                   "': names are letters, digits and _, not starting with a digit");
}

void check_run_name(const std::string& name, const std::filesystem::path& path) {
  const bool ok =
      !name.empty() && name != "." && name != ".." && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
      });
  if (!ok)
    fail(path, "'name' = '" + name +
                   "': a run name is letters, digits, '_', '-' and '.' (it names the output folder)");
}

namespace {

// A mechanical model's equilibria (models/mechanical_rates.h) as the run's
// system; its names and values into *names.
template <class Model>
void mechanical_system(Model model, const std::filesystem::path& path, RunFile* run, Names* names) {
  Model::parameters(model, [&](const char* name, const auto&, const char*) { names->decided.insert(name); });
  auto rates = models::MechanicalRates<Model>(std::move(model));
  names->mechanical = true;
  names->unknowns = rates.state_names();
  names->parameters = rates.parameter_names();
  names->values = rates.parameter_values();
  for (const auto& name : names->parameters) names->decided.erase(name);
  if (rates.depends_on_time(Vector::Zero(rates.state_size()), names->values))
    fail(path,
         "the mass or forces use the time t: a forced system has no equilibria (use `saltus periodic`)");
  run->system = make_system(std::move(rates));
}

// model | unknowns and equations (the rates x' = f when "periodic" is given):
// run->system, or *flow_system for a periodic run.
void read_system(const Json& json, const std::filesystem::path& path, const Json& parameter_values,
                 RunFile* run, Names* names, std::shared_ptr<const flow::HybridSystem>* flow_system) {
  std::vector<std::string>& unknowns = names->unknowns;
  std::vector<std::string>& parameters = names->parameters;
  if (json.contains("model_options") && !json.contains("model"))
    fail(path, "'model_options' is given without 'model'");
  const bool periodic = json.contains("periodic");
  const bool mechanical =
      json.contains("coordinates") || (json.contains("model") && json["model"] == "triple_pendulum");
  if (mechanical && (periodic || json.contains("hopf_cycles")))
    fail(path,
         std::string("'") + (periodic ? "periodic" : "hopf_cycles") +
             "' with a mechanical system: its orbits are shot by `saltus periodic` on a hybrid run file");
  if (periodic) {
    // The ODE, whose continuation parameter read_periodic puts in its state.
    if (json.contains("model")) {
      if (json.contains("equations") || json.contains("unknowns"))
        fail(path, "give either 'model' or 'unknowns' with 'equations', not both");
      const std::string model = string(json["model"], path, "model");
      if (json.contains("model_options")) only_keys(json["model_options"], {}, path, "model_options.");
      if (model != "lorenz")
        fail(path, "unknown periodic model '" + model + "' (known: lorenz; or give 'equations')");
      *flow_system = flow::make_hybrid(models::Lorenz{});
      unknowns = (*flow_system)->state_names();
      for (const auto& p : (*flow_system)->parameters()) parameters.push_back(p.name);
    } else {
      if (!json.contains("unknowns")) fail(path, "'unknowns' is missing (or name a built-in 'model')");
      if (!json.contains("equations")) fail(path, "'equations' is missing: give the rates x' = f(x, p, t)");
      unknowns = strings(json["unknowns"], path, "unknowns");
      for (const auto& [name, value] : parameter_values.items()) parameters.push_back(name);
      for (const auto& name : unknowns) check_identifier(name, path, "unknowns");
      for (const auto& name : parameters) check_identifier(name, path, "parameters");
      try {
        // The values follow (read_values); read_periodic puts them in.
        run->expressions.emplace();
        *flow_system = models::make_expression_ode(unknowns, parameters,
                                                   std::vector<double>(parameters.size(), 0.0),
                                                   run->equations = expression_texts(json["equations"], path, "equations"),
                                                   &*run->expressions);
      } catch (const std::invalid_argument& e) {
        fail(path, e.what());
      }
    }
  } else if (json.contains("coordinates")) {
    for (const char* key : {"equations", "unknowns", "model", "model_options"})
      if (json.contains(key))
        fail(path, std::string("'") + key + "' and 'coordinates' both define the system: give one of them");
    try {
      run->expressions.emplace();
      const auto own = models::make_expression_mechanical(json, &*run->expressions);
      mechanical_system(own->functor().model, path, run, names);
    } catch (const std::invalid_argument& e) {
      fail(path, e.what());
    }
  } else if (json.contains("model") && json["model"] == "triple_pendulum") {
    if (json.contains("equations") || json.contains("unknowns"))
      fail(path, "give either 'model' or 'unknowns' with 'equations', not both");
    if (json.contains("model_options")) only_keys(json["model_options"], {}, path, "model_options.");
    mechanical_system(models::TriplePendulum{}, path, run, names);
  } else if (json.contains("model")) {
    if (json.contains("equations") || json.contains("unknowns"))
      fail(path, "give either 'model' or 'unknowns' with 'equations', not both");
    run->system = built_in_model(string(json["model"], path, "model"),
                                 json.value("model_options", Json::object()), path);
    unknowns = run->system->state_names();
    parameters = run->system->parameter_names();
  } else {
    if (!json.contains("unknowns")) fail(path, "'unknowns' is missing (or name a built-in 'model')");
    if (!json.contains("equations")) fail(path, "'equations' is missing");
    unknowns = strings(json["unknowns"], path, "unknowns");
    for (const auto& [name, value] : parameter_values.items()) parameters.push_back(name);
    for (const auto& name : unknowns) check_identifier(name, path, "unknowns");
    for (const auto& name : parameters) check_identifier(name, path, "parameters");
    try {
      run->equations = expression_texts(json["equations"], path, "equations");
      run->system = models::make_expression_system(unknowns, parameters, run->equations);
    } catch (const std::invalid_argument& e) {
      fail(path, e.what());
    }
  }
}

// equilibria: true | {count}; sets run->equilibria (and detect_hopf) and
// returns the number of eigenvalues to compute (0: all).
int read_equilibria(const Json& json, const std::filesystem::path& path, int n, RunFile* run) {
  int eigenvalue_count = 0;
  if (json.contains("equilibria")) {
    const Json& e = json["equilibria"];
    if (e.is_object()) {
      only_keys(e, keys_under(keys(), "equilibria."), path, "equilibria.");
      run->equilibria = true;
      if (e.contains("count")) eigenvalue_count = read_integer(keys(), "equilibria.count", e["count"], path);
      if (n < 3)
        fail(path, "'equilibria.count' is for large sparse systems; with " + std::to_string(n) +
                       " unknowns use \"equilibria\": true (all eigenvalues)");
      if (eigenvalue_count < 1 || eigenvalue_count > n - 2)
        fail(path, "'equilibria.count' = " + std::to_string(eigenvalue_count) + " must be in 1.." +
                       std::to_string(n - 2) +
                       " (the eigenvalues of smallest modulus; \"equilibria\": true for all)");
    } else {
      run->equilibria = boolean(e, path, "equilibria");
    }
  }
  if (run->equilibria && json.contains("periodic"))
    fail(path, "'equilibria' follows equilibria of the rates, 'periodic' their orbits: give one of them");
  if (json.contains("hopf_cycles") && !run->equilibria)
    fail(path, "'hopf_cycles' starts from a Hopf point of equilibria: set \"equilibria\": true");
  if (json.contains("hopf_cycles") && json.contains("model"))
    fail(path, "'hopf_cycles' needs the rates as 'equations' (a built-in 'model' has no flow to shoot)");
  run->detect_hopf = run->equilibria;
  return eigenvalue_count;
}

// parameters (values) and start: every expression parameter and unknown is
// given; a built-in model's default to 0.
void read_values(const Json& json, const std::filesystem::path& path, const Json& parameter_values,
                 const Names& names, RunFile* run) {
  const std::vector<std::string>& unknowns = names.unknowns;
  const std::vector<std::string>& parameters = names.parameters;
  const int n = static_cast<int>(unknowns.size());
  const bool periodic = json.contains("periodic");
  // Parameter values: every expression parameter is given; model parameters default to 0.
  run->parameters = Vector::Zero(static_cast<int>(parameters.size()));
  if (names.mechanical) run->parameters = names.values;
  for (const auto& [name, value] : parameter_values.items()) {
    if (names.decided.count(name)) continue;  // a mechanical model's restitution: read with the model
    auto it = std::find(parameters.begin(), parameters.end(), name);
    if (it == parameters.end()) fail(path, "'parameters." + name + "' is not a parameter of the model");
    run->parameters[it - parameters.begin()] = number(value, path, "parameters." + name);
  }

  // Start values: required for expression systems, default 0 for models.
  run->start_state = Vector::Zero(n);
  const Json start = json.value("start", Json::object());
  if (!start.is_object()) fail(path, "'start' must be an object {unknown: value}");
  // "prefix*" gives every unknown whose name starts with prefix (a grid's
  // "x*"), unless the unknown has a value of its own.
  auto pattern_for = [&](const std::string& name) -> std::string {
    for (const auto& [key, value] : start.items())
      if (!key.empty() && key.back() == '*' && name.rfind(key.substr(0, key.size() - 1), 0) == 0) return key;
    return {};
  };
  for (const auto& [name, value] : start.items()) {
    const bool pattern = !name.empty() && name.back() == '*';
    const auto matches = [&](const std::string& u) {
      return pattern ? u.rfind(name.substr(0, name.size() - 1), 0) == 0 : u == name;
    };
    if (std::none_of(unknowns.begin(), unknowns.end(), matches))
      fail(path, "'start." + name + "' " + (pattern ? "matches no unknown" : "is not an unknown"));
  }
  for (int i = 0; i < n; ++i) {
    const std::string key = start.contains(unknowns[i]) ? unknowns[i] : pattern_for(unknowns[i]);
    if (!key.empty())
      run->start_state[i] = number(start[key], path, "start." + key);
    else if (names.mechanical && i >= n / 2)
      run->start_state[i] = 0.0;  // a velocity: zero at an equilibrium
    else if (!json.contains("model") || periodic)
      fail(path, "'start." + unknowns[i] + "' is missing: give a start value for every unknown");
  }
}

// continuation: the parameter, the detected special points, the options
// (and the period doublings' options of a periodic run).
void read_first_branch(const Json& json, const std::filesystem::path& path, const Names& names,
                       RunFile* run) {
  const std::vector<std::string>& parameters = names.parameters;
  if (!json.contains("continuation")) fail(path, "'continuation' is missing");
  const Json& c = json["continuation"];
  if (!c.is_object()) fail(path, "'continuation' must be an object");
  only_keys(c, keys_under(keys(), "continuation."), path, "continuation.");
  run->continuation_parameters = {continuation_parameter(json, path, parameters)};
  run->options = read_continuation_options(c, ContinuationOptions{}, path, "continuation.");
  if (c.contains("detect")) {
    const auto detect = strings(c["detect"], path, "continuation.detect");
    run->detect_folds = run->detect_branch_points = false;
    if (run->periodic) {
      run->periodic->detect_lpc = run->periodic->detect_pd = run->periodic->detect_ns = false;
      for (const auto& d : detect) {
        if (d == "LPC")
          run->periodic->detect_lpc = true;
        else if (d == "PD")
          run->periodic->detect_pd = true;
        else if (d == "NS")
          run->periodic->detect_ns = true;
        else
          fail(path, "'continuation.detect' has '" + d + "'; known for periodic orbits: LPC, PD, NS");
      }
    } else {
      run->detect_hopf = false;
      for (const auto& d : detect) {
        if (d == "LP")
          run->detect_folds = true;
        else if (d == "BP")
          run->detect_branch_points = true;
        else if (d == "HB" && run->equilibria)
          run->detect_hopf = true;
        else
          fail(path, "'continuation.detect' has '" + d + "'; known: LP, BP" +
                         (run->equilibria ? ", HB" : "") +
                         (d == "HB" ? " (HB needs \"equilibria\": true)" : ""));
      }
    }
  }
  if (run->periodic) {
    run->detect_folds = run->detect_branch_points = false;  // LPC, PD, NS instead
    if (json.contains("fold_curve") || json.contains("switch_branch"))
      fail(path,
           "'fold_curve' and 'switch_branch' need second derivatives, which shooting does not have; "
           "for periodic orbits use 'periodic.period_doubling'");
    if (run->periodic->doublings > 0 && !run->periodic->detect_pd)
      fail(path, "'periodic.period_doubling' starts from a PD, but 'continuation.detect' has no \"PD\"");
    if (run->periodic->doublings > 0) {
      ContinuationOptions base = run->options;
      run->periodic->doubling_options = read_continuation_options(json["periodic"]["period_doubling"], base,
                                                                  path, "periodic.period_doubling.");
    }
  }
}

// fold_curve, hopf_curve, switch_branch, hopf_cycles: checked here, before anything runs.
void read_follow_ups(const Json& json, const std::filesystem::path& path, const Names& names, RunFile* run) {
  const std::vector<std::string>& unknowns = names.unknowns;
  const std::vector<std::string>& parameters = names.parameters;
  auto check_bounds = [&](const FollowUp& f, const std::vector<std::string>& free, const std::string& where) {
    for (const auto& [name, bound] : f.options.bounds)
      if (std::find(free.begin(), free.end(), name) == free.end() &&
          std::find(unknowns.begin(), unknowns.end(), name) == unknowns.end())
        fail(path,
             "'" + where + ".bounds." + name + "' names neither an unknown nor a continuation parameter");
  };
  // A curve's two parameters: known, different, the first the branch's; its bounds.
  auto check_curve = [&](const FollowUp& f, const std::string& where) {
    const auto& fp = f.parameters;
    for (const auto& p : fp)
      if (std::find(parameters.begin(), parameters.end(), p) == parameters.end())
        fail(path, "'" + where + ".parameters' names '" + p + "', which is not a parameter");
    if (fp[0] != run->continuation_parameters[0])
      fail(path, "'" + where + ".parameters' must start with the continuation parameter '" +
                     run->continuation_parameters[0] + "'");
    if (fp[0] == fp[1]) fail(path, "'" + where + ".parameters' must name two different parameters");
    check_bounds(f, fp, where);
  };
  if (json.contains("fold_curve")) {
    run->fold_curve = read_follow_up(json["fold_curve"], run->options, true, path, "fold_curve");
    check_curve(*run->fold_curve, "fold_curve");
    if (!run->detect_folds)
      fail(path, "'fold_curve' starts from an LP, but 'continuation.detect' has no \"LP\"");
  }
  if (json.contains("hopf_curve")) {
    if (!run->equilibria) fail(path, "'hopf_curve' needs the eigenvalues: set \"equilibria\": true");
    run->hopf_curve = read_follow_up(json["hopf_curve"], run->options, true, path, "hopf_curve", true);
    if (run->hopf_curve->from_bt == 0 && !run->detect_hopf)
      fail(path, "'hopf_curve' starts from an HB, but 'continuation.detect' has no \"HB\"");
    check_curve(*run->hopf_curve, "hopf_curve");
    const auto& hp = run->hopf_curve->parameters;
    if (run->hopf_curve->from_bt > 0 && (!run->fold_curve || run->fold_curve->parameters != hp))
      fail(path,
           "'hopf_curve.from_bt' starts from a BT of the fold curve: give a 'fold_curve' in the same "
           "parameters [" +
               hp[0] + ", " + hp[1] + "]");
  }
  if (json.contains("switch_branch")) {
    run->switch_branch = read_follow_up(json["switch_branch"], run->options, false, path, "switch_branch");
    if (!run->detect_branch_points)
      fail(path, "'switch_branch' starts from a BP, but 'continuation.detect' has no \"BP\"");
    check_bounds(*run->switch_branch, run->continuation_parameters, "switch_branch");
  }
  if (json.contains("hopf_cycles")) {
    if (!run->detect_hopf)
      fail(path, "'hopf_cycles' starts from an HB, but 'continuation.detect' has no \"HB\"");
    run->hopf_cycles = read_hopf_cycles(json["hopf_cycles"], unknowns, parameters,
                                        strings(json["equations"], path, "equations"), run->options,
                                        run->continuation_parameters[0], path);
  }
}

// plot: the figure's axes.
void read_plot(const Json& json, const std::filesystem::path& path, const Names& names,
               const std::vector<std::string>& all, int n, RunFile* run) {
  const std::vector<std::string>& unknowns = names.unknowns;
  run->plot.x = run->continuation_parameters[0];
  run->plot.y = run->periodic && run->periodic->shooting->options().autonomous ? "T"
                : n == 1                                                       ? unknowns[0]
                                                                               : "max";
  if (json.contains("plot")) {
    const Json& p = json["plot"];
    if (!p.is_object()) fail(path, "'plot' must be an object {x, y}");
    only_keys(p, keys_under(keys(), "plot."), path, "plot.");
    if (p.contains("x")) run->plot.x = string(p["x"], path, "plot.x");
    if (p.contains("y")) run->plot.y = string(p["y"], path, "plot.y");
    for (const auto& axis : {run->plot.x, run->plot.y})
      if (axis != "max" && axis != "norm" && std::find(all.begin(), all.end(), axis) == all.end())
        fail(path, "'plot' axis '" + axis + "' is not an unknown, a parameter, \"max\" or \"norm\"");
  }
}

}  // namespace

RunFile parse_run_file(const std::string& text, const std::filesystem::path& path) {
  return parse_run_file(parse_json(text, path), path);
}

RunFile parse_run_file(const Json& json, const std::filesystem::path& path) {
  if (!json.is_object()) fail(path, "the top level must be an object");
  only_keys(json, keys_under(keys(), ""), path, "");

  RunFile run;
  run.path = path;
  run.name = json.contains("name") ? string(json["name"], path, "name") : path.stem().string();
  check_run_name(run.name, path);
  if (json.contains("description")) run.description = string(json["description"], path, "description");

  const Json parameter_values = json.value("parameters", Json::object());
  if (!parameter_values.is_object()) fail(path, "'parameters' must be an object {name: value}");
  Names names;
  std::shared_ptr<const flow::HybridSystem> flow_system;
  read_system(json, path, parameter_values, &run, &names, &flow_system);
  const int n = static_cast<int>(names.unknowns.size());
  read_values(json, path, parameter_values, names, &run);
  const int eigenvalue_count = read_equilibria(json, path, n, &run);
  if (json.contains("periodic")) {
    read_periodic(json["periodic"], flow_system, continuation_parameter(json, path, names.parameters), path,
                  names.unknowns, &names.parameters, &run);
    names.unknowns = run.system->state_names();  // with "T" when autonomous
  }
  read_first_branch(json, path, names, &run);
  run.options.eigenvalues = run.equilibria;  // the follow-ups inherit them
  run.options.eigenvalue_count = eigenvalue_count;
  std::vector<std::string> all = names.unknowns;
  all.insert(all.end(), names.parameters.begin(), names.parameters.end());
  for (const auto& [name, bound] : run.options.bounds)
    if (name != run.continuation_parameters[0] &&
        std::find(names.unknowns.begin(), names.unknowns.end(), name) == names.unknowns.end())
      fail(path,
           "'continuation.bounds." + name + "' names neither an unknown nor the continuation parameter");

  if (json.contains("events")) run.events = read_events(json["events"], all, path, "events");
  read_follow_ups(json, path, names, &run);
  read_plot(json, path, names, all, n, &run);
  return run;
}

RunFile read_run_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw RunFileError("run file " + path.string() + ": cannot be opened");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_run_file(buffer.str(), path);
}

}  // namespace saltus::studies
