#include "studies/filippov_study.h"

#include <cmath>
#include <iomanip>
#include <set>
#include <sstream>

#include "studies/option_tables.h"
#include "studies/options_json.h"
#include "studies/run_file.h"

namespace saltus::studies {

const std::string& filippov_run_file_help() {
  static const std::string help = run_file_help(filippov_run_file());
  return help;
}

namespace {

using models::WheelTurntable;

WheelTurntable read_wheel(const Json& json, const std::filesystem::path& path) {
  WheelTurntable wheel;  // Sec. V's constants, kappa and k2 unset
  const Json p = json.value("parameters", Json::object());
  only_keys(p, {"d", "m", "c1", "c2", "beta", "r0", "omega0", "mu", "gamma", "kappa", "k2"}, path,
            "parameters.");
  const std::pair<const char*, double*> fields[] = {
      {"d", &wheel.d},         {"m", &wheel.m},         {"c1", &wheel.c1},         {"c2", &wheel.c2},
      {"beta", &wheel.beta},   {"r0", &wheel.r0},       {"omega0", &wheel.omega0}, {"mu", &wheel.mu},
      {"gamma", &wheel.gamma}, {"kappa", &wheel.kappa}, {"k2", &wheel.k2}};
  for (const auto& [key, field] : fields)
    if (p.contains(key)) *field = number(p[key], path, std::string("parameters.") + key);
  if (json.contains("tyre")) {
    const std::string tyre = string(json["tyre"], path, "tyre");
    if (tyre == "stretched_string")
      wheel.tyre = models::TyreModel::kStretchedString;
    else if (tyre == "sticking")
      wheel.tyre = models::TyreModel::kSticking;
    else
      fail(path, "'tyre' = '" + tyre + "' (known: stretched_string, sticking)");
  }
  try {
    if (json.contains("two_fold_at")) {
      const Json& at = json["two_fold_at"];
      only_keys(at, {"r", "omega"}, path, "two_fold_at.");
      if (!at.contains("r") || !at.contains("omega")) fail(path, "'two_fold_at' needs r and omega");
      wheel = wheel.with_two_fold_at(number(at["r"], path, "two_fold_at.r"),
                                     number(at["omega"], path, "two_fold_at.omega"));
    }
    wheel.check();
  } catch (const std::invalid_argument& e) {
    fail(path, e.what());
  }
  return wheel;
}

// The run file's own system: the "filippov" schema, its field checked for
// affinity in lambda at the guess (else the initial state).
void read_own(FilippovRun* run) {
  const Json& json = run->json;
  const std::filesystem::path& file = run->path;
  Vector probe;
  const Json& at = json.contains("guess") ? json["guess"] : json.value("initial", Json());
  if (json.contains("states") && json["states"].is_array() && at.is_object()) {
    probe.resize(static_cast<int>(json["states"].size()));
    for (std::size_t i = 0; i < json["states"].size(); ++i) {
      const Json& name = json["states"][i];
      const Json v = name.is_string() ? at.value(name.get<std::string>(), Json()) : Json();
      if (!v.is_number()) {
        probe.resize(0);
        break;
      }
      probe[static_cast<int>(i)] = v.get<double>();
    }
  }
  try {
    run->own = models::make_expression_filippov(json, probe)->functor().model();
  } catch (const std::invalid_argument& e) {
    fail(file, e.what());
  }
  if (run->own->forced())
    fail(file,
         "'filippov': h or the field uses the time t (a forced system); the two-folds, futures and maps of "
         "`saltus filippov` are for autonomous systems (make the forcing a state, th' = w, with \"angles\": "
         "[\"th\"]); the periodic orbits of a forced system: `saltus periodic` with \"forcing_period\"");
  run->states = run->own->state_names();
  const Json futures = json.value("futures", Json::object());
  if (futures.is_object() && futures.contains("barrier")) {
    const auto spec = run->own->spec;
    auto names = spec->names();
    names.insert(names.end(), spec->definitions.names.begin(), spec->definitions.names.end());
    std::shared_ptr<const models::Expression> barrier;
    try {
      barrier = std::make_shared<const models::Expression>(
          models::Expression::parse(expression_text(futures["barrier"], file, "futures.barrier"), names));
    } catch (const models::ExpressionError& e) {
      fail(file, std::string("'futures.barrier': ") + e.what());
    }
    const models::ExpressionFilippov model = *run->own;
    run->barrier = [model, barrier](const Vector& x) {
      const int n = model.state_size(), k = static_cast<int>(model.p.size());
      // (x, p, lambda = 0, t = 0) and the definitions: models/filippov_expression.h's order.
      std::vector<double> v(n + k + 2 + model.spec->definitions.names.size(), 0.0);
      for (int i = 0; i < n; ++i) v[i] = x[i];
      for (int i = 0; i < k; ++i) v[n + i] = model.spec->decided[i] ? model.numbers[i] : model.p[i];
      model.spec->definitions.evaluate(v.data(), n + k + 2);
      return barrier->evaluate<double>(v.data());
    };
  }
}

}  // namespace

FilippovRun parse_filippov_run(const Json& description, const std::filesystem::path& file) {
  FilippovRun run;
  run.path = file;
  run.json = description;
  const Json& json = run.json;
  if (!json.is_object()) fail(file, "the top level must be an object");
  // The table's keys (studies/option_tables_filippov.cpp), less those of
  // the other way of giving the system.
  std::set<std::string> keys = keys_under(filippov_run_file().keys, "");
  const bool wheel = json.contains("model");
  for (const char* key : wheel ? std::vector<const char*>{"states", "definitions", "filippov"}
                               : std::vector<const char*>{"model", "two_fold_at", "tyre", "map"})
    keys.erase(key);
  only_keys(json, keys, file, "");
  run.name = json.contains("name") ? string(json["name"], file, "name") : file.stem().string();
  check_run_name(run.name, file);
  if (wheel) {
    if (string(json["model"], file, "model") != "wheel_turntable")
      fail(file,
           "'model' must be \"wheel_turntable\" (the only built-in Filippov model), or leave it out and "
           "define your own system with 'states' and 'filippov'");
    run.wheel = read_wheel(json, file);
    run.states = run.wheel.state_names();
    const models::WheelTurntable wheel = run.wheel;
    run.barrier = [wheel](const Vector& x) { return wheel.rolling(x.data()); };
    if (json.value("futures", Json::object()).contains("barrier"))
      fail(file,
           "'futures.barrier' is for your own system: the wheel's barrier is its rolling velocity g, (5)");
  } else if (json.contains("filippov")) {
    read_own(&run);
  } else {
    fail(file,
         "'model' is missing: name the built-in \"wheel_turntable\" or define your own system with "
         "'states' and 'filippov' (see --help)");
  }
  if (json.contains("guess")) {
    const Json& g = json["guess"];
    only_keys(g, std::set<std::string>(run.states.begin(), run.states.end()), file, "guess.");
    run.guess.resize(static_cast<int>(run.states.size()));
    for (std::size_t i = 0; i < run.states.size(); ++i) {
      const std::string key = "guess." + run.states[i];
      if (!g.contains(run.states[i])) fail(file, "'" + key + "' is missing: give every state component");
      run.guess[static_cast<int>(i)] = number(g[run.states[i]], file, key);
    }
    run.has_guess = true;
  }
  return run;
}

FilippovRun read_filippov_run(const std::filesystem::path& file) { return parse_filippov_run(read_json(file), file); }

Json by_name(const std::vector<std::string>& names, const Vector& x) {
  Json j = Json::object();
  for (std::size_t i = 0; i < names.size(); ++i) j[names[i]] = x[static_cast<int>(i)];
  return j;
}

std::string point_text(const std::vector<std::string>& names, const Vector& x, int digits) {
  std::ostringstream o;
  o << std::setprecision(digits);
  for (std::size_t i = 0; i < names.size(); ++i) o << (i ? ", " : "") << names[i] << " = " << x[int(i)];
  return o.str();
}

namespace {

// The model's parameters: the wheel's kappa and k2 (designed by two_fold_at), a run file's all.
void parameters_json(const FilippovRun& run, Json* j) {
  if (!run.own) {
    (*j)["kappa"] = run.wheel.kappa;
    (*j)["k2"] = run.wheel.k2;
    return;
  }
  Json p = Json::object();
  for (std::size_t i = 0; i < run.own->p.size(); ++i)
    p[run.own->spec->parameters[i]] = run.own->spec->decided[i] ? run.own->numbers[i] : run.own->p[i];
  (*j)["parameters"] = p;
}

// A two-fold needs a 2-dimensional switching surface.
void require_three_states(const FilippovRun& run) {
  if (run.states.size() < 3)
    fail(run.path,
         "'states': a two-fold needs a switching surface of dimension >= 2, so at least 3 states (" +
             std::to_string(run.states.size()) + " given)");
}

}  // namespace

TwoFoldResult two_fold(const FilippovRun& run) {
  if (!run.has_guess) fail(run.path, "'guess' is missing: give {state: value} near the two-fold");
  require_three_states(run);
  try {
    return visit_model(run, [&](const auto& model) { return locate_two_fold(model, run.guess); });
  } catch (const std::exception& e) {
    throw StudyError(run.path.string() + ": " + e.what());
  }
}

std::string two_fold_failure(const FilippovRun& run, const TwoFoldResult& result) {
  if (!result.located()) return result.message;
  const TwoFoldClassification& c = *result.classification;
  const bool finite = !c.j_defined || (std::isfinite(c.J1) && std::isfinite(c.J2) &&
                                       std::isfinite(c.eigenvalues[0]) && std::isfinite(c.eigenvalues[1]));
  if (c.type != TwoFoldType::kDegenerate && finite) return "";
  return "the two-fold at " + point_text(run.states, c.x, 12) + " cannot be classified: " + c.message +
         ". J1, J2 and the case are undefined there; move the parameters off the degeneracy (or to a scale "
         "where the constants K do not cancel to rounding)";
}

Json two_fold_json(const FilippovRun& run, const TwoFoldResult& result) {
  const TwoFoldClassification& c = *result.classification;
  Json j;
  j["name"] = run.name;
  j["x_star"] = by_name(run.states, c.x);
  j["residual"] = c.residual;
  j["iterations"] = result.iterations;
  parameters_json(run, &j);
  j["K"] = {{"pp", c.K.pp}, {"pm", c.K.pm}, {"mp", c.K.mp}, {"mm", c.K.mm}};
  j["J1"] = c.J1;
  j["J2"] = c.J2;
  j["eigenvalues"] = {c.eigenvalues[0], c.eigenvalues[1]};
  j["eigenvectors"] = {{c.eigenvectors[0][0], c.eigenvectors[0][1]},
                       {c.eigenvectors[1][0], c.eigenvectors[1][1]}};
  j["visibility"] = {{"plus", visibility_name(c.plus)}, {"minus", visibility_name(c.minus)}};
  j["type"] = type_name(c.type);
  j["case"] = case_name(c.twofold_case);
  j["nondeterministic"] = c.nondeterministic;
  j["message"] = c.message;
  return j;
}

}  // namespace saltus::studies
