// Parameters first-class in the hybrid layer, and your own hybrid system by
// expressions: the run-file bouncing ball against the built-in one, every
// registered model's parameters through the shooting Jacobian, and the
// errors of a bad run file.

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>

#include "continuation/flow/lyapunov.h"
#include "continuation/flow/simulate.h"
#include "continuation/periodic/shooting.h"
#include "models/registry.h"
#include "run_cli.h"
#include "studies/hybrid_run_file.h"

using namespace saltus;
using saltus::testing::example;

namespace {

flow::SimulationOptions tight() {
  flow::SimulationOptions o;
  o.absolute_tolerance = o.relative_tolerance = 1e-12;
  o.output_interval = 0.0;
  return o;
}

// The state after `span` from the run's start, with Phi over (x, p).
flow::Trajectory flow_with_parameter(const studies::HybridRun& run, const std::string& name, double value,
                                     double span) {
  const auto carried = run.system->with_parameters_in_state({name});
  Vector x(run.initial.size() + 1);
  x << run.initial, value;
  flow::SimulationOptions o = tight();
  o.variational = true;
  o.constant_components = 1;
  return flow::simulate(*carried, run.mode, run.t0, x, run.t0 + span, o);
}

// The events of two runs over their span agree in mode and in time: to
// `tolerance`, and to `zeno_tolerance` inside Zeno sequences (an event less
// than 0.01 after the one before it: the k-th impact of a geometric cascade
// is conditioned like 1/(1 - e)^k, so rounding differences grow along it and
// vanish again after the stick).
void same_events(const studies::HybridRun& a, const studies::HybridRun& b, double tolerance,
                 double zeno_tolerance = 1e-10) {
  for (const auto method : {flow::IntegrationMethod::kDopri5, flow::IntegrationMethod::kDop853}) {
    flow::SimulationOptions o = tight();
    o.method = method;
    o.variational = true;
    const auto ra = flow::simulate(*a.system, a.mode, a.t0, a.initial, a.t1, o);
    const auto rb = flow::simulate(*b.system, b.mode, b.t0, b.initial, b.t1, o);
    REQUIRE(ra.ok());
    REQUIRE(rb.ok());
    REQUIRE(ra.events.size() == rb.events.size());
    REQUIRE(ra.events.size() > 3);
    for (std::size_t i = 0; i < ra.events.size(); ++i) {
      const bool zeno = i > 0 && rb.events[i].t - rb.events[i - 1].t < 0.01;
      INFO("event " << i << " at t = " << rb.events[i].t);
      CHECK(std::abs(ra.events[i].t - rb.events[i].t) < (zeno ? zeno_tolerance : tolerance));
      CHECK(ra.events[i].mode_after == rb.events[i].mode_after);
    }
    CHECK((ra.x_end - rb.x_end).lpNorm<Eigen::Infinity>() < 1e-8);
    CHECK((ra.transition_matrix - rb.transition_matrix).lpNorm<Eigen::Infinity>() <
          1e-8 * (1 + rb.transition_matrix.lpNorm<Eigen::Infinity>()));
  }
}

// `saltus periodic` on a run file: the summary.
nlohmann::json periodic_summary(const std::string& file) {
  const auto out = saltus::testing::scratch("user-periodic");
  const auto r = saltus::testing::run_saltus({"periodic", example(file).string(), "--out", out.string()});
  INFO(file << ": " << r.out << r.err);
  REQUIRE(r.code == 0);
  auto summary = nlohmann::json::parse(std::ifstream(out / "summary.json"));
  std::filesystem::remove_all(out);
  return summary;
}

// The located special points of a summary: type -> parameter values.
std::multimap<std::string, double> located(const nlohmann::json& summary, const std::string& parameter) {
  std::multimap<std::string, double> out;
  for (const auto& sp : summary["special_points"])
    if (sp["status"] == "located")
      out.emplace(sp["type"].get<std::string>(), sp["parameters"][parameter].get<double>());
  return out;
}

}  // namespace

