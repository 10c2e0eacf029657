#pragma once
// `saltus continue RUNFILE`: the first branch, then optionally the fold curve
// from one of its folds and the crossing branch at one of its branch points;
// each branch as CSV, a summary JSON and figures in the output folder.

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "continuation/branch.h"
#include "drivers/studies.h"
#include "studies/branch_files.h"
#include "studies/run_file.h"
#include "studies/study.h"

namespace saltus::drivers {

// A branch of the run with what it was computed from (studies/study.h):
// "branch", "fold_curve", "hopf_curve", "switched", "cycles"; periodic:
// "doubled1", ... A branch of periodic orbits has its shooting problem (for a
// forced orbit's "doubled<k>" branch, with 2^k times the period).
using NamedBranch = studies::BranchResult;

// Called after every point of every branch (for progress lines).
using Progress = std::function<void(const std::string& branch_name, const Branch& branch)>;

// Runs the study. When a follow-up asks for something the first branch does
// not have (a fold curve from an LP that was not found, ...), the branches
// computed so far are returned and *follow_up_error says why; without
// follow_up_error that is a RunFileError.
std::vector<NamedBranch> run_continuation(const RunFile& run, const Progress& progress = {},
                                          std::string* follow_up_error = nullptr);

}  // namespace saltus::drivers
