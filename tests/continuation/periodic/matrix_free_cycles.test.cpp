// Matrix-free continuation of cycles (continuation/linear_solver.h: GMRES on
// the bordered system [J; t^T]; periodic::ShootingSystem::jacobian_times and
// leading_multipliers) on the 1-D Brusselator (models/brusselator_1d.h) at
// n = 12 points per species (24 states; the example has 500), from its Hopf
// point of the first sine mode, in closed form:
//
//   b_H = 1 + a^2 + (d1 + d2) mu_1,   mu_1 = 4 (n + 1)^2 sin^2(pi / (2 (n + 1))),
//   omega_0^2 = det J_1 = a^2 b_H - (a^2 + d2 mu_1)^2,
//
// here at a = 1.5, d1 = 0.01, d2 = 0.005 (the example: a = 2, d1 = 0.008,
// d2 = 0.004). Checked: the branch followed matrix-free is the dense one,
// point by point, to 1e-8; the first cycles against the Hopf normal form
// z' = (mu + i omega) z + c1 z |z|^2 (Kuznetsov, "Elements of applied
// bifurcation theory", 3rd ed., 2004, Sec. 3.5, l1 = Re c1 / omega); the
// leading multipliers by Arnoldi against the dense monodromy's.

#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <vector>

#include "analyses/hopf/cycle_start.h"
#include "continuation/autodiff_system.h"
#include "continuation/flow/simulate.h"
#include "continuation/periodic/shooting.h"
#include "continuation/pseudo_arclength.h"
#include "models/brusselator_1d_flow.h"
#include "testfunctions/floquet.h"
#include "testfunctions/fold.h"
#include "testfunctions/hopf.h"

using namespace saltus;

namespace {

constexpr int kN = 12;
constexpr double kA = 1.5, kD1 = 0.01, kD2 = 0.005;

double mu1() {
  const double s = std::sin(M_PI / (2.0 * (kN + 1)));
  return 4.0 * (kN + 1) * (kN + 1) * s * s;
}
double b_hopf() { return 1 + kA * kA + (kD1 + kD2) * mu1(); }
double omega_hopf() {
  const double m = kA * kA + kD2 * mu1();
  return std::sqrt(kA * kA * b_hopf() - m * m);
}

models::Brusselator1d model() {
  models::Brusselator1d m;
  m.n = kN;
  return m;
}

// (x, a, b, d1, d2) at the Hopf point.
Vector hopf_u() {
  Vector u(2 * kN + 4);
  u << model().homogeneous_state(kA, b_hopf()), kA, b_hopf(), kD1, kD2;
  return u;
}

struct Cycles {
  Branch branch;
  HopfCycleStart start;
};

Cycles cycles(periodic::ShootingLinearSolver solver, int points) {
  const auto equations = make_system(model());
  periodic::ShootingOptions shooting;
  shooting.linear_solver = solver;
  Cycles c;
  c.start = hopf_cycle_start(*equations, models::brusselator_1d_flow(kN), hopf_u(), 1, 0.02, shooting);
  ContinuationOptions options;
  options.ds = options.ds_max = 0.02;  // one step length for both: the same points
  options.step_growth = 1.0;
  options.max_points = points;
  options.direction = c.start.direction;
  const TestFunctions tests = {std::make_shared<FoldTest>("LPC"), std::make_shared<PeriodDoublingTest>(),
                               std::make_shared<NeimarkSackerTest>()};
  c.branch = continue_branch(*c.start.problem, c.start.y0, options, tests);
  return c;
}

}  // namespace

TEST_CASE("Brusselator cycles: the matrix-free branch is the dense one to 1e-8", "[matrix_free_cycles]") {
  const Cycles dense = cycles(periodic::ShootingLinearSolver::kDense, 6);
  const Cycles free = cycles(periodic::ShootingLinearSolver::kMatrixFree, 6);
  REQUIRE_FALSE(dense.start.shooting->matrix_free());
  REQUIRE(free.start.shooting->matrix_free());
  REQUIRE(dense.branch.points.size() == 6);
  REQUIRE(free.branch.points.size() == 6);
  for (std::size_t k = 0; k < 6; ++k) {
    const Vector& yd = dense.branch.points[k].y;
    const Vector& yf = free.branch.points[k].y;
    INFO("point " << k << ": b = " << yd[2 * kN + 1] << ", T = " << yd[2 * kN]);
    CHECK((yf - yd).lpNorm<Eigen::Infinity>() <= 1e-8);  // measured 1e-10 to 2e-10
  }
  // The leading multipliers of the last cycle by Arnoldi on the monodromy
  // operator against the dense monodromy's eigenvalues.
  const Vector u = free.start.problem->u(free.branch.points.back().y);
  const Eigen::VectorXcd arnoldi = free.start.shooting->leading_multipliers(u);
  const Eigen::VectorXcd all = periodic::floquet_multipliers(dense.start.shooting->monodromy(u));
  REQUIRE(arnoldi.size() >= 6);
  for (int k = 0; k < arnoldi.size(); ++k) {
    INFO("multiplier " << k << ": " << arnoldi[k] << " against " << all.head(arnoldi.size() + 2).transpose());
    CHECK((all.array() - arnoldi[k]).abs().minCoeff() <= 1e-8);
  }
  CHECK(std::abs(arnoldi[0] - 1.0) <= 1e-8);  // the trivial one, along the flow
  // No LPC, PD or NS on this stretch (stable cycles, supercritical).
  CHECK(free.branch.special_points.empty());
  CHECK(dense.branch.special_points.empty());
}

