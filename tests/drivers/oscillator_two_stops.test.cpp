// examples/user/oscillator_two_stops.json (mechanical schema, two
// constraints) against closed forms. The oscillator x'' + 2 zeta x' + x =
// F cos(w t) between rigid stops at x = -+d, restitution r, is linear between
// impacts: with z = (x, v),
//
//   z(t) = z_p(t) + E(t - s) (z(s) - z_p(s)),   E(t) = e^{At},  A = [0 1; -1 -2 zeta],
//   E(t) = e^{-zeta t} (cos(wd t) I + sin(wd t) (A + zeta I) / wd),  wd = sqrt(1 - zeta^2),
//   z_p(t) = Re((1, i w) X e^{i w t}),  X = F / (1 - w^2 + 2 i zeta w)   (the forced response).
//
// The symmetric orbit: z(t + T/2) = -z(t), T = 2 pi / w (the forcing is odd
// under the half-period shift, z_p(t + T/2) = -z_p(t)). It hits the right
// stop x = d at time s with speed v > 0, leaves with -r v, and half a period
// tau = T/2 later hits the left stop at (-d, -v):
//
//   -z_p(s) + E(tau) ((d, -r v) - z_p(s)) = (-d, -v)
//   <=>  v c = g(s),   c = e2 - r E(tau) e2,   g(s) = (I + E(tau)) (z_p(s) - (d, 0)),
//
// so s solves c2 g1(s) - c1 g2(s) = 0 and v = c.g / c.c (v > 0 and |x| < d
// in between). Saltation at the right impact (h = d - x, g_x = (-1, 0), reset
// diag(1, -r); Aizerman & Gantmakher, continuation/flow/hybrid_system.h):
// S = R + (f+ - R f-) g_x^T / (g_x . f-) with f- = (v, a-), f+ = (-r v, a+),
//
//   S = [ -r, 0; (a+ + r a-) / v, -r ],  a- = -2 zeta v - d + F cos(w s),  a+ = 2 zeta r v - d + F cos(w s).
//
// At the left impact the state, both fields and the normal are negated
// (h = x + d, g_x = (1, 0), f-+ -> -f-+), and the same algebra gives the
// same S. The half-period map (after one impact to after the next) is
// H = S E(tau), the monodromy over a period M = H^2, and the Floquet
// multipliers are the squares of the eigenvalues of H (det M = r^4 e^{-2 zeta T}).
// A multiplier +1 of M with H's eigenvalue -1 breaks the symmetry (det(H + I)
// = 0); a period doubling is det(M + I) = 0 (H's eigenvalues +-i).
// Everything here is independent of the simulator and of the mechanical
// builder: exact exponentials, a scalar root and bisection.

#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "impact_oscillator_closed_form.h"
#include "run_cli.h"
#include "studies/hybrid_run_file.h"

using namespace saltus;

namespace {

// The linear flow, forced response, saltation and root scan are the impact
// oscillator's (impact_oscillator_closed_form.h); the symmetric orbit is new.
struct TwoStops : saltus::testing::Oscillator {
  struct Orbit {
    double w, s, v;     // frequency, right impact time in [0, T), speed before it
    Eigen::Matrix2d H;  // the half-period map S E(tau)
    Eigen::Matrix2d monodromy() const { return H * H; }
    // The state at time t.
    Eigen::Vector2d at(const TwoStops& o, double t) const {
      const double tau = M_PI / w;
      const double since = t - s - std::floor((t - s) / tau) * tau;
      const int k = static_cast<int>(std::floor((t - s) / tau));
      const Eigen::Vector2d z =
          o.forced(w, s + since) + o.E(since) * (Eigen::Vector2d(o.d, -o.r * v) - o.forced(w, s));
      return (k % 2 == 0) ? z : Eigen::Vector2d(-z);
    }
  };

  double condition(double w, double s, double* v = nullptr) const {
    const Eigen::Matrix2d Et = E(M_PI / w);
    const Eigen::Vector2d c = Eigen::Vector2d(0, 1) - r * Et.col(1);
    const Eigen::Vector2d g = (Eigen::Matrix2d::Identity() + Et) * (forced(w, s) - Eigen::Vector2d(d, 0));
    if (v) *v = c.dot(g) / c.dot(c);
    return c[1] * g[0] - c[0] * g[1];
  }

