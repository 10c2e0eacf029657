// Sliding bifurcations (analyses/sliding/sliding_bifurcation.h).
//
// 1. The test functions on a planar Filippov system whose values are known
//    exactly: h = y, f(x, y, lambda) = (1, sigma x (1 + lambda) / 2 + (1 - lambda) / 2),
//    mu = 1, so F+ = (1, sigma x) and F- = (1, 1). H- = 1 > 0 everywhere,
//    H+ = sigma x: the sliding region is sigma x < 0, bounded by the fold
//    x = 0 of F+, with (F+ . grad) H+ = sigma: visible for sigma = 1 (CS),
//    invisible for sigma = -1 (SS). The orbit from (x_c - 1, -1) arrives at
//    (x_c, 0) at t = 1 along F-, with the arrival margin phi_CS = H+(x_c) =
//    sigma x_c and the drift delta = (F_s . grad) H+ = sigma (F_s = (1, 0):
//    lambda_eq = -(sigma x + 1) / (sigma x - 1) makes the y-component 0).
//
// 2. The relay feedback loop of examples/user/relay_feedback_sliding.json:
//    x' = A x - k B sign(x1), A the Jordan block of -a, B = (e, 0, 1). On
//    Sigma = {x1 = 0}, H+- = h_x F+- = (A x)_1 -+ k e = x2 -+ k e: the
//    sliding region is |x2| < k e. The symmetric orbit crosses upwards at
//    x0 and reaches -x0 after half a period tau on F+ = A x - k B: with
//    E = e^{A tau},
//        -x0 = E x0 - k A^-1 (E - I) B  =>  x0(tau) = k (I + E)^-1 A^-1 (E - I) B,
//    and C x0(tau) = 0 (Astrom's condition). The crossing is at the boundary
//    of the sliding region where F+ is tangent to Sigma,
//        H+(x0) = C A x0(tau) - k e = 0:
//    two equations for (tau, a) at fixed e, k, the crossing-sliding of the
//    symmetric orbit (both crossings at once, by symmetry). Its fold is
//    visible: along F+ from x0, x1'' = (A F+)_1 = (A (A x0 - k B))_1 > 0
//    (checked below), so the type is CS. Before it
//    (the crossing side) the monodromy is (S E)^2 with the crossing's
//    saltation S = I + (F+ - F-) C / (C F-) = I - 2 k B C / (C A x0 + k e).
//    Beyond it the orbit slides at each arrival and has a multiplier 0.

#include "analyses/sliding/sliding_bifurcation.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unsupported/Eigen/MatrixFunctions>

#include "continuation/flow/simulate.h"
#include "models/filippov_hybrid.h"
#include "studies/hybrid_study.h"

using namespace saltus;

namespace {

struct Fold {
  double sigma = 1.0;
  double mu = 1.0;
  int state_size() const { return 2; }
  template <class T>
  T switching(const T* x) const {
    return x[1];
  }
  template <class T>
  void field(const T* x, const T& lambda, T* f) const {
    f[0] = T(1.0);
    f[1] = sigma * x[0] * (1.0 + lambda) / 2.0 + (1.0 - lambda) / 2.0;
  }
};

struct Relay {
  double a, k, e;
  Eigen::Matrix3d A() const { return (Eigen::Matrix3d() << -a, 1, 0, 0, -a, 1, 0, 0, -a).finished(); }
  Eigen::Vector3d B() const { return {e, 0, 1}; }
  Eigen::Vector3d x0(double tau) const {
    const Eigen::Matrix3d E = (A() * tau).exp(), I = Eigen::Matrix3d::Identity();
    return k * (I + E).inverse() * A().inverse() * (E - I) * B();
  }
  // The smallest tau > 0 with C x0(tau) = 0 (bisection to rounding): the small orbit.
  double half_period() const {
    double lo = 1e-3, flo = x0(lo)[0];
    for (double hi = lo + 1e-3; hi < 20; hi += 1e-3) {
      const double fhi = x0(hi)[0];
      if (flo * fhi <= 0) {
        for (int it = 0; it < 200; ++it) {
          const double m = 0.5 * (lo + hi), fm = x0(m)[0];
          (flo * fm <= 0 ? hi : lo) = m;
          if (flo * fm > 0) flo = fm;
        }
        return 0.5 * (lo + hi);
      }
      lo = hi, flo = fhi;
    }
    return std::nan("");
  }
  // H+ at the crossing: C A x0 - k e.
  double margin() const { return (A() * x0(half_period()))[0] - k * e; }
  Eigen::Vector3cd multipliers() const {
    const double tau = half_period();
    const Eigen::Vector3d x = x0(tau);
    Eigen::Matrix3d BC = Eigen::Matrix3d::Zero();
    BC.col(0) = B();
    const Eigen::Matrix3d S = Eigen::Matrix3d::Identity() - 2 * k * BC / ((A() * x)[0] + k * e);
    const Eigen::Matrix3d half = S * (A() * tau).exp();
    return Eigen::EigenSolver<Eigen::Matrix3d>(half * half).eigenvalues();
  }
};

// The closest of `exact` to m.
double distance(std::complex<double> m, const Eigen::Vector3cd& exact) {
  double d = 1e300;
  for (int i = 0; i < 3; ++i) d = std::min(d, std::abs(m - exact[i]));
  return d;
}

}  // namespace

