// The studies of hybrid orbits (studies/hybrid_study.h) on the impact
// oscillator x'' + 2 zeta x' + x = F cos(w t), impact at x = d with v -> -r v
// (examples/user/impact_oscillator_curves.json), against its closed forms
// (tests/drivers/impact_oscillator_closed_form.h):
//   the grazing of the impactless orbit, whose amplitude
//     |X| = F / sqrt((1 - w^2)^2 + (2 zeta w)^2) equals d: for F = 1 the
//     branch's GR at w^2 = W, W^2 + (4 zeta^2 - 2) W + 1 - (F/d)^2 = 0, and
//     the GR curve F = d sqrt((1 - w^2)^2 + (2 zeta w)^2) in (w, F), with
//     GR-PD-LPC at w = 2 sqrt(1 - zeta^2) (Nordmark's codimension-2 point,
//     tests/drivers/impact_oscillator_grazing_codim2.test.cpp);
//   the period doubling: det(S E(T) + I) = 0 of the closed-form impacting
//     orbit, at the branch's PD and at every point of the PD curve;
//   the doubled branch: period 2 T = 4 pi / w at its first point.

#include "studies/hybrid_study.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <fstream>

#include "../drivers/impact_oscillator_closed_form.h"
#include "continuation/periodic/cycle_curve.h"
#include "testfunctions/grazing.h"

using namespace saltus;
using studies::Json;

namespace {

Json impact_oscillator() {
  return Json::parse(
      std::ifstream(std::string(SALTUS_SOURCE_DIR) + "/examples/user/impact_oscillator_curves.json"));
}

testing::Oscillator oscillator(const studies::HybridRun& run) {
  return {run.system->parameter("zeta"), run.system->parameter("F"), run.system->parameter("d"),
          run.system->parameter("r")};
}

double at(const studies::BranchResult& r, const Vector& y, const std::string& name) {
  return r.branch.component(y, name);
}

}  // namespace