TEST_CASE(
    "your own bouncing ball (examples/user/bouncing_ball.json) gives the built-in's events and monodromy",
    "[user][hybrid]") {
  const auto own = studies::read_hybrid_run(example("user/bouncing_ball.json"));
  const auto built_in = studies::read_hybrid_run(example("bouncing_ball.json"));
  REQUIRE(own.system->state_names() == built_in.system->state_names());
  for (const auto& p : built_in.system->parameters())
    CHECK(own.system->parameter(p.name) == Approx(p.value).epsilon(1e-15));
  // The Zeno sequence down to rest and the take-offs: every event, same time, same mode.
  same_events(own, built_in, 1e-10);
}

TEST_CASE("every parameter of every model: the shooting Jacobian's parameter column against differences",
          "[user][hybrid][parameters]") {
  // One run file per registered model and the run-file models; for every
  // parameter the model can carry, dx(t)/dp from the variational equations
  // against central differences of simulations with p -+ h (tests only).
  const std::vector<std::string> files = {"bouncing_ball_orbit.json", "triple_pendulum_periodic.json",
                                          "stick_slip.json",          "wheel_turntable_sliding.json",
                                          "user/bouncing_ball.json",  "user/impact_oscillator.json"};
  std::set<std::string> models_seen;
  int compared = 0;
  for (const auto& file : files) {
    const auto run = studies::read_hybrid_run(example(file));
    models_seen.insert(run.model);
    const double span = 0.7;
    for (const auto& p : run.system->parameters()) {
      INFO(file << ": parameter " << p.name << " = " << p.value);
      std::shared_ptr<const flow::HybridSystem> carried;
      try {
        carried = run.system->with_parameters_in_state({p.name});
      } catch (const std::invalid_argument& e) {
        // Only numbers the model decides on are refused, with the reason.
        CHECK_THAT(e.what(), Catch::Contains("decides on it as a number"));
        continue;
      }
      CHECK(carried->state_names().back() == p.name);
      const auto tr = flow_with_parameter(run, p.name, p.value, span);
      REQUIRE(tr.ok());
      const int n = static_cast<int>(run.initial.size());
      // Central differences, or one-sided ones (second order) where p - h is
      // not a valid value (a damping of 0).
      const double h = 1e-6 * std::max(1.0, std::abs(p.value));
      const flow::SimulationOptions o = tight();
      auto end = [&](double value) {
        return flow::simulate(*run.system->with_parameter(p.name, value), run.mode, run.t0, run.initial,
                              run.t0 + span, o);
      };
      bool central = true;
      try {
        run.system->with_parameter(p.name, p.value - h);
      } catch (const std::invalid_argument&) {
        central = false;
      }
      const auto a = end(central ? p.value - h : p.value), b = end(p.value + h), c = end(p.value + 2 * h);
      REQUIRE(a.ok());
      REQUIRE(b.ok());
      REQUIRE(c.ok());
      if (a.events.size() != tr.events.size() || b.events.size() != tr.events.size()) continue;
      const Vector differences = central ? Vector((b.x_end - a.x_end) / (2 * h))
                                         : Vector((-3 * a.x_end + 4 * b.x_end - c.x_end) / (2 * h));
      const Vector exact = tr.transition_matrix.col(n).head(n);
      INFO("exact " << exact.transpose() << ", differences " << differences.transpose());
      CHECK((exact - differences).norm() < 1e-5 * (1 + differences.norm()));
      ++compared;
    }
  }
  // A change of the event sequence within +-h skips a parameter; nearly all
  // are compared (35 carriable parameters in these files, all compared here).
  INFO(compared << " parameters compared");
  CHECK(compared >= 30);
  for (const auto& m : models::hybrid_models()) CHECK(models_seen.count(m.name));
}

