#include "testfunctions/grazing.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <iomanip>

#include "continuation/flow/hybrid_system.h"
#include "continuation/periodic/grazing_orbit.h"
#include "continuation/periodic/shooting.h"
#include "continuation/pseudo_arclength.h"

using namespace saltus;
using namespace saltus::periodic;

namespace {

// A damped, harmonically forced oscillator with a rigid barrier at x = d,
//
//   x'' + 2 zeta x' + x = F cos(omega t),   impact at x = d: v+ = -r v-,
//
// with the forcing amplitude F carried in the state (F' = 0). Far from the
// barrier its periodic orbit is the linear response
//
//   x(t) = F a cos(omega t - phi),  a = 1 / sqrt((1 - omega^2)^2 + (2 zeta omega)^2),
//   tan phi = 2 zeta omega / (1 - omega^2),
//
// which touches the barrier (max x = F a = d) at the grazing amplitude
//
//   F* = d sqrt((1 - omega^2)^2 + (2 zeta omega)^2).
struct ImpactOscillator {
  double zeta = 0.1, omega = 0.8, d = 1.0, r = 0.8;
  int dimension() const { return 3; }
  std::vector<std::string> state_names() const { return {"x", "v", "F"}; }
  int guard_count(int) const { return 1; }
  template <class T>
  void field(int, const T& t, const T* u, T* f) const {
    using std::cos;
    f[0] = u[1];
    f[1] = -2.0 * zeta * u[1] - u[0] + u[2] * cos(omega * t);
    f[2] = T(0.0);
  }
  template <class T>
  T guard(int, int, const T&, const T* u) const {
    return d - u[0];
  }
  int next_mode(int mode, int, double, const double*) const { return mode; }
  template <class T>
  void reset(int, int, int, const T&, const T* u, T* y) const {
    y[0] = u[0];
    y[1] = -r * u[1];
    y[2] = u[2];
  }

  double gain() const { return 1.0 / std::hypot(1 - omega * omega, 2 * zeta * omega); }
  double phase() const { return std::atan2(2 * zeta * omega, 1 - omega * omega); }
  double grazing_amplitude() const { return d / gain(); }
  Vector orbit_at_0(double F) const {  // (x, v, F) at t = 0 on the linear response
    Vector u(3);
    u << F * gain() * std::cos(phase()), F * gain() * omega * std::sin(phase()), F;
    return u;
  }
};

std::shared_ptr<ShootingSystem> oscillator_orbits(const ImpactOscillator& osc) {
  ShootingOptions options;
  options.period = 2 * M_PI / osc.omega;
  options.simulation.absolute_tolerance = options.simulation.relative_tolerance = 1e-12;
  return std::make_shared<ShootingSystem>(flow::make_hybrid(osc), 1, options);
}

}  // namespace

TEST_CASE("guard minima: the linear response's closest approach d - F a, located on the dense output",
          "[periodic][grazing]") {
  const ImpactOscillator osc;
  const auto shooting = oscillator_orbits(osc);
  const double F = 0.7 * osc.grazing_amplitude();
  const GuardMinima m = guard_minima(*shooting, osc.orbit_at_0(F));
  CHECK(m.events == 0);
  REQUIRE(m.minima.size() == 2);  // the cut point and the one interior minimum
  const GuardMinimum& closest = m.smallest();
  CHECK(closest.guard == 0);
  CHECK(std::abs(closest.value - (osc.d - F * osc.gain())) < 1e-10);
  // Where: omega t = phi (the maximum of x).
  CHECK(std::abs(closest.t - osc.phase() / osc.omega) < 1e-6);
}

TEST_CASE("grazing: continuing the forced oscillator in F stops at GR, F* = d sqrt((1-w^2)^2 + (2 zeta w)^2)",
          "[periodic][grazing]") {
  const ImpactOscillator osc;
  const auto shooting = oscillator_orbits(osc);
  const double F_star = osc.grazing_amplitude();  // 0.393954... for zeta = 0.1, omega = 0.8, d = 1
  ContinuationProblem problem(shooting, Vector::Constant(1, 0.5 * F_star), {"F"});
  ContinuationOptions options;
  options.ds = 0.02;
  options.ds_max = 0.05;
  options.max_points = 200;
  options.bounds["F"] = {0.0, 2.0};
  const Branch b =
      continue_branch(problem, osc.orbit_at_0(0.5 * F_star), options, {std::make_shared<GrazingTest>()});
  INFO(b.message);
  CHECK(b.stop_reason == StopReason::kUserStop);
  REQUIRE(!b.special_points.empty());
  const SpecialPoint& gr = b.special_points.back();
  CHECK(gr.type == "GR");
  CHECK(gr.status == EventStatus::kLocated);
  CHECK(b.message.find("GR") != std::string::npos);
  WARN("GR at F = " << std::setprecision(15) << gr.y[2] << ", closed form " << F_star << ", difference "
                    << gr.y[2] - F_star);
  CHECK(std::abs(gr.y[2] - F_star) < 1e-8);
  // The grazing orbit is the linear response at F*.
  CHECK((gr.y - osc.orbit_at_0(F_star)).norm() < 1e-8);
}

TEST_CASE(
    "grazing system: exact Jacobian (envelope theorem) against differences, and the grazing amplitude F*",
    "[periodic][grazing]") {
  // The orbit without the impact is the linear response; its largest x is
  // F a, so the grazing system's minimum d - F a vanishes at F* (closed form
  // above), and the solution is the linear response at F*.
  const ImpactOscillator osc;
  const auto shooting = oscillator_orbits(osc);
  const double F_star = osc.grazing_amplitude(), T = 2 * M_PI / osc.omega;
  const periodic::Contact contact{0, 0, osc.phase() / osc.omega, T / 4, T};
  // From the penetrating side (F > F*): the virtual orbit passes the barrier.
  Vector u = osc.orbit_at_0(1.05 * F_star);
  const periodic::GrazingSystem g(*shooting, contact, u);
  CHECK(g.state_size() == 3);
  CHECK(g.parameter_size() == 0);
  const periodic::ContactMinimum m = g.minimum(u, true);
  CHECK(std::abs(m.value - (osc.d - 1.05 * F_star * osc.gain())) < 1e-10);
  u[0] += 0.01;  // off the orbit too
  Matrix J;
  g.jacobian(u.data(), &J);
  for (int j = 0; j < 3; ++j) {
    const double h = 1e-6;
    Vector up = u, um = u, Fp(3), Fm(3);
    up[j] += h;
    um[j] -= h;
    g.residual(up.data(), Fp.data());
    g.residual(um.data(), Fm.data());
    const Vector column = (Fp - Fm) / (2 * h);
    INFO("column " << j << ": exact " << J.col(j).transpose() << ", differences " << column.transpose());
    CHECK((J.col(j) - column).norm() < 1e-6 * (1 + column.norm()));
  }
  const periodic::GrazingOrbit gr =
      periodic::locate_grazing(*shooting, osc.orbit_at_0(1.05 * F_star), contact);
  INFO(gr.message);
  REQUIRE(gr.ok);
  CHECK(std::abs(gr.y[2] - F_star) < 1e-10);
  CHECK((gr.y - osc.orbit_at_0(F_star)).norm() < 1e-9);
  CHECK(std::abs(gr.contact.t - osc.phase() / osc.omega) < 1e-6);
}
