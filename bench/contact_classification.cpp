// Issue 3's goal: all c_n and c_nm up to N = 10 for example 4.4.5 (the
// corrected (43)) in under 1 ms. Measured from the curves' jets at the
// degenerate point: the analysis (jets in arc length, J, the Jordan basis P)
// and the paper's multinomial procedure; then the whole double classify(),
// normal form included, for comparison.

#include <benchmark/benchmark.h>

#include "analyses/contact/classification.h"
#include "models/planar_curve.h"

namespace {

using saltus::models::ParametricPolynomial;
using saltus::models::PolynomialGraph;

const ParametricPolynomial kCurve1{.x = {0, -1}, .y = {0, 0, 1, 0, 2}, .name = "c1"};  // corrected (43)
const PolynomialGraph kCurve2{.p = {0, 0, 2, 0, 24, 50}, .name = "c2"};

void BM_Contact445_LyapunovCoefficientsN10(benchmark::State& state) {
  saltus::ContactClassificationOptions options;
  options.exact = false;
  for (auto _ : state) {
    const auto jet1 = saltus::contact::curve_jet<double>(kCurve1, 0.0, 12, "c1");
    const auto jet2 = saltus::contact::curve_jet<double>(kCurve2, 0.0, 12, "c2");
    const auto analysis = saltus::contact::analyse<double>(jet1, jet2, 0.0, 0.25, 0.0, options);
    auto c = saltus::contact::reduced_coefficients(analysis, 10, saltus::contact::Route::kPaper);
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(BM_Contact445_LyapunovCoefficientsN10)->Unit(benchmark::kMicrosecond);

void BM_Contact445_ClassifyDouble(benchmark::State& state) {
  saltus::ContactClassificationOptions options;
  options.exact = false;
  for (auto _ : state) {
    auto r = saltus::classify(kCurve1, kCurve2, {0, 0, 0, 0.25, 0}, options);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_Contact445_ClassifyDouble)->Unit(benchmark::kMicrosecond);

}  // namespace
