#include "drivers/filippov_commands.h"

#include <iomanip>

#include "drivers/json_input.h"
#include "drivers/run_file.h"
#include "models/wheel_turntable.h"
#include "testfunctions/two_fold.h"

namespace saltus::drivers {

const char* const kFilippovRunFileHelp = R"(Run file keys (JSON):
  name, description  strings
  model          "wheel_turntable" (state r, v, omega; Szalai & Jeffrey (1)-(7))
  parameters     {d, m, c1, c2, beta, r0, omega0, mu, gamma, kappa, k2}: defaults are the
                 paper's Sec. V constants; kappa and k2 may instead come from two_fold_at
  two_fold_at    {r, omega}: kappa and k2 from (10)-(11) so that a two-fold sits at (r*, omega*)
  tyre           "stretched_string" ((6)-(7), default) or "sticking" (the surface values)
  guess          {r, v, omega}: the start of the Newton search for the two-fold)";

namespace {

using models::WheelTurntable;

WheelTurntable read_wheel(const Json& json, const std::filesystem::path& path) {
  WheelTurntable wheel;  // Sec. V's constants, kappa and k2 unset
  const Json p = json.value("parameters", Json::object());
  only_keys(p, {"d", "m", "c1", "c2", "beta", "r0", "omega0", "mu", "gamma", "kappa", "k2"}, path, "parameters.");
  const std::pair<const char*, double*> fields[] = {
      {"d", &wheel.d},   {"m", &wheel.m},       {"c1", &wheel.c1},         {"c2", &wheel.c2},
      {"beta", &wheel.beta}, {"r0", &wheel.r0}, {"omega0", &wheel.omega0}, {"mu", &wheel.mu},
      {"gamma", &wheel.gamma}, {"kappa", &wheel.kappa}, {"k2", &wheel.k2}};
  for (const auto& [key, field] : fields)
    if (p.contains(key)) *field = number(p[key], path, std::string("parameters.") + key);
  if (json.contains("tyre")) {
    const std::string tyre = string(json["tyre"], path, "tyre");
    if (tyre == "stretched_string") wheel.tyre = models::TyreModel::kStretchedString;
    else if (tyre == "sticking") wheel.tyre = models::TyreModel::kSticking;
    else fail(path, "'tyre' = '" + tyre + "' (known: stretched_string, sticking)");
  }
  try {
    if (json.contains("two_fold_at")) {
      const Json& at = json["two_fold_at"];
      only_keys(at, {"r", "omega"}, path, "two_fold_at.");
      if (!at.contains("r") || !at.contains("omega")) fail(path, "'two_fold_at' needs r and omega");
      wheel = wheel.with_two_fold_at(number(at["r"], path, "two_fold_at.r"), number(at["omega"], path, "two_fold_at.omega"));
    }
    wheel.check();
  } catch (const std::invalid_argument& e) {
    fail(path, e.what());
  }
  return wheel;
}

}  // namespace

int filippov_twofold_command(const std::filesystem::path& file, bool json_out, std::ostream& out, std::ostream& err) {
  const Json json = read_json(file);
  if (!json.is_object()) fail(file, "the top level must be an object");
  only_keys(json, {"name", "description", "model", "parameters", "two_fold_at", "tyre", "guess"}, file, "");
  const std::string name = json.contains("name") ? string(json["name"], file, "name") : file.stem().string();
  check_run_name(name, file);
  if (!json.contains("model") || string(json["model"], file, "model") != "wheel_turntable")
    fail(file, "'model' must be \"wheel_turntable\" (the only Filippov model with a run file so far)");
  const WheelTurntable wheel = read_wheel(json, file);
  if (!json.contains("guess")) fail(file, "'guess' is missing: give {r, v, omega}");
  const Json& g = json["guess"];
  only_keys(g, {"r", "v", "omega"}, file, "guess.");
  Vector guess(3);
  const char* keys[] = {"r", "v", "omega"};
  for (int i = 0; i < 3; ++i) {
    if (!g.contains(keys[i])) fail(file, std::string("'guess.") + keys[i] + "' is missing");
    guess[i] = number(g[keys[i]], file, std::string("guess.") + keys[i]);
  }

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
  j["eigenvectors"] = {{c.eigenvectors[0][0], c.eigenvectors[0][1]}, {c.eigenvectors[1][0], c.eigenvectors[1][1]}};
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
        << ", K-- = " << c.K.mm << "\n  J1 = " << c.J1 << ", J2 = " << c.J2 << ", eigenvalues of (30): "
        << c.eigenvalues[0] << ", " << c.eigenvalues[1] << "\n  " << type_name(c.type) << ", "
        << case_name(c.twofold_case) << (c.nondeterministic ? " (non-deterministic)" : "") << '\n';
  }
  return 0;
}

}  // namespace saltus::drivers
