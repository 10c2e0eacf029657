#pragma once
// Brute-force studies of a hybrid system's attractors: a sweep, the section's
// hits after a transient at each value of one parameter (the bifurcation
// diagram a simulation shows, periodic, quasi-periodic or chaotic alike).
//
// The values 0..n-1 form `chains` consecutive blocks [c n / chains,
// (c + 1) n / chains); within a block value k starts from value k - 1's end
// state (a quasi-static sweep: the diagram follows one attractor as a slowly
// changed experiment does), and a block's first value from the run's initial
// state with a doubled transient. Blocks are independent and run on threads.
// The result is a function of the blocks only, and every value travels
// through a record of the grid runner (studies/grid_runner.h), exactly: a
// sweep journalled and resumed, on threads or MPI ranks, gives the numbers of
// one uninterrupted run.

#include <functional>
#include <string>
#include <vector>

#include "continuation/flow/simulate.h"
#include "studies/grid_runner.h"
#include "studies/hybrid_run_file.h"

namespace saltus::studies {

struct StartState {
  int mode = 0;
  double t = 0.0;
  Vector x;
};

struct Settled {
  StartState end;  // where the point ended (the next one's start)
  std::vector<flow::SectionHit> hits;
  int events = 0;
  std::string failure;  // why it ended early, if it did (the end is then not to be used)
};

// Integrates `transient` from start without recording, then `record` with the
// sections; a failure (Zeno, grazing, a thrown error) is a value.
Settled settle(const flow::HybridSystem& system, const StartState& start, double transient, double record,
               const flow::SimulationOptions& plain, const std::vector<flow::Section>& sections);

// The parameter's k-th value of the sweep.
double sweep_value(const SweepSpec& spec, int k);
// The blocks of the run's sweep: sweep.threads (0: all cores), at most the values.
int sweep_chains(const HybridRun& run);

// Value k settled from its predecessor in its block (nullptr: the block's
// first value, from the run's initial state). A value that failed (Zeno,
// grazing) passes the run's initial state on.
Settled sweep_point(const HybridRun& run, int k, const Settled* previous);

struct SweepResult {
  std::string parameter;
  std::vector<double> values;   // the parameter's values
  std::vector<Settled> points;  // per value: its hits, events and failure
  std::vector<bool> done;       // false where a stop came first
  int chains = 1;               // the blocks (a resumed journal's)
  int resumed = 0;              // values read back from the journal
  bool interrupted = false;
  bool writer = true;  // false on an MPI rank other than 0, which holds its own values only
};

// The run's sweep ("sweep" keys; throws StudyError without them), run by the
// grid runner: on threads, journalled and resumed when control names a
// folder, stopped by control's callbacks.
SweepResult sweep(const HybridRun& run, const GridControl& control = {});

}  // namespace saltus::studies
