#include "models/stick_slip.h"

#include <Eigen/Dense>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "continuation/flow/simulate.h"
#include "continuation/periodic/shooting.h"
#include "tests/continuation/flow/finite_differences.h"
#include "tests/drivers/run_cli.h"

using namespace saltus;
using models::StickSlip;

namespace {

// The stick-slip limit cycle of the undamped oscillator (c = 0), in closed form.
//
// Stick: the block rides with the belt, x' = v0, from the re-stick point x_r
// until the spring asks for the static limit, k x_s = mu_s m g (lambda_eq =
// -k x / (m g) reaches -mu_s): x_s = mu_s m g / k. It then slips backwards
// (v < v0) with kinetic friction +mu_k m g:
//
//   m x'' = -k x + mu_k m g,   centre x_k = mu_k m g / k,   omega = sqrt(k / m).
//
// With u = x - x_k and w = v / omega, (u, w) turns clockwise at the rate omega
// on a circle. It starts at (D, v0 / omega), D = x_s - x_k = (mu_s - mu_k) m g / k,
// polar angle a = atan2(v0 / omega, D) in (0, pi/2); v = v0 again (w = v0 /
// omega) first at (-D, v0 / omega), angle pi - a, after turning clockwise
// through 2 pi - (pi - a) + a = pi + 2a (below the line w = v0/omega all the way):
//
//   T_slip  = (pi + 2 atan(v0 / (omega D))) / omega     (more than half a turn),
//   x_r     = x_k - D = (2 mu_k - mu_s) m g / k.
//
// At x_r, lambda_eq = mu_s - 2 mu_k lies in (-mu_s, mu_s) (0 < mu_k < mu_s): it
// sticks again. Then it rides from x_r to x_s:
//
//   T_stick = (x_s - x_r) / v0 = 2 D / v0,     T = T_stick + T_slip.
//
// (As mu_s -> mu_k, D -> 0: the slip becomes a full turn 2 pi / omega that
// grazes v = v0, and the stick interval vanishes.)
struct ClosedForm {
  StickSlip p;
  double omega() const { return std::sqrt(p.k / p.m); }
  double D() const { return (p.mu_s - p.mu) * p.m * p.g / p.k; }
  double x_s() const { return p.mu_s * p.m * p.g / p.k; }
  double x_r() const { return (2 * p.mu - p.mu_s) * p.m * p.g / p.k; }
  double t_stick() const { return 2 * D() / p.v0; }
  double t_slip() const { return (M_PI + 2 * std::atan(p.v0 / (omega() * D()))) / omega(); }
  double period() const { return t_stick() + t_slip(); }
};

StickSlip oscillator(double c = 0.0) {
  StickSlip p;
  p.m = 1.0;
  p.k = 4.0;
  p.c = c;
  p.g = 9.81;
  p.v0 = 0.5;
  p.mu_s = 0.4;
  p.mu = 0.25;
  return p;
}

// Newton on the autonomous shooting map (x, v, T): square, so plain Newton.
Vector shoot(const periodic::ShootingSystem& shooting, Vector u) {
  for (int it = 0; it < 20; ++it) {
    Vector F(shooting.state_size());
    shooting.residual(u.data(), F.data());
    if (F.lpNorm<Eigen::Infinity>() < 1e-13) return u;
    Matrix J;
    shooting.jacobian(u.data(), &J);
    u -= J.leftCols(shooting.state_size()).partialPivLu().solve(F);
  }
  FAIL("shooting: Newton did not converge from " << u.transpose());
  return u;
}

// Simulated stick-slip: start at rest at x = 0 (slipping backwards), let the
// first sticking put the orbit on the cycle (a stick phase forgets where it
// came from), and return the state `after` past the end of the first stick
// phase (in the slip) and the time between the next two stick entries.
struct OnCycle {
  Vector x;
  double period = 0.0;
};
OnCycle point_on_cycle(const flow::HybridSystem& system, double after) {
  const flow::Trajectory tr = flow::simulate(system, models::kSlipMinus, 0.0, Vector::Zero(2), 20.0);
  REQUIRE(tr.ok());
  OnCycle out;
  std::vector<double> enter;
  for (const auto& e : tr.events) {
    if (e.mode_after == models::kStick) enter.push_back(e.t);
    if (e.mode_before == models::kStick && out.x.size() == 0) {
      const flow::Trajectory mid = flow::simulate(system, models::kSlipMinus, e.t, e.x_after, e.t + after);
      REQUIRE(mid.ok());
      REQUIRE(mid.events.empty());
      out.x = mid.x_end;
    }
  }
  REQUIRE(out.x.size() == 2);
  REQUIRE(enter.size() >= 3);
  out.period = enter[2] - enter[1];
  return out;
}

}  // namespace

