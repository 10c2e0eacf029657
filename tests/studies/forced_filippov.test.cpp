// Forced Filippov systems (issue 35): `t` in a Filippov run file's
// expressions, "forcing_period", and angle states compared modulo 2 pi.
//
// The forced dry-friction oscillator of examples/user/dry_friction_oscillator.json,
//
//   x'' + 2 zeta x' + x = A cos(w t) - F lambda,   h = x' - V,   |lambda| <= 1,
//
// is piecewise linear, so its orbits have closed forms (the checks below do
// not integrate anything numerically):
//  - slip with lambda = s = +-1 (x' > V: s = +1, x' < V: s = -1) is the linear
//    ODE with the constant force -s F: with Ahat = A / (1 - w^2 + 2 i zeta w),
//    z = (x, x') = z_p(t) + exp(J (t - t_a)) (z(t_a) - z_p(t_a)),
//    z_p(t) = (-s F + Re(Ahat e^{i w t}), Re(i w Ahat e^{i w t})), J = [0 1; -1 -2 zeta],
//    exp(J tau) = e^{-zeta tau} (cos(w_d tau) I + sin(w_d tau) / w_d (J + zeta I)),
//    w_d = sqrt(1 - zeta^2), since (J + zeta I)^2 = -w_d^2 I;
//  - stick (x' = V) is x = x_a + V (t - t_a) while the friction that holds it,
//    lambda_eq = (A cos(w t) - x - 2 zeta V) / F ((15) of models/filippov.h), has
//    |lambda_eq| < 1; it ends into slip with s = sign(lambda_eq) where |lambda_eq| = 1;
//  - a slip that reaches x' = V sticks where |lambda_eq| < 1, else crosses.
// The events of this piecewise flow are roots of closed-form functions,
// bracketed on a grid and bisected to rounding. Its stroboscopic map P over
// one period T = 2 pi / w then gives the orbit (P's fixed point, by
// iteration: the orbit attracts), and the multipliers (eigenvalues of DP, by
// central differences with a Richardson step: an independent check, in a
// test only). A pure-slip orbit (V above the forced response's speed w |Ahat|)
// is z_p itself, with multipliers exp(lambda_i T), lambda_i = -zeta +- i w_d, the
// eigenvalues of J. An orbit with a stick has the multiplier 0: entering the
// stick, the saltation matrix projects onto the surface (models/filippov_hybrid.h).

#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <fstream>
#include <functional>
#include <limits>

#include "continuation/periodic/shooting.h"
#include "studies/filippov_study.h"
#include "studies/hybrid_study.h"

using namespace saltus;
using studies::Json;

namespace {

Json example(const std::string& name) {
  return Json::parse(std::ifstream(std::string(SALTUS_SOURCE_DIR) + "/examples/" + name));
}

using V2 = Eigen::Vector2d;

// The first root of g in (a, b], where g leaves a with the sign of `after`
// (at a itself it may vanish, to second order at a stick's end): the first
// grid point of `step` from a where g has the other sign, bisected to
// rounding; NaN when there is none.
double first_root(const std::function<double(double)>& g, double after, double a, double b,
                  double step = 1e-3) {
  const bool positive = after > 0;
  double lo = a;
  for (double hi = std::min(a + step, b);; hi = std::min(hi + step, b)) {
    if ((g(hi) > 0) != positive) {
      for (int it = 0; it < 200; ++it) {
        const double m = 0.5 * (lo + hi);
        if (m <= lo || m >= hi) break;
        ((g(m) > 0) == positive ? lo : hi) = m;
      }
      return hi;
    }
    if (hi >= b) return std::nan("");
    lo = hi;
  }
}

struct Belt {
  double w, F, V, zeta, A;

