#pragma once
// The files of a hybrid orbit and its branch (studies/hybrid_study.h), as
// `saltus periodic` writes them: the orbit's summary (period, multipliers,
// state, the section's values) and figure, branch.csv with each orbit's
// event sequence, orbits.csv (stability and the shown value of every orbit)
// and the branch's figure over a brute-force diagram.

#include <complex>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "studies/hybrid_study.h"

namespace saltus::studies {

// What is shown of the orbits: the parameter (held fixed without
// periodic.parameter) and its index p in a point y; the ordinate's state
// component (the sweep's plot variable, else plot.y with a section, else
// the first state) and its index.
struct OrbitView {
  std::string parameter;
  int p = 0;
  std::string shown;
  int iv = 0;
};
OrbitView orbit_view(const HybridRun& run, const BranchResult& found);

// name, autonomous, period, t0, mode, multipliers ([re, im], largest
// modulus first), trivial_multiplier (autonomous), stable, state,
// parameters, guess, section_<shown> (the shown values at the section).
Json orbit_summary(const HybridRun& run, const OrbitView& view, const BranchResult& found);

// The orbit at the first point of `found` over one period in the run's
// phase plane, its events marked: orbit.png (nothing under --no-figures).
// Returns the warnings.
std::vector<std::string> draw_orbit(const HybridRun& run, const BranchResult& found,
                                    const std::filesystem::path& dir);

// branch.csv, orbits.csv and the branch's figure (over `diagram`, the
// (parameter, value) points of a brute-force diagram, when not empty) into
// dir; the branch and its special points with their multipliers into
// *summary ("branch", "special_points"). Returns the figure's warnings.
std::vector<std::string> write_orbit_branch(const HybridRun& run, const OrbitView& view,
                                            const BranchResult& branch,
                                            const std::vector<std::pair<double, double>>& diagram,
                                            const std::filesystem::path& dir, Json* summary);

// The (parameter, variable) columns of a sweep.csv; *warning when the file
// is empty or lacks them.
std::vector<std::pair<double, double>> read_diagram(const std::filesystem::path& file,
                                                    const std::string& parameter, const std::string& variable,
                                                    std::string* warning);

}  // namespace saltus::studies
