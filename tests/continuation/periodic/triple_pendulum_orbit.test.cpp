#include <Eigen/Eigenvalues>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <iomanip>

#include "continuation/flow/lyapunov.h"
#include "continuation/pseudo_arclength.h"
#include "studies/periodic_orbit.h"
#include "testfunctions/floquet.h"
#include "testfunctions/fold.h"

// The rotating periodic orbit of the triple pendulum with its barrier
// (examples/triple_pendulum_orbit.json): found from a simulation, corrected by
// autonomous shooting with the saltation-corrected monodromy, continued in
// the torque q1 up to its fold of cycles.

using namespace saltus;
using namespace saltus::studies;

namespace {

studies::HybridRun orbit_run() {
  return read_hybrid_run(std::filesystem::path(SALTUS_SOURCE_DIR) / "examples" /
                         "triple_pendulum_orbit.json");
}

// The orbit of the run, corrected with the parameter fixed.
Vector corrected(const ShootingStart& start) {
  ContinuationOptions one;
  one.max_points = 1;
  const Branch b = continue_branch(*start.problem, start.y, one);
  REQUIRE(b.usable());
  return b.points[0].y;
}

// The branch from q1 = 1.03 upwards with the run's tolerances replaced
// (integration `tolerance`, location `event_tolerance`), up to its first PD:
// the stable orbit folds back (LPC near 1.0794), the unstable one folds
// again (LPC near 1.0701), and the upper stable orbit period-doubles (PD
// near 1.0845), where the brute-force diagram splits in two.
Branch branch_to_pd(double tolerance, double event_tolerance, ShootingStart* out) {
  HybridRun run = orbit_run();
  run.simulation.absolute_tolerance = run.simulation.relative_tolerance = tolerance;
  ContinuationOptions& options = run.periodic->options;
  options.event_tolerance = event_tolerance;
  options.max_points = 100;  // the PD is the 80th point or so; the bound q1 = 1.1 comes soon after
  const ShootingStart start = shooting_start(run);
  REQUIRE(start.ok);
  if (out) *out = start;
  return continue_branch(*start.problem, corrected(start), options,
                         {std::make_shared<FoldTest>("LPC"), std::make_shared<PeriodDoublingTest>()});
}

std::vector<const SpecialPoint*> of_type(const Branch& b, const std::string& type) {
  std::vector<const SpecialPoint*> out;
  for (const auto& s : b.special_points)
    if (s.type == type) out.push_back(&s);
  return out;
}

}  // namespace

TEST_CASE("triple pendulum orbit: the guess from section returns and the corrected orbit",
          "[periodic-pendulum]") {
  const HybridRun run = orbit_run();
  const ShootingStart start = shooting_start(run);
  REQUIRE(start.ok);
  CHECK(start.source == "section");
  CHECK(start.returns == 1);  // psi1 goes round once per period
  const Vector y = corrected(start);
  const Vector u = start.problem->u(y);
  // The simulation's return time is already the period to the return tolerance.
  CHECK(y[6] == Approx(start.y[6]).epsilon(1e-3));
  // The orbit closes: one period from it returns to it (angles wrapped).
  const Vector back = start.system->trajectory(u)->x_end;
  CHECK((back.head(6) - u.head(6)).norm() < 1e-7);
  std::complex<double> trivial;
  const Eigen::VectorXcd mu = periodic::nontrivial_multipliers(start.system->monodromy(u), &trivial);
  CHECK(std::abs(trivial - 1.0) < 1e-6);
  CHECK(std::abs(mu[0]) < 1.0);  // stable: the attractor of the brute-force diagram
}

