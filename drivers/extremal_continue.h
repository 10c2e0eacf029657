#pragma once
// `saltus extremal continue RUNFILE [--out DIR] [--json]` and
// `saltus extremal track RUNFILE [--out DIR] [--json]`: the contact-point
// problem of Damerau & Low 2016 followed through pose space
// (analyses/contact/continuation.h) and along a prescribed relative
// motion, with figures. The run file is the one of drivers/extremal_commands.h
// with one of these optional objects:
//
//   "continue": {
//     "start":      {"s1", "s2", "x", "y", "phi"}  start of the branch (each key defaults to "point"'s);
//                                                  (s1, s2) are corrected onto an extremal point
//     "parameter":  "x"          the branch's pose parameter: x, y or phi (default x)
//     "fold_curve": ["x", "y"]   continue the first fold in these two pose parameters; locate cusps
//     "cusp_curve": false        continue the first cusp in (x, y, phi); locate swallowtails
//     "ds": 0.005, "ds_max": 0.02, "max_points": 200   step control of every stage
//     "bounds": {"s1": [min, max], ...}   default: point +- 0.5 in each of s1, s2, x, y, phi
//   }
//   "track": {
//     "x": "0.1*t", "y": "-0.6 + 0.2*t", "phi": "0"   the pose along the motion: expressions of t
//     "t": [0, 1]                the time interval
//     "box": H, "grid": G        where the extremal points are searched (default: "search"'s),
//                                centred on the point's (s1, s2)
//     "ds": 0.01, "ds_max": 0.05, "max_points": 400, "max_events": 20
//   }
//
// Output (DIR, default out/<name>): continue.json / track.json (summary:
// located points with their classification, events), one CSV per branch,
// and gnuplot figures (PNG, SVG): continue: branch (s1 against the pose
// parameter, folds marked), fold_curve (the fold curve in the pose plane,
// cusps marked), cusp_curve (its (x, y) projection, swallowtails marked);
// track: track_s1, track_s2 (s1, s2 of every extremal point against t,
// events marked) and, per event k, event<k>_before / _at / _after (the two
// curves at t_e -+ dt and t_e with the segments joining their extremal points:
// the paper's Figs. 3-6).
//
// Tracking: every extremal point in the box at t0 is followed in t by
// continuation until its first fold in t (a "death": two solutions meet and
// vanish) or t1; the solutions just before that time are followed backwards
// to find folds where new ones appeared since (a "birth"). The earliest fold
// is the event: classified (classify at the point), counted before and after
// (find_extremal_points at t_e -+ 1e-3 (t1 - t0)), and the tracking restarts
// from all solutions found just after it. Solutions that enter or leave the box
// through its edge are not events (the counts show them).
//
// Exit codes: 0 ok; 1 bad input (RunFileError naming the key: an unknown pose
// parameter, an expression syntax error, ...); 2 nothing located (continue:
// no fold on the branch although a fold curve was asked for).

#include <filesystem>
#include <ostream>

#include "drivers/extremal_commands.h"

namespace saltus::drivers {

// The run-file help for the two commands (CLI footers).
const std::string& extremal_continue_help();  // the run-file keys of `extremal continue | track`

int extremal_continue_command(const ExtremalRun& run, const std::filesystem::path& dir, bool json,
                              std::ostream& out, std::ostream& err);

int extremal_track_command(const ExtremalRun& run, const std::filesystem::path& dir, bool json,
                           std::ostream& out, std::ostream& err);

}  // namespace saltus::drivers
