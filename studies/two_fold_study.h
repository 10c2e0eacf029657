#pragma once
// The studies of a two-fold singularity beyond locating it (Szalai & Jeffrey,
// Secs. III-V; analyses/two_fold/): the map of Fig. 4 over the designed
// (r*, omega*) of the wheel, the sliding orbits into a case-1 two-fold and a
// sample of its non-deterministic futures (Fig. 5), and the two-fold
// continued in one constant with its case boundaries located. Each reads
// its options from the run file's section ("map", "futures",
// "continuation": the keys of studies/option_tables_filippov.cpp), runs,
// and gives its result with a JSON summary: the `saltus filippov` commands
// write and draw them, Python returns them as arrays.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analyses/two_fold/continuation.h"
#include "analyses/two_fold/futures.h"
#include "analyses/two_fold/map.h"
#include "studies/filippov_study.h"

namespace saltus::studies {

// ---- Fig. 4: the map (the wheel only: it designs each grid point's
// two-fold by the closed forms (10)-(11)).
struct TwoFoldMapStudy {
  TwoFoldMap map;
  Json summary;  // name, grid, threads, points, designed, exists, case1, two_fold_at (the run file's point)
};
// The run's "map" options; threads > 0 overrides its "threads". Throws
// RunFileError naming the key (an own system: the map needs the wheel).
TwoFoldMapOptions two_fold_map_options(const FilippovRun& run, int threads = 0);
// progress(done rows, rows) from the worker threads' driver thread.
TwoFoldMapStudy two_fold_map(const FilippovRun& run, TwoFoldMapOptions options,
                             std::function<void(int, int)> progress = {});

// ---- Fig. 5: orbits into a case-1 two-fold and its futures.
FuturesOptions futures_options(const FilippovRun& run, int samples = 0);  // samples > 0 overrides
struct FuturesStudy {
  Vector x_star, gradient;  // the located two-fold and grad h there
  FuturesResult result;
  Json summary;  // name, x_star, case, message, approaches, futures
};
// Throws RunFileError without a guess or with fewer than 3 states,
// StudyError when the two-fold is not located or the futures cannot be
// sampled (its message says why).
FuturesStudy two_fold_futures(const FilippovRun& run, const FuturesOptions& options);

// The axes of a picture of Sigma near x*: iz the state solved for on Sigma
// (of those the run's "plot" does not name, the one along which h changes
// fastest at x*; the rest stay at x*), ix and iy ("plot" {x, y}, else the
// first two others). The wheel's: iz = v, (ix, iy) = (r, omega).
struct SigmaAxes {
  int ix = 0, iy = 0, iz = 0;
};
SigmaAxes sigma_axes(const FilippovRun& run, const Vector& gradient);
// The regions of Sigma over an n x n grid of [x_lo, x_hi] x [y_lo, y_hi] in
// (ix, iy): h = 0 solved for iz by Newton from x* at each grid point, and
// the region there (0 crossing, 1 sliding, 2 escaping, 3 not on Sigma or
// undecided; z NaN where Newton does not converge). Row-major, y outer.
struct SigmaPoint {
  double x, y, z;
  int region;
};
std::vector<SigmaPoint> sigma_regions(const FilippovRun& run, const Vector& x_star, const SigmaAxes& axes,
                                      const std::array<double, 4>& window, int n);

// ---- The two-fold continued in one constant ("continuation").
TwoFoldContinuationOptions two_fold_continuation_options(const FilippovRun& run);
// Throws RunFileError without a guess or unless 3 states, StudyError when
// the continuation cannot start (its message).
TwoFoldContinuation continue_two_fold(const FilippovRun& run, const TwoFoldContinuationOptions& options);
Json two_fold_continuation_json(const FilippovRun& run, const TwoFoldContinuation& c);

}  // namespace saltus::studies