TEST_CASE("stick-slip: the period and the stick interval of the simulated cycle are the closed forms",
          "[stick-slip]") {
  const ClosedForm cf{oscillator()};
  const auto system = models::make_stick_slip_flow(cf.p);
  CHECK(system->mode_name(models::kStick) == "stick");
  const double t_end = 6 * cf.period();
  const flow::Trajectory tr = flow::simulate(*system, models::kSlipMinus, 0.0, Vector::Zero(2), t_end);
  INFO(tr.message);
  REQUIRE(tr.ok());
  std::vector<double> enter, leave;
  for (const auto& e : tr.events) {
    if (e.mode_after == models::kStick) {
      CHECK(e.mode_before == models::kSlipMinus);
      enter.push_back(e.t);
      if (!leave.empty()) CHECK(std::abs(e.x_after[0] - cf.x_r()) < 1e-9);  // re-sticks at x_r on the cycle
    } else {
      CHECK(e.mode_before == models::kStick);
      CHECK(e.mode_after == models::kSlipMinus);  // breaks away backwards: the spring pulls
      CHECK(std::abs(e.x_before[0] - cf.x_s()) < 1e-9);
      leave.push_back(e.t);
    }
  }
  REQUIRE(enter.size() >= 5);
  CHECK(std::abs(enter[1] - enter[0] - cf.period()) > 1e-3);  // the transient does differ
  REQUIRE(leave.size() >= 5);
  INFO("closed form: T = " << cf.period() << ", T_stick = " << cf.t_stick());
  // From the second entry on the orbit is on the cycle (the first stick
  // phase forgets the start).
  for (std::size_t i = 2; i < enter.size(); ++i)
    CHECK(std::abs(enter[i] - enter[i - 1] - cf.period()) < 1e-8);
  for (std::size_t i = 1; i < leave.size(); ++i) {
    REQUIRE(leave[i] > enter[i]);
    CHECK(std::abs(leave[i] - enter[i] - cf.t_stick()) < 1e-8);
  }
  // During the stick phase the block moves with the belt: v' = 0, so v stays
  // at v0 up to where the entry was located (the bracket's near end).
  for (std::size_t i = 0; i < tr.t.size(); ++i)
    if (tr.mode[i] == models::kStick) CHECK(std::abs(tr.x[i][1] - cf.p.v0) < 1e-12);
}

