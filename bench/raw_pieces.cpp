// The pieces a continuation step is made of, for context next to
// continuation_step.cpp: System evaluations of the cusp functor (residual,
// dense Jacobian by jets, second derivative by Boost autodiff), the same for
// the cusp expression system, and the sparse (coloured) Jacobian of Bratu
// with n = 1000. Calls go through the System interface, as the engine makes
// them; outputs are preallocated.

#include <benchmark/benchmark.h>

#include <memory>

#include "continuation/autodiff_system.h"
#include "models/bratu.h"
#include "models/expression_system.h"
#include "models/normal_forms.h"

using namespace saltus;

namespace {

std::shared_ptr<const System> cusp_functor() { return make_system(models::Cusp{}); }
std::shared_ptr<const System> cusp_expression() {
  return models::make_expression_system({"x"}, {"mu", "lambda"}, {"mu + lambda*x - x^3"});
}

// u = (x, mu, lambda) on the lower sheet near the start of the branch.
Vector cusp_u() {
  Vector u(3);
  u << -1.5213797068045676, -2.0, 1.0;
  return u;
}
Vector cusp_d() {
  Vector d(3);
  d << 0.3, 0.95, 0.0;
  return d;
}

void residual(benchmark::State& state, const System& s) {
  const Vector u = cusp_u();
  Vector f(s.state_size());
  for (auto _ : state) {
    s.residual(u.data(), f.data());
    benchmark::DoNotOptimize(f.data());
    benchmark::ClobberMemory();
  }
}
void jacobian(benchmark::State& state, const System& s) {
  const Vector u = cusp_u();
  Matrix J(s.state_size(), s.size());
  for (auto _ : state) {
    s.jacobian(u.data(), &J);
    benchmark::DoNotOptimize(J.data());
    benchmark::ClobberMemory();
  }
}
void second_derivative(benchmark::State& state, const System& s) {
  const Vector u = cusp_u(), d = cusp_d();
  Matrix H(s.state_size(), s.size());
  for (auto _ : state) {
    s.second_derivative(u.data(), d.data(), &H);
    benchmark::DoNotOptimize(H.data());
    benchmark::ClobberMemory();
  }
}

void BM_Cusp_Functor_Residual(benchmark::State& state) { residual(state, *cusp_functor()); }
void BM_Cusp_Functor_Jacobian(benchmark::State& state) { jacobian(state, *cusp_functor()); }
void BM_Cusp_Functor_SecondDerivative(benchmark::State& state) { second_derivative(state, *cusp_functor()); }
void BM_Cusp_Expression_Residual(benchmark::State& state) { residual(state, *cusp_expression()); }
void BM_Cusp_Expression_Jacobian(benchmark::State& state) { jacobian(state, *cusp_expression()); }
void BM_Cusp_Expression_SecondDerivative(benchmark::State& state) {
  second_derivative(state, *cusp_expression());
}
BENCHMARK(BM_Cusp_Functor_Residual);
BENCHMARK(BM_Cusp_Functor_Jacobian);
BENCHMARK(BM_Cusp_Functor_SecondDerivative);
BENCHMARK(BM_Cusp_Expression_Residual);
BENCHMARK(BM_Cusp_Expression_Jacobian);
BENCHMARK(BM_Cusp_Expression_SecondDerivative);

void BM_Bratu1000_SparseJacobian(benchmark::State& state) {
  const int n = 1000;
  const auto s = make_system(models::Bratu{n});
  const System& system = *s;
  Vector u(n + 1);
  for (int i = 0; i < n; ++i) u[i] = 0.1 * (i + 1) * (n - i) / (n * n / 4.0);  // a smooth bump
  u[n] = 1.0;
  SparseMatrix J;
  for (auto _ : state) {
    system.sparse_jacobian(u.data(), &J);
    benchmark::DoNotOptimize(J.valuePtr());
    benchmark::ClobberMemory();
  }
  state.counters["nonzeros"] = static_cast<double>(J.nonZeros());
}
BENCHMARK(BM_Bratu1000_SparseJacobian)->Unit(benchmark::kMicrosecond);

}  // namespace
