#include "models/triple_pendulum.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "continuation/flow/lyapunov.h"
#include "continuation/flow/mechanical.h"

using namespace saltus;
using namespace saltus::flow;

namespace {

Vector start() {
  Vector x0(6);
  x0 << 1.8, 1.0, 2.0, 0, 0, 0;  // as examples/triple_pendulum*.json
  return x0;
}

LyapunovResult spectrum(const models::TriplePendulum& p, double duration, double transient = 200) {
  auto system = make_mechanical(p);
  LyapunovOptions options;
  options.transient = transient;
  options.duration = duration;
  options.interval = 0.25;  // sliding contracts by up to e^-30 per unit time
  options.simulation.absolute_tolerance = options.simulation.relative_tolerance = 1e-10;
  return lyapunov_spectrum(*system, 0, 0.0, start(), options);
}

LyapunovResult spectrum(double q1, double duration, double e = 0.8) {
  models::TriplePendulum p;
  p.q1 = q1;
  p.e = e;
  return spectrum(p, duration);
}

// The parameter set of the Table 1 test below: lightly damped joints, a
// deeper barrier that only the third link reaches, e = 0.9.
models::TriplePendulum light(double q1) {
  models::TriplePendulum p;
  p.eta = 1.8;
  p.c1 = p.c2 = p.c3 = 0.12;
  p.e = 0.9;
  p.q1 = q1;
  return p;
}

}  // namespace

TEST_CASE("triple pendulum: three identical uniform rods from physical links", "[pendulum]") {
  const models::TriplePendulum::Link rod{2.0, 0.5, 0.25, 2.0 * 0.5 * 0.5 / 12};
  const auto p = models::TriplePendulum::from_links(rod, rod, rod);
  CHECK(p.beta2 == Approx(4.0 / 7));
  CHECK(p.beta3 == Approx(1.0 / 7));
  CHECK(p.v12 == Approx(9.0 / 14));
  CHECK(p.v13 == Approx(3.0 / 14));
  CHECK(p.v23 == Approx(3.0 / 14));
  CHECK(p.mu2 == Approx(3.0 / 5));
  CHECK(p.mu3 == Approx(1.0 / 5));
  CHECK(p.l1 == 1.0);
}

TEST_CASE("triple pendulum: Lyapunov spectra match the attractor types (Table 1 in kind)",
          "[pendulum][lyapunov]") {
  // Periodic (q1 = 1.03): one exponent zero (the flow direction), the rest negative.
  const LyapunovResult periodic = spectrum(1.03, 500);
  REQUIRE(periodic.ok());
  INFO("periodic: " << periodic.exponents.transpose());
  CHECK(std::abs(periodic.exponents[0]) < 0.01);
  CHECK(periodic.exponents[1] < -0.02);
  // Chaotic (q1 = 1.18): one positive, one zero.
  const LyapunovResult chaotic = spectrum(1.18, 500);
  REQUIRE(chaotic.ok());
  INFO("chaotic: " << chaotic.exponents.transpose());
  CHECK(chaotic.exponents[0] > 0.03);
  CHECK(std::abs(chaotic.exponents[1]) < 0.01);
  CHECK(chaotic.exponents[2] < -0.1);
}

