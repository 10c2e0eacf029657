#pragma once
// `saltus extremal classify RUNFILE [--json]` and
// `saltus extremal solutions RUNFILE --pose X Y PHI [--box H] [--json]`:
// the classification of a degenerate extremal (contact) point of two planar
// curves (Damerau & Low 2016, Sec. 4; analyses/contact/classification.h)
// and the extremal points near it at one pose (models/extremal.h).
//
// Run file (every bad key or value: RunFileError naming the file and the key):
//   name          string  default: the file's stem (letters, digits, _ - .)
//   description   string
//   note          string  e.g. why a printed equation was corrected
//   curve1        object  body 1 (fixed), {"type": ..., fields}, see below
//   curve2        object  body 2 in its own frame, posed by (x, y, phi)
//   point         object  the degenerate point {"s1", "s2", "x", "y", "phi"} (all required)
//   options       object  {"order": N (10), "truncation_order": T (3), "exact": true}
//   search        object  {"box": H (0.3), "grid": 64}: defaults for `solutions`
//   continue      object  optional, for `extremal continue` (see drivers/extremal_continue.h)
//   track         object  optional, for `extremal track` (see drivers/extremal_continue.h)
// Curve types and their fields (models/planar_curve.h; "name" optional, default c1 / c2):
//   circle      radius, cx, cy, orientation (+1 / -1), phase
//   ellipse     a, b, cx, cy, orientation, phase
//   polynomial  x, y: ascending coefficients, e.g. {"x": [0, -1], "y": [0, 0, 1, 0, 2]}
//   graph       p: ascending coefficients of y = p(x), x = s
//   fourier     r0, a, b
//   expression  x, y: strings in s, e.g. {"x": "-sin(s)", "y": "-cos(s)"}; scale, period
//
// Exit codes of both commands: 0 ok; 1 bad input (not an extremal point, not
// degenerate (the message gives det J, eq. (10)), a non-regular curve point,
// bad options); 2 the order is too low to decide ("codimension > N-1").

#include <array>
#include <filesystem>
#include <ostream>
#include <string>

#include "drivers/studies.h"
#include "studies/contact_study.h"

namespace saltus::drivers {

// Classifies run.point. json: one JSON object on out (keys: name, run_file,
// description, note, status, message, degenerate_point {s1, s2, x, y, phi},
// kappa1, kappa2, d, epsilon, det, trace, degeneracy_case, order, lyapunov {c:
// {"n": value}, cm: {"n,m": value}, c_exact, cm_exact}, codimension,
// transversality_matrix (rows), transversality_matrix_exact (rows of strings),
// rank, versal, type, normal_form [{power, polynomial, exact, terms}],
// truncation_order, exact, exact_note); else readable text. Errors go to err.
int extremal_classify_command(const ExtremalRun& run, bool json, std::ostream& out, std::ostream& err);

// All extremal points with |s_i - s_i*| <= box at the pose (x, y, phi)
// (absolute), with count and solutions, and the normal form's predicted
// count (predicted_count, agrees). box <= 0 means run.box (pass that when
// --box is absent).
int extremal_solutions_command(const ExtremalRun& run, double x, double y, double phi, double box, bool json,
                               std::ostream& out, std::ostream& err);

}  // namespace saltus::drivers