TEST_CASE("sliding bifurcations: the arrival margin, drift and exit rate at a fold, exactly",
          "[sliding][filippov]") {
  const double sigma = GENERATE(1.0, -1.0);
  const double xc = GENERATE(-0.3, 0.3);
  INFO("sigma = " << sigma << ", x_c = " << xc);
  filippov::FlowOptions options;
  const auto system = filippov::make_filippov_flow(Fold{sigma}, options);
  Vector start(2);
  start << xc - 1, -1;
  flow::SimulationOptions sim;
  sim.absolute_tolerance = sim.relative_tolerance = 1e-12;
  const flow::Trajectory tr = flow::simulate(*system, filippov::kMinusMode, 0.0, start, 2.0, sim);
  REQUIRE(tr.ok());
  const auto list = sliding::arrivals(*system, tr);
  REQUIRE(!list.empty());
  // phi_CS = sigma x_c, delta = sigma (the header's formulas), at t = 1.
  CHECK(std::abs(list[0].t - 1.0) < 1e-9);
  CHECK(std::abs(list[0].margin - sigma * xc) < 1e-9);
  CHECK(std::abs(list[0].drift - sigma) < 1e-9);
  const bool crosses = sigma * xc > 0;
  CHECK(list[0].to == (crosses ? filippov::kPlusMode : filippov::kSlidingMode));
  const std::string sequence = sliding::mode_sequence(*system, tr);
  if (sigma > 0) {
    // CS: a crossing, or a slide from x_c to the fold x = 0 and an exit there at the rate 1.
    CHECK(sequence == (crosses ? "F- -> F+" : "F- -> sliding; sliding -> F+"));
    if (!crosses) {
      const auto out = sliding::exits(*system, tr);
      REQUIRE(out.size() == 1);
      CHECK(std::abs(out[0].x[0]) < 1e-9);
      CHECK(std::abs(out[0].rate - 1.0) < 1e-9);
    }
  } else {
    // SS: a crossing whose F+ orbit (y' = -x) lands at -x_c in the sliding
    // region, or a slide straight away; the slide runs on (F_s = (1, 0)).
    CHECK(sequence == (crosses ? "F- -> F+; F+ -> sliding" : "F- -> sliding"));
    if (crosses) {
      REQUIRE(list.size() == 2);
      CHECK(std::abs(list[1].x[0] + xc) < 1e-9);
      CHECK(list[1].margin < 0);
    }
  }
  // The grazing test's count is the same on both sides of the CS or SS.
  CHECK(sliding::sliding_event_count(*system, tr) == 1);
}

