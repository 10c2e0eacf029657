#pragma once
// A two-parameter brute-force map of a hybrid system's attractors (the run
// file's "map", studies/hybrid_run_file.h MapSpec): at each grid point a
// transient, then the section's hits over a recording time, classed by the
// number of distinct hits (period-N up to max_period, then chaotic; escaped
// when the simulation failed), with the largest Lyapunov exponent when
// asked. Points run through the grid runner (studies/grid_runner.h); with
// "seed": "rows" a row is a block whose points start from their left
// neighbour's end, else each point is its own block.

#include <limits>
#include <string>
#include <vector>

#include "studies/sweep_study.h"

namespace saltus::studies {

struct MapPoint {
  Settled settled;     // hits, events, failure, end state
  int distinct = 0;    // distinct hits, counted up to max_period + 1
  double lyapunov = std::numeric_limits<double>::quiet_NaN();  // the largest exponent, when asked
};

// The number of distinct states among hits, counting at most `at_most`: two
// are one when every component differs by at most tolerance (1 + |x_i|)
// (components with angles[i] modulo 2 pi).
int distinct_hits(const std::vector<Vector>& hits, const std::vector<bool>& angles, double tolerance,
                  int at_most);

// "period-N", "chaotic", "escaped" (a failure) or "no hits".
std::string map_class(int distinct, bool failed, int max_period);

// The axis's i-th value.
double axis_value(const MapAxis& axis, int i);

// Grid point k = j * x.steps + i, from its left neighbour in a seeded row
// (nullptr: the run's initial state, with a doubled transient when seeded).
MapPoint map_point(const HybridRun& run, int k, const MapPoint* previous);

// The blocks of the run's map: its rows when seeded, else one per point.
int map_chains(const MapSpec& spec);

struct MapResult {
  std::vector<double> x, y;      // the axes' values
  std::vector<MapPoint> points;  // k = j * x.size() + i; the section's hits are not kept
  std::vector<bool> done;        // false where a stop came first
  int resumed = 0;               // points read back from the journal
  bool interrupted = false;
  bool writer = true;  // false on an MPI rank other than 0, which holds its own points only
};

// The run's map ("map" keys; throws StudyError without them), run by the
// grid runner as sweep() is.
MapResult attractor_map(const HybridRun& run, const GridControl& control = {});

}  // namespace saltus::studies
