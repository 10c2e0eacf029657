// Curves of crossing-sliding points in two parameters
// (analyses/sliding/sliding_curve.h) on the forced dry-friction oscillator
// x'' + x = cos(w t) - F sgn(x' - V), V = 0.2, of
// examples/user/dry_friction_sliding.json, against its closed form
// (tests/studies/dry_friction_closed_form.h: the crossing orbit's
// equations in its switching times plus "the crossing is on the boundary
// g = F", solved by Newton to rounding, each point of the curve from the
// one before in steps of 0.001 in F).

#include "analyses/sliding/sliding_curve.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <iomanip>

#include "studies/hybrid_study.h"
#include "studies/study.h"
#include "tests/studies/dry_friction_closed_form.h"

using namespace saltus;
using namespace saltus::testing::dry_friction;

namespace {

constexpr double kV = 0.2;

// The example's branch in w at F = 0.7, which ends at its located CS.
studies::BranchResult example_branch() {
  const auto run =
      studies::load_hybrid(std::string(SALTUS_SOURCE_DIR) + "/examples/user/dry_friction_sliding.json");
  const studies::BranchResult orbit = studies::find_orbit(run);
  REQUIRE(orbit.branch.usable());
  return studies::continue_orbits(orbit);
}

const SpecialPoint& located_cs(const studies::BranchResult& branch) {
  for (const auto& sp : branch.branch.special_points)
    if (sp.type == "CS" && sp.status == EventStatus::kLocated) return sp;
  FAIL("no located CS on the branch: " << branch.branch.message);
  throw std::logic_error("unreachable");
}

studies::FromOptions curve_in_w_and_F(const ContinuationOptions& o) {
  studies::FromOptions from;
  from.to = "curve";
  from.parameters = {"w", "F"};
  from.options = o;
  return from;
}

// The closed form's CS (or SS) at (F, V): crossing_at_boundary's
// equations (dry_friction_closed_form.h) with the slip+ landing's divided by
// (t_d - t_c)^2. The slip+ starts on x' = V with x'' = g - F = 0 (the
// crossing on the boundary), so x'(t_d) - V = (dg/dt / 2) (t_d - t_c)^2 +
// O((t_d - t_c)^3) has the double root t_d = t_c for every such orbit; near
// the codimension-2 point the true landing comes close to it (the lift-off's
// curvature dg/dt goes to 0) and Newton on the undivided equation slides
// onto that spurious root (a "curve" 1e-8 off the true one, measured at
// F = 0.669). Unknowns (t_b, t_c, t_d, w) from a guess.
Bifurcation crossing_at_boundary_deflated(double F, double w, const std::vector<double>& times) {
  using J = ceres::Jet<double, 4>;
  const auto residual = [&](const auto* x, auto* r, bool deflated) {
    using S = std::remove_cv_t<std::remove_reference_t<decltype(x[0])>>;
    const Flow<S> f{x[3], S(F), S(kV)};
    orbit_residual<S>(Regime::kCrossing, f, x, r);
    if (deflated) r[1] = r[1] / ((x[2] - x[1]) * (x[2] - x[1]));
    const auto zc = f.slip(-1, x[0], f.stick_end(-1, x[0]), x[1]);
    r[3] = f.g(x[1], zc[0]) - f.F;
  };
  // Newton with ceres::Jet derivatives until the step is at rounding (the
  // division amplifies the residual's rounding, so the undivided residuals
  // are what is checked at the end).
  Eigen::Vector4d u(times.at(0), times.at(1), times.at(2), w);
  for (int it = 0; it < 50; ++it) {
    std::array<J, 4> x, r;
    for (int i = 0; i < 4; ++i) x[i] = J(u[i], i);
    residual(x.data(), r.data(), true);
    Eigen::Vector4d value;
    Eigen::Matrix4d D;
    for (int i = 0; i < 4; ++i) value[i] = r[i].a, D.row(i) = r[i].v.transpose();
    const Eigen::Vector4d step = D.fullPivLu().solve(value);
    u -= step;
    if (step.norm() < 1e-14 * (1 + u.norm())) break;
  }
  std::array<double, 4> x{u[0], u[1], u[2], u[3]}, r{};
  residual(x.data(), r.data(), false);
  for (double v : r) REQUIRE(std::abs(v) < 1e-12);
  return {u[3], {u[0], u[1], u[2]}, -u[3] * std::sin(u[3] * u[1]) - kV};
}

// The closed form's CS (or SS) at F from the one at (F0, b): Newton at each
// step of at most 0.001 in F (larger steps can land on another root).
Bifurcation closed_form_at(double F, double F0, Bifurcation b) {
  const int steps = std::max(1, static_cast<int>(std::ceil(std::abs(F - F0) / 0.001)));
  for (int k = 1; k <= steps; ++k) b = crossing_at_boundary_deflated(F0 + (F - F0) * k / steps, b.w, b.times);
  REQUIRE(b.times[2] > b.times[1]);  // a slip+ of positive length
  return b;
}

// The closed form's SS at F from a guess (w, (t_b, t_c)): the one-stick
// orbit (dry_friction_closed_form.h, kOneStick) whose slip- lands on the
// boundary g = F, g(t_c, x(t_c)) - F = 0. Beyond the codimension-2 point the
// crossing-sliding condition is this switching-sliding one: the slip+ the
// crossing would start has dg/dt < 0 and bends back at once (t_d = t_c), so
// the orbit sticks directly. Unknowns (t_b, t_c, w).
Bifurcation one_stick_at_boundary(double F, double w, const std::vector<double>& times) {
  const auto residual = [&](const auto* x, auto* r) {
    using S = std::remove_cv_t<std::remove_reference_t<decltype(x[0])>>;
    const Flow<S> f{x[2], S(F), S(kV)};
    orbit_residual<S>(Regime::kOneStick, f, x, r);
    const auto zc = f.slip(-1, x[0], f.stick_end(-1, x[0]), x[1]);
    r[2] = f.g(x[1], zc[0]) - f.F;
  };
  const Eigen::Vector3d u =
      newton<3>(residual, Eigen::Vector3d(times.at(0), times.at(1), w), "the SS at F = " + std::to_string(F));
  return {u[2], {u[0], u[1]}, -u[2] * std::sin(u[2] * u[1]) - kV};
}

}  // namespace