TEST_CASE(
    "triple pendulum, light damping: periodic, quasi-periodic and chaotic attractors, exponents summing to "
    "the contraction (Table 1 in kind)",
    "[pendulum][lyapunov][table1]") {
  // eta = 1.8, c_i = 0.12, e = 0.9 (light()): only the third link reaches
  // the barrier, about once per turn of the first two, and no attractor
  // slides on it. Followed down in q1, the period-1 orbit loses stability in
  // a Neimark-Sacker bifurcation at q1 = 1.28313 (located by shooting:
  // tests/drivers/hybrid_cli.test.cpp); the invariant curve it leaves grows
  // and breaks up into chaos below q1 = 1.274. A torus exists for q1 in about
  // [1.274, 1.283] (with a lock near 1.278). At q1 = 1.30 the attractor is
  // another orbit, of three returns to the section.
  // Zero exponents converge like log(T) / T at worst on a periodic orbit or a
  // torus (a torus's twist shears the frame linearly in time): 2.7e-3 at
  // T = 3000, so 5e-3, eight times below the torus's third exponent, -0.042
  // (measured: 0.0010-0.0018 and at most 2e-4 in magnitude, with either
  // method and across builds).
  struct Row {
    double q1;
    const char* type;
  };
  for (const Row row : {Row{1.30, "periodic"}, Row{1.275, "quasi-periodic"}, Row{1.26, "chaotic"}}) {
    DYNAMIC_SECTION(row.type << " at q1 = " << row.q1) {
      const LyapunovResult r = spectrum(light(row.q1), 3000, 500);
      REQUIRE(r.ok());
      const Vector& l = r.exponents;
      INFO(row.type << ": " << l.transpose() << "; sum " << l.sum() << ", contraction " << r.contraction()
                    << " (" << r.events << " impacts)");
      CHECK(r.collapsed == 0);  // no sliding: every impact keeps a finite log |det S|
      CHECK(r.events > 400);
      if (std::string(row.type) == "periodic") {
        CHECK(std::abs(l[0]) < 5e-3);
        CHECK(l[1] < -0.05);
      } else if (std::string(row.type) == "quasi-periodic") {
        CHECK(std::abs(l[0]) < 5e-3);
        CHECK(std::abs(l[1]) < 5e-3);
        CHECK(l[2] < -0.02);
      } else {
        CHECK(l[0] > 0.05);
        CHECK(std::abs(l[1]) < 1e-2);  // averaged over chaos: -0.004 ... 0 over T = 1000 ... 3000
        CHECK(l[2] < -0.05);
      }
      // The sum rule: the sum against damping plus the impacts' log |det S|.
      CHECK(std::abs(l.sum() - r.contraction()) < 1e-2);
    }
  }
}

TEST_CASE("triple pendulum, light damping: the torus's section is a closed curve the hits keep filling",
          "[pendulum][table1]") {
  // The hits on psi1 = 0 (mod 2 pi) at q1 = 1.275, in the (psi2, psi2')
  // plane (psi2 wrapped, both scaled by their spread) seen from their
  // centroid: no two coincide (a periodic orbit's would, to rounding; at
  // q1 = 1.30 they do to 1e-10) and no angular gap is wide (they fill a
  // closed curve, the rotation number about 0.113, not a finite set), in
  // both halves of the run alike.
  auto system = make_mechanical(light(1.275));
  SimulationOptions options;
  options.absolute_tolerance = options.relative_tolerance = 1e-10;
  options.variational = false;
  options.output_interval = 1.0;
  const Trajectory warm = simulate(*system, 0, 0.0, start(), 500.0, options);
  REQUIRE(warm.ok());
  const Section section{[](double, const Vector& x) { return std::sin(x[0]); },
                        Crossing::kRising};  // as run files
  const Trajectory tr =
      simulate(*system, warm.mode_end, warm.t_end, warm.x_end, 2500.0, options, {}, {section});
  REQUIRE(tr.ok());
  REQUIRE(tr.section_hits.size() > 300);
  const std::size_t half = tr.section_hits.size() / 2;
  const auto point = [&](std::size_t i) {
    const Vector& x = tr.section_hits[i].x;
    return Eigen::Vector2d(std::remainder(x[1], 2 * M_PI), x[4]);
  };
  for (const auto& [from, to] : {std::pair{std::size_t{0}, half}, std::pair{half, tr.section_hits.size()}}) {
    Eigen::Vector2d mean = Eigen::Vector2d::Zero(), spread = Eigen::Vector2d::Zero();
    for (std::size_t i = from; i < to; ++i) mean += point(i);
    mean /= static_cast<double>(to - from);
    for (std::size_t i = from; i < to; ++i) spread += (point(i) - mean).cwiseAbs2();
    spread = (spread / static_cast<double>(to - from)).cwiseSqrt();
    std::vector<double> angles;
    double closest = std::numeric_limits<double>::infinity();
    for (std::size_t i = from; i < to; ++i) {
      const Eigen::Vector2d d = (point(i) - mean).cwiseQuotient(spread);
      angles.push_back(std::atan2(d[1], d[0]));
      for (std::size_t j = from; j < i; ++j) closest = std::min(closest, (point(i) - point(j)).norm());
    }
    std::sort(angles.begin(), angles.end());
    double gap = angles.front() + 2 * M_PI - angles.back();
    for (std::size_t i = 1; i < angles.size(); ++i) gap = std::max(gap, angles[i] - angles[i - 1]);
    INFO("hits " << from << ".." << to << ": closest pair " << closest << ", widest angular gap " << gap);
    CHECK(closest > 1e-5);
    CHECK(gap < 0.2);
  }
}