  std::complex<double> ahat() const { return A / std::complex<double>(1 - w * w, 2 * zeta * w); }
  double period() const { return 2 * M_PI / w; }
  V2 particular(double s, double t) const {
    const std::complex<double> e = ahat() * std::exp(std::complex<double>(0, w * t));
    return {-s * F + e.real(), (std::complex<double>(0, w) * e).real()};
  }
  Eigen::Matrix2d flow(double tau) const {
    const double wd = std::sqrt(1 - zeta * zeta);
    Eigen::Matrix2d J;
    J << 0, 1, -1, -2 * zeta;
    const Eigen::Matrix2d I = Eigen::Matrix2d::Identity();
    return std::exp(-zeta * tau) * (std::cos(wd * tau) * I + std::sin(wd * tau) / wd * (J + zeta * I));
  }
  V2 slip(double s, double ta, const V2& za, double t) const {
    return particular(s, t) + flow(t - ta) * (za - particular(s, ta));
  }
  double lambda_eq(double t, double x) const { return (A * std::cos(w * t) - x - 2 * zeta * V) / F; }

  // The state at t1 from z at t0: the closed-form pieces, event to event.
  V2 map(double t0, V2 z, double t1, int* sticks = nullptr) const {
    double t = t0;
    int s = 0;  // 0: stick
    if (std::abs(z[1] - V) <= 1e-12 && std::abs(lambda_eq(t, z[0])) < 1)
      z[1] = V;
    else
      s = z[1] > V ? 1 : -1;
    while (t < t1) {
      if (s == 0) {
        const double x = z[0], ta = t;
        const double e =
            first_root([&](double u) { return std::abs(lambda_eq(u, x + V * (u - ta))) - 1; }, -1, t, t1);
        if (std::isnan(e)) return {x + V * (t1 - ta), V};
        t = e;
        z = {x + V * (e - ta), V};
        s = lambda_eq(e, z[0]) > 0 ? 1 : -1;
      } else {
        const double ta = t;
        const V2 za = z;
        const double e = first_root([&](double u) { return s * (slip(s, ta, za, u)[1] - V); }, +1, t, t1);
        if (std::isnan(e)) return slip(s, ta, za, t1);
        t = e;
        z = {slip(s, ta, za, e)[0], V};
        if (std::abs(lambda_eq(e, z[0])) < 1) {
          s = 0;
          if (sticks) ++*sticks;
        } else {
          s = -s;
        }
      }
    }
    return z;
  }

  // The orbit through the cut t0: P's fixed point from z by iteration.
  V2 orbit(double t0, V2 z) const {
    for (int k = 0; k < 200; ++k) {
      const V2 next = map(t0, z, t0 + period());
      if ((next - z).norm() < 1e-15) return next;
      z = next;
    }
    return z;
  }

  // Eigenvalues of DP at z (P over one period from t0), by central
  // differences with one Richardson step (error O(h^4) + rounding / h).
  Eigen::Vector2cd multipliers(double t0, const V2& z) const {
    auto D = [&](double h) {
      Eigen::Matrix2d M;
      for (int j = 0; j < 2; ++j) {
        V2 e = V2::Zero();
        e[j] = h;
        M.col(j) = (map(t0, z + e, t0 + period()) - map(t0, z - e, t0 + period())) / (2 * h);
      }
      return M;
    };
    const Eigen::Matrix2d M = (4 * D(5e-5) - D(1e-4)) / 3;
    return Eigen::EigenSolver<Eigen::Matrix2d>(M).eigenvalues();
  }
};

Belt belt(const studies::HybridRun& run, double w) {
  const auto& s = *run.system;
  return {w, s.parameter("F"), s.parameter("V"), s.parameter("zeta"), s.parameter("A")};
}

double at(const studies::BranchResult& r, const Vector& y, const std::string& name) {
  return r.branch.component(y, name);
}

double cut_time(const studies::BranchResult& r, const Vector& y) {
  return studies::shooting_at(r, y)->start_time(r.problem->u(y));
}

// The distance of c to the nearest of the values.
double nearest(std::complex<double> c, const Eigen::VectorXcd& values) {
  double d = 1e300;
  for (int i = 0; i < values.size(); ++i) d = std::min(d, std::abs(c - values[i]));
  return d;
}

}  // namespace