TEST_CASE("a run file's own hybrid system: bad input is named", "[user][hybrid][errors]") {
  const auto dir = saltus::testing::scratch("user-errors");
  std::filesystem::create_directories(dir);
  auto error_of = [&](const std::string& text) {
    const auto path = dir / "run.json";
    std::ofstream(path) << text;
    try {
      studies::read_hybrid_run(path);
    } catch (const studies::RunFileError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string head = R"({"states": ["x", "v"], "parameters": {"k": 1}, "initial": {"x": 1, "v": 0},
                               "time": [0, 1], )";
  CHECK_THAT(error_of(head + R"("modes": {"free": {"field": ["v", "-k*x"],
              "guards": [{"h": "x + 2", "to": "flyng"}]}}})"),
             Catch::Contains("modes.free.guards[0].to") && Catch::Contains("'flyng' is not a mode"));
  CHECK_THAT(error_of(head + R"("modes": {"free": {"field": ["v", "-k*x"],
              "guards": [{"h": "x + 2", "reset": ["x", "v", "k"]}]}}})"),
             Catch::Contains("modes.free.guards[0].reset") && Catch::Contains("3 expressions for 2"));
  CHECK_THAT(error_of(R"({"states": ["x", "k"], "parameters": {"k": 1}, "initial": {"x": 1, "k": 0},
              "time": [0, 1], "modes": {"free": {"field": ["k", "-x"]}}})"),
             Catch::Contains("'k' is used twice"));
  CHECK_THAT(error_of(head + R"("modes": {"free": {"field": ["v", "-kappa*x"]}}})"),
             Catch::Contains("modes.free.field[1]") && Catch::Contains("unknown name 'kappa'"));
  CHECK_THAT(error_of(head + R"("modes": {"free": {"field": ["v", "-k*x"],
              "guards": [{"h": "x + 2", "transitions": [{"when": "v > 0", "to": "free"}]}]}}})"),
             Catch::Contains("last transition must have no 'when'"));
  CHECK_THAT(error_of(head + R"("modes": {"free": {"field": ["v", "-k*x"],
              "guards": [{"h": "x + 2", "transitions": [{"when": "v + 0", "to": "free"}, {}]}]}}})"),
             Catch::Contains("is not a comparison"));
  // A start past its guard: the event would never fire.
  CHECK_THAT(error_of(head + R"("modes": {"free": {"field": ["v", "-k*x"],
              "guards": [{"name": "stop", "h": "0.5 - x"}]}}})"),
             Catch::Contains("'initial'") && Catch::Contains("past its guard 'stop'"));
  // Mechanical: a singular mass matrix at the start, a constraint that does
  // not depend on q, a start through a constraint.
  const std::string mech = R"({"coordinates": ["q"], "parameters": {"m": 0}, "time": [0, 1],
                               "forces": ["-q"], )";
  CHECK_THAT(error_of(mech + R"("mass": ["m"], "initial": {"q": 0.5, "q_dot": 0}})"),
             Catch::Contains("'initial'") && Catch::Contains("not symmetric positive definite"));
  CHECK_THAT(
      error_of(mech +
               R"("mass": ["1"], "constraints": [{"h": "m + 1"}], "initial": {"q": 0.5, "q_dot": 0}})"),
      Catch::Contains("constraints[0].h") && Catch::Contains("does not depend on the coordinates"));
  CHECK_THAT(error_of(mech + R"("mass": ["1"], "constraints": [{"name": "wall", "h": "1 - q"}],
              "initial": {"q": 1.5, "q_dot": 0}})"),
             Catch::Contains("'initial'") && Catch::Contains("violates constraint 1"));
  CHECK_THAT(error_of(mech + R"("mass": [["1 + q_dot^2"]], "initial": {"q": 0.5, "q_dot": 0}})"),
             Catch::Contains("'mass[0][0]'") && Catch::Contains("uses a velocity"));
  CHECK_THAT(error_of(mech + R"("mass": [["1", "0"]], "initial": {"q": 0.5, "q_dot": 0}})"),
             Catch::Contains("'mass[0]'") && Catch::Contains("must have 1 entries"));
  // A velocity reached through a definition is still a velocity.
  CHECK_THAT(
      error_of(mech +
               R"("definitions": {"k": "q_dot^2"}, "mass": ["1 + k"], "initial": {"q": 0.5, "q_dot": 0}})"),
      Catch::Contains("'mass[0][0]'") && Catch::Contains("uses a velocity"));
  CHECK_THAT(
      error_of(mech + R"("definitions": {"q": "1"}, "mass": ["1"], "initial": {"q": 0.5, "q_dot": 0}})"),
      Catch::Contains("definitions.q") && Catch::Contains("used twice"));
  // Filippov: definitions are free of lambda.
  CHECK_THAT(
      error_of(
          R"({"states": ["x"], "definitions": {"u": "lambda"}, "filippov": {"h": "x", "field": ["-x + u"]},
              "initial": {"x": 0.5}, "time": [0, 1]})"),
      Catch::Contains("definitions"));
  // Filippov: a field that is not affine in lambda.
  CHECK_THAT(error_of(R"({"states": ["x"], "filippov": {"h": "x", "field": ["-x + lambda^2"]},
              "initial": {"x": 0.5}, "time": [0, 1]})"),
             Catch::Contains("filippov.field") && Catch::Contains("not affine in lambda"));
  // The built-in ball below its table.
  CHECK_THAT(error_of(R"({"model": "bouncing_ball", "initial": {"q": -0.1, "v": 0}, "time": [0, 1]})"),
             Catch::Contains("past its guard 'impact'"));
  CHECK_THAT(error_of(R"({"model": "bouncing_ball", "parameters": {"e": 1.5}, "initial": {"q": 0.1, "v": 0},
              "time": [0, 1]})"),
             Catch::Contains("restitution e = 1.5"));
  CHECK_THAT(
      error_of(R"({"model": "bouncing_ball", "parameters": {"omegaa": 1}, "initial": {"q": 0.1, "v": 0},
              "time": [0, 1]})"),
      Catch::Contains("omegaa"));
  std::filesystem::remove_all(dir);
}

