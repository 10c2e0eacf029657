#pragma once
// Run files: JSON that defines an algebraic system and a continuation study
// without recompiling. The keys are documented in run_file_help() (printed by
// `saltus continue --help`); read_run_file() checks every key and value and
// throws RunFileError naming the file, the key and what to do.

#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "continuation/branch.h"
#include "continuation/options.h"
#include "continuation/periodic/orbit_guess.h"
#include "continuation/periodic/shooting.h"
#include "continuation/system.h"
#include "studies/json_input.h"
#include "models/compiled_block.h"
#include "models/expression.h"

namespace saltus::studies {

// A user test function: a "UZ" point where the expression changes sign.
struct UserEvent {
  std::string name;
  models::Expression expression;  // over the unknowns and parameters
  bool stop = false;
};

// A continuation after the first branch, started from one of its special points.
struct FollowUp {
  int from = 1;                         // the n-th LP (fold curve), HB (Hopf curve) or BP (switch), 1-based
  int from_bt = 0;                      // Hopf curve: > 0, from the n-th BT of the fold curve instead
  std::vector<std::string> parameters;  // fold curve: the two free parameters
  ContinuationOptions options;
};

struct Plot {
  std::string x;  // a component name; default the first continuation parameter
  std::string y;  // a component name, "max" (max |x_i|) or "norm" (|x|_2 / sqrt(n))
};

// A periodic problem ("periodic" key): the orbits of an ODE x' = f(x, p, t)
// (the "equations", or a built-in model) by shooting. The run's system is
// then the ShootingSystem, whose state is x at t0 (and the period T when
// autonomous), so the first branch, its special points and the summary are
// those of any other run.
struct PeriodicRun {
  std::shared_ptr<const flow::HybridSystem> ode;               // the ODE at the run's parameter values
  std::shared_ptr<const flow::HybridSystem> flow;              // the same, the continued parameter in its state
  std::shared_ptr<periodic::ShootingSystem> shooting;          // the same object as RunFile::system
  std::optional<periodic::OrbitGuessOptions> from_simulation;  // the start from a simulation
  bool detect_lpc = true, detect_pd = true, detect_ns = true;
  int doublings = 0;                     // switches onto the period-doubled branch, each at the
  ContinuationOptions doubling_options;  // first PD of the branch before
  std::vector<std::string> phase;        // two unknowns: the axes of the orbit figure
};

// The cycles born at a Hopf point of the first branch ("hopf_cycles" key):
// the branch of periodic orbits of the same equations read as rates, by
// shooting, from the guess of analyses/hopf/cycle_start.h.
struct HopfCycles {
  int from = 1;                                    // the n-th HB of the first branch, 1-based
  double amplitude = 0.01;                         // the first cycle's largest excursion from the equilibrium
  std::shared_ptr<const flow::HybridSystem> flow;  // the ODE, parameters in its state
  periodic::ShootingOptions shooting;              // autonomous; the phase plane is set at the start
  ContinuationOptions options;
  std::vector<std::string> phase;  // two unknowns: the axes of the orbits figure
  std::vector<UserEvent> events;   // on the maximum of the expression over each orbit
};

struct RunFile {
  std::filesystem::path path;
  std::string name;  // default: the file's stem
  std::string description;
  std::shared_ptr<const System> system;
  std::vector<std::string> equations;  // the expressions of F, when given as "equations"
  Vector parameters;  // all parameter values, in system order
  Vector start_state;
  std::vector<std::string> continuation_parameters;
  ContinuationOptions options;
  bool detect_folds = true;
  bool detect_branch_points = true;
  bool equilibria = false;   // the equations are the rates of an ODE: eigenvalues per point
  bool detect_hopf = false;  // "HB" (on by default with equilibria)
  std::vector<UserEvent> events;
  std::optional<FollowUp> fold_curve;
  std::optional<FollowUp> hopf_curve;
  std::optional<FollowUp> switch_branch;
  Plot plot;
  std::optional<PeriodicRun> periodic;
  std::optional<HopfCycles> hopf_cycles;
  // Compiled or interpreted expressions (models/compiled_block.h), for a
  // system whose expressions saltus compiles (rates, a mechanical system):
  // the results are the same bit for bit either way; summary.json says which.
  std::optional<models::CompileReport> expressions;
  // Set by `saltus continue --from DIR --point LABEL` (studies/restart.h):
  // the first branch is this saved point alone, and only the follow-ups
  // that start from a point of its kind run, from it.
  struct Restart {
    std::filesystem::path dir;
    std::string label;  // "LP1": the first LP of the saved run's first branch
    SpecialPoint point;
  };
  std::optional<Restart> restart;
};

RunFile read_run_file(const std::filesystem::path& path);

// Fail (RunFileError) unless `name` is an identifier / a safe folder name.
void check_identifier(const std::string& name, const std::filesystem::path& path, const std::string& key);
void check_run_name(const std::string& name, const std::filesystem::path& path);
RunFile parse_run_file(const std::string& text, const std::filesystem::path& path);
// The same keys as an object in memory; `path` names it in errors.
RunFile parse_run_file(const Json& json, const std::filesystem::path& path);

const std::string& run_file_help();  // the run-file keys, for `saltus continue --help`

}  // namespace saltus::studies