namespace {

// The first Fourier coefficient of z(t) = <p, x(t) - x0> over the cycle
// from x (period T), on 64 equally spaced samples (the trapezoidal rule,
// spectrally accurate on a periodic function). On the centre manifold
// x = x0 + z q + conj(z q) + O(|z|^2) with z = epsilon e^{i omega t}; the
// O(|z|^2) terms are the harmonics 0 and 2 (h11, h20), so the first
// harmonic of z is epsilon + O(epsilon^3).
double first_harmonic(const flow::HybridSystem& flow, const Vector& z0, double T, const Vector& x0,
                      const Eigen::VectorXcd& p) {
  constexpr int kSamples = 64;
  flow::SimulationOptions options;
  options.variational = false;
  options.record_steps = false;
  Vector z = z0;
  std::complex<double> c = 0.0;
  for (int k = 0; k < kSamples; ++k) {
    const double t = k * T / kSamples;
    const std::complex<double> zk = p.dot((z.head(x0.size()) - x0).cast<std::complex<double>>());
    c += zk * std::polar(1.0, -2 * M_PI * k / kSamples);
    const flow::Trajectory tr = flow::simulate(flow, 0, t, z, t + T / kSamples, options);
    REQUIRE(tr.ok());
    z = tr.x_end;
  }
  return std::abs(c) / kSamples;
}

}  // namespace

TEST_CASE("Brusselator cycles: the first ones follow the Hopf normal form", "[matrix_free_cycles]") {
  const auto equations = make_system(model());
  const Vector u = hopf_u();
  const HopfPoint h = hopf_point(*equations, u, omega_hopf());
  const double mu_prime = hopf_transversality(*equations, u, h, 1);
  // The closed form's frequency, and a supercritical point (l1 < 0: stable
  // cycles for b > b_H, where the equilibrium is unstable, mu' > 0).
  REQUIRE(h.omega == Approx(omega_hopf()).epsilon(1e-10));
  REQUIRE(h.l1 < 0);
  REQUIRE(mu_prime > 0);

  const Cycles free = cycles(periodic::ShootingLinearSolver::kMatrixFree, 4);
  REQUIRE(free.branch.points.size() == 4);
  const auto flow = models::brusselator_1d_flow(kN);
  // <p, v> = conj(p)^T v (hopf.h's normalization <p, q> = 1).
  const Eigen::VectorXcd p = h.p;
  std::vector<double> dp, amplitude_error, frequency_error;
  for (const auto& point : free.branch.points) {
    const Vector y = point.y;
    const double b = y[2 * kN + 1], T = y[2 * kN];
    Vector z(2 * kN + 4);
    z << y.head(2 * kN), kA, b, kD1, kD2;
    const double epsilon = first_harmonic(*flow, z, T, model().homogeneous_state(kA, b), p);
    // The normal form's cycle: mu' (b - b_H) + l1 omega epsilon^2 = 0, to
    // relative O(b - b_H) (the next terms: mu'' dp^2 and l2 epsilon^4).
    const double predicted = std::sqrt(-mu_prime * (b - b_hopf()) / (h.l1 * h.omega));
    dp.push_back(b - b_hopf());
    amplitude_error.push_back(std::abs(epsilon / predicted - 1));
    frequency_error.push_back(std::abs(2 * M_PI / T / h.omega - 1));
    INFO("b - b_H = " << dp.back() << ", epsilon = " << epsilon << " (normal form " << predicted
                      << "), omega = " << 2 * M_PI / T << " (" << h.omega << ")");
    CHECK(dp.back() > 0);
  }
  // Both relative errors are O(b - b_H), the order of the first terms the
  // normal form leaves out: below b - b_H (a coefficient of order one;
  // measured 0.05 for the amplitude, 0.14 for the frequency), and linear in
  // it: err / (b - b_H) the same at every point to 25% while b - b_H grows
  // elevenfold (an error of another order, from the continuation or the
  // normal form's coefficients, would not scale so).
  for (std::size_t k = 0; k < dp.size(); ++k) {
    INFO("point " << k << ": b - b_H = " << dp[k] << ", amplitude error " << amplitude_error[k]
                  << ", frequency error " << frequency_error[k]);
    CHECK(amplitude_error[k] <= dp[k]);
    CHECK(frequency_error[k] <= dp[k]);
    CHECK(amplitude_error[k] / dp[k] == Approx(amplitude_error[0] / dp[0]).epsilon(0.25));
    CHECK(frequency_error[k] / dp[k] == Approx(frequency_error[0] / dp[0]).epsilon(0.25));
  }
  CHECK(dp.back() > 10 * dp.front());
}

TEST_CASE("Brusselator cycles: the switch to matrix-free is by size", "[matrix_free_cycles]") {
  // 2 n + 1 = 25 states (x, T): dense by default (from 256), matrix-free
  // from a lower threshold; kDense holds at any size.
  const auto equations = make_system(model());
  periodic::ShootingOptions options;
  CHECK_FALSE(hopf_cycle_start(*equations, models::brusselator_1d_flow(kN), hopf_u(), 1, 0.02, options)
                  .shooting->matrix_free());
  options.matrix_free_from = 25;
  CHECK(hopf_cycle_start(*equations, models::brusselator_1d_flow(kN), hopf_u(), 1, 0.02, options)
            .shooting->matrix_free());
  options.matrix_free_from = 26;
  CHECK_FALSE(hopf_cycle_start(*equations, models::brusselator_1d_flow(kN), hopf_u(), 1, 0.02, options)
                  .shooting->matrix_free());
  options.matrix_free_from = 1;
  options.linear_solver = periodic::ShootingLinearSolver::kDense;
  CHECK_FALSE(hopf_cycle_start(*equations, models::brusselator_1d_flow(kN), hopf_u(), 1, 0.02, options)
                  .shooting->matrix_free());
}