TEST_CASE("sliding bifurcations: the relay feedback orbit's crossing-sliding against its closed form",
          "[sliding][filippov][relay]") {
  const auto run =
      studies::load_hybrid(std::string(SALTUS_SOURCE_DIR) + "/examples/user/relay_feedback_sliding.json");
  const double k = run->system->parameter("k"), e = run->system->parameter("e");
  const studies::BranchResult orbit = studies::find_orbit(run);
  REQUIRE(orbit.branch.usable());
  const studies::BranchResult branch = studies::continue_orbits(orbit);
  INFO(branch.branch.message);
  REQUIRE(branch.branch.usable());

  // The closed form: bisection in a on H+(x0(tau(a))) = 0 over [1.3, 1.45],
  // where the small orbit's margin changes sign (tau(a) by bisection too).
  double lo = 1.3, hi = 1.45;
  const double m_lo = Relay{lo, k, e}.margin();
  REQUIRE(m_lo * Relay{hi, k, e}.margin() < 0);
  for (int it = 0; it < 100; ++it) {
    const double m = 0.5 * (lo + hi);
    ((Relay{m, k, e}.margin() > 0) == (m_lo > 0) ? lo : hi) = m;
  }
  const Relay cs{0.5 * (lo + hi), k, e};
  const double tau = cs.half_period();
  // Its fold is visible: x1'' along F+ at x0 is (A F+)_1 > 0.
  const Eigen::Vector3d x0 = cs.x0(tau), Fp = cs.A() * x0 - k * cs.B();
  REQUIRE((cs.A() * Fp)[0] > 0);

  const SpecialPoint* found = nullptr;
  for (const auto& sp : branch.branch.special_points) {
    CHECK(sp.type != "GR");  // no longer a GR jump
    if (sp.type == "CS") found = &sp;
  }
  REQUIRE(found);
  INFO(found->data.dump());
  CHECK(found->status == EventStatus::kLocated);
  const double a_found = branch.branch.component(found->y, "a");
  INFO("a: saltus " << a_found << ", closed form " << cs.a);
  // Located by toms748 on phi_CS to the engine's event tolerance in
  // arclength, on orbits corrected to the shooting tolerance with the flow
  // integrated to 1e-11: 1e-8 leaves two orders of magnitude.
  CHECK(std::abs(a_found - cs.a) < 1e-8);
  CHECK(std::abs(branch.branch.component(found->y, "T") - 2 * tau) < 1e-8);
  CHECK(std::abs(found->data["margin"].get<double>()) < 1e-8);
  CHECK(found->data["drift"].get<double>() > 0);

  // Both sides: the crossing orbit before (its multipliers against (S E)^2),
  // a slide at each arrival after (a multiplier exactly 0).
  REQUIRE(found->data.contains("before"));
  REQUIRE(found->data.contains("after"));
  const std::string before = found->data["sequence_before"], after = found->data["sequence_after"];
  CHECK(before.find("sliding") == std::string::npos);
  CHECK(after.find("F- -> sliding") != std::string::npos);
  CHECK(after.find("F+ -> sliding") != std::string::npos);
  const Relay side{found->data["before"]["parameter"].get<double>(), k, e};
  const Eigen::Vector3cd exact = side.multipliers();
  INFO("closed form before " << exact.transpose());
  // Relative to the multiplier's size: the monodromy of this unstable orbit
  // (|mu| = 3.3) carries the integration's relative error (1e-11 per step)
  // grown by the flow over the period; 1e-8 leaves two orders of magnitude.
  for (const auto& m : found->data["before"]["multipliers"]) {
    const std::complex<double> mu(m[0].get<double>(), m[1].get<double>());
    CHECK(distance(mu, exact) < 1e-8 * std::max(1.0, std::abs(mu)));
  }
  CHECK(found->data["after"]["zero_multipliers"].get<int>() >= 1);
  CHECK(found->data["before"]["zero_multipliers"].get<int>() == 0);

  // The branch goes on through the CS with the sliding orbits.
  REQUIRE(found->index + 1 < static_cast<int>(branch.branch.points.size()));
  CHECK(branch.sequences.back().find("sliding") != std::string::npos);
}

