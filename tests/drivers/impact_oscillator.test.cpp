// examples/user/impact_oscillator.json against closed forms. Between impacts
// the oscillator x'' + 2 zeta x' + x = F cos(w t) is linear: with z = (x, v),
//
//   z(t) = z_p(t) + E(t - s) (z(s) - z_p(s)),   E(t) = e^{At},  A = [0 1; -1 -2 zeta],
//   E(t) = e^{-zeta t} (cos(wd t) I + sin(wd t) (A + zeta I) / wd),  wd = sqrt(1 - zeta^2),
//   z_p(t) = Re((1, i w) X e^{i w t}),  X = F / (1 - w^2 + 2 i zeta w)   (the forced response).
//
// A period-1 orbit with one impact per period T = 2 pi / w hits x = d at
// time s with speed v > 0 and leaves with -r v: (d, v) = z_p(s) + E(T) ((d, -r v) - z_p(s)).
// With e2 = (0, 1) that is v c = g(s), c = e2 + r E(T) e2, g = (E(T) - I)((d, 0) - z_p(s)),
// so s solves c2 g1(s) - c1 g2(s) = 0 and v = c.g / c.c. The monodromy from
// just after an impact to just after the next is S E(T), with the saltation
// matrix of the impact (h = d - x, reset v+ = -r v-; Aizerman & Gantmakher,
// as in continuation/flow/hybrid_system.h):
//
//   S = [ -r, 0; (a+ + r a-) / v, -r ],  a-+ = -+2 zeta v (1, r) - d + F cos(w s)
//
// (a- = -2 zeta v - d + F cos(w s), a+ = 2 zeta r v - d + F cos(w s)), so
// det S = r^2. Its eigenvalues are the orbit's Floquet multipliers (a cut at
// another phase conjugates the monodromy). The impactless orbit z_p grazes
// the stop where its amplitude |X| = F / sqrt((1 - w^2)^2 + (2 zeta w)^2) equals d.
// Everything here is independent of the simulator: exact exponentials and a
// scalar root.

#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>

#include "continuation/periodic/shooting.h"
#include "drivers/hybrid_run_file.h"
#include "drivers/periodic_orbit.h"
#include "run_cli.h"

using namespace saltus;

namespace {

struct Oscillator {
  double zeta, F, d, r;

  Eigen::Matrix2d A() const { return (Eigen::Matrix2d() << 0, 1, -1, -2 * zeta).finished(); }
  Eigen::Matrix2d E(double t) const {
    const double wd = std::sqrt(1 - zeta * zeta);
    return std::exp(-zeta * t) * (std::cos(wd * t) * Eigen::Matrix2d::Identity() +
                                  std::sin(wd * t) / wd * (A() + zeta * Eigen::Matrix2d::Identity()));
  }
  Eigen::Vector2d forced(double w, double t) const {
    const std::complex<double> X = F / std::complex<double>(1 - w * w, 2 * zeta * w);
    const std::complex<double> e = X * std::exp(std::complex<double>(0, w * t));
    return {e.real(), (std::complex<double>(0, w) * e).real()};
  }
  double amplitude(double w) const { return F / std::hypot(1 - w * w, 2 * zeta * w); }

  struct Orbit {
    double s, v;                // impact time in [0, T), speed before it
    Eigen::Matrix2d monodromy;  // S E(T), after impact to after impact
    Eigen::Vector2d at(const Oscillator& o, double w, double t) const {  // the state at time t
      const double T = 2 * M_PI / w;
      const double since = std::fmod(std::fmod(t - s, T) + T, T);
      return o.forced(w, t) + o.E(since) * (Eigen::Vector2d(o.d, -o.r * v) - o.forced(w, s));
    }
  };

  // c2 g1(s) - c1 g2(s), and v at s.
  double condition(double w, double s, double* v = nullptr) const {
    const double T = 2 * M_PI / w;
    const Eigen::Matrix2d ET = E(T);
    const Eigen::Vector2d c = Eigen::Vector2d(0, 1) + r * ET.col(1);
    const Eigen::Vector2d g = (ET - Eigen::Matrix2d::Identity()) * (Eigen::Vector2d(d, 0) - forced(w, s));
    if (v) *v = c.dot(g) / c.dot(c);
    return c[1] * g[0] - c[0] * g[1];
  }

