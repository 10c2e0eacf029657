#pragma once
// Filippov systems as studies (Szalai & Jeffrey; analyses/two_fold/): a
// `saltus filippov` run file (the built-in wheel on a turntable, or your own
// system by expressions: models/filippov_expression.h) read into its model
// and guess, and its two-fold located and classified, as data. The keys are
// in filippov_run_file_help().

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analyses/two_fold/two_fold.h"
#include "continuation/system.h"
#include "models/filippov_expression.h"
#include "models/wheel_turntable.h"
#include "studies/json_input.h"
#include "studies/study.h"  // StudyError

namespace saltus::studies {

struct FilippovRun {
  std::filesystem::path path;
  std::string name;  // default: the file's stem
  Json json;  // the whole file (the "map", "futures", "continuation" sections are read by their commands)
  models::WheelTurntable wheel;                   // "model": "wheel_turntable"
  std::optional<models::ExpressionFilippov> own;  // else the run file's own system ("states", "filippov")
  std::vector<std::string> states;                // the state names (the wheel's: r, v, omega)
  bool has_guess = false;
  Vector guess;  // {state: value}
  // futures.barrier of an own system (states, parameters, definitions); the
  // wheel's is its rolling velocity g, (5).
  std::function<double(const Vector&)> barrier;
};

// f(model) with the run's model: the wheel or the run file's own system
// (both filippov::Model); f's return type must not depend on which.
template <class F>
decltype(auto) visit_model(const FilippovRun& run, F&& f) {
  if (run.own) return f(*run.own);
  return f(run.wheel);
}

// Reads and checks the common keys, from a file or from the same keys as an
// object in memory (`where` names it); throws RunFileError naming the key.
FilippovRun read_filippov_run(const std::filesystem::path& file);
FilippovRun parse_filippov_run(const Json& description, const std::filesystem::path& where);

const std::string& filippov_run_file_help();  // the run-file keys (CLI footers)

// The two-fold near the run's guess, located by Newton and classified
// (analyses/two_fold/two_fold.h). Throws RunFileError when the run has no
// guess or fewer than 3 states, StudyError when the search cannot run (a
// switching surface without gradient there, ...); a search that does not
// converge is the result's message.
TwoFoldResult two_fold(const FilippovRun& run);
// Why the result is no classified two-fold: not located, or degenerate (a K
// that vanishes, or D = 0, exactly or to rounding: no J1, J2 or case, never
// NaN as a result); empty when it is one.
std::string two_fold_failure(const FilippovRun& run, const TwoFoldResult& result);
// A classified two-fold as data: name, x_star {state: value}, residual,
// iterations, kappa and k2 (the wheel) or parameters, K {pp, pm, mp, mm},
// J1, J2, eigenvalues, eigenvectors, visibility {plus, minus}, type, case,
// nondeterministic, message.
Json two_fold_json(const FilippovRun& run, const TwoFoldResult& result);

// {state: value} of a point, and "r = 0.1859, v = ..., omega = ..." at the
// given precision.
Json by_name(const std::vector<std::string>& names, const Vector& x);
std::string point_text(const std::vector<std::string>& names, const Vector& x, int digits);


}  // namespace saltus::studies
