#pragma once
// The files of a sweep (studies/sweep_study.h), as `saltus sweep` writes
// them and Python's saltus.sweep(out=) does: sweep.csv (each section hit:
// the parameter, t and the state), sweep.json and the bifurcation diagram.

#include <filesystem>
#include <string>
#include <vector>

#include "studies/sweep_study.h"

namespace saltus::studies {

// name, status (finished, interrupted), parameter, values, threads,
// values_done (interrupted), section_hits, failures [{value, message}].
Json sweep_summary(const HybridRun& run, const SweepResult& sweep);
// sweep.csv, sweep.json and the figure into dir (created). Returns the
// figure's warnings.
std::vector<std::string> write_sweep(const HybridRun& run, const SweepResult& sweep,
                                     const std::filesystem::path& dir);

}  // namespace saltus::studies
