#include "drivers/filippov_commands.h"

#include <unistd.h>

#include <cstdio>
#include <iomanip>

#include "analyses/two_fold/continuation.h"
#include "analyses/two_fold/two_fold.h"
#include "drivers/json_input.h"
#include "drivers/options_json.h"
#include "drivers/output.h"
#include "drivers/run_file.h"
#include "models/wheel_turntable.h"

namespace saltus::drivers {

namespace {

const char* const kFilippovRunFileKeys = R"(Run file keys (JSON):
  name, description  strings
  model          "wheel_turntable" (state r, v, omega; Szalai & Jeffrey (1)-(7))
  parameters     {d, m, c1, c2, beta, r0, omega0, mu, gamma, kappa, k2}: defaults are the
                 paper's Sec. V constants; kappa and k2 may instead come from two_fold_at
  two_fold_at    {r, omega}: kappa and k2 from (10)-(11) so that a two-fold sits at (r*, omega*)
  tyre           "stretched_string" ((6)-(7), default) or "sticking" (the surface values)
  guess          {r, v, omega}: the start of the Newton search for the two-fold (twofold, futures,
                 continue)
  map            (filippov map; Fig. 4) {r: [min, max], omega: [min, max], resolution: [n_r, n_omega],
                 threads, guess_offset}: defaults r in [0.02, 0.4], omega in [-1.4, -0.6], 161 x 161,
                 all cores (at most 1024), 1e-3; kappa and k2 are designed at each grid point by (10)-(11)
  futures        (filippov futures; Fig. 5) {samples, approach_samples, approach_radius,
                 arrival_distance, approach_time, escape_radius, max_liftoff_time, simulate_time,
                 max_step}: defaults 16, 5, 2e-3, 1e-6, 50, 2e-3, 2, 30, 0.05 (samples at most 1e5)
  continuation   (filippov continue) {parameter (default "k2"; one of d m c1 c2 beta r0 omega0 gamma
                 kappa k2), bounds: {NAME: [min, max]} over r, v, omega and the parameter, and the
                 continuation options below (max_points: each way)}
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

FilippovRun read_filippov_run(const std::filesystem::path& file) {
  FilippovRun run;
  run.path = file;
  run.json = read_json(file);
  const Json& json = run.json;
  if (!json.is_object()) fail(file, "the top level must be an object");
  only_keys(json,
            {"name", "description", "model", "parameters", "two_fold_at", "tyre", "guess", "map", "futures",
             "continuation"},
            file, "");
  run.name = json.contains("name") ? string(json["name"], file, "name") : file.stem().string();
  check_run_name(run.name, file);
  if (!json.contains("model") || string(json["model"], file, "model") != "wheel_turntable")
    fail(file, "'model' must be \"wheel_turntable\" (the only Filippov model with a run file so far)");
  run.wheel = read_wheel(json, file);
  if (json.contains("guess")) {
    const Json& g = json["guess"];
    only_keys(g, {"r", "v", "omega"}, file, "guess.");
    run.guess.resize(3);
    const char* keys[] = {"r", "v", "omega"};
    for (int i = 0; i < 3; ++i) {
      if (!g.contains(keys[i])) fail(file, std::string("'guess.") + keys[i] + "' is missing");
      run.guess[i] = number(g[keys[i]], file, std::string("guess.") + keys[i]);
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

int filippov_twofold_command(const std::filesystem::path& file, bool json_out, std::ostream& out,
                             std::ostream& err) {
  const FilippovRun run = read_filippov_run(file);
  const std::string& name = run.name;
  const WheelTurntable& wheel = run.wheel;
  if (!run.has_guess) fail(file, "'guess' is missing: give {r, v, omega}");
  const Vector& guess = run.guess;

  TwoFoldResult result;
  try {
    result = locate_two_fold(wheel, guess);
  } catch (const std::exception& e) {  // a switching surface without gradient there, ...
    err << "saltus filippov twofold: " << file.string() << ": " << e.what() << '\n';
    return 1;
  }
  if (!result.located()) {
    err << "saltus filippov twofold: " << file.string() << ": " << result.message << '\n';
    return 2;
  }
  const TwoFoldClassification& c = *result.classification;
  Json j;
  j["name"] = name;
  j["x_star"] = {{"r", c.x[0]}, {"v", c.x[1]}, {"omega", c.x[2]}};
  j["residual"] = c.residual;
  j["iterations"] = result.iterations;
  j["kappa"] = wheel.kappa;
  j["k2"] = wheel.k2;
  j["K"] = {{"pp", c.K.pp}, {"pm", c.K.pm}, {"mp", c.K.mp}, {"mm", c.K.mm}};
  j["J1"] = c.J1;
  j["J2"] = c.J2;
  j["eigenvalues"] = {c.eigenvalues[0], c.eigenvalues[1]};
  j["eigenvectors"] = {{c.eigenvectors[0][0], c.eigenvectors[0][1]},
                       {c.eigenvectors[1][0], c.eigenvectors[1][1]}};
  j["type"] = type_name(c.type);
  j["case"] = case_name(c.twofold_case);
  j["nondeterministic"] = c.nondeterministic;
  j["message"] = c.message;
  if (json_out) {
    out << j.dump(2) << '\n';
  } else {
    out << name << ": two-fold at r = " << std::setprecision(12) << c.x[0] << ", v = " << c.x[1]
        << ", omega = " << c.x[2] << " (residual " << std::setprecision(3) << c.residual << ")\n"
        << "  K++ = " << std::setprecision(9) << c.K.pp << ", K+- = " << c.K.pm << ", K-+ = " << c.K.mp
        << ", K-- = " << c.K.mm << "\n  J1 = " << c.J1 << ", J2 = " << c.J2
        << ", eigenvalues of (30): " << c.eigenvalues[0] << ", " << c.eigenvalues[1] << "\n  "
        << type_name(c.type) << ", " << case_name(c.twofold_case)
        << (c.nondeterministic ? " (non-deterministic)" : "") << '\n';
  }
  return 0;
}

namespace {

// The "continuation" object: the parameter, then the continuation options
// from the table (drivers/options_json.h).
ContinuationOptions read_two_fold_continuation(const Json& c, const std::filesystem::path& file,
                                               TwoFoldContinuationOptions* options) {
  std::set<std::string> allowed = continuation_keys();
  allowed.insert("parameter");
  only_keys(c, allowed, file, "continuation.");
  if (c.contains("parameter")) options->parameter = string(c["parameter"], file, "continuation.parameter");
  return read_continuation_options(c, ContinuationOptions{}, file, "continuation.");
}

}  // namespace

int filippov_continue_command(const std::filesystem::path& file, const std::filesystem::path& out_dir,
                              bool json_out, std::ostream& out, std::ostream& err) {
  const FilippovRun run = read_filippov_run(file);
  if (!run.has_guess) fail(file, "'guess' is missing: give {r, v, omega} near the two-fold to continue");
  TwoFoldContinuationOptions options;
  options.continuation =
      read_two_fold_continuation(run.json.value("continuation", Json::object()), file, &options);
  if (const std::string bad = options.check(); !bad.empty()) fail(file, "'continuation': " + bad);
  for (const auto& [key, bound] : options.continuation.bounds)
    if (key != "r" && key != "v" && key != "omega" && key != options.parameter)
      fail(file, "'continuation.bounds." + key + "': bounds are on r, v, omega or " + options.parameter);
  TwoFoldContinuation c;
  try {
    c = continue_two_fold(run.wheel, run.guess, options);
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
  Json j;
  j["name"] = run.name;
  j["parameter"] = c.parameter;
  j["points"] = c.branch.points.size();
  j["message"] = c.message;
  Json boundaries = Json::array();
  for (const auto& b : c.boundaries)
    boundaries.push_back({{"test", b.name},
                          {c.parameter, b.parameter},
                          {"x", {{"r", b.x[0]}, {"v", b.x[1]}, {"omega", b.x[2]}}},
                          {"status", to_string(b.status)},
                          {"precision", b.precision},
                          {"before", b.before},
                          {"after", b.after}});
  j["boundaries"] = boundaries;
  write_file_atomically(dir / "twofold_branch.json", [&](std::ostream& o) { o << j.dump(2) << '\n'; });
  // omega* along the curve against the parameter, boundaries labelled.
  Figure f{run.name + ": two-fold continued in " + c.parameter, c.parameter, "omega*", {}, {}};
  Figure::Series s{"two-fold", {}, "lines", ""};
  for (const auto& p : c.branch.points) s.points.emplace_back(p.y[3], p.y[2]);
  f.series.push_back(std::move(s));
  for (const auto& b : c.boundaries) f.labels.push_back({b.parameter, b.x[2], b.name});
  f.labels_title = "case boundaries";
  std::string warning;
  draw(f, dir, "twofold_branch", &warning);
  if (!warning.empty()) err << "saltus filippov continue: warning: " << warning << '\n';
  if (json_out) {
    out << j.dump(2) << '\n';
  } else {
    out << run.name << ": " << c.message << '\n';
    for (const auto& b : c.boundaries)
      out << "  " << std::setw(7) << b.name << "  " << c.parameter << " = " << std::setprecision(10)
          << b.parameter << "  at r = " << b.x[0] << ", v = " << b.x[1] << ", omega = " << b.x[2] << "  ("
          << b.before << " -> " << b.after << ", " << to_string(b.status) << ")\n";
    out << "wrote " << dir.string() << '\n';
  }
  return 0;
}

}  // namespace saltus::drivers
