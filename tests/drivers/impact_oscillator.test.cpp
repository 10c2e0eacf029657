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
#include <iomanip>
#include <nlohmann/json.hpp>
#include <optional>

#include "continuation/periodic/shooting.h"
#include "impact_oscillator_closed_form.h"
#include "run_cli.h"
#include "studies/hybrid_run_file.h"
#include "studies/periodic_orbit.h"

using namespace saltus;

namespace {

using saltus::testing::Oscillator;
using saltus::testing::sorted;

}  // namespace

TEST_CASE(
    "impact oscillator (examples/user/impact_oscillator.json): period-1 orbit, multipliers and PD against "
    "closed forms",
    "[user][periodic][impact-oscillator]") {
  const auto path = saltus::testing::example("user/impact_oscillator.json");
  const auto run = studies::read_hybrid_run(path);
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
    // followed by continuity in the impact time: its multiplier -1 by bisection.
    const double closed = saltus::testing::closed_form_pd(osc, pd, at_pd);
    INFO("PD: saltus w = " << pd << ", closed form " << closed);
    CHECK(std::abs(pd - closed) < 1e-8);
  }
  CHECK(pds >= 1);

  // The branch ends where its impact slows to a tangential touch of the
  // stop: the impacting orbit at zero impact speed is the impactless orbit
  // touching x = d, |X(w)| = d (Oscillator::grazing_frequency). The corrector
  // cannot follow the branch there (the saltation matrix carries 1 / v); the
  // grazing system solves it exactly from the branch's last point.
  const nlohmann::json* gr = nullptr;
  for (const auto& sp : summary["special_points"])
    if (sp["type"] == "GR") gr = &sp;
  REQUIRE(gr);
  CHECK((*gr)["status"] == "located");
  const double w_gr = (*gr)["parameters"]["w"].get<double>();
  INFO("GR at w = " << std::setprecision(12) << w_gr << ", closed form " << osc.grazing_frequency());
  CHECK(std::abs(w_gr - osc.grazing_frequency()) < 1e-8);
  CHECK((*gr)["kind"] == "impact vanishes");
  CHECK((*gr)["sequence_before"] == "impact");
  CHECK(summary["branch"]["stop_reason"] == "user_stop");
  // The orbit there: the forced response at the cut t0(w) = phase T(w).
  const double phase = std::fmod(t0, 2 * M_PI / w) / (2 * M_PI / w);
  const Eigen::Vector2d z_gr((*gr)["state"]["x"].get<double>(), (*gr)["state"]["v"].get<double>());
  CHECK((z_gr - osc.forced(w_gr, phase * 2 * M_PI / w_gr)).norm() < 1e-8);
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
  const auto run = studies::read_hybrid_run(saltus::testing::example("user/impact_oscillator.json"));
  const studies::ShootingStart start = studies::shooting_start(run);
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