TEST_CASE("hybrid studies: the impact oscillator's orbit, branch, PD, doubled branch and curves",
          "[studies][hybrid][impact-oscillator]") {
  const auto run = studies::load_hybrid_description(impact_oscillator(), "impact_oscillator_curves");
  testing::Oscillator osc = oscillator(*run);
  const double zeta = osc.zeta, d = osc.d;

  const studies::BranchResult orbit = studies::find_orbit(run);
  REQUIRE(orbit.branch.usable());
  REQUIRE(orbit.branch.points.size() == 1);
  CHECK(orbit.info["guess"]["source"] == "transient");
  CHECK(at(orbit, orbit.branch.points[0].y, "w") == 2.3);  // the parameter held where it was asked

  const studies::BranchResult branch = studies::continue_orbits(orbit);
  REQUIRE(branch.branch.usable());
  CHECK(branch.sequences.size() == branch.branch.points.size());

  // GR: the impactless orbit's amplitude reaches d.
  const SpecialPoint& gr = studies::special_point(branch, "GR1");
  const double b = 4 * zeta * zeta - 2, c = 1 - (osc.F / d) * (osc.F / d);
  const double w_gr = std::sqrt((-b + std::sqrt(b * b - 4 * c)) / 2);
  CHECK(std::abs(at(branch, gr.y, "w") - w_gr) < 1e-8);
  REQUIRE(studies::point_data(branch, gr).contains("multipliers"));  // the smooth side's

  // PD: det(S E(T) + I) = 0 for the closed-form orbit through the point.
  const SpecialPoint& pd = studies::special_point(branch, "PD1");
  const double w_pd = at(branch, pd.y, "w");
  CHECK(std::abs(w_pd - testing::closed_form_pd(osc, w_pd, Eigen::Vector2d(pd.y[0], pd.y[1]))) < 1e-8);
  const Eigen::VectorXcd mu = studies::multipliers(branch, pd.y);
  CHECK(std::abs(mu[0] + 1.0) < 1e-6);

  SECTION("PD: the doubled branch starts at twice the period") {
    ContinuationOptions few = run->periodic->options;
    few.max_points = 5;
    const studies::BranchResult doubled = studies::continue_from(branch, pd, {.options = few});
    REQUIRE(doubled.branch.usable());
    CHECK(doubled.name == "doubled1");
    const Vector& y = doubled.branch.points.front().y;
    CHECK(std::abs(doubled.shooting->period(doubled.problem->u(y)) - 4 * M_PI / at(doubled, y, "w")) < 1e-9);
    INFO(doubled.branch.message << " " << to_string(doubled.branch.stop_reason));
    CHECK(doubled.branch.points.size() == 5);
  }

  SECTION("GR: the grazing curve in (w, F) is the closed form, with GR-PD-LPC at w = 2 sqrt(1 - zeta^2)") {
    const studies::BranchResult curve = studies::continue_from(branch, gr, {.parameters = {"w", "F"}});
    REQUIRE(curve.branch.usable());
    CHECK(curve.name == "gr_curve");
    CHECK(curve.branch.points.size() >= 15);
    for (const auto& p : curve.branch.points) {
      const double w = at(curve, p.y, "w"), F = at(curve, p.y, "F");
      CHECK(std::abs(F - d * std::hypot(1 - w * w, 2 * zeta * w)) < 1e-8);
    }
    const SpecialPoint& nordmark = studies::special_point(curve, "GR-PD-LPC1");
    CHECK(std::abs(at(curve, nordmark.y, "w") - 2 * std::sqrt(1 - zeta * zeta)) < 1e-6);
    CHECK(nordmark.data.contains("pd_side"));
  }

  SECTION("PD: the PD curve in (w, F) is a PD of the closed-form orbit at every point") {
    ContinuationOptions o = run->periodic->curves[1].options;
    o.max_points = 10;
    const studies::BranchResult curve =
        studies::continue_from(branch, pd, {.to = "curve", .parameters = {"w", "F"}, .options = o});
    REQUIRE(curve.branch.usable());
    CHECK(curve.name == "pd_curve");
    CHECK(curve.branch.points.size() == 10);
    for (const auto& p : curve.branch.points) {
      osc.F = at(curve, p.y, "F");
      const double w = at(curve, p.y, "w");
      CHECK(std::abs(w - testing::closed_form_pd(osc, w, Eigen::Vector2d(p.y[0], p.y[1]))) < 1e-8);
    }
  }

  SECTION("what does not follow is refused, saying what does") {
    CHECK_THROWS_WITH(studies::continue_from(branch, pd, {.to = "cycles"}),
                      Catch::Contains("GR of hybrid orbits (the grazing curve)"));
    CHECK_THROWS_WITH(studies::continue_from(branch, gr, {.parameters = {"F", "w"}}),
                      Catch::Contains("the branch's parameter 'w' first"));
  }
}

TEST_CASE("hybrid studies: a simulation is the run file's own, its transient included", "[studies][hybrid]") {
  Json description = impact_oscillator();
  description["time"] = {0, 30};
  const auto run = studies::load_hybrid_description(description, "impact_oscillator");
  const flow::Trajectory tr = studies::simulate(*run);
  REQUIRE(tr.ok());
  CHECK(tr.t.front() == 0.0);
  CHECK(tr.t.back() == 30.0);
  REQUIRE(!tr.events.empty());
  for (const auto& e : tr.events) {
    CHECK(e.guard_name == "impact");
    CHECK(std::abs(e.x_before[0] - 0.1) < 1e-9);  // at the stop x = d
    CHECK(std::abs(e.x_after[1] + 0.8 * e.x_before[1]) < 1e-12);
  }
  // A failed transient says where it failed.
  description["transient"] = 10;
  description["simulation"]["max_events"] = 1;
  const flow::Trajectory failed = studies::simulate(*studies::load_hybrid_description(description, "short"));
  CHECK(!failed.ok());
  CHECK_THAT(failed.message, Catch::StartsWith("during the transient: "));
}