// 3. The forced dry-friction oscillator of examples/user/dry_friction_oscillator.json,
//    x'' + 2 zeta x' + x = A cos(w t) - F lambda on h = x' - V: H-+ = h_x F-+ =
//    -x - 2 zeta V + A cos(w t) +- F on Sigma, so at any point of Sigma
//    H+ = H- - 2 F. Its stick-slip orbit (slip back, slip forward, stick)
//    loses the short forward slip at a switching-sliding: the slip back
//    reaches the belt speed where the forward slip's field has an invisible
//    fold (drift < 0), then sticks directly. Further on the slip back grazes
//    the belt speed from below (H- = 0) where the slip forward's field
//    pushes down into Sigma, H+ = -2 F exactly: a grazing-sliding (GS).
TEST_CASE("sliding bifurcations: the dry-friction oscillator's switching-sliding and grazing-sliding",
          "[sliding][filippov][dry-friction]") {
  const auto run =
      studies::load_hybrid(std::string(SALTUS_SOURCE_DIR) + "/examples/user/dry_friction_oscillator.json");
  const double F = run->system->parameter("F");
  const studies::BranchResult branch = studies::continue_orbits(studies::find_orbit(run));
  INFO(branch.branch.message);
  std::vector<std::string> types;
  for (const auto& sp : branch.branch.special_points) types.push_back(sp.type);
  REQUIRE(types == std::vector<std::string>{"SS", "GS"});
  const SpecialPoint& ss = branch.branch.special_points[0];
  INFO(ss.data.dump());
  // The engine brackets it; the secant method on phi_CS locates it.
  CHECK(ss.status == EventStatus::kLocated);
  CHECK(std::abs(ss.data["margin"].get<double>()) < 1e-12);
  CHECK(ss.data["drift"].get<double>() < 0);
  CHECK(ss.data["sequence_before"] == "slip- -> slip+; slip+ -> stick; stick -> slip-");
  CHECK(ss.data["sequence_after"] == "slip- -> stick; stick -> slip-");
  CHECK(ss.data["before"]["zero_multipliers"] == 1);
  CHECK(ss.data["after"]["zero_multipliers"] == 1);
  const SpecialPoint& gs = branch.branch.special_points[1];
  INFO(gs.data.dump());
  CHECK(gs.status == EventStatus::kLocated);
  CHECK(gs.data["sliding"]["contact"]["mode"] == "slip-");
  CHECK(std::abs(gs.data["sliding"]["other_side_margin"].get<double>() + 2 * F) < 1e-9);
  CHECK(gs.data["before"]["zero_multipliers"] == 1);
}

// 4. The same with "grazing": "continue": through the GS (the stick's length
//    shrinks to 0 there) onto the pure-slip orbit below the belt speed, z_p
//    itself (slip with lambda = -1 is linear), whose multipliers are
//    exp(lambda_i T), lambda_i = -zeta +- i sqrt(1 - zeta^2) the eigenvalues
//    of x'' + 2 zeta x' + x, T = 2 pi / w: no zero multiplier any more.
TEST_CASE("sliding bifurcations: the dry-friction oscillator's branch continued through its grazing-sliding",
          "[sliding][filippov][dry-friction]") {
  auto json = nlohmann::ordered_json::parse(
      std::ifstream(std::string(SALTUS_SOURCE_DIR) + "/examples/user/dry_friction_oscillator.json"));
  json["periodic"]["grazing"] = "continue";
  const auto run = studies::load_hybrid_description(json, "dry_friction_oscillator");
  const double zeta = run->system->parameter("zeta");
  const studies::BranchResult branch = studies::continue_orbits(studies::find_orbit(run));
  INFO(branch.branch.message);
  const SpecialPoint* gs = nullptr;
  for (const auto& sp : branch.branch.special_points)
    if (sp.type == "GS") gs = &sp;
  REQUIRE(gs);
  INFO(gs->data.dump());
  CHECK(gs->data["continued"] == true);
  CHECK(gs->data["sequence_before"] == "slip- -> stick; stick -> slip-");
  CHECK(gs->data["sequence_after"] == "none");
  CHECK(gs->data["before"]["zero_multipliers"] == 1);
  CHECK(gs->data["after"]["zero_multipliers"] == 0);
  const double w = gs->data["after"]["parameter"].get<double>(), T = 2 * M_PI / w;
  const std::complex<double> exact = std::exp(std::complex<double>(-zeta, std::sqrt(1 - zeta * zeta)) * T);
  for (const auto& m : gs->data["after"]["multipliers"]) {
    const std::complex<double> mu(m[0].get<double>(), m[1].get<double>());
    CHECK(std::min(std::abs(mu - exact), std::abs(mu - std::conj(exact))) < 1e-8);
  }
  // On to the bound w = 2.5.
  CHECK(branch.branch.component(branch.branch.points.back().y, "w") == Approx(2.5).margin(1e-12));
}