TEST_CASE("stick-slip: shooting finds the cycle; its multipliers 1 and 0 agree with differences",
          "[stick-slip]") {
  // The monodromy of the cycle from the saltation-corrected variational
  // equations. Expected multipliers: 1 (autonomous: the flow direction) and 0
  // (entering the stick phase projects every perturbation onto dv = 0: the
  // saltation S = I + (F_s - F-) h_x^T / (h_x . F-) has h_x^T S = 0, rank
  // one here; all that survives is a shift along the cycle). The matrix
  // itself, rank one but not trivial (it carries the exit saltation of the
  // static/kinetic drop), must match central differences of the simulation
  // over the period (tests only), to 1e-6.
  for (double c : {0.0, 0.1}) {
    INFO("c = " << c);
    const ClosedForm cf{oscillator(c)};
    const auto system = models::make_stick_slip_flow(cf.p);
    const OnCycle on_cycle = point_on_cycle(*system, 1.0);  // 1.0 < the slip time (about 2.2)
    periodic::ShootingOptions options;
    options.autonomous = true;
    options.mode = models::kSlipMinus;
    Vector guess(3);
    guess << on_cycle.x[0] + 2e-3, on_cycle.x[1] - 1e-3, on_cycle.period * 1.01;
    const periodic::ShootingSystem shooting(system, 0, options, guess.head(2));
    const Vector u = shoot(shooting, guess);
    const double T = u[2];
    if (c == 0.0) {
      CHECK(std::abs(T - cf.period()) < 1e-8);
      const auto tr = shooting.trajectory(u);
      REQUIRE(tr->events.size() == 2);
      CHECK(std::abs(tr->events[1].t - tr->events[0].t - cf.t_stick()) < 1e-8);
    }
    const Matrix M = shooting.monodromy(u);
    const Eigen::VectorXcd mu = periodic::floquet_multipliers(M);
    INFO("monodromy\n" << M << "\nmultipliers " << mu.transpose());
    CHECK(std::abs(mu[0] - 1.0) < 1e-8);
    CHECK(std::abs(mu[1]) < 1e-8);
    const Matrix fd = testing::transition_by_differences(*system, models::kSlipMinus, 0.0, u.head(2), T, 2);
    const Eigen::VectorXcd mu_fd = periodic::floquet_multipliers(fd);
    INFO("differences\n" << fd << "\nmultipliers " << mu_fd.transpose());
    CHECK((M - fd).norm() < 1e-6 * (1.0 + fd.norm()));
    CHECK(std::abs(mu_fd[0] - mu[0]) < 1e-6);
    CHECK(std::abs(mu_fd[1] - mu[1]) < 1e-6);
    CHECK(M.norm() > 0.5);
  }
}

TEST_CASE("stick-slip: bad friction coefficients are named", "[stick-slip]") {
  StickSlip negative = oscillator();
  negative.mu = -0.1;
  CHECK_THROWS_WITH(negative.check(), Catch::Contains("mu_k = -0.1"));
  CHECK_THROWS_WITH(models::make_stick_slip_flow(negative), Catch::Contains("mu_k = -0.1"));
  StickSlip inverted = oscillator();
  inverted.mu_s = 0.2;
  CHECK_THROWS_WITH(models::make_stick_slip_flow(inverted),
                    Catch::Contains("mu_s = 0.2") && Catch::Contains("mu_k = 0.25"));
  StickSlip massless = oscillator();
  massless.m = 0.0;
  CHECK_THROWS_WITH(massless.check(), Catch::Contains("m = 0"));
  StickSlip damped = oscillator();
  damped.c = -1.0;
  CHECK_THROWS_WITH(damped.check(), Catch::Contains("c = -1"));
  CHECK_NOTHROW(oscillator().check());
}

TEST_CASE("saltus simulate examples/stick_slip.json: the mode column marks the stick phases",
          "[stick-slip][cli]") {
  namespace fs = std::filesystem;
  const fs::path out = testing::scratch("stick-slip");
  const testing::Run r =
      testing::run_saltus({"simulate", testing::example("stick_slip.json").string(), "--out", out.string()});
  INFO(r.err);
  REQUIRE(r.code == 0);
  for (const char* f : {"trajectory.csv", "events.csv", "summary.json", "phase.png"})
    CHECK(fs::exists(out / f));
  // trajectory.csv: t,mode,x,v. Rows in "stick" ride with the belt (v = v0 =
  // 0.5) between x_r and x_s; the slips stay below the belt speed.
  const ClosedForm cf{oscillator()};  // the example's parameters
  std::ifstream csv(out / "trajectory.csv");
  std::string line;
  std::getline(csv, line);
  CHECK(line == "t,mode,x,v");
  int stick_rows = 0, slip_rows = 0;
  while (std::getline(csv, line)) {
    std::stringstream row(line);
    std::string t, mode, x, v;
    std::getline(row, t, ',');
    std::getline(row, mode, ',');
    std::getline(row, x, ',');
    std::getline(row, v, ',');
    if (mode == "stick") {
      ++stick_rows;
      CHECK(std::abs(std::stod(v) - 0.5) < 1e-12);
      CHECK(std::stod(x) < cf.x_s() + 1e-9);
    } else {
      REQUIRE(mode == "slip-");
      ++slip_rows;
      CHECK(std::stod(v) < 0.5 + 1e-12);
    }
  }
  CHECK(stick_rows > 100);
  CHECK(slip_rows > 100);
  fs::remove_all(out);
}

