#include "drivers/filippov_commands.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <set>
#include <sstream>

#include "analyses/two_fold/continuation.h"
#include "analyses/two_fold/two_fold.h"
#include "drivers/output.h"
#include "drivers/studies.h"
#include "models/wheel_turntable.h"
#include "studies/json_input.h"
#include "studies/options_json.h"
#include "studies/run_file.h"

namespace saltus::drivers {

namespace {

const char* const kFilippovRunFileKeys = R"(Run file keys (JSON):
  name, description  strings
  model          "wheel_turntable" (state r, v, omega; Szalai & Jeffrey (1)-(7)); or, instead,
                 your own Filippov system: "states", "parameters", "definitions" and "filippov"
                 as for `saltus simulate` (see its --help; keys below marked "own"); the keys of
                 `saltus simulate` (initial, time, ...) may stand beside these and are ignored here
  parameters     {d, m, c1, c2, beta, r0, omega0, mu, gamma, kappa, k2}: defaults are the
                 paper's Sec. V constants; kappa and k2 may instead come from two_fold_at
  two_fold_at    {r, omega}: kappa and k2 from (10)-(11) so that a two-fold sits at (r*, omega*)
  tyre           "stretched_string" ((6)-(7), default) or "sticking" (the surface values)
  guess          {state: value} (the wheel's {r, v, omega}): the start of the Newton search for the
                 two-fold (twofold, futures, continue); a two-fold needs at least 3 states
  plot           {x, y}: the state names of the futures figure's axes (default: the first and last)
  map            (filippov map; Fig. 4) {r: [min, max], omega: [min, max], resolution: [n_r, n_omega],
                 threads, guess_offset}: defaults r in [0.02, 0.4], omega in [-1.4, -0.6], 161 x 161,
                 all cores (at most 1024), 1e-3; kappa and k2 are designed at each grid point by (10)-(11)
  futures        (filippov futures; Fig. 5) {samples, approach_samples, approach_radius,
                 arrival_distance, approach_time, escape_radius, max_liftoff_time, simulate_time,
                 max_step, barrier}: defaults 16, 5, 2e-3, 1e-6, 50, 2e-3, 2, 30, 0.05 (samples at
                 most 1e5); own: "barrier", an expression of the states and parameters whose zero on
                 Sigma the model does not resolve (a future reaching it stops; the wheel's is g, (5))
  continuation   (filippov continue) {parameter (default "k2"; the wheel's: one of d m c1 c2 beta r0
                 omega0 gamma kappa k2; own: any parameter, 3 states), bounds: {NAME: [min, max]} over
                 the states and the parameter, and the continuation options below (max_points: each way)}
Continuation options (default in parentheses):
)";

}  // namespace

const std::string& filippov_run_file_help() {
  static const std::string help = kFilippovRunFileKeys + option_help(continuation_option_table(), "  ");
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

}  // namespace

namespace {

// The keys of `saltus simulate` that may stand in the same file (its reader checks them).
const std::set<std::string> kSimulateKeys = {"initial",    "mode",    "time",           "transient",
                                             "simulation", "section", "lyapunov",       "sweep",
                                             "periodic",   "plot",    "forcing_period", "angles"};

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
  run->states = run->own->state_names();
  const Json futures = json.value("futures", Json::object());
  if (futures.is_object() && futures.contains("barrier")) {
    const auto spec = run->own->spec;
    auto names = spec->names();
    names.insert(names.end(), spec->definitions.names.begin(), spec->definitions.names.end());
    std::shared_ptr<const models::Expression> barrier;
    try {
      barrier = std::make_shared<const models::Expression>(
          models::Expression::parse(string(futures["barrier"], file, "futures.barrier"), names));
    } catch (const models::ExpressionError& e) {
      fail(file, std::string("'futures.barrier': ") + e.what());
    }
    const models::ExpressionFilippov model = *run->own;
    run->barrier = [model, barrier](const Vector& x) {
      const int n = model.state_size(), k = static_cast<int>(model.p.size());
      std::vector<double> v(n + k + 1 + model.spec->definitions.names.size(), 0.0);
      for (int i = 0; i < n; ++i) v[i] = x[i];
      for (int i = 0; i < k; ++i) v[n + i] = model.spec->decided[i] ? model.numbers[i] : model.p[i];
      model.spec->definitions.evaluate(v.data(), n + k + 1);
      return barrier->evaluate<double>(v.data());
    };
  }
}

}  // namespace

FilippovRun read_filippov_run(const std::filesystem::path& file) {
  FilippovRun run;
  run.path = file;
  run.json = read_json(file);
  const Json& json = run.json;
  if (!json.is_object()) fail(file, "the top level must be an object");
  std::set<std::string> keys = {"name", "description", "model", "parameters", "two_fold_at",
                                "tyre", "guess",       "map",   "futures",    "continuation"};
  if (!json.contains("model"))
    keys = {"name",     "description", "states",  "parameters",  "definitions",
            "filippov", "guess",       "futures", "continuation"};
  keys.insert(kSimulateKeys.begin(), kSimulateKeys.end());
  only_keys(json, keys, file, "");
  run.name = json.contains("name") ? string(json["name"], file, "name") : file.stem().string();
  check_run_name(run.name, file);
  if (json.contains("model")) {
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

std::filesystem::path output_folder(const FilippovRun& run, const std::filesystem::path& out_dir) {
  return out_dir.empty() ? std::filesystem::path("out") / run.name : out_dir;
}

bool render_gnuplot(const std::filesystem::path& dir, const std::string& stem, const std::string& script,
                    std::string* warning) {
  const std::string tmp = stem + ".png.tmp" + std::to_string(::getpid());
  write_file_atomically(dir / (stem + ".gp"), [&](std::ostream& o) {
    o << "# gnuplot script written by saltus; run `gnuplot " << stem << ".gp` in this folder\n"
      << "if (!exists('output')) output = '" << stem << ".png'\n"
      << script;
  });
  // For /bin/sh: single quotes, ' written as '\''.
  auto quoted = [](const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  };
  const std::string command = "cd " + quoted(dir.string()) + " && gnuplot -e " +
                              quoted("output='" + tmp + "'") + " " + quoted(stem + ".gp") + " 2>&1";
  std::string text;
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char buffer[256];
    while (std::fgets(buffer, sizeof buffer, pipe)) text += buffer;
    if (::pclose(pipe) == 0 && std::filesystem::exists(dir / tmp)) {
      std::filesystem::rename(dir / tmp, dir / (stem + ".png"));
      return true;
    }
  }
  std::filesystem::remove(dir / tmp);
  if (warning) *warning = "gnuplot failed, figure " + stem + ".png not drawn: " + text;
  return false;
}

namespace {

// {state: value} of a point.
Json by_name(const std::vector<std::string>& names, const Vector& x) {
  Json j = Json::object();
  for (std::size_t i = 0; i < names.size(); ++i) j[names[i]] = x[static_cast<int>(i)];
  return j;
}

// "r = 0.1859, v = ..., omega = ..." at the given precision.
std::string point_text(const std::vector<std::string>& names, const Vector& x, int digits) {
  std::ostringstream o;
  o << std::setprecision(digits);
  for (std::size_t i = 0; i < names.size(); ++i) o << (i ? ", " : "") << names[i] << " = " << x[int(i)];
  return o.str();
}

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

int filippov_twofold_command(const std::filesystem::path& file, bool json_out, std::ostream& out,
                             std::ostream& err) {
  const FilippovRun run = read_filippov_run(file);
  const std::string& name = run.name;
  if (!run.has_guess) fail(file, "'guess' is missing: give {state: value} near the two-fold");
  require_three_states(run);
  TwoFoldResult result;
  try {
    result = visit_model(run, [&](const auto& model) { return locate_two_fold(model, run.guess); });
  } catch (const std::exception& e) {  // a switching surface without gradient there, ...
    err << "saltus filippov twofold: " << file.string() << ": " << e.what() << '\n';
    return 1;
  }
  if (!result.located()) {
    err << "saltus filippov twofold: " << file.string() << ": " << result.message << '\n';
    return 2;
  }
  const TwoFoldClassification& c = *result.classification;
  // No NaN as a result: a degenerate two-fold (a K that vanishes, or D = 0,
  // exactly or to rounding, as the K of a huge friction coefficient cancel)
  // has no J1, J2, eigenvalues or case; the reason is the error.
  const bool finite = !c.j_defined || (std::isfinite(c.J1) && std::isfinite(c.J2) &&
                                       std::isfinite(c.eigenvalues[0]) && std::isfinite(c.eigenvalues[1]));
  if (c.type == TwoFoldType::kDegenerate || !finite) {
    err << "saltus filippov twofold: " << file.string() << ": the two-fold at "
        << point_text(run.states, c.x, 12) << " cannot be classified: " << c.message
        << ". J1, J2 and the case are undefined there; move the parameters off the degeneracy (or to a scale "
           "where the constants K do not cancel to rounding)\n";
    return 2;
  }
  Json j;
  j["name"] = name;
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
  if (json_out) {
    out << j.dump(2) << '\n';
  } else {
    out << name << ": two-fold at " << point_text(run.states, c.x, 12) << " (residual "
        << std::setprecision(3) << c.residual << ")\n"
        << "  K++ = " << std::setprecision(9) << c.K.pp << ", K+- = " << c.K.pm << ", K-+ = " << c.K.mp
        << ", K-- = " << c.K.mm << "\n  ";
    if (c.j_defined)
      out << "J1 = " << c.J1 << ", J2 = " << c.J2 << ", eigenvalues of (30): " << c.eigenvalues[0] << ", "
          << c.eigenvalues[1];
    else
      out << "J1, J2 and (30) undefined (K++ K-- > 0)";
    out << "\n  " << type_name(c.type) << ", " << case_name(c.twofold_case)
        << (c.nondeterministic ? " (non-deterministic)" : "") << '\n';
  }
  return 0;
}

namespace {

// The "continuation" object: the parameter, then the continuation options
// from the table (studies/options_json.h).
ContinuationOptions read_two_fold_continuation(const Json& c, const std::filesystem::path& file,
                                               TwoFoldContinuationOptions* options) {
  std::set<std::string> allowed = continuation_keys();
  allowed.insert("parameter");
  only_keys(c, allowed, file, "continuation.");
  if (c.contains("parameter")) options->parameter = string(c["parameter"], file, "continuation.parameter");
  return read_continuation_options(c, ContinuationOptions{}, file, "continuation.");
}

}  // namespace

namespace {

// The continuation's JSON summary.
Json continuation_json(const FilippovRun& run, const TwoFoldContinuation& c) {
  Json j;
  j["name"] = run.name;
  j["parameter"] = c.parameter;
  j["points"] = c.branch.points.size();
  j["message"] = c.message;
  Json boundaries = Json::array();
  for (const auto& b : c.boundaries)
    boundaries.push_back({{"test", b.name},
                          {c.parameter, b.parameter},
                          {"x", by_name(run.states, b.x)},
                          {"status", to_string(b.status)},
                          {"precision", b.precision},
                          {"before", b.before},
                          {"after", b.after}});
  j["boundaries"] = boundaries;
  return j;
}

// The last state component (the wheel's omega*) along the curve against the parameter, boundaries labelled.
void draw_continuation(const FilippovRun& run, const TwoFoldContinuation& c, const std::filesystem::path& dir,
                       std::ostream& err) {
  const int n = static_cast<int>(run.states.size()), shown = n - 1;
  Figure f{run.name + ": two-fold continued in " + c.parameter, c.parameter, run.states[shown] + "*", {}, {}};
  Figure::Series s{"two-fold", {}, "lines", ""};
  for (const auto& p : c.branch.points) s.points.emplace_back(p.y[n], p.y[shown]);
  f.series.push_back(std::move(s));
  for (const auto& b : c.boundaries) f.labels.push_back({b.parameter, b.x[shown], b.name});
  f.labels_title = "case boundaries";
  std::string warning;
  draw(f, dir, "twofold_branch", &warning);
  if (!warning.empty()) err << "saltus filippov continue: warning: " << warning << '\n';
}

TwoFoldContinuationOptions continuation_options(const FilippovRun& run) {
  const std::filesystem::path& file = run.path;
  TwoFoldContinuationOptions options;
  options.continuation =
      read_two_fold_continuation(run.json.value("continuation", Json::object()), file, &options);
  if (const std::string bad = options.check(); !bad.empty()) fail(file, "'continuation': " + bad);
  std::vector<std::string> parameters = wheel_parameter_names();
  if (run.own) parameters = run.own->spec->parameters;
  if (std::find(parameters.begin(), parameters.end(), options.parameter) == parameters.end()) {
    std::string known;
    for (const auto& p : parameters) known += (known.empty() ? "" : ", ") + p;
    fail(file,
         "'continuation.parameter' = '" + options.parameter + "' is not a parameter (known: " + known + ")");
  }
  for (const auto& [key, bound] : options.continuation.bounds)
    if (key != options.parameter && std::find(run.states.begin(), run.states.end(), key) == run.states.end())
      fail(file, "'continuation.bounds." + key + "': bounds are on the states or " + options.parameter);
  return options;
}

}  // namespace

int filippov_continue_command(const std::filesystem::path& file, const std::filesystem::path& out_dir,
                              bool json_out, std::ostream& out, std::ostream& err) {
  const FilippovRun run = read_filippov_run(file);
  if (!run.has_guess) fail(file, "'guess' is missing: give {state: value} near the two-fold to continue");
  if (run.states.size() != 3)
    fail(file, "'states': a two-fold continues as a curve in one parameter only with 3 states (" +
                   std::to_string(run.states.size()) + " given)");
  const TwoFoldContinuationOptions options = continuation_options(run);
  TwoFoldContinuation c;
  try {
    c = visit_model(run, [&](const auto& model) { return continue_two_fold(model, run.guess, options); });
  } catch (const std::invalid_argument& e) {
    err << "saltus filippov continue: " << file.string() << ": " << e.what() << '\n';
    return 1;
  }
  if (!c.ok) {
    err << "saltus filippov continue: " << file.string() << ": " << c.message << '\n';
    return 2;
  }
  const std::filesystem::path dir = output_folder(run, out_dir);
  std::filesystem::create_directories(dir);
  write_file_atomically(dir / "twofold_branch.csv", [&](std::ostream& o) { c.branch.write_csv(o); });
  const Json j = continuation_json(run, c);
  write_file_atomically(dir / "twofold_branch.json", [&](std::ostream& o) { o << j.dump(2) << '\n'; });
  draw_continuation(run, c, dir, err);
  if (json_out) {
    out << j.dump(2) << '\n';
  } else {
    out << run.name << ": " << c.message << '\n';
    for (const auto& b : c.boundaries)
      out << "  " << std::setw(7) << b.name << "  " << c.parameter << " = " << std::setprecision(10)
          << b.parameter << "  at " << point_text(run.states, b.x, 10) << "  (" << b.before << " -> "
          << b.after << ", " << to_string(b.status) << ")\n";
    out << "wrote " << dir.string() << '\n';
  }
  return 0;
}

}  // namespace saltus::drivers
