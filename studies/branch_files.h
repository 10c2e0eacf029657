#pragma once
// The files of a continuation study, as `saltus continue` writes them and
// Python's saltus.write does: <name>.csv per branch, summary.json and the
// figures (the one-parameter branches with their stability, the orbits at
// the special points, the curves in two parameters), drawn by gnuplot
// (studies/output.h).

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "studies/study.h"

namespace saltus::studies {

// The summary: stop_reason, message and points of the first branch,
// special_points of all branches (each with its "branch"), and "branches".
// Branches of orbits add each special point's "period" and "multipliers" ([re, im]
// pairs, largest modulus first; an autonomous orbit's trivial one apart as
// "trivial_multiplier").
nlohmann::ordered_json summarize(const RunFile& run, const std::vector<BranchResult>& branches);

// Writes <name>.csv per branch, summary.json and the figures into dir
// (created if needed). Returns the files written; figure problems go to *warnings.
std::vector<std::filesystem::path> write_outputs(const RunFile& run, const std::vector<BranchResult>& branches,
                                                 const std::filesystem::path& dir,
                                                 std::vector<std::string>* warnings);

}  // namespace saltus::studies