TEST_CASE("sliding curve: the CS curve through its CS-SS-AS point, on the closed form to 1e-8",
          "[sliding][sliding_curve][dry_friction]") {
  // Issue 35, Must show 3. From the CS located on the example's branch
  // (w = 2.26515170111482 at F = 0.7) down in F to 0.66, through
  // the codimension-2 point (w, F) = (2.86510398303502, 0.665057518348693)
  // of crossing_adding_point (dry_friction_closed_form.h), where the drift
  // delta at the arrival (dg/dt) changes sign: CS above it, SS below. The
  // point is located as "CS-SS-AS" at the closed form's (w, F) to 1e-10, and
  // every point of the curve is the closed form's: above it the crossing
  // orbit whose crossing is on the boundary, below it the one-stick orbit
  // landing on the boundary, w to 1e-8 and the state at the cut to 1e-8.
  const studies::BranchResult branch = example_branch();
  const SpecialPoint& cs = located_cs(branch);
  ContinuationOptions o;
  o.ds = 0.005;
  o.ds_max = 0.02;
  o.max_points = 300;
  o.direction = -1;  // F falling
  o.bounds["F"] = Bound{0.66, 0.75};
  const studies::BranchResult curve = studies::continue_from(branch, cs, curve_in_w_and_F(o));
  INFO(curve.branch.message);
  REQUIRE(curve.branch.points.size() > 10);
  const double F_end = curve.branch.component(curve.branch.points.back().y, "F");
  INFO("the curve ends at F = " << F_end);
  REQUIRE(std::abs(F_end - 0.66) < 1e-9);  // at its bound, past the point

  // The closed form's codimension-2 point, from the CS at F = 0.666.
  Bifurcation b =
      crossing_at_boundary(follow_orbit(Regime::kCrossing, 2.1, {0.888, 2.7705, 3.3197}, 2.25, 0.7, kV));
  REQUIRE(std::abs(b.w - 2.26515170111482) < 1e-11);
  const Bifurcation near = closed_form_at(0.666, 0.7, b);
  const Eigen::Vector4d p =
      crossing_adding_point(kV, Eigen::Vector4d(near.w, 0.666, near.times[0], near.times[1]));
  REQUIRE(std::abs(p[0] - 2.86510398303502) < 1e-10);
  REQUIRE(std::abs(p[1] - 0.665057518348693) < 1e-11);
  int found = 0;
  for (const auto& sp : curve.branch.special_points) {
    if (sp.type != "CS-SS-AS") continue;
    ++found;
    const double w = curve.branch.component(sp.y, "w"), F = curve.branch.component(sp.y, "F");
    INFO(std::setprecision(15) << "CS-SS-AS at (w, F) = (" << w << ", " << F << "), closed form (" << p[0]
                               << ", " << p[1] << "), drift " << sp.test_value);
    CHECK(sp.status == EventStatus::kLocated);
    // Located by the engine's secant on the drift, to rounding (measured:
    // 1.5e-11 in w, 9e-13 in F).
    CHECK(std::abs(w - p[0]) < 1e-10);
    CHECK(std::abs(F - p[1]) < 1e-10);
    CHECK(std::abs(sp.test_value) < 1e-8);
  }
  CHECK(found == 1);

  const auto& system = dynamic_cast<const sliding::CrossingSlidingSystem&>(curve.problem->system());
  double F_before = 0.7;
  Bifurcation ss{p[0], {p[2], p[3]}, 0.0};  // the SS side's closed form, from the point
  int above = 0, below = 0;
  for (const auto& pt : curve.branch.points) {
    const double w = curve.branch.component(pt.y, "w"), F = curve.branch.component(pt.y, "F");
    const double drift = system.arrival(curve.problem->u(pt.y), false).arrival.drift;
    Orbit exact;
    double w_exact = 0;
    // The crossing orbit's slip+ (t_d - t_c ~ -3 delta / (d delta/dt)) is
    // too short for the deflated Newton within 1e-4 of the point in F; there
    // the two closed forms differ by O(delta^4), below 1e-12.
    if (F > p[1] + 1e-4) {
      b = closed_form_at(F, F_before, b);
      F_before = F;
      w_exact = b.w;
      exact = Orbit{b.w, F, kV, Regime::kCrossing, b.times};
      CHECK(b.dg_dt > 0);                       // crossing-sliding
      CHECK(std::abs(drift - b.dg_dt) < 1e-7);  // the drift is the slip+'s curvature dg/dt there
      ++above;
    } else {
      ss = one_stick_at_boundary(F, ss.w, ss.times);
      w_exact = ss.w;
      exact = Orbit{ss.w, F, kV, Regime::kOneStick, ss.times};
      if (F < p[1] - 1e-6) {  // clear of the point (itself a point of the curve), where the sign is rounding
        CHECK(ss.dg_dt < 0);  // switching-sliding
        CHECK(drift < 0);
        ++below;
      }
    }
    INFO(std::setprecision(12) << "F = " << F << ": saltus w = " << w << ", closed form " << w_exact
                               << " (difference " << w - w_exact << "), drift " << drift);
    CHECK(std::abs(w - w_exact) < 1e-8);
    const double t0 = std::isfinite(pt.cut) ? pt.cut : system.shooting().start_time(curve.problem->u(pt.y));
    const Eigen::Vector2d x(curve.branch.component(pt.y, "x"), curve.branch.component(pt.y, "v"));
    INFO("t0 = " << t0 << ": saltus " << x.transpose() << ", closed form " << exact.state(t0).transpose());
    CHECK((x - exact.state(t0)).norm() < 1e-8);
  }
  CHECK(above > 10);
  CHECK(below > 0);
}

