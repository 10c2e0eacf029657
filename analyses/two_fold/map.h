#pragma once
// Fig. 4 of Szalai & Jeffrey (Phys. Rev. E 90, 022914 (2014),
// doi:10.1103/PhysRevE.90.022914): over a grid of the designed
// two-fold position (r*, omega*), where each condition of a Teixeira
// singularity in case 1 holds.
//
// At each grid point kappa and k2 come from (10)-(11)
// (WheelTurntable::design_two_fold), so x* = (r*, v*(9), omega*) is a zero of
// (19) with h = 0 by construction. The map then checks, independently:
//   exists   Newton on (19) with h = 0 (locate_two_fold), started a relative
//            guess_offset away from x*, lands on x* (within match_tolerance):
//            the two-fold is there and transversal (G_x regular);
//   (b) K-- > 0, (c) K++ < 0 (both folds invisible, (27)),
//   (d) J1 < 0, (e) J2 < 0, (f) J1 J2 - 1 > 0 (J's defined only under (27);
//            elsewhere these conditions count as not holding),
//   (g) k2 > 0 and kappa > 0 (a physical spring and tyre),
//   (a) case 1 (classify_two_fold: (27), J1, J2 < 0, J1 J2 > 1, not within
//            zero_tolerance of a boundary) with (g) and exists: the paper's
//            shaded region (its caption: the overlap of (b)-(f), with (g)).
// Newton runs on the wheel with the tyre's surface values (F = lambda, M =
// sign(g) kappa lambda, TyreModel::kSticking): on Sigma they equal both tyre
// models', so the zeros of (19) with h = 0 are the same, but off Sigma the
// stretched string's slip-angle dependence has a kink at h = 0 that sends
// Newton from an offset start astray. The classification (K's, J's) at the
// located point uses the run's tyre.
// Where kappa <= 0 the stretched-string tyre is undefined (its contact
// length is 3 kappa); there the map classifies the wheel with the tyre's
// surface values, which give the same K's (models/wheel_turntable.h), and (g)
// fails anyway.
//
// What the map shows for the paper's constants (tests in
// tests/analyses/two_fold/map.test.cpp): case 1 fills r* > r0, omega* <
// omega0 above the line K++ = 0 (F+ turns visible below it; omega* = omega0
// is g* = 0, where the design is undefined); the case-1 / case-3 boundary J1
// J2 = 1 is the line v* = 0, r* = d tan(gamma) (= 1, outside the default
// window): there r' = 0 for every lambda, so f(x*, 0) and f_lambda(x*, 0)
// are parallel and D = 0.
//
// Rows (one per omega*) are independent tasks on a std::thread pool; the
// result is in grid order whatever the number of threads.

#include <functional>
#include <string>
#include <vector>

#include "analyses/two_fold/two_fold.h"
#include "models/wheel_turntable.h"

namespace saltus {

struct TwoFoldMapOptions {
  // The grid (defaults: a window around the paper's point (0.1859, -1.037);
  // the text does not give Fig. 4's axes).
  double r_min = 0.02, r_max = 0.4;           // r*, length units
  double omega_min = -1.4, omega_max = -0.6;  // omega*, rad per time unit
  int r_steps = 161, omega_steps = 161;       // grid points per axis (>= 2)
  int threads = 0;                            // worker threads; 0: all cores
  double guess_offset = 1e-3;                 // Newton start x* (1 + offset) componentwise (relative)
  double match_tolerance = 1e-8;              // |x - x*|_inf / (1 + |x*|_inf) for "exists near x*"
  TwoFoldOptions two_fold;                    // Newton and classification
  // Called from the calling thread about every progress_interval seconds
  // with (rows done, rows); may be empty.
  std::function<void(int, int)> progress;
  double progress_interval = 2.0;
  // Polled before each row, from the worker threads: true leaves the rows
  // not yet started undone (a Ctrl-C); may be empty.
  std::function<bool()> stop_requested;

  // Empty when valid, else a message naming the first bad field and value.
  std::string check() const;
};

struct TwoFoldMapPoint {
  double r = 0.0, omega = 0.0;  // (r*, omega*)
  bool designed = false;        // (10)-(11) defined here
  std::string failure;          // why not designed / not located, else empty
  double kappa = 0.0, k2 = 0.0;
  bool exists = false;           // located at x* from the offset start
  double residual = 0.0;         // |G|_inf at the located point
  TwoFoldInvariants invariants;  // when exists
  // The panels of Fig. 4.
  bool k_minus_positive = false;                     // (b)
  bool k_plus_negative = false;                      // (c)
  bool j1_negative = false;                          // (d)
  bool j2_negative = false;                          // (e)
  bool j1j2_above_one = false;                       // (f)
  bool k2_positive = false, kappa_positive = false;  // (g)
  bool case1 = false;                                // (a)
};

struct TwoFoldMap {
  TwoFoldMapOptions options;
  std::vector<TwoFoldMapPoint> points;  // row-major: omega index outer, r index inner
  int threads = 1;                      // used
  int designed = 0, exists = 0, case1 = 0;
  int rows_done = 0;         // omega rows computed: all of them unless stopped
  bool interrupted = false;  // stop_requested left rows undone (their points are default)
  const TwoFoldMapPoint& at(int i_r, int i_omega) const { return points[i_omega * options.r_steps + i_r]; }
  double r(int i) const;      // grid value
  double omega(int j) const;  // grid value
  // CSV, one row per grid point (header: r,omega,designed,exists,kappa,k2,
  // Kpp,Kpm,Kmp,Kmm,J1,J2,J1J2m1,b,c,d,e,f,k2pos,kappapos,case1,case_code,
  // case; case_code as case_code() below), rows
  // separated by blank lines after each omega row (gnuplot's image format).
  void write_csv(std::ostream& out) const;
};

// The map for the wheel's constants (kappa and k2 of `base` are ignored:
// each grid point designs its own). Throws std::invalid_argument on bad
// options or constants.
TwoFoldMap two_fold_map(const models::WheelTurntable& base, const TwoFoldMapOptions& options);

// -1 not located, 0 not an invisible two-fold (27) (or degenerate), 1-3 the
// case, 4 the boundary J1 J2 = 1.
int case_code(const TwoFoldMapPoint& p);

// One grid point (what each task computes).
TwoFoldMapPoint two_fold_map_point(const models::WheelTurntable& base, double r_star, double omega_star,
                                   const TwoFoldMapOptions& options);

}  // namespace saltus
