#include "studies/sweep_study.h"

#include <atomic>
#include <exception>
#include <mutex>

#include "continuation/worker_threads.h"
#include "studies/periodic_orbit.h"
#include "studies/study.h"

namespace saltus::studies {

Settled settle(const flow::HybridSystem& system, const StartState& start, double transient, double record,
               const flow::SimulationOptions& plain, const std::vector<flow::Section>& sections) {
  Settled s;
  s.end = start;
  try {
    if (transient > 0) {
      const flow::Trajectory warm =
          flow::simulate(system, s.end.mode, s.end.t, s.end.x, s.end.t + transient, plain);
      s.events += static_cast<int>(warm.events.size());
      if (!warm.ok()) {
        s.failure = warm.message;
        return s;
      }
      s.end = {warm.mode_end, warm.t_end, warm.x_end};
    }
    const flow::Trajectory rec =
        flow::simulate(system, s.end.mode, s.end.t, s.end.x, s.end.t + record, plain, {}, sections);
    s.events += static_cast<int>(rec.events.size());
    s.hits = rec.section_hits;
    if (!rec.ok())
      s.failure = rec.message;
    else
      s.end = {rec.mode_end, rec.t_end, rec.x_end};
  } catch (const std::exception& e) {
    s.failure = e.what();
  }
  return s;
}

double sweep_value(const SweepSpec& spec, int k) {
  return spec.steps == 1 ? spec.from : spec.from + (spec.to - spec.from) * k / (spec.steps - 1);
}

int sweep_chains(const HybridRun& run) { return worker_count(run.sweep->threads, run.sweep->steps); }

Settled sweep_point(const HybridRun& run, int k, const Settled* previous) {
  const SweepSpec& spec = *run.sweep;
  StartState start{run.mode, run.t0, run.initial};
  if (previous && previous->failure.empty()) start = previous->end;
  const double transient = previous ? spec.transient : 2 * spec.transient;
  try {
    const auto system = run.with_parameter(spec.parameter, sweep_value(spec, k));
    return settle(*system, start, transient, spec.record, without_samples(run.simulation), run.sections());
  } catch (const std::exception& e) {
    Settled s;
    s.end = start;
    s.failure = e.what();
    return s;
  }
}

bool run_blocks(int points, int chains, int threads, const std::function<void(int k, bool first)>& compute,
                const SweepProgress& progress, std::vector<bool>* done) {
  done->assign(points, false);
  std::atomic<int> next_chain{0};
  std::atomic<bool> stop{false};
  std::mutex mutex;  // *done, the count, the progress callback and `failed`
  int finished = 0;
  std::exception_ptr failed;  // the first exception of a worker, rethrown after the join
  const auto work = [&](int) {
    try {
      for (int c = next_chain++; c < chains && !stop; c = next_chain++) {
        const int begin = static_cast<int>(static_cast<long long>(c) * points / chains);
        const int end = static_cast<int>(static_cast<long long>(c + 1) * points / chains);
        for (int k = begin; k < end && !stop; ++k) {
          compute(k, k == begin);
          std::lock_guard<std::mutex> lock(mutex);
          (*done)[k] = true;
          ++finished;
          if (!stop && progress && !progress(finished, points)) stop = true;
        }
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      if (!failed) failed = std::current_exception();
      stop = true;
    }
  };
  { WorkerThreads group(worker_count(threads, chains), work); }
  if (failed) std::rethrow_exception(failed);
  return !stop;
}

SweepResult sweep(const HybridRun& run, const SweepProgress& progress) {
  if (!run.sweep) throw StudyError("sweep: run '" + run.name + "' has no 'sweep' keys (parameter, from, to, steps)");
  const SweepSpec& spec = *run.sweep;
  SweepResult r;
  r.parameter = spec.parameter;
  r.chains = sweep_chains(run);
  r.points.resize(spec.steps);
  for (int k = 0; k < spec.steps; ++k) r.values.push_back(sweep_value(spec, k));
  const auto compute = [&](int k, bool first) {
    r.points[k] = sweep_point(run, k, first ? nullptr : &r.points[k - 1]);
  };
  r.interrupted = !run_blocks(spec.steps, r.chains, r.chains, compute, progress, &r.done);
  return r;
}

}  // namespace saltus::studies