TEST_CASE("sliding curve: the CS curve up in F, to the resonance side",
          "[sliding][sliding_curve][dry_friction]") {
  // The other way from the same CS: F rising, w falling (F = 0.71 at
  // w = 1.92359973342574, 0.72 at 1.62023541034076 in
  // dry_friction_closed_form.test.cpp), to F = 0.72; every point on the
  // closed form to 1e-8.
  const studies::BranchResult branch = example_branch();
  ContinuationOptions o;
  o.ds = 0.005;
  o.ds_max = 0.02;
  o.max_points = 300;
  o.direction = 1;
  o.bounds["F"] = Bound{0.6, 0.72};
  const studies::BranchResult curve = studies::continue_from(branch, located_cs(branch), curve_in_w_and_F(o));
  INFO(curve.branch.message);
  REQUIRE(curve.branch.points.size() > 5);
  CHECK(std::abs(curve.branch.component(curve.branch.points.back().y, "F") - 0.72) < 1e-9);
  Bifurcation b =
      crossing_at_boundary(follow_orbit(Regime::kCrossing, 2.1, {0.888, 2.7705, 3.3197}, 2.25, 0.7, kV));
  double F_before = 0.7;
  for (const auto& p : curve.branch.points) {
    const double w = curve.branch.component(p.y, "w"), F = curve.branch.component(p.y, "F");
    b = closed_form_at(F, F_before, b);
    F_before = F;
    INFO(std::setprecision(12) << "F = " << F << ": saltus w = " << w << ", closed form " << b.w);
    CHECK(std::abs(w - b.w) < 1e-8);
  }
  CHECK(std::abs(b.w - 1.62023541034076) < 1e-9);
}

