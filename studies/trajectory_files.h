#pragma once
// The files of a simulation and of Lyapunov exponents, as `saltus simulate`
// and `saltus lyapunov` write them and Python's saltus.simulate(out=) and
// saltus.lyapunov(out=) do: the summary JSON, the samples as CSV and the
// figures (studies/output.h).

#include <filesystem>
#include <string>
#include <vector>

#include "continuation/flow/lyapunov.h"
#include "continuation/flow/simulate.h"
#include "studies/hybrid_run_file.h"

namespace saltus::studies {

// name, run_file, status, message, t_end, mode_end, state_end {name:
// value}, events, samples, transition_matrix (rows; only when it was
// integrated), section_hits.
Json trajectory_summary(const HybridRun& run, const flow::Trajectory& tr);
// summary.json, trajectory.csv, events.csv and (with a section)
// sections.csv into dir (created); with figures (output.h's figures_drawn)
// and a successful run, the phase portrait, the first state against time
// with the events, and the Poincare section. Returns the figures' warnings.
std::vector<std::string> write_trajectory(const HybridRun& run, const flow::Trajectory& tr,
                                          const std::filesystem::path& dir);

// name, status, message, exponents (largest first; "-inf" for a collapsed
// direction), sum, mean_log_det_saltation, mean_divergence, contraction
// (what the sum must equal), time, events, collapsed_intervals, transient,
// interval.
Json lyapunov_summary(const HybridRun& run, const flow::LyapunovResult& r);
// lyapunov.json, lyapunov.csv (the running estimates) and their figure
// into dir (created). Returns the figure's warnings.
std::vector<std::string> write_lyapunov(const HybridRun& run, const flow::LyapunovResult& r,
                                        const std::filesystem::path& dir);

}  // namespace saltus::studies