  Orbit orbit(double w, double s) const {
    Orbit o;
    o.s = s;
    condition(w, s, &o.v);
    const double T = 2 * M_PI / w, v = o.v;
    const double a_minus = -2 * zeta * v - d + F * std::cos(w * s),
                 a_plus = 2 * zeta * r * v - d + F * std::cos(w * s);
    Eigen::Matrix2d S;
    S << -r, 0, (a_plus + r * a_minus) / v, -r;
    o.monodromy = S * E(T);
    return o;
  }

  // The period-1 orbits at w: the roots s in [0, T) of the condition with
  // v > 0 and no other contact with the stop in between (x < d).
  std::vector<Orbit> orbits(double w) const {
    const double T = 2 * M_PI / w;
    std::vector<Orbit> out;
    const int n = 2000;
    for (int i = 0; i < n; ++i) {
      double a = T * i / n, b = T * (i + 1) / n;
      double fa = condition(w, a), fb = condition(w, b);
      if (fa * fb > 0) continue;
      for (int it = 0; it < 200 && b - a > 1e-15 * T; ++it) {
        const double m = 0.5 * (a + b), fm = condition(w, m);
        (fa * fm <= 0 ? b : a) = m;
        (fa * fm <= 0 ? fb : fa) = fm;
      }
      const Orbit o = orbit(w, 0.5 * (a + b));
      if (!(o.v > 0)) continue;
      bool free = true;
      for (int j = 1; j < 400 && free; ++j) free = o.at(*this, w, o.s + T * j / 400.0)[0] < d;
      if (free) out.push_back(o);
    }
    return out;
  }
};

Eigen::VectorXcd sorted(Eigen::VectorXcd mu) {
  std::sort(mu.data(), mu.data() + mu.size(), [](auto a, auto b) {
    return std::abs(a) != std::abs(b) ? std::abs(a) > std::abs(b) : a.imag() > b.imag();
  });
  return mu;
}

}  // namespace