  Orbit orbit(double w, double s) const {
    Orbit o;
    o.w = w;
    o.s = s;
    condition(w, s, &o.v);
    o.H = saltation(w, s, o.v) * E(M_PI / w);
    return o;
  }

  // The symmetric orbits at w: roots s in [0, T) with v > 0 and |x| < d between the impacts.
  std::vector<Orbit> orbits(double w) const {
    const double T = 2 * M_PI / w;
    std::vector<Orbit> out;
    for (double s : roots_in(T, [&](double t) { return condition(w, t); })) {
      const Orbit o = orbit(w, s);
      if (!(o.v > 0)) continue;
      bool free = true;
      for (int j = 1; j < 400 && free; ++j) free = std::abs(o.at(*this, o.s + T / 2 * j / 400.0)[0]) < d;
      if (free) out.push_back(o);
    }
    return out;
  }

  // The orbit at w nearest to the state x at time t.
  std::optional<Orbit> nearest(double w, double t, const Eigen::Vector2d& x) const {
    std::optional<Orbit> best;
    for (const auto& o : orbits(w))
      if (!best || (o.at(*this, t) - x).norm() < (best->at(*this, t) - x).norm()) best = o;
    return best;
  }
};

using saltus::testing::sorted;

// Floquet multipliers of the closed-form orbit.
Eigen::VectorXcd multipliers(const TwoStops::Orbit& o) {
  return sorted(Eigen::EigenSolver<Eigen::Matrix2d>(o.monodromy()).eigenvalues());
}

}  // namespace