TEST_CASE(
    "forced Filippov: a pure-slip orbit is the linear oscillator's forced response, multipliers exp(lambda "
    "T)",
    "[studies][filippov][forced]") {
  // Other values than the example's: V = 3 above the response's speed
  // w |Ahat| = 2.12, so the block slips backwards relative to the belt all
  // period (lambda = -1: the friction F pushes it forwards).
  Json j = example("user/dry_friction_oscillator.json");
  j["parameters"] = {{"w", 1.3}, {"F", 0.3}, {"V", 3.0}, {"zeta", 0.1}, {"A", 1.2}};
  j["periodic"].erase("parameter");
  j["periodic"].erase("bounds");
  const auto run = studies::load_hybrid_description(j, "pure_slip");
  const Belt b = belt(*run, 1.3);
  REQUIRE(b.w * std::abs(b.ahat()) < b.V);

  const studies::BranchResult orbit = studies::find_orbit(run);
  INFO(orbit.branch.message);
  REQUIRE(orbit.branch.usable());
  const Vector& y = orbit.branch.points[0].y;
  const double t0 = cut_time(orbit, y);
  const V2 exact = b.particular(-1, t0);
  INFO("t0 = " << t0 << ", closed form " << exact.transpose());
  CHECK(std::abs(at(orbit, y, "x") - exact[0]) < 1e-8);
  CHECK(std::abs(at(orbit, y, "v") - exact[1]) < 1e-8);
  CHECK(std::abs(orbit.shooting->period(orbit.problem->u(y)) - b.period()) < 1e-12);

  const Eigen::VectorXcd mu = studies::multipliers(orbit, y);
  REQUIRE(mu.size() == 2);
  const double wd = std::sqrt(1 - b.zeta * b.zeta);
  for (double sign : {1.0, -1.0}) {
    const std::complex<double> exact_mu = std::exp(std::complex<double>(-b.zeta, sign * wd) * b.period());
    INFO("exp(lambda T) = " << exact_mu << ", saltus " << mu.transpose());
    CHECK(nearest(exact_mu, mu) < 1e-8);
  }
}

TEST_CASE(
    "forced Filippov: the dry-friction oscillator's stick-slip orbit and its branch in w against the "
    "closed-form flow, one multiplier 0",
    "[studies][filippov][forced]") {
  const auto run = studies::load_hybrid_description(example("user/dry_friction_oscillator.json"),
                                                    "dry_friction_oscillator");
  const studies::BranchResult orbit = studies::find_orbit(run);
  INFO(orbit.branch.message);
  REQUIRE(orbit.branch.usable());
  const studies::BranchResult branch = studies::continue_orbits(orbit);
  REQUIRE(branch.branch.points.size() > 8);
  // It runs from w = 1.5 up to the first change of its event sequence.
  CHECK(at(branch, branch.branch.points.back().y, "w") > 1.9);

  int checked = 0;
  for (std::size_t i = 0; i < branch.branch.points.size(); i += 4) {
    const Vector& y = branch.branch.points[i].y;
    const double w = at(branch, y, "w"), t0 = cut_time(branch, y);
    const Belt b = belt(*run, w);
    const V2 saltus(at(branch, y, "x"), at(branch, y, "v"));
    int sticks = 0;
    b.map(t0, saltus, t0 + b.period(), &sticks);
    const V2 exact = b.orbit(t0, saltus);
    INFO("w = " << w << ", t0 = " << t0 << ": saltus " << saltus.transpose() << ", closed form "
                << exact.transpose());
    CHECK(sticks == 1);
    CHECK((saltus - exact).norm() < 1e-8);
    const Eigen::VectorXcd mu = studies::multipliers(branch, y);
    const Eigen::Vector2cd fd = b.multipliers(t0, exact);
    INFO("saltus " << mu.transpose() << ", closed form (differences) " << fd.transpose());
    REQUIRE(mu.size() == 2);
    CHECK(std::abs(mu[1]) < 1e-12);  // the stick's projection: exactly 0 up to rounding
    CHECK(nearest(mu[0], fd) < 1e-8);
    CHECK(nearest(mu[1], fd) < 1e-8);
    ++checked;
  }
  CHECK(checked >= 3);
}