namespace {

// Liouville with jumps: sum lambda_i = (1/T) (int tr f_x dt + sum log |det S|),
// on an attractor without plastic impacts (where log |det S| = -infinity and
// the constrained-subspace rule sets the collapsed directions aside).
// The trace integral is computed here independently, by the trapezoid rule on
// samples of the very trajectory lyapunov_spectrum() follows (the same calls,
// interval by interval: output samples do not change the steps). Over a long
// span det Phi itself is meaningless in floating point (the exponents spread
// over 20 units of log), which is why the spectrum is accumulated interval by
// interval. Returns |sum - contraction|.
double sum_rule_defect(double q1, double e, double duration) {
  const LyapunovResult r = spectrum(q1, duration, e);
  REQUIRE(r.ok());
  REQUIRE(r.collapsed == 0);
  models::TriplePendulum p;
  p.q1 = q1;
  p.e = e;
  auto system = make_mechanical(p);
  SimulationOptions options;
  options.absolute_tolerance = options.relative_tolerance = 1e-10;
  options.variational = false;
  const Trajectory warm = simulate(*system, 0, 0.0, start(), 200.0, options);
  options.variational = true;
  options.output_interval = 0.00025;
  int mode = warm.mode_end;
  double t = warm.t_end, trace_integral = 0, log_det_saltation = 0;
  Vector x = warm.x_end;
  Matrix A;
  for (int k = 0; k < 4 * duration; ++k) {
    const Trajectory tr = simulate(*system, mode, t, x, t + 0.25, options);
    REQUIRE(tr.ok());
    std::vector<double> trace(tr.t.size());
    for (std::size_t j = 0; j < tr.t.size(); ++j) {
      system->field_jacobian(tr.mode[j], tr.t[j], tr.x[j], &A);
      trace[j] = A.trace();
    }
    for (std::size_t j = 1; j < tr.t.size(); ++j)
      trace_integral += 0.5 * (tr.t[j] - tr.t[j - 1]) * (trace[j] + trace[j - 1]);
    for (const auto& ev : tr.events) log_det_saltation += std::log(std::abs(ev.saltation.determinant()));
    mode = tr.mode_end, t = tr.t_end, x = tr.x_end;
  }
  CHECK(std::abs(log_det_saltation - r.log_det_saltation) < 1e-6 * (1 + std::abs(log_det_saltation)));
  // The library's own quadrature (Simpson per step) against this one.
  CHECK(std::abs(trace_integral - r.divergence_integral) < 1e-6 * std::abs(trace_integral));
  const double contraction = (trace_integral + log_det_saltation) / duration;
  INFO("q1 = " << q1 << ", e = " << e << ": sum " << r.exponents.sum() << ", contraction " << contraction
               << " (trace " << trace_integral / duration << ", impacts " << log_det_saltation / duration
               << ")");
  CHECK(std::abs(r.exponents.sum() - contraction) < 1e-2);
  return std::abs(r.exponents.sum() - contraction);
}

}  // namespace

TEST_CASE("triple pendulum: the exponents sum to the mean contraction (damping and impacts)",
          "[pendulum][lyapunov]") {
  // With e = 0.8 the attractors of the Table 1 test slide on the barrier (the
  // q1 = 1.03 orbit: 46 impacts of link 3 per period, a Zeno sequence that
  // ends in sliding, then release), so a saltation matrix is singular, the
  // phase volume collapses (log |det S| = -infinity) and the identity has
  // nothing finite to compare. Elastic impacts never chain into sliding.
  sum_rule_defect(1.3, 1.0, 100);
}

