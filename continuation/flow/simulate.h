#pragma once
// Event-driven simulation of a hybrid system: adaptive Runge-Kutta (Dormand-
// Prince 5(4) with dense output, Boost.Odeint, or Dormand-Prince 8(5,3) with
// dense output, dop853.h: SimulationOptions::method) between events; each
// guard searched inside every step for its first zero (a sign change and
// back within one step included: guard_search.h), the event bracketed on
// the dense output and located with toms748; the reset applied
// and the next mode chosen; the state-transition matrix carried along by the
// variational equations dPhi/dt = f_x Phi and multiplied by the saltation
// matrix at every event.

#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "continuation/flow/hybrid_system.h"

namespace saltus::flow {

// The Runge-Kutta method between events; both control the same error norm
// (weighted maximum over the controlled components) and locate events on
// their dense output.
//   kDopri5  Dormand-Prince 5(4), order-4 dense output (Boost.Odeint's
//            runge_kutta_dopri5): 6 field evaluations per step.
//   kDop853  Dormand-Prince 8(5,3), order-7 dense output (Hairer's DOP853,
//            continuation/flow/dop853.h): 12 per step, 3 more for a step
//            whose dense output is used; far longer steps at tight tolerances.
enum class IntegrationMethod { kDopri5, kDop853 };
std::string to_string(IntegrationMethod method);  // "dopri5", "dop853"
// The inverse of to_string; any other name throws std::invalid_argument naming it and the allowed names.
IntegrationMethod integration_method_from_string(const std::string& name);

struct SimulationOptions {
  double absolute_tolerance = 1e-12;  // Runge-Kutta error control, per component
  double relative_tolerance = 1e-12;
  // The first step, and with dopri5 the first step after each event (dop853
  // restarts with its step before the event, bounded by the time since the
  // previous event and not below initial_step: simulate.cpp says why).
  double initial_step = 1e-4;
  double max_step = std::numeric_limits<double>::infinity();  // bounds the step so no event hides inside one
  double event_tolerance = 1e-14;  // width of the located event's time bracket (relative to 1 + |t|)
  // true: every guard is searched inside every accepted step for a sign
  // change and back (an orbit dipping through a switching surface and out
  // again; a ball caught by its table within one step, issue 34 item 5), on
  // the step's dense output with a bound on the guard's Hermite remainder
  // (continuation/flow/guard_search.h). false: the guards' values at the
  // step's ends and at the event_samples points alone decide, and a dip
  // between two values on the same side is stepped over (kept to measure
  // the search's cost and to show what it catches).
  bool guard_search = true;
  // k > 1 adds the guards' values at the k - 1 interior points that divide
  // the step into k equal parts (on the dense output); the first of them
  // past a guard bounds its search. Costs k - 1 dense-output evaluations per
  // guard and step.
  int event_samples = 1;
  bool variational = true;   // integrate the state-transition matrix
  int max_events = 1000000;  // more ends the run with kTooManyEvents
  // Events closer than this in time, `zeno_events` times in a row, are a Zeno
  // accumulation the system's transitions did not resolve: the run ends there
  // with kZeno rather than looping.
  double zeno_interval = 1e-12;
  int zeno_events = 100;
  double output_interval = 0.0;  // > 0: record the state on this grid; 0: at every accepted step
  // false: record no steps, only the start, the events and the end (a
  // shooting residual reads x_end alone; a record per step is an allocation
  // per step).
  bool record_steps = true;
  // Accepted Runge-Kutta steps allowed in one run; more ends it with
  // kTooManySteps. A field that is singular or discontinuous without a guard
  // (a Filippov field at a 0/0 point) makes the step size collapse, and the
  // run would otherwise crawl on for hours. 10 million steps are minutes of
  // a small system, far beyond any regular run.
  long max_steps = 10000000;
  // Whether the state-transition matrix Phi takes part in the step-size
  // control (true, the default) or the state alone controls the step and
  // Phi rides on the same steps (false). Phi obeys the linearisation of the
  // state's equation, so its error follows the state's; leaving it out is
  // what shooting codes do (the steps of the nonlinear equation decide,
  // the variational equations reuse them: Hairer, Norsett & Wanner I, II.14
  // "internal differentiation"; 25% fewer steps on the Lorenz orbits).
  bool transition_error_control = true;
  // The last `constant_components` state components are parameters carried
  // as state: their field is zero (p' = 0) and resets leave them unchanged.
  // The caller promises this. Their rows of Phi then stay (0 I) and are not
  // integrated (shooting's Phi is (n + q) x (n + q), only n rows move); the
  // trajectory's transition_matrix is still the full matrix.
  int constant_components = 0;

  // The Runge-Kutta method (see IntegrationMethod). dop853 by default: it
  // needs fewer field evaluations at equal accuracy in every case measured
  // (the triple pendulum's first 40 / 60 impacts in bench/peer: 1952 / 2785
  // evaluations against dopri5's 5176 / 8910, with 3-5 times smaller
  // impact-time errors; bench/lorenz_branch.cpp: a PD error <= 1e-6 at
  // 0.30-0.35 ms per point against 0.48-0.53).
  IntegrationMethod method = IntegrationMethod::kDop853;

  std::string check() const;  // empty when valid, else names the bad field
};

struct Event {
  double t = 0.0;
  int guard = -1;
  std::string guard_name;
  int mode_before = 0, mode_after = 0;
  Vector x_before, x_after;
  Matrix saltation;  // n x n (empty when not variational)
};

// kTooManySteps: max_steps accepted steps without reaching t1 (the step
// size collapsed, or the span is too long for the tolerance).
enum class SimulationStatus {
  kFinished,
  kTooManyEvents,
  kZeno,
  kGrazing,
  kStepFailed,
  kStopped,
  kTooManySteps
};
std::string to_string(SimulationStatus status);

struct SectionHit {
  double t = 0.0;
  Vector x;
  int section = 0;  // index into the sections given to simulate()
  int mode = 0;
};

struct Trajectory {
  std::vector<SectionHit> section_hits;
  std::vector<double> t;
  std::vector<Vector> x;
  std::vector<int> mode;
  std::vector<Event> events;
  Matrix transition_matrix;  // Phi(t_end, t_start), saltation included
  SimulationStatus status = SimulationStatus::kFinished;
  std::string message;
  double t_end = 0.0;
  Vector x_end;
  int mode_end = 0;
  bool ok() const { return status == SimulationStatus::kFinished; }
};

// Called at every recorded sample and event; return false to stop.
using SimulationObserver = std::function<bool(double t, const Vector& x, int mode)>;

// A Poincare section: where h(t, x) crosses zero in the given direction the
// state is recorded, located on the dense output like an event (toms748 to
// event_tolerance), but nothing is reset.
struct Section {
  std::function<double(double t, const Vector& x)> h;
  Crossing crossing = Crossing::kRising;
};

// Integrates from (t0, x0) in mode0 to t1 > t0. Invalid options or input
// (a wrong size, a non-finite value, t1 <= t0) throw std::invalid_argument;
// numerical outcomes are the status.
Trajectory simulate(const HybridSystem& system, int mode0, double t0, const Vector& x0, double t1,
                    const SimulationOptions& options = {}, const SimulationObserver& observer = {},
                    const std::vector<Section>& sections = {});

}  // namespace saltus::flow
