#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <iomanip>

#include "continuation/flow/lyapunov.h"
#include "continuation/pseudo_arclength.h"
#include "studies/periodic_orbit.h"

// The sum rule of the exponents on a second orbit, one whose whole spectrum
// compares: the bouncing ball's period-1 orbit (examples/bouncing_ball_orbit.json,
// e = 0.5, no sticking). Its two multipliers are a complex pair with
// |mu|^2 = det(M) = e^2 (the impact map's determinant: flight conserves
// area, the impact scales relative velocity by e), so both Lyapunov
// exponents are log(e) / T, T = 2 pi / omega = 1.

using namespace saltus;
using namespace saltus::studies;

TEST_CASE("bouncing ball: Lyapunov exponents of the period-1 orbit agree with log |multiplier| / T",
          "[periodic][lyapunov]") {
  const HybridRun run =
      read_hybrid_run(std::filesystem::path(SALTUS_SOURCE_DIR) / "examples" / "bouncing_ball_orbit.json");
  const ShootingStart start = shooting_start(run);
  REQUIRE(start.ok);
  ContinuationOptions one;
  one.max_points = 1;
  const Branch b = continue_branch(*start.problem, start.y, one);
  REQUIRE(b.usable());
  const Vector u = start.problem->u(b.points[0].y);
  const double T = start.system->period(u);
  const Eigen::VectorXcd mu = periodic::floquet_multipliers(start.system->monodromy(u));
  REQUIRE(mu.size() == 2);
  CHECK(std::abs(mu[0]) == Approx(0.5).epsilon(1e-9));

  flow::LyapunovOptions options = run.lyapunov;
  options.transient = 0.0;
  options.duration = 200 * T;
  options.interval = T;
  const flow::LyapunovResult r =
      flow::lyapunov_spectrum(*run.system, run.mode, start.system->options().t0, u.head(2), options);
  REQUIRE(r.ok());
  REQUIRE(r.collapsed == 0);
  // A complex pair turns the frame: each exponent's average oscillates
  // about log |mu| / T with an amplitude of about log(cond V) / D (V the
  // eigenvectors, D the duration); twice that is the tolerance. Their sum
  // is exact at every interval: log |det Phi| = 2 k log e.
  const Eigen::EigenSolver<Matrix> eig(start.system->monodromy(u));
  const Eigen::JacobiSVD<Eigen::MatrixXcd> svd(eig.eigenvectors());
  const double cond = svd.singularValues()[0] / svd.singularValues()[1];
  const double expected = std::log(std::abs(mu[0])) / T;
  const double tolerance = 2 * std::log(cond) / options.duration + 1e-9;
  WARN("lambda = " << std::setprecision(10) << r.exponents[0] << ", " << r.exponents[1]
                   << "; log|mu|/T = " << expected << "; cond(V) = " << cond << ", tolerance " << tolerance);
  CHECK(std::abs(r.exponents[0] - expected) < tolerance);
  CHECK(std::abs(r.exponents[1] - expected) < tolerance);
  CHECK(std::abs(r.exponents.sum() - 2 * expected) < 1e-8);
}