TEST_CASE(
    "impact oscillator (examples/user/impact_oscillator.json): period-1 orbit, multipliers and PD against "
    "closed forms",
    "[user][periodic][impact-oscillator]") {
  const auto path = saltus::testing::example("user/impact_oscillator.json");
  const auto run = drivers::read_hybrid_run(path);
  const Oscillator osc{run.system->parameter("zeta"), run.system->parameter("F"), run.system->parameter("d"),
                       run.system->parameter("r")};
  const auto out = saltus::testing::scratch("impact-oscillator");
  const auto result = saltus::testing::run_saltus({"periodic", path.string(), "--out", out.string()});
  INFO(result.out << result.err);
  REQUIRE(result.code == 0);
  const auto summary = nlohmann::json::parse(std::ifstream(out / "summary.json"));

  // The orbit at the run's w: state at the cut and multipliers.
  const double w = summary["parameters"]["w"].get<double>();
  const double t0 = summary["t0"].get<double>();
  Eigen::Vector2d x(summary["state"]["x"].get<double>(), summary["state"]["v"].get<double>());
  const auto orbits = osc.orbits(w);
  REQUIRE(!orbits.empty());
  const Oscillator::Orbit* closest = nullptr;
  for (const auto& o : orbits)
    if (!closest || (o.at(osc, w, t0) - x).norm() < (closest->at(osc, w, t0) - x).norm()) closest = &o;
  CHECK((closest->at(osc, w, t0) - x).norm() < 1e-8);
  const Eigen::VectorXcd exact =
      sorted(Eigen::EigenSolver<Eigen::Matrix2d>(closest->monodromy).eigenvalues());
  const auto& mu = summary["multipliers"];
  REQUIRE(mu.size() == 2);
  for (int i = 0; i < 2; ++i) {
    CHECK(std::abs(mu[i][0].get<double>() - exact[i].real()) < 1e-8);
    CHECK(std::abs(mu[i][1].get<double>() -
                   std::abs(exact[i].imag()) * (mu[i][1].get<double>() < 0 ? -1 : 1)) < 1e-8);
  }

  // Every PD on the branch: det(S E + I) = 0 on the closed-form orbit that
  // continues saltus's, by bisection in w.
  int pds = 0;
  for (const auto& sp : summary["special_points"]) {
    if (sp["type"] != "PD" || sp["status"] != "located") continue;
    ++pds;
    const double pd = sp["parameters"]["w"].get<double>();
    const Eigen::Vector2d at_pd(sp["state"]["x"].get<double>(), sp["state"]["v"].get<double>());
    // The closed-form orbit through saltus's point (its impact time), then
    // followed by continuity in the impact time.
    double s_ref = 0, closest_distance = 1e300;
    for (const auto& o : osc.orbits(pd)) {
      double best = 1e300;
      for (int j = 0; j < 2000; ++j)
        best = std::min(best, (o.at(osc, pd, 2 * M_PI / pd * j / 2000.0) - at_pd).norm());
      if (best < closest_distance) closest_distance = best, s_ref = o.s;
    }
    auto flip = [&](double wi) {
      const auto list = osc.orbits(wi);
      REQUIRE(!list.empty());
      const Oscillator::Orbit* best = &list.front();
      for (const auto& o : list)
        if (std::abs(std::remainder(o.s - s_ref, 2 * M_PI / wi)) <
            std::abs(std::remainder(best->s - s_ref, 2 * M_PI / wi)))
          best = &o;
      return (best->monodromy + Eigen::Matrix2d::Identity()).determinant();
    };
    double a = pd - 1e-3, b = pd + 1e-3, fa = flip(a), fb = flip(b);
    REQUIRE(fa * fb < 0);
    for (int it = 0; it < 60; ++it) {
      const double m = 0.5 * (a + b), fm = flip(m);
      if (fa * fm <= 0)
        b = m, fb = fm;
      else
        a = m, fa = fm;
    }
    INFO("PD: saltus w = " << pd << ", closed form " << 0.5 * (a + b));
    CHECK(std::abs(pd - 0.5 * (a + b)) < 1e-8);
  }
  CHECK(pds >= 1);

  // The grazing of the impactless orbit: |X(w)| = d, reported as GR.
  std::optional<double> gr;
  for (const auto& sp : summary["special_points"])
    if (sp["type"] == "GR" && sp["status"] == "located") gr = sp["parameters"]["w"].get<double>();
  if (gr) {
    INFO("GR at w = " << *gr << ": amplitude " << osc.amplitude(*gr));
    CHECK(std::abs(osc.amplitude(*gr) - osc.d) < 1e-7);
  }
  std::filesystem::remove_all(out);
}

TEST_CASE(
    "impact oscillator: the shooting Jacobian's w column, with the period 2 pi / w and the cut's phase "
    "following w",
    "[user][periodic][impact-oscillator]") {
  // F(x, w) = phi(t1(w); t0(w), x, w) - x with t0 = phase T(w), t1 = t0 + T(w):
  // the exact column (Phi_xw + (phase + 1) f(t1) T' - phase Phi_xx f(t0) T')
  // against central differences of the residual (tests only), at the orbit
  // and off it.
  const auto run = drivers::read_hybrid_run(saltus::testing::example("user/impact_oscillator.json"));
  const drivers::ShootingStart start = drivers::shooting_start(run);
  REQUIRE(start.ok);
  REQUIRE(start.system->options().period_of);
  CHECK(start.system->options().phase > 0.0);
  for (const double shift : {0.0, 0.01}) {
    Vector u = start.y;
    u[0] += shift;
    Matrix J;
    start.system->jacobian(u.data(), &J);
    const double h = 1e-6;
    Vector up = u, um = u, Fp(2), Fm(2);
    up[2] += h;
    um[2] -= h;
    start.system->residual(up.data(), Fp.data());
    start.system->residual(um.data(), Fm.data());
    const Vector column = (Fp - Fm) / (2 * h);
    INFO("shift " << shift << ": exact " << J.col(2).transpose() << ", differences " << column.transpose());
    CHECK((J.col(2) - column).norm() < 1e-6 * (1 + column.norm()));
  }
}
