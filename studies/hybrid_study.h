#pragma once
// Studies of hybrid, mechanical and Filippov systems (hybrid run files,
// studies/hybrid_run_file.h): a simulation, the Lyapunov spectrum, a
// periodic orbit by shooting and its branch. The branch is a BranchResult
// like any other (studies/study.h), so continue_from follows its points:
//
//   auto run = studies::load_hybrid("examples/user/impact_oscillator_curves.json");
//   studies::BranchResult orbit = studies::find_orbit(run);
//   studies::BranchResult branch = studies::continue_orbits(orbit);
//   studies::BranchResult gr = studies::continue_from(branch, "GR1", {.parameters = {"w", "F"}});
//
// On a branch of hybrid orbits: PD gives the doubled branch ("doubled",
// default) or the PD curve ("curve"); LPC, NS and GR (grazing,
// continuation/periodic/grazing_orbit.h) give their curves in two
// parameters, with the codimension-2 points of testfunctions/cycle_codim2.h
// and grazing_codim2.h located.

#include <filesystem>
#include <memory>

#include "continuation/flow/lyapunov.h"
#include "continuation/flow/simulate.h"
#include "studies/hybrid_run_file.h"
#include "studies/study.h"

namespace saltus::studies {

// A hybrid run file, or the same keys as an object in memory (`where` names
// it in errors). Throws RunFileError naming the key.
std::shared_ptr<const HybridRun> load_hybrid(const std::filesystem::path& path);
std::shared_ptr<const HybridRun> load_hybrid_description(const Json& description,
                                                         const std::string& where = "description");

// The run's simulation from its initial state over [t0, t1], after its
// transient (integrated from t0 - transient, not recorded), with its events
// and section hits. A failure is the trajectory's status and message (a
// failed transient: "during the transient: ...").
// The variational equations dPhi/dt = f_x Phi (n^2 more components, each
// step's Jacobian by Jets) are integrated only with transition_matrix:
// then the trajectory's transition_matrix is Phi(t1, t0), saltations
// included, and each event has its saltation matrix; without, both are
// empty and the run costs the state alone (bench/simulate.cpp: the impact
// oscillator's run file 1.83x fewer instructions, docs/performance.md).
flow::Trajectory simulate(const HybridRun& run, bool transition_matrix = false);

// The Lyapunov spectrum from the run's initial state (its "lyapunov" options).
flow::LyapunovResult lyapunov(const HybridRun& run);

// The run's periodic orbit ("periodic": studies/periodic_orbit.h's guess,
// corrected by Newton with the parameter fixed): a result whose branch has
// the one orbit, with the guess's source in `info`. A guess that cannot be
// found or does not converge is a branch with stop reason
// start_not_converged and the reason in its message ("no guess of a
// periodic orbit: ...", "no periodic orbit near the guess (...): ..."); so
// is an orbit whose shooting (which checks the guards at its steps' ends)
// stepped over an event that a simulation searching inside the steps sees
// ("the orbit found ... steps over an event ...").
BranchResult find_orbit(std::shared_ptr<const HybridRun> run, const Progress& progress = {});

// The orbit's branch in the run's periodic.parameter (a result of
// find_orbit) with LPC, PD and NS located, and grazings ("GR"): stopped at
// the first, or crossed with the new event sequence when the run asks
// ("grazing": "continue"). Its `sequences` hold each point's events.
// Without the grazing test ("grazing": false) the branch ends before the
// first orbit that steps over an event, as find_orbit checks it.
BranchResult continue_orbits(const BranchResult& orbit, const Progress& progress = {});

}  // namespace saltus::studies
