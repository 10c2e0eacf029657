#pragma once
// The key tables of the run files (studies/key_table.h): one per kind of run
// file, each row a key with its type, default, range and meaning, and the
// option tables of the Options structs those run files fill. The readers
// take their keys and ranges from them, --help prints them and
// docs/reference/run-files.md is generated from them (scripts/reference).

#include <vector>

#include "continuation/flow/lyapunov.h"
#include "continuation/periodic/orbit_guess.h"
#include "continuation/periodic/shooting.h"
#include "studies/hybrid_run_file.h"
#include "studies/key_table.h"
#include "studies/options_json.h"
#include "studies/run_file.h"

namespace saltus::studies {

// periodic.from_simulation: transient, max_period, return_tolerance.
const OptionTable<periodic::OrbitGuessOptions>& orbit_guess_option_table();
// periodic: t0, stepping_tolerance (ShootingOptions' defaults).
const OptionTable<periodic::ShootingOptions>& shooting_option_table();
// fold_curve, hopf_curve, switch_branch: from.
const OptionTable<FollowUp>& follow_up_option_table();
// hopf_cycles: from, amplitude.
const OptionTable<HopfCycles>& hopf_cycles_option_table();

// The hybrid run file's: lyapunov, sweep, periodic, map and its axes.
const OptionTable<flow::LyapunovOptions>& lyapunov_option_table();
const OptionTable<SweepSpec>& sweep_option_table();
const OptionTable<PeriodicSpec>& hybrid_periodic_option_table();
const OptionTable<MapSpec>& map_option_table();
const OptionTable<MapAxis>& map_axis_option_table();

// `saltus continue`'s run file (studies/run_file.h).
const RunFileKind& continue_run_file();
// `saltus simulate`, `lyapunov`, `periodic`, `sweep` and `map`'s hybrid run file.
const RunFileKind& hybrid_run_file();
// `saltus extremal continue` and `extremal track`'s run file.
const RunFileKind& extremal_run_file();
// `saltus filippov twofold`, `futures`, `map` and `continue`'s run file.
const RunFileKind& filippov_run_file();

// Every kind the reference page lists, in its order.
std::vector<const RunFileKind*> run_file_kinds();
// Every kind's run_file_markdown (`saltus --reference-markdown`, scripts/reference).
std::string run_file_reference_markdown();

}  // namespace saltus::studies
