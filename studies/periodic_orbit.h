#pragma once
// The shooting problem of `saltus periodic` set up from a hybrid run file:
// the continuation parameter (or the model's default one, held fixed) rides
// in the state, the guess comes from the run's "initial" state or from a
// simulation (a transient, then returns to the run's section), and an
// autonomous model gets the period as an unknown with a phase condition.
// Shared by the command and the tests, which need the same orbit.

#include <memory>
#include <string>
#include <vector>

#include "continuation/continuation_problem.h"
#include "continuation/periodic/shooting.h"
#include "studies/hybrid_run_file.h"

namespace saltus::studies {

struct ShootingStart {
  bool ok = false;
  std::string message;    // on failure: why, and what to change
  std::string parameter;  // carried in the state
  std::shared_ptr<periodic::ShootingSystem> system;
  std::shared_ptr<ContinuationProblem> problem;  // free: the parameter
  Vector y;                                      // the guess (x, [T,] p)
  // How the guess was found: "initial", "transient" (the state after it) or
  // "section" (`returns` crossings of the section per period; `distance`:
  // |x - x_earlier| of the return that closed it, angles modulo 2 pi).
  std::string source;
  int returns = 0;
  double distance = 0.0;
};

// Throws RunFileError when the run has no 'periodic' or its model cannot
// carry the parameter; a guess that cannot be found is a status.
ShootingStart shooting_start(const HybridRun& run);

// The crossings of the run's section by the orbit u (one period, from its
// start): the values of state component `variable` there.
std::vector<double> section_values(const HybridRun& run, const periodic::ShootingSystem& system,
                                   const Vector& u, int variable);

// The options for a simulation whose end state (and events, section hits)
// is all that is used: no variational equations, no samples in between.
flow::SimulationOptions without_samples(const flow::SimulationOptions& options);

}  // namespace saltus::studies
