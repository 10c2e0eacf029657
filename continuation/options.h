#pragma once
// Options of pseudo-arclength continuation. Plain struct, defaults in class,
// one validity check on entry that names the bad field.

#include <functional>
#include <limits>
#include <map>
#include <string>

namespace saltus {

struct Branch;

struct Bound {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
};

struct ContinuationOptions {
  double ds = 0.01;                  // first step, in arclength of y = (x, p_free)
  double ds_min = 1e-8;              // a failed step below this ends the branch
  double ds_max = 0.1;               // steps never grow beyond this
  double step_growth = 1.5;          // ds *= step_growth after an easy step
  double step_cut = 0.5;             // ds *= step_cut after a failed step
  int easy_iterations = 3;           // a step that converged in at most this many Newton iterations is easy
  int max_points = 500;              // regular points on the branch, the start included (located
                                     // special points are inserted in addition)
  int direction = +1;                // initial sign of dy_n/ds, y_n the first free parameter of the
                                     // ContinuationProblem (a curve that carries one parameter in its
                                     // state, as periodic.curve does, continues its second): +1 or -1
  double newton_tolerance = 1e-10;   // on |dy|_inf / (1 + |y|_inf)
  double residual_tolerance = 1e-8;  // on |G(y)|_inf
  int max_newton_iterations = 10;    // per corrector call
  bool chord = true;                 // a problem whose Jacobian costs many residuals (shooting) is
                                     // corrected by chord steps: one factorization per corrector call
  double min_tangent_cosine = 0.5;   // a step whose tangent turns more (cos below this) is retried shorter
  double event_tolerance = 1e-10;    // width of the arclength bracket of a located event
  int max_event_iterations = 80;     // toms748 iterations per event
  bool eigenvalues = false;          // the eigenvalues of F_x at every point (when F is the right-hand
                                     // side of an ODE x' = F(x, p): the stability of its equilibria)
  int eigenvalue_count = 0;          // 0: all, dense; k > 0 on a sparse problem: the k of smallest
                                     // modulus, by shift-invert Arnoldi (Spectra) on the engine's LU
  std::map<std::string, Bound> bounds;  // by name of a component of y; leaving ends the branch at "EP"
  // Called after each accepted point; return false to stop the branch.
  std::function<bool(const Branch&)> callback;

  // Empty when valid, else a message naming the first bad field and value.
  std::string check() const;
};

}  // namespace saltus
