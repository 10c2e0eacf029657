#pragma once
// A branch of periodic orbits followed up to a grazing and, when asked,
// through it with the new event sequence (one impact more or one less per
// period).
//
// Up to the grazing. The engine follows the branch with the grazing test
// (testfunctions/grazing.h). From the smooth side the test brackets the
// grazing (the new event appears beyond it); from the impacting side the
// corrector fails before (the saltation matrix carries 1 / v_n, v_n the
// impact's normal speed: Nordmark's square-root singularity, di Bernardo et
// al. 2008, Sec. 4.3), the branch ends with the impact speed falling. Either
// way the grazing orbit is then solved exactly from the branch's last point
// by the grazing system of continuation/periodic/grazing_orbit.h (shooting
// on the flow without the contact, plus "the guard's minimum is zero"), and
// accepted when it lies ahead of the branch.
//
// Through it. The orbit without the contact continues smoothly through the
// grazing point: its tangent t_v (the kernel of that flow's shooting
// Jacobian, oriented along the branch) and the gradient of the minimum m say
// on which side the contact is no event (m > 0) and on which the orbit
// passes through the guard (m < 0, where the impacting orbit lives in the
// persistent case). The new branch starts at y_g + ds t_v on the new side,
// corrected at that parameter by damped Newton on the true flow, and is
// continued away from the grazing. A non-smooth fold (the impacting orbit on
// the same side as the smooth one) is reported, not followed.

#include <functional>
#include <string>
#include <vector>

#include "continuation/branch.h"
#include "continuation/periodic/grazing_orbit.h"
#include "continuation/pseudo_arclength.h"

namespace saltus::grazing {

struct GrazingCrossing {
  int index = -1;  // of the GR point in the branch
  periodic::GrazingOrbit orbit;
  bool impact_vanishes = false;  // the branch came from the side with the impact
  std::string before, after;     // event sequences (after: empty when not continued)
  // The orbit at the grazing with the contact switched off: the smooth
  // side's limit of the multipliers (the impacting side's diverge like 1 / v_n).
  Eigen::VectorXcd smooth_multipliers;
  int before_index = -1, after_index = -1;                 // the nearest computed orbits on each side
  Eigen::VectorXcd before_multipliers, after_multipliers;  // theirs (nontrivial ones when autonomous)
  double before_parameter = 0.0, after_parameter = 0.0;
  bool continued = false;
  std::string message;  // why not continued
};

struct ThroughGrazing {
  Branch branch;
  std::vector<std::string> sequences;  // per point: the counted events' guards ("impact;impact", "none")
  std::vector<GrazingCrossing> crossings;
};

// `tests` makes a fresh set of test functions per segment (the grazing test
// keeps its first orbit's events); it must hold one of type "GR". The
// problem's system is a ShootingSystem with one parameter (y = u). With
// go_on false the branch stops at the first grazing.
ThroughGrazing continue_through_grazing(const ContinuationProblem& problem, const Vector& y0,
                                        const ContinuationOptions& options,
                                        const std::function<TestFunctions()>& tests, bool go_on,
                                        int max_crossings = 8);

// The special point's description: sequences, contact, the smooth side's multipliers.
nlohmann::ordered_json crossing_json(const GrazingCrossing& c, const flow::HybridSystem& system);

}  // namespace saltus::grazing