TEST_CASE("triple pendulum: the Jacobian on the barrier agrees with differences where values cancel to zero",
          "[pendulum]") {
  // A state at rest with links 2 and 3 on the barrier (q1 = 1.48), where
  // DOP853's steps once stalled: there an intermediate of the constrained
  // accelerations is exactly zero in value but not in derivative, and
  // Eigen's triangular solves skip such a row (comparing Jets by value),
  // which gave 1.08 for an entry that is 1.94 (flow/mechanical.h,
  // cholesky_solve). Checked at the state and at its rounding neighbours.
  models::TriplePendulum p;
  p.q1 = 1.48;
  auto system = make_mechanical(p);
  int mode = -1;
  for (int m = 0; m < 8; ++m)
    if (system->mode_name(m) == "contact 2 3") mode = m;
  REQUIRE(mode >= 0);
  Vector x(6);
  x << 20.218994326704443, 6.2831853071763177, 4.7123889803879351, -4.5109428998449794e-12,
      4.1638204551758898e-15, -1.8235798660277776e-14;
  for (int nudge = -1; nudge < 6; ++nudge) {
    Vector y = x;
    if (nudge >= 0) y[nudge] = std::nextafter(y[nudge], 1e300);
    Matrix A, D(6, 6);
    system->field_jacobian(mode, 0.0, y, &A);
    for (int j = 0; j < 6; ++j) {
      Vector a = y, b = y, fa, fb;
      a[j] += 1e-6;
      b[j] -= 1e-6;
      system->field(mode, 0.0, a, &fa);
      system->field(mode, 0.0, b, &fb);
      D.col(j) = (fa - fb) / 2e-6;
    }
    INFO("nudged component " << nudge << "\nA =\n" << A << "\ndifferences =\n" << D);
    CHECK((A - D).cwiseAbs().maxCoeff() < 1e-7);
  }
}

TEST_CASE("triple pendulum: at rest on the barrier the directions across it collapse for good",
          "[pendulum][lyapunov]") {
  // At q1 = 1.48 the pendulum comes to rest with links 2 and 3 lying on the
  // barrier (no event after the transient). The paper's rule sets the four
  // perturbations across the two active constraints to zero in every
  // interval: they have exponent -infinity (not the neutral 0 that a frame
  // re-seeded across the constraint would give), and the two that remain are
  // the real parts of the eigenvalues of the field's Jacobian on the
  // admissible subspace null(C) at the resting state (invariant there).
  models::TriplePendulum p;
  p.q1 = 1.48;
  auto system = make_mechanical(p);
  SimulationOptions options;
  options.absolute_tolerance = options.relative_tolerance = 1e-10;
  options.variational = false;
  const Trajectory rest = simulate(*system, 0, 0.0, start(), 200.0, options);
  REQUIRE(rest.ok());
  REQUIRE(system->mode_name(rest.mode_end) == "contact 2 3");
  const LyapunovResult r = spectrum(1.48, 100);
  REQUIRE(r.ok());
  REQUIRE(r.events == 0);
  INFO("exponents " << r.exponents.transpose());
  for (int i = 2; i < 6; ++i) CHECK(r.exponents[i] == -std::numeric_limits<double>::infinity());
  Matrix C, A;
  system->constrained_directions(rest.mode_end, rest.t_end, rest.x_end, &C);
  REQUIRE(C.rows() == 4);
  const Eigen::FullPivLU<Matrix> lu(C);
  const Matrix N = lu.kernel().householderQr().householderQ() * Matrix::Identity(6, 2);
  system->field_jacobian(rest.mode_end, rest.t_end, rest.x_end, &A);
  CHECK((A * N - N * (N.transpose() * A * N)).norm() < 1e-8 * A.norm());  // null(C) is invariant
  const Eigen::EigenSolver<Matrix> reduced(N.transpose() * A * N);
  Eigen::Vector2d expected = reduced.eigenvalues().real();
  std::sort(expected.data(), expected.data() + 2, std::greater<>());
  // The sum is exact (the volume growth on the subspace is its trace); each
  // exponent carries the frame's initial misalignment, at most
  // log cond(V) / T for eigenvectors V, twice for safety.
  const Eigen::JacobiSVD<Eigen::MatrixXcd> sv(reduced.eigenvectors());
  const double tolerance = 2 * std::log(sv.singularValues()[0] / sv.singularValues()[1]) / r.time;
  INFO("expected " << expected.transpose() << ", tolerance " << tolerance);
  CHECK(r.exponents[0] + r.exponents[1] == Approx(expected.sum()).epsilon(1e-6));
  CHECK(std::abs(r.exponents[0] - expected[0]) < tolerance);
  CHECK(std::abs(r.exponents[1] - expected[1]) < tolerance);
}