TEST_CASE("hybrid studies: a simulation integrates the variational equations only when asked",
          "[studies][hybrid][simulate]") {
  // The impact oscillator over two forcing periods with its impacts: without
  // the transition matrix no Phi and no saltation is made (issue 37 item 3:
  // they were always integrated, 3-4x the state's cost); with it, Phi(t1, t0)
  // is the derivative of the final state in the initial one, checked against
  // central differences of the state-only simulation (the events stay the
  // same under the 1e-6 perturbations).
  Json description = impact_oscillator();
  description["time"] = {0, 2 * (2 * M_PI / 2.3)};
  description["initial"] = {{"x", 0.05}, {"v", 0.4}};
  description["simulation"] = {{"absolute_tolerance", 1e-13}, {"relative_tolerance", 1e-13}};
  const auto run = studies::load_hybrid_description(description, "impact_oscillator");
  const flow::Trajectory plain = studies::simulate(*run);
  REQUIRE(plain.ok());
  REQUIRE(plain.events.size() >= 2);
  CHECK(plain.transition_matrix.size() == 0);
  for (const auto& e : plain.events) CHECK(e.saltation.size() == 0);

  const flow::Trajectory full = studies::simulate(*run, true);
  REQUIRE(full.ok());
  REQUIRE(full.events.size() == plain.events.size());
  REQUIRE(full.transition_matrix.rows() == 2);
  REQUIRE(full.transition_matrix.cols() == 2);
  for (const auto& e : full.events) CHECK(e.saltation.rows() == 2);
  CHECK((full.x_end - plain.x_end).norm() < 1e-9);  // the same run, up to the step control
  const double h = 1e-6;
  for (int j = 0; j < 2; ++j) {
    Json up = description, down = description;
    const std::string name = j == 0 ? "x" : "v";
    up["initial"][name] = description["initial"][name].get<double>() + h;
    down["initial"][name] = description["initial"][name].get<double>() - h;
    const flow::Trajectory a = studies::simulate(*studies::load_hybrid_description(up, "up"));
    const flow::Trajectory b = studies::simulate(*studies::load_hybrid_description(down, "down"));
    REQUIRE(a.events.size() == plain.events.size());
    REQUIRE(b.events.size() == plain.events.size());
    const Vector column = (a.x_end - b.x_end) / (2 * h);
    INFO("column " << j << ": " << column.transpose() << " against "
                   << full.transition_matrix.col(j).transpose());
    CHECK((column - full.transition_matrix.col(j)).norm() < 1e-6 * (1 + column.norm()));
  }
}

TEST_CASE("hybrid studies: an orbit whose shooting steps over an event is an error, not a wrong orbit",
          "[studies][hybrid][guard_search]") {
  // The impact oscillator forced just past its grazing: the impactless
  // orbit x_p(t) = Re(X e^(i w t)), |X| = F / |1 - w^2 + 2 i zeta w| =
  // d (1 + 1e-5), rises 1e-6 above the stop for about 3e-3 of each period.
  // Shooting checks the guards at its steps' ends only; without a bound on
  // its steps (at tolerance 1e-6 they are ~0.3 long) it closes the
  // impactless orbit. find_orbit simulates the period again with every
  // guard searched inside the steps and refuses it (before: usable, events
  // "none").
  Json description = impact_oscillator();
  const double w = description["parameters"]["w"], zeta = description["parameters"]["zeta"],
               d = description["parameters"]["d"];
  const double F = d * (1 + 1e-5) * std::hypot(1 - w * w, 2 * zeta * w);
  const std::complex<double> X = F / std::complex<double>(1 - w * w, 2 * zeta * w);
  description["parameters"]["F"] = F;
  description["initial"] = {{"x", X.real()}, {"v", -w * X.imag()}};
  description["simulation"] = {{"relative_tolerance", 1e-6}, {"absolute_tolerance", 1e-6}};
  description["periodic"] = {{"period", 2 * M_PI / w}};
  const studies::BranchResult orbit =
      studies::find_orbit(studies::load_hybrid_description(description, "past"));
  CHECK(!orbit.branch.usable());
  CHECK_THAT(orbit.branch.message, Catch::Contains("steps over an event inside one integration step") &&
                                       Catch::Contains("simulation.max_step"));
}

