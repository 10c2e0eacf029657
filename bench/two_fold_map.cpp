// The Fig. 4 map of the wheel on a turntable (analyses/two_fold/map.h):
// one grid point (design, Newton from the offset start, classification) and
// a 41 x 41 map on 1 and 2 threads (rows are independent tasks).
#include <benchmark/benchmark.h>

#include "analyses/two_fold/map.h"

namespace {

using saltus::TwoFoldMapOptions;
using saltus::models::WheelTurntable;

void BM_TwoFoldMapPoint(benchmark::State& state) {
  const WheelTurntable base;
  const TwoFoldMapOptions options;
  for (auto _ : state) benchmark::DoNotOptimize(saltus::two_fold_map_point(base, 0.1859, -1.037, options));
}
BENCHMARK(BM_TwoFoldMapPoint);

void BM_TwoFoldMap41(benchmark::State& state) {
  TwoFoldMapOptions options;
  options.r_steps = options.omega_steps = 41;
  options.threads = static_cast<int>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(saltus::two_fold_map(WheelTurntable{}, options));
  state.SetItemsProcessed(state.iterations() * 41 * 41);
}
BENCHMARK(BM_TwoFoldMap41)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