TEST_CASE("forced Filippov: the autonomous phase-state version, its section an angle, has the forced orbit",
          "[studies][filippov][forced][angles]") {
  // th' = w in place of t, the section th = 0 modulo 2 pi ("angle": true, no
  // "angles" key): before issue 35 the returns were compared without the
  // modulo ("the closest return is 6.28319 away") and no orbit was found.
  Json forced = example("user/dry_friction_oscillator.json");
  forced["periodic"].erase("parameter");
  forced["periodic"].erase("bounds");
  Json j = forced;
  j.erase("forcing_period");
  j["states"] = {"x", "v", "th"};
  j["filippov"]["field"] = {{"x", "v"}, {"v", "-x - 2*zeta*v + A*cos(th) - F*lambda"}, {"th", "w"}};
  j["initial"]["th"] = 0;
  j["section"] = {{"variable", "th"}, {"value", 0}, {"angle", true}};
  const auto run = studies::load_hybrid_description(j, "phase_state");
  const studies::BranchResult orbit = studies::find_orbit(run);
  INFO(orbit.branch.message);
  REQUIRE(orbit.branch.usable());
  const Vector& y = orbit.branch.points[0].y;
  const double w = at(orbit, y, "w");
  CHECK(std::abs(orbit.shooting->period(orbit.problem->u(y)) - 2 * M_PI / w) < 1e-8);

  // The forced orbit (closed form) at the time th / w of the autonomous point.
  const auto forced_run = studies::load_hybrid_description(forced, "forced");
  const studies::BranchResult f = studies::find_orbit(forced_run);
  REQUIRE(f.branch.usable());
  const Belt b = belt(*forced_run, w);
  const double t0 = cut_time(f, f.branch.points[0].y);
  const V2 z0 = b.orbit(t0, V2(at(f, f.branch.points[0].y, "x"), at(f, f.branch.points[0].y, "v")));
  const double t =
      t0 + std::fmod(std::fmod(at(orbit, y, "th") / w - t0, b.period()) + b.period(), b.period());
  const V2 exact = b.map(t0, z0, t);
  INFO("th = " << at(orbit, y, "th") << ": closed form " << exact.transpose());
  CHECK(std::abs(at(orbit, y, "x") - exact[0]) < 1e-8);
  CHECK(std::abs(at(orbit, y, "v") - exact[1]) < 1e-8);

  // Multipliers: the forced ones (one of them 0) and the trivial 1.
  std::complex<double> trivial;
  const Eigen::VectorXcd mu = studies::multipliers(orbit, y, &trivial);
  const Eigen::VectorXcd mu_forced = studies::multipliers(f, f.branch.points[0].y);
  INFO("autonomous " << mu.transpose() << ", trivial " << trivial << "; forced " << mu_forced.transpose());
  REQUIRE(mu.size() == 2);
  CHECK(std::abs(trivial - 1.0) < 1e-8);
  CHECK(std::abs(mu[0] - mu_forced[0]) < 1e-8);
  CHECK(std::abs(mu[1]) < 1e-12);
}

TEST_CASE("forced Filippov: a moving switching surface h = v - V(t) holds the stuck block on the belt",
          "[studies][filippov][forced]") {
  // A belt of speed V(t) = V0 + a sin t: stuck, the block moves with it,
  // v = V(t), x = V0 t + a (1 - cos t), which needs the sliding field to keep
  // h(x(t), t) = 0 through h_t (models/filippov_hybrid.h, "Forced systems");
  // the friction that holds it, |-k x - a cos t| / F, stays below 1 here.
  const Json j = {
      {"name", "moving_belt"},
      {"states", {"x", "v"}},
      {"parameters", {{"k", 1.0}, {"F", 10.0}, {"V0", 0.5}, {"a", 0.3}}},
      {"filippov",
       {{"h", "v - V0 - a*sin(t)"}, {"field", {{"x", "v"}, {"v", "-k*x - F*lambda"}}}, {"mu", 1}}},
      {"initial", {{"x", 0.0}, {"v", 0.5}}},
      {"time", {0, 2}},
      {"simulation",
       {{"absolute_tolerance", 1e-12}, {"relative_tolerance", 1e-12}, {"output_interval", 0.1}}}};
  const auto run = studies::load_hybrid_description(j, "moving_belt");
  CHECK(run->system->mode_name(run->mode) == "sliding");
  const flow::Trajectory tr = studies::simulate(*run);
  REQUIRE(tr.ok());
  CHECK(tr.events.empty());
  REQUIRE(tr.t.size() > 10);
  for (std::size_t i = 0; i < tr.t.size(); ++i) {
    const double t = tr.t[i];
    INFO("t = " << t << ": " << tr.x[i].transpose());
    CHECK(std::abs(tr.x[i][1] - (0.5 + 0.3 * std::sin(t))) < 1e-9);
    CHECK(std::abs(tr.x[i][0] - (0.5 * t + 0.3 * (1 - std::cos(t)))) < 1e-9);
  }
}