TEST_CASE("sliding curve: the gradient of the crossing-sliding margin is exact",
          "[sliding][sliding_curve][dry_friction]") {
  // d phi_CS / du of CrossingSlidingSystem (variational equations to the
  // arrival, the arrival time's move, the cut's move with T = 2 pi / w)
  // against central differences of phi_CS (an independent check, here
  // only), at the located CS and at a point off the curve on either side.
  const studies::BranchResult branch = example_branch();
  const SpecialPoint& cs = located_cs(branch);
  ContinuationOptions o;
  o.max_points = 2;
  const studies::BranchResult curve = studies::continue_from(branch, cs, curve_in_w_and_F(o));
  const auto& system = dynamic_cast<const sliding::CrossingSlidingSystem&>(curve.problem->system());
  const Vector u0 = curve.problem->u(curve.branch.points.front().y);
  for (double off : {0.0, -0.01, 0.01}) {
    Vector u = u0;
    u[u.size() - 2] += off;  // w
    const sliding::BoundaryArrival a = system.arrival(u, true);
    Vector fd(u.size());
    for (int i = 0; i < u.size(); ++i) {
      const double h = 1e-6 * (1 + std::abs(u[i]));
      Vector up = u, um = u;
      up[i] += h;
      um[i] -= h;
      fd[i] = (system.arrival(up, false).arrival.margin - system.arrival(um, false).arrival.margin) / (2 * h);
    }
    INFO("w offset " << off << ": exact " << a.gradient.transpose() << ", differences " << fd.transpose());
    CHECK((a.gradient - fd).norm() < 1e-6 * (1 + fd.norm()));
  }
}

TEST_CASE(
    "sliding curve: asked for by the run file's periodic.curve, refused on a run without a Filippov system",
    "[sliding][sliding_curve][run_file]") {
  // examples/user/dry_friction_sliding_curves.json: two CS curves from the
  // branch's CS, down and up in F, as continue_run_follow_ups computes them
  // for `saltus periodic`; each ends at its bound in F.
  const auto run = studies::load_hybrid(std::string(SALTUS_SOURCE_DIR) +
                                        "/examples/user/dry_friction_sliding_curves.json");
  const studies::BranchResult orbit = studies::find_orbit(run);
  REQUIRE(orbit.branch.usable());
  std::vector<studies::BranchResult> all = {studies::continue_orbits(orbit)};
  studies::continue_run_follow_ups(&all);
  REQUIRE(all.size() == 3);
  for (std::size_t k : {1u, 2u}) {
    INFO(all[k].branch.message);
    CHECK(all[k].name == "cs_curve");
    CHECK(all[k].started_from.rfind("CS", 0) == 0);
    CHECK(all[k].branch.stop_reason == StopReason::kBound);
  }
  CHECK(std::abs(all[1].branch.component(all[1].branch.points.back().y, "F") - 0.66) < 1e-9);
  // Through the CS-SS-AS point, located once (its value: the test above).
  int cusps = 0;
  for (const auto& sp : all[1].branch.special_points) cusps += sp.type == "CS-SS-AS";
  CHECK(cusps == 1);
  CHECK(std::abs(all[2].branch.component(all[2].branch.points.back().y, "F") - 0.72) < 1e-9);

  // The impact oscillator has no sliding: the key names the kind and why.
  studies::Json j = studies::Json::parse(
      std::ifstream(std::string(SALTUS_SOURCE_DIR) + "/examples/user/impact_oscillator_curves.json"));
  j["periodic"]["curve"][0]["kind"] = "CS";
  CHECK_THROWS_WITH(studies::load_hybrid_description(j, "impact.json"),
                    Catch::Contains("impact.json") && Catch::Contains("'periodic.curve.kind' = 'CS'") &&
                        Catch::Contains("no 'filippov' system"));
}