TEST_CASE("triple pendulum orbit: Lyapunov exponents agree with log |multiplier| / T",
          "[periodic-pendulum][lyapunov]") {
  // On the orbit (no transient), the Benettin average over D = k T of the
  // state-transition matrix is (1/D) log of the growth of M^k on the frame:
  // with M = V diag(mu) V^-1, |M^k q| lies within a factor cond(V) (times
  // the frame's component along the eigenvector, O(1)) of |mu|^k. So each
  // exponent carries an error of about log(cond(V_2)) / D, V_2 the two
  // leading eigenvectors; the tolerance is twice that plus the integration's.
  //
  // Only the two leading exponents compare: each period the third link
  // ends a Zeno sequence of 46 impacts by sliding on the barrier (a plastic
  // impact whose saltation matrix is singular), so the other four
  // multipliers are 0 up to rounding (log |mu| = -inf), where the paper's
  // rule (perturbations that violate the constraint are set to zero) leaves
  // the Lyapunov exponents finite.
  const HybridRun run = orbit_run();
  const ShootingStart start = shooting_start(run);
  REQUIRE(start.ok);
  const Vector u = start.problem->u(corrected(start));
  const double T = start.system->period(u);
  const Matrix M = start.system->monodromy(u);
  std::complex<double> trivial;
  const Eigen::VectorXcd mu = periodic::nontrivial_multipliers(M, &trivial);
  REQUIRE(std::abs(mu[0].imag()) < 1e-12);
  REQUIRE(std::abs(mu[1]) < 1e-10);  // the others collapsed

  flow::LyapunovOptions options = run.lyapunov;
  options.transient = 0.0;
  options.duration = 30 * T;
  options.interval = 0.25;
  const flow::LyapunovResult r =
      flow::lyapunov_spectrum(*run.system, start.system->options().mode, 0.0, u.head(6), options);
  REQUIRE(r.ok());

  // cond of the two leading eigenvectors (the trivial one is the field).
  Eigen::EigenSolver<Matrix> eig(M);
  std::vector<int> order(6);
  for (int i = 0; i < 6; ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return std::abs(eig.eigenvalues()[a]) > std::abs(eig.eigenvalues()[b]); });
  Eigen::MatrixXcd V2(6, 2);
  V2 << eig.eigenvectors().col(order[0]).normalized(), eig.eigenvectors().col(order[1]).normalized();
  Eigen::JacobiSVD<Eigen::MatrixXcd> svd(V2);
  const double cond = svd.singularValues()[0] / svd.singularValues()[1];
  const double tolerance = 2 * std::log(cond) / options.duration + 1e-6;

  const double expected[2] = {std::log(std::abs(trivial)) / T, std::log(std::abs(mu[0])) / T};
  WARN("T = " << std::setprecision(10) << T << ", mu1 = " << mu[0] << ", lambda = " << r.exponents[0] << ", "
              << r.exponents[1] << "; log|mu|/T = " << expected[0] << ", " << expected[1]
              << "; cond(V2) = " << cond << ", tolerance " << tolerance);
  CHECK(std::abs(r.exponents[0] - expected[0]) < tolerance);
  CHECK(std::abs(r.exponents[1] - expected[1]) < tolerance);
}

TEST_CASE("triple pendulum orbit: its LPC and PD points stay put under tightened tolerances",
          "[periodic-pendulum]") {
  ShootingStart start;
  const Branch b = branch_to_pd(1e-10, 1e-9, &start);
  INFO(b.message);
  const auto lpc = of_type(b, "LPC");
  const auto pd = of_type(b, "PD");
  REQUIRE(lpc.size() >= 2);
  REQUIRE(pd.size() >= 1);
  const SpecialPoint* points[3] = {lpc[0], lpc[1], pd[0]};
  for (const SpecialPoint* s : points) {
    CHECK(s->status == EventStatus::kLocated);
    // A nontrivial multiplier at +1 (LPC) or -1 (PD) there: an independent
    // check of the tests (tangent, det(M + I)) that located them.
    const Eigen::VectorXcd mu =
        periodic::nontrivial_multipliers(start.system->monodromy(start.problem->u(s->y)));
    const double target = s->type == "LPC" ? 1.0 : -1.0;
    CHECK(std::abs(mu[0] - target) < 1e-4);
  }
  // The first LPC lies between the brute-force diagram's last period-1 value
  // and its jump (1.0788 and 1.0821 in examples/triple_pendulum.json's sweep),
  // the PD where the diagram splits in two (before 1.0854).
  CHECK(lpc[0]->y[7] > 1.0788);
  CHECK(lpc[0]->y[7] < 1.0821);
  CHECK(pd[0]->y[7] > 1.0821);
  CHECK(pd[0]->y[7] < 1.0854);
  const Branch tight = branch_to_pd(1e-12, 1e-11, nullptr);
  const auto tight_lpc = of_type(tight, "LPC");
  const auto tight_pd = of_type(tight, "PD");
  REQUIRE(tight_lpc.size() >= 2);
  REQUIRE(tight_pd.size() >= 1);
  const double before[3] = {lpc[0]->y[7], lpc[1]->y[7], pd[0]->y[7]};
  const double after[3] = {tight_lpc[0]->y[7], tight_lpc[1]->y[7], tight_pd[0]->y[7]};
  for (int i = 0; i < 3; ++i) {
    WARN(points[i]->type << " at q1 = " << std::setprecision(15) << before[i] << "; tightened: " << after[i]
                         << " (moved " << after[i] - before[i] << ")");
    CHECK(std::abs(after[i] - before[i]) < 1e-6);
  }
}