TEST_CASE("forced Filippov: run-file keys", "[studies][filippov][forced]") {
  Json j = example("user/dry_friction_oscillator.json");
  SECTION("the two-folds of `saltus filippov` are for autonomous systems") {
    CHECK_THROWS_WITH(studies::parse_filippov_run(j, "forced.json"), Catch::Contains("forced.json") &&
                                                                         Catch::Contains("uses the time t") &&
                                                                         Catch::Contains("forcing_period"));
  }
  SECTION("a forced system's orbits need its forcing period") {
    j.erase("forcing_period");
    CHECK_THROWS_WITH(studies::load_hybrid_description(j, "no_period"),
                      Catch::Contains("no_period") && Catch::Contains("'forcing_period' is missing") &&
                          Catch::Contains("reads the time t"));
  }
  SECTION("t in the stick bound is refused") {
    j["filippov"]["stick_bound"] = "1 + t";
    CHECK_THROWS_WITH(studies::load_hybrid_description(j, "bad"),
                      Catch::Contains("filippov.stick_bound") && Catch::Contains("parameters only"));
  }
}

TEST_CASE("forced Filippov: the state-transition matrix across a moving surface is the flow's derivative",
          "[studies][filippov][forced]") {
  // A belt of speed V(t) = 0.2 + 0.4 sin t under a forced, damped block: the
  // orbit crosses h = v - V(t) = 0 both ways and sticks, so the saltation
  // matrices carry h_t (crossing: S = I + (F+ - F-) h_x^T / (h_x . F- + h_t)).
  // Their product with the flows against central differences of the end
  // state (an independent check of every t-term): with the simulations at
  // 1e-13 and h = 1e-6 the differences carry about 1e-13 / h = 1e-7 of
  // rounding (measured: 2.2e-9 off, |Phi| = 0.18 after the sticks).
  const Json j = {{"name", "moving_belt_forced"},
                  {"states", {"x", "v"}},
                  {"parameters", {{"F", 0.7}}},
                  {"filippov",
                   {{"h", "v - 0.2 - 0.4*sin(t)"},
                    {"field", {{"x", "v"}, {"v", "-x - 0.1*v + cos(1.3*t) - F*lambda"}}},
                    {"mu", 1}}},
                  {"initial", {{"x", 0.3}, {"v", -0.5}}},
                  {"time", {0, 9}}};
  const auto run = studies::load_hybrid_description(j, "moving_belt_forced");
  flow::SimulationOptions options;
  options.absolute_tolerance = options.relative_tolerance = 1e-13;
  options.output_interval = std::numeric_limits<double>::infinity();
  const Vector x0 = run->initial;
  const flow::Trajectory tr = flow::simulate(*run->system, run->mode, 0.0, x0, 9.0, options);
  REQUIRE(tr.ok());
  int crossings = 0, sticks = 0;
  for (const auto& e : tr.events) {
    const std::string to = run->system->mode_name(e.mode_after);
    crossings += to == "F+" || to == "F-";
    sticks += to == "sliding";
  }
  INFO(tr.events.size() << " events");
  CHECK(crossings >= 2);
  CHECK(sticks >= 1);
  options.variational = false;
  Matrix fd(2, 2);
  const double h = 1e-6;
  for (int k = 0; k < 2; ++k) {
    Vector a = x0, b = x0;
    a[k] += h;
    b[k] -= h;
    const flow::Trajectory ta = flow::simulate(*run->system, run->mode, 0.0, a, 9.0, options);
    const flow::Trajectory tb = flow::simulate(*run->system, run->mode, 0.0, b, 9.0, options);
    REQUIRE(ta.events.size() == tr.events.size());
    REQUIRE(tb.events.size() == tr.events.size());
    fd.col(k) = (ta.x_end - tb.x_end) / (2 * h);
  }
  INFO("saltus\n" << tr.transition_matrix << "\ndifferences\n" << fd);
  CHECK((tr.transition_matrix - fd).norm() < 1e-6 * (1 + fd.norm()));
}
