#include "studies/periodic_orbit.h"

#include <cmath>
#include <limits>
#include <sstream>

namespace saltus::studies {

namespace {

// |a - b| with the angle components compared modulo 2 pi.
double distance(const HybridRun& run, const Vector& a, const Vector& b) {
  double sum = 0.0;
  for (int i = 0; i < a.size(); ++i) {
    double d = a[i] - b[i];
    if (i < static_cast<int>(run.angles.size()) && run.angles[i]) d = std::remainder(d, 2 * M_PI);
    sum += d * d;
  }
  return std::sqrt(sum);
}

}  // namespace

flow::SimulationOptions without_samples(const flow::SimulationOptions& options) {
  flow::SimulationOptions o = options;
  o.variational = false;
  // An infinite grid keeps the start sample only: every step of a long
  // transient would be gigabytes (measured: 2 GB before the step budget).
  o.output_interval = std::numeric_limits<double>::infinity();
  return o;
}

namespace {

// An autonomous orbit's guess from a simulation from *x in shooting->mode at
// shooting->t0 (after the transient): successive returns to the section; the
// first that comes back to an earlier one (with up to max_returns crossings
// in between) closes the orbit and gives x, the mode, the cut time and the
// period. False, with s->message, when none does.
bool close_from_returns(const HybridRun& run, const flow::HybridSystem& hybrid, Vector* x,
                        periodic::ShootingOptions* shooting, ShootingStart* s) {
  const PeriodicSpec& spec = *run.periodic;
  const int n = static_cast<int>(run.initial.size());
  const double t = shooting->t0;
  // Without a section of the user's, the plane through the start normal to
  // the field there (the shooting's own phase condition), crossed the way
  // the flow crosses it at the start.
  std::vector<flow::Section> sections = run.sections();
  if (sections.empty()) {
    Vector f;
    hybrid.field(shooting->mode, t, *x, &f);
    const Vector x0 = x->head(n), f0 = f.head(n);
    if (!(f0.norm() > 0)) {
      s->message = "the simulation for the guess ends at an equilibrium: there is no orbit to close";
      return false;
    }
    sections.push_back(
        {[x0, f0, n](double, const Vector& z) { return f0.dot(z.head(n) - x0); }, flow::Crossing::kRising});
  }
  const flow::Trajectory rec = flow::simulate(hybrid, shooting->mode, t, *x, t + spec.record,
                                              without_samples(run.simulation), {}, sections);
  if (!rec.ok()) {
    s->message = "the simulation for the guess ended early: " + rec.message;
    return false;
  }
  const auto& hits = rec.section_hits;
  const int k = static_cast<int>(hits.size()) - 1;
  double closest = std::numeric_limits<double>::infinity();
  int closest_m = 0;
  for (int m = 1; m <= spec.max_returns && k - m >= 0; ++m) {
    const double d = distance(run, hits[k].x, hits[k - m].x);
    if (d < closest) closest = d, closest_m = m;
    if (d <= spec.return_tolerance * (1.0 + hits[k].x.norm())) {
      s->source = "section";
      s->returns = m;
      s->distance = d;
      *x = hits[k].x;
      // Angles into [-pi, pi], where the shooting system keeps them.
      for (int i = 0; i < n; ++i)
        if (run.angles[i]) (*x)[i] = std::remainder((*x)[i], 2 * M_PI);
      shooting->mode = hits[k].mode;
      shooting->t0 = hits[k].t;
      shooting->period = hits[k].t - hits[k - m].t;
      return true;
    }
  }
  std::ostringstream why;
  why << hits.size() << " crossings of the section over record = " << spec.record << "; ";
  if (closest_m > 0)
    why << "the closest return (after " << closest_m << " crossings) is " << closest
        << " away, above return_tolerance = " << spec.return_tolerance
        << " (relative): lengthen 'transient', or the attractor is not periodic here";
  else
    why << "too few to close an orbit: lengthen 'record' or check the section";
  s->message = why.str();
  return false;
}

}  // namespace

ShootingStart shooting_start(const HybridRun& run) {
  if (!run.periodic) throw RunFileError("run file " + run.path.string() + ": 'periodic' is missing");
  const PeriodicSpec& spec = *run.periodic;
  ShootingStart s;
  s.parameter = spec.parameter.empty() ? run.fixed_parameter : spec.parameter;
  std::shared_ptr<const flow::HybridSystem> hybrid;
  try {
    hybrid = run.system->with_parameters_in_state({s.parameter}, run.wrapped_angles);
  } catch (const std::invalid_argument& e) {
    throw RunFileError("run file " + run.path.string() + ": 'periodic.parameter' = '" + s.parameter +
                       "': " + e.what());
  }
  const double p0 = run.system->parameter(s.parameter);
  const int n = static_cast<int>(run.initial.size());
  Vector x(n + 1);
  x << run.initial, p0;

  periodic::ShootingOptions shooting;
  shooting.autonomous = spec.autonomous;
  shooting.t0 = spec.t0;
  shooting.period = spec.autonomous ? 1.0 : spec.period;
  if (spec.period_follows_forcing) shooting.period_of = run.period_of(s.parameter);
  shooting.mode = run.mode;
  shooting.simulation = run.simulation;
  s.source = "initial";

  if (spec.autonomous) shooting.t0 = run.t0;
  // "transient": 0 is no transient: the guess is the initial state at t0
  // (an autonomous orbit's returns are looked for from there).
  if (spec.transient > 0) {
    const flow::Trajectory warm = flow::simulate(
        *hybrid, run.mode, shooting.t0, x, shooting.t0 + spec.transient, without_samples(run.simulation));
    if (!warm.ok()) {
      s.message = "the transient before the guess ended early: " + warm.message;
      return s;
    }
    x = warm.x_end;
    shooting.mode = warm.mode_end;
    shooting.t0 = warm.t_end;
    s.source = "transient";
  }
  if (spec.autonomous && !close_from_returns(run, *hybrid, &x, &shooting, &s)) return s;

  if (shooting.period_of) {
    // The cut at the same phase of the forcing all along the branch.
    const double T = shooting.period_of(x.tail(1), nullptr);
    shooting.phase = std::fmod(shooting.t0, T) / T;
    if (shooting.phase < 0) shooting.phase += 1.0;
    if (shooting.phase >= 1.0) shooting.phase = 0.0;
  }
  try {
    s.system =
        std::make_shared<periodic::ShootingSystem>(hybrid, 1, shooting, spec.autonomous ? x : Vector());
  } catch (const std::invalid_argument& e) {
    throw RunFileError("run file " + run.path.string() + ": 'periodic': " + e.what());
  }
  s.problem = std::make_shared<ContinuationProblem>(s.system, Vector::Constant(1, x[n]),
                                                    std::vector<std::string>{s.parameter});
  s.y.resize(s.problem->size());
  if (spec.autonomous)
    s.y << x.head(n), shooting.period, x[n];
  else
    s.y << x;
  s.ok = true;
  return s;
}

std::vector<double> section_values(const HybridRun& run, const periodic::ShootingSystem& system,
                                   const Vector& u, int variable) {
  // Over two periods, each crossing once in a window of one period that
  // starts halfway between two crossings (a crossing at the orbit's very
  // start or end would otherwise count twice or not at all).
  const auto& options = system.options();
  const double T = system.period(u);
  const double t0 = system.start_time(u);
  const flow::Trajectory tr =
      flow::simulate(*system.hybrid(), options.mode, t0, system.hybrid_state(u), t0 + 2 * T,
                     without_samples(options.simulation), {}, run.sections());
  const auto& hits = tr.section_hits;
  std::vector<double> values;
  // An orbit crossing k times per period crosses at least 2k - 1 times
  // inside the two periods, whatever happens at their ends (an orbit cut on
  // the section crosses exactly at both): one hit means k = 1.
  if (hits.size() == 1) values.push_back(hits[0].x[variable]);
  if (hits.size() < 2) return values;
  const double start = 0.5 * (hits[0].t + hits[1].t);
  for (const auto& h : hits)
    if (h.t >= start && h.t < start + T) values.push_back(h.x[variable]);
  return values;
}

}  // namespace saltus::studies
