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
#include "studies/filippov_study.h"
#include "studies/json_input.h"
#include "studies/option_tables.h"
#include "studies/options_json.h"
#include "studies/run_file.h"

namespace saltus::drivers {

std::filesystem::path output_folder(const FilippovRun& run, const std::filesystem::path& out_dir) {
  return out_dir.empty() ? std::filesystem::path("out") / run.name : out_dir;
}

bool render_gnuplot(const std::filesystem::path& dir, const std::string& stem, const std::string& script,
                    std::string* warning) {
  if (!figures_drawn()) return false;  // --no-figures: neither the script nor gnuplot
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
  TwoFoldResult result;
  try {
    result = studies::two_fold(run);
  } catch (const StudyError& e) {  // a switching surface without gradient there, ...
    err << "saltus filippov twofold: " << e.what() << '\n';
    return 1;
  }
  if (const std::string why = studies::two_fold_failure(run, result); !why.empty()) {
    err << "saltus filippov twofold: " << file.string() << ": " << why << '\n';
    return 2;
  }
  const TwoFoldClassification& c = *result.classification;
  if (json_out) {
    out << studies::two_fold_json(run, result).dump(2) << '\n';
  } else {
    out << run.name << ": two-fold at " << point_text(run.states, c.x, 12) << " (residual "
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
  only_keys(c, keys_under(filippov_run_file().keys, "continuation."), file, "continuation.");
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