TEST_CASE("hybrid studies: a branch without the grazing test ends before an orbit that steps over an event",
          "[studies][hybrid][guard_search]") {
  // The impact oscillator's impactless orbit continued up in F with
  // "grazing": false, its steps unbounded at tolerance 1e-6: past F_gr =
  // d |1 - w^2 + 2 i zeta w| the orbit crosses the stop, which the shooting's
  // step-end checks miss. Every point whose shooting saw no event must be
  // impactless in truth (F <= F_gr); before, the branch ran on to its bound
  // with impactless "orbits" through the stop.
  Json description = impact_oscillator();
  const double w = description["parameters"]["w"], zeta = description["parameters"]["zeta"],
               d = description["parameters"]["d"];
  const double F_gr = d * std::hypot(1 - w * w, 2 * zeta * w), F0 = 0.9 * F_gr;
  const std::complex<double> X = F0 / std::complex<double>(1 - w * w, 2 * zeta * w);
  description["parameters"]["F"] = F0;
  description["initial"] = {{"x", X.real()}, {"v", -w * X.imag()}};
  description["simulation"] = {{"relative_tolerance", 1e-6}, {"absolute_tolerance", 1e-6}};
  description["periodic"] = {{"period", 2 * M_PI / w},
                             {"parameter", "F"},
                             {"grazing", false},
                             {"ds", 0.005},
                             {"ds_max", 0.01},
                             {"max_points", 200},
                             {"bounds", {{"F", {0.0, 1.2 * F_gr}}}}};
  const auto run = studies::load_hybrid_description(description, "up in F");
  const studies::BranchResult branch = studies::continue_orbits(studies::find_orbit(run));
  REQUIRE(branch.branch.usable());
  int impactless = 0;
  for (const auto& p : branch.branch.points) {
    const Vector u = branch.problem->u(p.y);
    const auto shooting = studies::shooting_at(branch, p.y);
    if (event_sequence(*shooting->hybrid(), *shooting->trajectory(u)) != "none") continue;
    ++impactless;
    CHECK(branch.branch.component(p.y, "F") <= F_gr * (1 + 1e-9));
  }
  CHECK(impactless >= 5);
  CHECK(branch.branch.stop_reason != StopReason::kBound);
  CHECK_THAT(branch.branch.message, Catch::Contains("steps over an event"));
}

