#pragma once
// The end state of a brute-force study's point (a sweep value, a map's grid
// point; studies/sweep_study.h), which the next point of a quasi-static chain
// starts from, kept in a grid record (studies/grid_runner.h) exactly.

#include <string>
#include <vector>

#include "studies/json_input.h"
#include "studies/sweep_study.h"

namespace saltus::studies {

// The start state in a record ("mode", "t", "x") and back.
void put_state(const StartState& s, Json* record);
StartState state_of(const Json& record);
// A record's state read back from a journal: a mode of the system (0 ..
// modes - 1), and t and x (of `dimension` components) as put_state writes
// them; finite when `start` (the next point starts from it). Throws
// RecordError (studies/grid_runner.h) naming the key.
void check_state(const Json& record, int modes, int dimension, bool start);

}  // namespace saltus::studies