TEST_CASE(
    "your own stick-slip oscillator (examples/user/stick_slip.json, Filippov) gives the built-in's results",
    "[user][filippov]") {
  const auto own = studies::read_hybrid_run(example("user/stick_slip.json"));
  const auto built_in = studies::read_hybrid_run(example("stick_slip_orbit.json"));
  CHECK(own.mode == built_in.mode);
  same_events(own, built_in, 1e-10);
  const auto a = periodic_summary("user/stick_slip.json"), b = periodic_summary("stick_slip_orbit.json");
  CHECK(std::abs(a["period"].get<double>() - b["period"].get<double>()) < 1e-8);
  REQUIRE(a["multipliers"].size() == b["multipliers"].size());
  for (std::size_t i = 0; i < a["multipliers"].size(); ++i)
    CHECK(std::abs(a["multipliers"][i][0].get<double>() - b["multipliers"][i][0].get<double>()) < 1e-8);
  CHECK(a["branch"]["points"] == b["branch"]["points"]);
}

TEST_CASE(
    "your own triple pendulum: field, Jacobian, guards and impacts equal the built-in's at random states",
    "[user][mechanical]") {
  const auto own = studies::read_hybrid_run(example("user/triple_pendulum.json"));
  const auto built_in = studies::read_hybrid_run(example("triple_pendulum_orbit.json"));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (int trial = 0; trial < 20; ++trial) {
    Vector x(6);
    for (int i = 0; i < 6; ++i) x[i] = u(rng);
    const double t = u(rng);
    for (int mode = 0; mode < 8; ++mode) {
      INFO("trial " << trial << ", mode " << mode << ", x = " << x.transpose());
      Vector fa, fb;
      Matrix Aa, Ab;
      own.system->field_and_jacobian(mode, t, x, &fa, &Aa);
      built_in.system->field_and_jacobian(mode, t, x, &fb, &Ab);
      CHECK((fa - fb).lpNorm<Eigen::Infinity>() < 1e-11 * (1 + fb.lpNorm<Eigen::Infinity>()));
      CHECK((Aa - Ab).lpNorm<Eigen::Infinity>() < 1e-10 * (1 + Ab.lpNorm<Eigen::Infinity>()));
      for (int k = 0; k < 3; ++k) {
        CHECK(std::abs(own.system->guard(mode, k, t, x) - built_in.system->guard(mode, k, t, x)) <
              1e-11 * (1 + std::abs(built_in.system->guard(mode, k, t, x))));
        Vector ga, gb;
        double ta, tb;
        own.system->guard_gradient(mode, k, t, x, &ga, &ta);
        built_in.system->guard_gradient(mode, k, t, x, &gb, &tb);
        CHECK((ga - gb).lpNorm<Eigen::Infinity>() < 1e-10 * (1 + gb.lpNorm<Eigen::Infinity>()));
        if (mode == 0) {
          Vector pa, pb, Ga, Gb;
          Matrix Ja, Jb;
          own.system->reset(mode, k, mode, t, x, &pa, &Ja, &Ga);
          built_in.system->reset(mode, k, mode, t, x, &pb, &Jb, &Gb);
          CHECK((pa - pb).lpNorm<Eigen::Infinity>() < 1e-11 * (1 + pb.lpNorm<Eigen::Infinity>()));
          CHECK((Ja - Jb).lpNorm<Eigen::Infinity>() < 1e-10 * (1 + Jb.lpNorm<Eigen::Infinity>()));
        }
      }
    }
  }
}

