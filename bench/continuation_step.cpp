// One pseudo-arclength continuation step, as a user runs it.
//
// The engine has no single-step API, so each benchmark iteration runs a whole
// branch of K steps from the same start point and the time is reported per
// step: items_per_second counts steps and "us_per_step" is the wall-clock
// (cpu) time of one iteration divided by K, in microseconds. The start
// correction (Newton with the parameter fixed, initial tangent) and the
// location of the special points met on the way (the engine stores them as
// extra points of the branch) are part of each iteration, i.e. amortized over
// the K steps. Each run is deterministic: same start, same options, same
// number of steps, events and Newton iterations every iteration.
//
//   cusp   f = mu + lambda x - x^3, lambda = 1, free mu, start x = -1.5,
//          mu = -2, LP and BP tests, K = 100: the branch passes both folds
//          (mu = +-2/(3 sqrt 3), two LP events) and then runs up the upper
//          sheet, which is unbounded, so it never ends by itself.
//   Bratu  n = 1000, free lambda, start u = 0, lambda = 0, ds = 0.1,
//          ds_max = 0.5, LP test, K = 50 (sparse path).

#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "continuation/autodiff_system.h"
#include "continuation/pseudo_arclength.h"
#include "models/bratu.h"
#include "models/expression_system.h"
#include "models/normal_forms.h"
#include "testfunctions/branch_point.h"
#include "testfunctions/fold.h"

using namespace saltus;

namespace {

constexpr int kCuspSteps = 100;
constexpr int kBratuSteps = 50;

// Continuation steps proper: the points after the start that are not located
// special points.
int regular_steps(const Branch& b) {
  return static_cast<int>(b.points.size()) - 1 - static_cast<int>(b.special_points.size());
}

// Runs `problem` from y0 for exactly K continuation steps per iteration:
// max_points is K + 1 (the start included); the located special points are
// extra points of the branch, counted once before timing so that every timed
// branch is checked to be the same.
void run_branch(benchmark::State& state, const ContinuationProblem& problem, const Vector& y0,
                ContinuationOptions options, const TestFunctions& tests, int K) {
  options.bounds.clear();  // no bounds: the branch runs until max_points
  options.max_points = K + 1;
  const Branch first = continue_branch(problem, y0, options, tests);
  if (first.stop_reason != StopReason::kMaxPoints || regular_steps(first) != K) {
    state.SkipWithError(("branch did not make K steps: " + std::to_string(regular_steps(first)) + " steps, " +
                         to_string(first.stop_reason) + ": " + first.message)
                            .c_str());
    return;
  }
  const int events = static_cast<int>(first.special_points.size());
  const std::size_t expected_points = first.points.size();

  const auto started = std::chrono::steady_clock::now();
  for (auto _ : state) {
    Branch b = continue_branch(problem, y0, options, tests);
    if (b.stop_reason != StopReason::kMaxPoints || b.points.size() != expected_points ||
        regular_steps(b) != K) {
      state.SkipWithError(("branch did not make K steps: " + std::to_string(b.points.size()) + " points, " +
                           to_string(b.stop_reason) + ": " + b.message)
                              .c_str());
      break;
    }
    benchmark::DoNotOptimize(b.points.back().y.data());
    benchmark::ClobberMemory();
  }
  const std::chrono::duration<double, std::micro> elapsed = std::chrono::steady_clock::now() - started;
  state.SetItemsProcessed(state.iterations() * K);
  // Wall-clock microseconds per step, computed explicitly (a kInvert rate
  // counter would be in seconds and print with an "s" suffix).
  if (state.iterations() > 0)
    state.counters["us_per_step"] = elapsed.count() / (static_cast<double>(state.iterations()) * K);
  state.counters["K"] = K;
  state.counters["events"] = events;
}

TestFunctions lp_bp() { return {std::make_shared<FoldTest>(), std::make_shared<BranchPointTest>()}; }

// mu = -2, lambda = 1; y = (x, mu) = (-1.5, -2).
void run_cusp(benchmark::State& state, std::shared_ptr<const System> system, const TestFunctions& tests) {
  Vector p(2);
  p << -2.0, 1.0;
  const ContinuationProblem problem(std::move(system), p, {"mu"});
  Vector y0(2);
  y0 << -1.5, -2.0;
  ContinuationOptions options;  // defaults: ds = 0.01, ds_max = 0.1
  run_branch(state, problem, y0, options, tests, kCuspSteps);
}

void BM_CuspStep_Functor(benchmark::State& state) { run_cusp(state, make_system(models::Cusp{}), lp_bp()); }
BENCHMARK(BM_CuspStep_Functor)->Unit(benchmark::kMillisecond);

void BM_CuspStep_Expression(benchmark::State& state) {
  run_cusp(state, models::make_expression_system({"x"}, {"mu", "lambda"}, {"mu + lambda*x - x^3"}), lp_bp());
}
BENCHMARK(BM_CuspStep_Expression)->Unit(benchmark::kMillisecond);

// For context: the same branch without test functions (no event location).
void BM_CuspStep_Functor_NoTests(benchmark::State& state) {
  run_cusp(state, make_system(models::Cusp{}), {});
}
BENCHMARK(BM_CuspStep_Functor_NoTests)->Unit(benchmark::kMillisecond);

void BM_BratuStep_1000(benchmark::State& state) {
  const int n = 1000;
  const ContinuationProblem problem(make_system(models::Bratu{n}), Vector::Zero(1), {"lambda"});
  const Vector y0 = Vector::Zero(n + 1);  // u = 0, lambda = 0
  ContinuationOptions options;
  options.ds = 0.1;
  options.ds_max = 0.5;
  run_branch(state, problem, y0, options, {std::make_shared<FoldTest>()}, kBratuSteps);
}
BENCHMARK(BM_BratuStep_1000)->Unit(benchmark::kMillisecond);

}  // namespace
