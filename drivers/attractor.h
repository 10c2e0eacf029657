#pragma once
// One point of a brute-force study (a sweep value, a map's grid point): a
// transient, then the section's hits over a recording time; and the end
// state the next point of a quasi-static chain starts from, kept in a grid
// record (drivers/grid_runner.h) exactly.

#include <string>
#include <vector>

#include "continuation/flow/simulate.h"
#include "drivers/studies.h"
#include "studies/json_input.h"

namespace saltus::drivers {

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

// The start state in a record ("mode", "t", "x") and back.
void put_state(const StartState& s, Json* record);
StartState state_of(const Json& record);
// A record's state read back from a journal: a mode of the system (0 ..
// modes - 1), and t and x (of `dimension` components) as put_state writes
// them; finite when `start` (the next point starts from it). Throws
// RecordError (drivers/grid_runner.h) naming the key.
void check_state(const Json& record, int modes, int dimension, bool start);

}  // namespace saltus::drivers
