// saltus_peer_events: the triple pendulum's event log and wall time as JSON,
// for bench/peer/compare.sh to set beside the scipy peer
// (bench/peer/triple_pendulum_scipy.py), which integrates the same model.
//
//   saltus_peer_events [--q1 1.1] [--e 0.8] [--t1 20] [--tol 1e-10]
//                      [--min-time 0.5] [--max-events N] [--method dopri5|dop853]
//
// The state starts at psi = (1.8, 1.0, 2.0), zero velocities, in the free mode
// (as examples/triple_pendulum.json), and runs to t1 with abs = rel = tol and
// no variational equations, with SimulationOptions::method = --method
// (default: the simulator's default). The run is repeated until `min-time` seconds of
// wall time have passed and the fastest repetition is reported: the peer
// does the same, so one-off costs (first touch of memory, page faults) and
// scheduler noise do not decide the ratio. --max-events stops the run after
// N events (0: no limit) so that both tools can be cut at the same impact.
//
// Output: {"tool", "method", "tolerance", "t_end", "status", "sim_time", "wall_s",
// "cpu_s" (the fastest repetition's process CPU time), "repetitions", "field_evaluations",
// "guard_evaluations", "events": [{"t", "guard", "mode_before", "mode_after"}]}; guards are 0-based
// constraint indices, modes are the bitmasks of constraints in permanent contact (0 = free flight). The
// evaluation counts come from one extra, untimed run through a counting wrapper (its virtual hop would
// otherwise be timed).

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "continuation/flow/mechanical.h"
#include "continuation/flow/simulate.h"
#include "models/triple_pendulum.h"

using namespace saltus;

namespace {

// Forwards to the wrapped system and counts the calls the simulator makes:
// wall time per field evaluation is what separates "more steps" from
// "dearer steps" when set beside scipy's nfev.
class Counting : public flow::HybridSystem {
 public:
  explicit Counting(const flow::HybridSystem& s) : s_(s) {}
  mutable long fields = 0, guards = 0;
  int dimension() const override { return s_.dimension(); }
  void field(int mode, double t, const Vector& x, Vector* f) const override {
    ++fields;
    s_.field(mode, t, x, f);
  }
  void field_in_place(int mode, double t, const double* x, double* f) const override {
    ++fields;
    s_.field_in_place(mode, t, x, f);
  }
  void field_jacobian(int mode, double t, const Vector& x, Matrix* A) const override {
    s_.field_jacobian(mode, t, x, A);
  }
  int guard_count(int mode) const override { return s_.guard_count(mode); }
  std::string guard_name(int mode, int k) const override { return s_.guard_name(mode, k); }
  flow::Crossing crossing(int mode, int k) const override { return s_.crossing(mode, k); }
  double guard(int mode, int k, double t, const Vector& x) const override {
    ++guards;
    return s_.guard(mode, k, t, x);
  }
  void guard_gradient(int mode, int k, double t, const Vector& x, Vector* h_x, double* h_t) const override {
    s_.guard_gradient(mode, k, t, x, h_x, h_t);
  }
  int next_mode(int mode, int k, double t, const Vector& x) const override {
    return s_.next_mode(mode, k, t, x);
  }
  void reset(int mode, int k, int next, double t, const Vector& x, Vector* x_plus, Matrix* G_x,
             Vector* G_t) const override {
    s_.reset(mode, k, next, t, x, x_plus, G_x, G_t);
  }
  void reset_state(int mode, int k, int next, double t, const Vector& x, Vector* x_plus) const override {
    s_.reset_state(mode, k, next, t, x, x_plus);
  }

 private:
  const flow::HybridSystem& s_;
};

// CPU time of this process: on a shared machine the wall time of a run
// includes other programs' time slices, and a short run (saltus, ~1 ms) is
// likelier than a long one (the peer, ~50 ms) to fit between them.
double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
  double q1 = 1.1, e = 0.8, t1 = 20.0, tol = 1e-10, min_time = 0.5;
  int max_events = 0;
  flow::SimulationOptions options;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    const double value = std::atof(argv[i + 1]);
    if (key == "--method") {
      try {
        options.method = flow::integration_method_from_string(argv[i + 1]);
      } catch (const std::invalid_argument& e) {
        std::cerr << "--method: " << e.what() << "\n";
        return 2;
      }
    } else if (key == "--q1")
      q1 = value;
    else if (key == "--e")
      e = value;
    else if (key == "--t1")
      t1 = value;
    else if (key == "--tol")
      tol = value;
    else if (key == "--min-time")
      min_time = value;
    else if (key == "--max-events")
      max_events = static_cast<int>(value);
    else {
      std::cerr << "unknown option " << key << "\n";
      return 2;
    }
  }

  models::TriplePendulum p;
  p.q1 = q1;
  p.e = e;
  const auto system = flow::make_mechanical(p);
  Vector x0(6);
  x0 << 1.8, 1.0, 2.0, 0.0, 0.0, 0.0;
  options.absolute_tolerance = options.relative_tolerance = tol;
  options.variational = false;
  if (max_events > 0) options.max_events = max_events;

  flow::Trajectory run;
  double best = 1e300, best_cpu = 1e300, spent = 0.0;
  int repetitions = 0;
  // Always at least two runs, the first of which warms caches and the allocator.
  while (repetitions < 2 || spent < min_time) {
    const double cpu_started = cpu_seconds();
    const auto started = std::chrono::steady_clock::now();
    run = flow::simulate(*system, 0, 0.0, x0, t1, options);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    best_cpu = std::min(best_cpu, cpu_seconds() - cpu_started);
    best = std::min(best, wall);
    spent += wall;
    ++repetitions;
  }

  Counting counting(*system);
  flow::simulate(counting, 0, 0.0, x0, t1, options);

  nlohmann::json events = nlohmann::json::array();
  for (const auto& ev : run.events)
    events.push_back(
        {{"t", ev.t}, {"guard", ev.guard}, {"mode_before", ev.mode_before}, {"mode_after", ev.mode_after}});
  // A run cut by --max-events ends with kTooManyEvents, which is the intended
  // stop here, not a failure.
  const bool cut = max_events > 0 && run.status == flow::SimulationStatus::kTooManyEvents;
  nlohmann::json out = {{"tool", "saltus"},
                        {"method", flow::to_string(options.method)},
                        {"tolerance", tol},
                        {"q1", q1},
                        {"e", e},
                        {"t_end", run.t_end},
                        {"status", cut ? std::string("max_events") : flow::to_string(run.status)},
                        {"message", run.message},
                        {"sim_time", run.t_end},
                        {"wall_s", best},
                        {"cpu_s", best_cpu},
                        {"repetitions", repetitions},
                        {"field_evaluations", counting.fields},
                        {"guard_evaluations", counting.guards},
                        {"events", events}};
  std::cout << out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return run.ok() || cut ? 0 : 1;
}
