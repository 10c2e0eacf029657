#pragma once
// Restart from a saved point, as AUTO's IRS does (Doedel et al., AUTO-07p
// manual, 2007, the IRS constant): `saltus continue RUNFILE --from DIR
// --point LABEL` reads the special point LABEL of an earlier run's
// DIR/summary.json (its state, parameters and unit tangent, written to full
// precision by Branch::summary) and starts the run file's follow-ups of that
// kind from it, without recomputing the branch that found it:
//
//   LP -> fold_curve,  BP -> switch_branch,  HB -> hopf_curve and hopf_cycles,
//   PD -> periodic.period_doubling.
//
// A follow-up needs only the point itself (and a BP's tangent, which fixes the
// incoming direction of the branching equation, continuation/branch_switching),
// so the restarted follow-up is the one the one-run file computes. Which
// follow-up starts from which kind of point is decided here, in the
// studies, so that C++ and Python (saltus.restart) restart as the command
// line does: continue_run of a prepared run gives the saved point as its
// first branch, and continue_run_follow_ups its follow-ups.
//
// LABEL is the point's type and its number among the points of that type on
// the first branch ("LP1", "BP2"; jumps of a test function are not counted),
// as the follow-ups' "from" counts them.

#include <string>

#include "continuation/branch.h"
#include "continuation/continuation_problem.h"
#include "studies/json_input.h"
#include "studies/run_file.h"

namespace saltus::studies {

// Reads the point and sets run->restart; keeps only the follow-ups that start
// from a point of its kind, each from it (their "from" = 1). RunFileError
// when DIR has no summary.json or no such point, when the label is not of a
// kind the run file has a follow-up for, or when the saved run's unknowns,
// parameters (names, and the values of the fixed ones) or continuation
// parameter differ from the run file's.
void prepare_restart(RunFile* run, const std::filesystem::path& dir, const std::string& label);

// The first branch of a restart: the saved point alone (StopReason::kRestored);
// studies::continue_run gives it for a run with `restart`.
Branch restored_branch(const RunFile& run, const ContinuationProblem& problem);

}  // namespace saltus::studies