TEST_CASE(
    "your own triple pendulum (examples/user/triple_pendulum.json, mechanical) gives the built-in's results",
    "[user][mechanical]") {
  const auto own = studies::read_hybrid_run(example("user/triple_pendulum.json"));
  const auto built_in = studies::read_hybrid_run(example("triple_pendulum_orbit.json"));
  // The two evaluate the same equations with different roundings (the
  // built-in takes cos(psi1 - psi2) from the addition theorem): free impacts
  // agree to 1e-10 (measured <= 2e-12), the impacts deep in a Zeno cascade
  // to 1e-8 (measured <= 1.5e-8 at the 20th impact of a cascade).
  same_events(own, built_in, 1e-10, 3e-8);
  // The orbit branch in q1: its folds of cycles and period doublings.
  const auto a = periodic_summary("user/triple_pendulum.json"),
             b = periodic_summary("triple_pendulum_orbit.json");
  const auto pa = located(a, "q1"), pb = located(b, "q1");
  REQUIRE(pa.size() == pb.size());
  REQUIRE(!pa.empty());
  for (auto ia = pa.begin(), ib = pb.begin(); ia != pa.end(); ++ia, ++ib) {
    CHECK(ia->first == ib->first);
    CHECK(std::abs(ia->second - ib->second) < 1e-7);
  }
  for (std::size_t i = 0; i < a["multipliers"].size(); ++i)
    CHECK(std::abs(a["multipliers"][i][0].get<double>() - b["multipliers"][i][0].get<double>()) < 1e-8);
  // Lyapunov exponents of the periodic attractor at q1 = 1.03 over the same span.
  flow::LyapunovOptions l;
  l.duration = 60;
  l.simulation = tight();
  l.simulation.absolute_tolerance = l.simulation.relative_tolerance = 1e-10;
  const auto la = flow::lyapunov_spectrum(*own.system, own.mode, own.t0, own.initial, l);
  const auto lb = flow::lyapunov_spectrum(*built_in.system, built_in.mode, built_in.t0, built_in.initial, l);
  REQUIRE(la.exponents.size() == lb.exponents.size());
  INFO("run file " << la.exponents.transpose() << "; built-in " << lb.exponents.transpose());
  // The exponents that carry the dynamics agree; the two below -10 (a
  // contraction by e^-600 and more over the span, far below rounding) are
  // rounding noise in either model. The mean divergence of the flow agrees
  // (the contraction is -infinity in both: the run sticks on the barrier).
  for (int i = 0; i < la.exponents.size(); ++i)
    if (lb.exponents[i] > -5.0) CHECK(std::abs(la.exponents[i] - lb.exponents[i]) < 1e-6);
  CHECK(std::abs(la.divergence_integral - lb.divergence_integral) < 1e-6 * std::abs(lb.divergence_integral));
  CHECK(la.contraction() == lb.contraction());
}
