#pragma once
// Run files: JSON that defines an algebraic system and a continuation study
// without recompiling. The keys are documented in kRunFileHelp (printed by
// `saltus continue --help`); read_run_file() checks every key and value and
// throws RunFileError naming the file, the key and what to do.

#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "continuation/options.h"
#include "continuation/system.h"
#include "drivers/json_input.h"
#include "models/expression.h"

namespace saltus::drivers {

// A user test function: a "UZ" point where the expression changes sign.
struct UserEvent {
  std::string name;
  models::Expression expression;  // over the unknowns and parameters
  bool stop = false;
};

// A continuation after the first branch, started from one of its special points.
struct FollowUp {
  int from = 1;                          // the n-th LP (fold curve) or BP (switch), 1-based
  std::vector<std::string> parameters;   // fold curve: the two free parameters
  ContinuationOptions options;
};

struct Plot {
  std::string x;  // a component name; default the first continuation parameter
  std::string y;  // a component name, "max" (max |x_i|) or "norm" (|x|_2 / sqrt(n))
};

struct RunFile {
  std::filesystem::path path;
  std::string name;         // default: the file's stem
  std::string description;
  std::shared_ptr<const System> system;
  Vector parameters;        // all parameter values, in system order
  Vector start_state;
  std::vector<std::string> continuation_parameters;
  ContinuationOptions options;
  bool detect_folds = true;
  bool detect_branch_points = true;
  std::vector<UserEvent> events;
  std::optional<FollowUp> fold_curve;
  std::optional<FollowUp> switch_branch;
  Plot plot;
};

RunFile read_run_file(const std::filesystem::path& path);

// Fail (RunFileError) unless `name` is an identifier / a safe folder name.
void check_identifier(const std::string& name, const std::filesystem::path& path, const std::string& key);
void check_run_name(const std::string& name, const std::filesystem::path& path);
RunFile parse_run_file(const std::string& text, const std::filesystem::path& path);

extern const char* const kRunFileHelp;

}  // namespace saltus::drivers