TEST_CASE("hybrid studies: a curve of orbits ends before an orbit that steps over an event",
          "[studies][hybrid][guard_search]") {
  // The impact oscillator with a second stop at x = -d2, and the PD curve of
  // its period-1 orbit continued in (w, d2) towards smaller d2. While the
  // orbit misses the second stop its PD does not depend on d2 (the curve is
  // w = w_PD); past d2 = -min x, the "reach", the true orbit hits the second
  // stop. The PD and the reach come from a run at the default tolerance
  // (1e-12); the curve's run, at tolerance 1e-6 with unbounded steps, starts
  // 0.02 above the reach, and its shooting's step-end checks miss the first
  // shallow hits. Every point of the curve must be the orbit it says: its
  // events those of a simulation at tolerance 1e-11, and without a hit on
  // the second stop its least x (sampled every 1e-3) above -d2. Before, the
  // curve took two "PD orbits" through the second stop (d2 = 0.53417 and
  // 0.53396, just under the reach) before its corrector failed.
  Json description = impact_oscillator();
  description["parameters"]["d2"] = 1.0;
  description["modes"]["free"]["guards"].push_back(
      {{"name", "left"}, {"h", "x + d2"}, {"crossing", "falling"}, {"reset", {{"v", "-r*v"}}}});
  description["simulation"] = Json::object();
  description["periodic"]["max_points"] = 40;
  description["periodic"]["bounds"]["w"] = {2.0, 2.6};
  description["periodic"].erase("curve");
  const auto run = studies::load_hybrid_description(description, "two stops");
  const studies::BranchResult branch = studies::continue_orbits(studies::find_orbit(run));
  const SpecialPoint& pd = studies::special_point(branch, "PD1");

  // The least x of an orbit u of `shooting`, and its events, at tolerance 1e-11.
  const auto tight = [](const periodic::ShootingSystem& shooting, const Vector& u) {
    flow::SimulationOptions o;
    o.relative_tolerance = o.absolute_tolerance = 1e-11;
    o.output_interval = 1e-3;
    const double t0 = shooting.start_time(u);
    return flow::simulate(*shooting.hybrid(), shooting.options().mode, t0, shooting.hybrid_state(u),
                          t0 + shooting.period(u), o);
  };
  const auto least_x = [](const flow::Trajectory& t) {
    double least = t.x_end[0];
    for (const auto& x : t.x) least = std::min(least, x[0]);
    return least;
  };
  const double reach = -least_x(tight(*studies::shooting_at(branch, pd.y), branch.problem->u(pd.y)));
  REQUIRE(reach > 0.1);

  ContinuationOptions o = run->periodic->options;
  o.ds = 0.002;
  o.ds_max = 0.002;
  o.max_points = 40;
  o.direction = -1;
  o.bounds = {{"d2", {reach - 0.06, 2.0}}};
  // The curve's run: a branch started just before the PD.
  const double w_pd = branch.branch.component(pd.y, "w");
  Json shifted = description;
  shifted["parameters"]["d2"] = reach + 0.02;
  shifted["parameters"]["w"] = w_pd - 0.003;
  {  // from the PD orbit's state at t = 0 (mod T): a transient from rest ends on an orbit hitting both stops
    const auto shooting = studies::shooting_at(branch, pd.y);
    const Vector u = branch.problem->u(pd.y);
    const double t0 = shooting->start_time(u), T = shooting->period(u);
    const flow::Trajectory to_zero = flow::simulate(*shooting->hybrid(), shooting->options().mode, t0,
                                                    shooting->hybrid_state(u), T * std::ceil(t0 / T + 1e-9));
    shifted["initial"] = {{"x", to_zero.x_end[0]}, {"v", to_zero.x_end[1]}};
  }
  shifted["periodic"]["bounds"]["w"] = {w_pd - 0.01, w_pd + 0.01};
  shifted["simulation"] = {{"relative_tolerance", 1e-6}, {"absolute_tolerance", 1e-6}};
  const auto run2 = studies::load_hybrid_description(shifted, "two stops");
  const studies::BranchResult branch2 = studies::continue_orbits(studies::find_orbit(run2));
  const studies::BranchResult curve =
      studies::continue_from(branch2, studies::special_point(branch2, "PD1"),
                             {.to = "curve", .parameters = {"w", "d2"}, .options = o});
  REQUIRE(curve.branch.usable());
  const auto& system = dynamic_cast<const periodic::CycleCurveSystem&>(curve.problem->system());
  int missing = 0;
  for (const auto& p : curve.branch.points) {
    const Vector u = curve.problem->u(p.y);
    const flow::Trajectory truth = tight(system.shooting(), u);
    REQUIRE(truth.ok());
    const std::string events = event_sequence(*system.shooting().hybrid(), *system.shooting().trajectory(u));
    INFO("d2 = " << curve.branch.component(p.y, "d2") << ", least x = " << least_x(truth));
    CHECK(events == event_sequence(*system.shooting().hybrid(), truth));
    if (events.find("left") == std::string::npos) {
      ++missing;
      CHECK(least_x(truth) >= -curve.branch.component(p.y, "d2") - 1e-9);
    }
  }
  CHECK(missing >= 10);
  CHECK_THAT(curve.branch.message, Catch::Contains("steps over an event"));
}