TEST_CASE(
    "oscillator between two stops (examples/user/oscillator_two_stops.json): the symmetric orbit and its "
    "branch in w against closed forms",
    "[user][periodic][two-stops]") {
  const auto path = saltus::testing::example("user/oscillator_two_stops.json");
  const auto run = studies::read_hybrid_run(path);
  const TwoStops osc{{run.system->parameter("zeta"), run.system->parameter("F"), run.system->parameter("d"),
                      run.system->parameter("r")}};
  const auto out = saltus::testing::scratch("two-stops");
  const auto result = saltus::testing::run_saltus({"periodic", path.string(), "--out", out.string()});
  INFO(result.out << result.err);
  REQUIRE(result.code == 0);
  const auto summary = nlohmann::json::parse(std::ifstream(out / "summary.json"));

  // The orbit at the run's w: the state at the cut t0 and the multipliers.
  const double w = summary["parameters"]["w"].get<double>();
  const double t0 = summary["t0"].get<double>();
  const double phase = t0 / summary["period"].get<double>();  // the cut follows the period along the branch
  const Eigen::Vector2d x(summary["state"]["x"].get<double>(), summary["state"]["x_dot"].get<double>());
  const auto orbit = osc.nearest(w, t0, x);
  REQUIRE(orbit);
  CHECK((orbit->at(osc, t0) - x).norm() < 1e-8);
  const Eigen::VectorXcd exact = multipliers(*orbit);
  const auto& mu = summary["multipliers"];
  REQUIRE(mu.size() == 2);
  for (int i = 0; i < 2; ++i) {
    INFO("multiplier " << i << ": saltus " << mu[i][0] << " + " << mu[i][1] << " i, closed form "
                       << exact[i]);
    CHECK(std::abs(std::complex<double>(mu[i][0].get<double>(), mu[i][1].get<double>()) - exact[i]) < 1e-8);
  }

  // Every point of the branch: the state at its cut on the closed-form orbit
  // at its w, and the largest |multiplier| (orbits.csv, 15 digits).
  std::ifstream csv(out / "branch.csv"), rows(out / "orbits.csv");
  std::string line, row_line;
  std::getline(csv, line);
  REQUIRE(line.rfind("point,label,x,x_dot,w,", 0) == 0);
  std::getline(rows, row_line);
  REQUIRE(row_line ==
          "w,period,stable,max_abs_multiplier,x_dot");  // one row per point: one upward x = 0 a period
  std::vector<TwoStops::Orbit> branch;
  std::vector<bool> stable;
  while (std::getline(csv, line) && std::getline(rows, row_line)) {
    std::stringstream row(line), orbit_row(row_line);
    std::string cell;
    std::getline(row, cell, ',');
    std::getline(row, cell, ',');
    double y[3];
    for (double& v : y) {
      std::getline(row, cell, ',');
      v = std::stod(cell);
    }
    double o_row[4];
    for (double& v : o_row) {
      std::getline(orbit_row, cell, ',');
      v = std::stod(cell);
    }
    const double t = phase * 2 * M_PI / y[2];
    const auto o = osc.nearest(y[2], t, Eigen::Vector2d(y[0], y[1]));
    INFO("w = " << y[2]);
    REQUIRE(o);
    CHECK((o->at(osc, t) - Eigen::Vector2d(y[0], y[1])).norm() < 1e-8);
    CHECK(std::abs(o_row[0] - y[2]) < 1e-12);
    CHECK(std::abs(o_row[3] - std::abs(multipliers(*o)[0])) < 1e-8);
    branch.push_back(*o);
    stable.push_back(o_row[2] != 0);
  }
  CHECK(branch.size() >= 20);
  INFO("branch over w in [" << branch.front().w << ", " << branch.back().w << "]");
  CHECK(branch.back().w - branch.front().w > 0.5);

  // The special points. The square-root map z -> -phi_{T/2}(z) of a
  // symmetric orbit has the Jacobian -H. A fold of the branch (LPC) is its
  // multiplier +1, det(H + I) = 0; a symmetry-breaking pitchfork its
  // multiplier -1, det(H - I) = 0 (M = H^2 gets the multiplier +1 and the
  // orbit its stability change, with no turn in w); a period doubling of the
  // orbit (M's -1) or a Neimark-Sacker point would need H's eigenvalues on
  // the unit circle off the real axis, impossible with det H = r^2 e^{-zeta T} < 1.
  // On this branch det(H + I) keeps its sign (no fold: saltus reports no LPC,
  // PD or NS), and each stability change of saltus's branch brackets a root of
  // det(H - I), found by bisection in w on the closed-form orbit.
  const Eigen::Matrix2d I = Eigen::Matrix2d::Identity();
  for (const auto& o : branch) CHECK((o.H + I).determinant() * (branch.front().H + I).determinant() > 0);
  for (const auto& sp : summary["special_points"]) CHECK((sp["type"] == "EP" || sp["type"] == "GR"));
  int flips = 0;
  for (std::size_t i = 1; i < branch.size(); ++i) {
    if (stable[i] == stable[i - 1]) continue;
    ++flips;
    auto pitchfork = [&](double w) {
      const auto near = osc.nearest(w, phase * 2 * M_PI / w, branch[i].at(osc, phase * 2 * M_PI / w));
      REQUIRE(near);
      return (near->H - I).determinant();
    };
    double a = branch[i - 1].w, b = branch[i].w, fa = pitchfork(a), fb = pitchfork(b);
    INFO("stability change between w = " << a << " and " << b);
    REQUIRE(fa * fb < 0);
    for (int it = 0; it < 50; ++it) {
      const double m = 0.5 * (a + b), fm = pitchfork(m);
      if (fa * fm <= 0)
        b = m, fb = fm;
      else
        a = m, fa = fm;
    }
    // The pitchfork's multipliers there: +1 and det M = r^4 e^{-2 zeta T}.
    const auto at = osc.nearest(a, phase * 2 * M_PI / a, branch[i].at(osc, phase * 2 * M_PI / a));
    const Eigen::VectorXcd mu_p = multipliers(*at);
    CHECK(std::abs(mu_p[0] - 1.0) < 1e-6);
    CHECK(std::abs(at->monodromy().determinant() -
                   std::pow(osc.r, 4) * std::exp(-2 * osc.zeta * 2 * M_PI / a)) < 1e-12);
  }
  CHECK(flips >= 1);
  std::filesystem::remove_all(out);
}