TEST_CASE("stick-slip run files: bad friction is named and nothing is written", "[stick-slip][cli][errors]") {
  namespace fs = std::filesystem;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"("parameters": {"mu_k": -0.1}, "initial": {"x": 0, "v": 0})", "mu_k = -0.1"},
      {R"("parameters": {"mu_s": 0.2, "mu_k": 0.3}, "initial": {"x": 0, "v": 0})", "mu_s = 0.2"},
      {R"("parameters": {"k": 0}, "initial": {"x": 0, "v": 0})", "k = 0"},
      {R"("initial": {"x": 0, "v": 2}, "mode": "stick")", "cannot start in mode 'stick'"},
      {R"("initial": {"x": 0, "v": 2}, "mode": "slip-")", "it needs h <= 0"},
  };
  for (const auto& [body, message] : cases) {
    const fs::path dir = testing::scratch("bad-stick-slip");
    fs::create_directories(dir);
    std::ofstream(dir / "run.json") << R"({"model": "stick_slip", "time": [0, 1], )" << body << "}";
    const testing::Run r =
        testing::run_saltus({"simulate", (dir / "run.json").string(), "--out", (dir / "out").string()});
    INFO(body);
    CHECK(r.code != 0);
    CHECK_THAT(r.err, Catch::Contains(message));
    CHECK(!fs::exists(dir / "out"));
    fs::remove_all(dir);
  }
}

TEST_CASE("stick-slip with a parameter in the state: the shooting Jacobian's parameter column is exact",
          "[stick-slip]") {
  // The damped cycle (c = 0.1: no closed form) with v0, c or k riding in the
  // state: Newton closes it, and the column d(phi_T(x) - x, phase)/dp from the
  // variational equations (through the stick and slip transitions) matches
  // central differences of the residual (tests only) to 1e-5.
  const std::map<std::string, double StickSlip::*> fields = {
      {"v0", &StickSlip::v0}, {"c", &StickSlip::c}, {"k", &StickSlip::k}};
  for (const auto& [name, field] : fields) {
    INFO("parameter " << name);
    const StickSlip p = oscillator(0.1);
    const OnCycle on_cycle = point_on_cycle(*models::make_stick_slip_flow(p), 1.0);
    const auto system = models::make_stick_slip_flow(p)->with_parameters_in_state({name});
    CHECK(system->state_names().back() == name);
    periodic::ShootingOptions options;
    options.autonomous = true;
    options.mode = models::kSlipMinus;
    options.simulation.absolute_tolerance = options.simulation.relative_tolerance = 1e-12;
    Vector reference(3);
    reference << on_cycle.x, p.*field;
    const periodic::ShootingSystem shooting(system, 1, options, reference);
    Vector u(4);
    u << on_cycle.x, on_cycle.period, p.*field;
    for (int it = 0; it < 20; ++it) {  // Newton in (x, v, T), the parameter fixed
      Vector F(3);
      shooting.residual(u.data(), F.data());
      if (F.lpNorm<Eigen::Infinity>() < 1e-12) break;
      Matrix J;
      shooting.jacobian(u.data(), &J);
      u.head(3) -= J.leftCols(3).partialPivLu().solve(F);
    }
    Vector F(3);
    shooting.residual(u.data(), F.data());
    REQUIRE(F.lpNorm<Eigen::Infinity>() < 1e-10);
    CHECK(std::abs(u[2] - on_cycle.period) < 1e-6);  // the simulation's return time
    Matrix J;
    shooting.jacobian(u.data(), &J);
    const double h = 1e-6;
    Vector up = u, um = u, Fp(3), Fm(3);
    up[3] += h;
    um[3] -= h;
    shooting.residual(up.data(), Fp.data());
    shooting.residual(um.data(), Fm.data());
    const Vector column = (Fp - Fm) / (2 * h);
    INFO("exact " << J.col(3).transpose() << ", differences " << column.transpose());
    CHECK((J.col(3) - column).norm() < 1e-5 * (1 + column.norm()));
  }
  CHECK_THROWS_WITH(models::make_stick_slip_flow(oscillator())->with_parameters_in_state({"mu_s"}),
                    Catch::Contains("'mu_s'") && Catch::Contains("decides on it as a number"));
}
