// The bouncing ball's unstable period-1 orbit through its grazing
// (examples/bouncing_ball_orbit.json with "grazing": "continue"), against
// closed forms on both sides. The table moves as A sin(omega t), T = 2 pi / omega.
//
// One impact per period: the ball leaves the table at phase phi with the
// speed V = g T / 2 that brings it back after T, and the impact law
// V - A omega cos(phi) = e (V + A omega cos(phi)) gives
// cos(phi) = (1 - e) g pi / ((1 + e) A omega^2); the unstable orbit has phi < 0.
//
// Two impacts per period (beyond the grazing where the table catches the
// ball in flight): impacts at t1 and t2 = t1 + tau1, speeds u1, u2 after them,
// tau2 = T - tau1, table velocity Tv(t) = A omega cos(omega t):
//
//   A sin(omega t1) + u1 tau1 - g tau1^2 / 2 = A sin(omega t2)
//   A sin(omega t2) + u2 tau2 - g tau2^2 / 2 = A sin(omega t1)
//   u2 = (1 + e) Tv(t2) - e (u1 - g tau1)
//   u1 = (1 + e) Tv(t1) - e (u2 - g tau2),
//
// four equations in (t1, tau1, u1, u2), solved by Newton in the test (its
// Jacobian by differences: tests only), continued along A from the grazing
// orbit (the second impact at zero relative speed).

#include <Eigen/Dense>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "run_cli.h"

using json = nlohmann::json;

namespace {

constexpr double g = 9.81, e = 0.5, omega = 2 * M_PI, T = 1.0;

// (q, v) at time t of the one-impact orbit with take-off phase sign s.
Eigen::Vector2d one_impact(double A, double s, double t) {
  const double V = g * T / 2, phi = s * std::acos((1 - e) * g * M_PI / ((1 + e) * A * omega * omega));
  const double t1 = phi / omega, tau = t - t1 - T * std::floor((t - t1) / T);
  return {A * std::sin(phi) + V * tau - g * tau * tau / 2, V - g * tau};
}

using Z = Eigen::Vector4d;  // (t1, tau1, u1, u2)

Z two_impact_residual(const Z& z, double A) {
  const double t1 = z[0], tau1 = z[1], u1 = z[2], u2 = z[3], t2 = t1 + tau1, tau2 = T - tau1;
  const auto Tv = [&](double t) { return A * omega * std::cos(omega * t); };
  return {A * std::sin(omega * t1) + u1 * tau1 - g * tau1 * tau1 / 2 - A * std::sin(omega * t2),
          A * std::sin(omega * t2) + u2 * tau2 - g * tau2 * tau2 / 2 - A * std::sin(omega * (t1 + T)),
          u2 - ((1 + e) * Tv(t2) - e * (u1 - g * tau1)), u1 - ((1 + e) * Tv(t1) - e * (u2 - g * tau2))};
}

bool solve_two_impact(Z* z, double A) {
  for (int it = 0; it < 50; ++it) {
    const Z F = two_impact_residual(*z, A);
    if (F.norm() < 1e-14) return true;
    Eigen::Matrix4d J;
    for (int j = 0; j < 4; ++j) {
      Z zp = *z, zm = *z;
      zp[j] += 1e-7;
      zm[j] -= 1e-7;
      J.col(j) = (two_impact_residual(zp, A) - two_impact_residual(zm, A)) / 2e-7;
    }
    *z -= J.lu().solve(F);
  }
  return two_impact_residual(*z, A).norm() < 1e-12;
}

Eigen::Vector2d two_impact(const Z& z, double A, double t) {
  const double t1 = z[0], tau1 = z[1];
  double tau = t - t1 - T * std::floor((t - t1) / T);
  if (tau < tau1) return {A * std::sin(omega * t1) + z[2] * tau - g * tau * tau / 2, z[2] - g * tau};
  tau -= tau1;
  return {A * std::sin(omega * (t1 + tau1)) + z[3] * tau - g * tau * tau / 2, z[3] - g * tau};
}

}  // namespace

TEST_CASE(
    "the bouncing ball's unstable orbit through its grazing at A = 0.6222940036: one impact per period "
    "before, two after, against closed forms on both sides",
    "[cli][periodic][grazing]") {
  const auto dir = saltus::testing::scratch("ball-through-grazing");
  std::filesystem::create_directories(dir);
  json run = json::parse(std::ifstream(saltus::testing::example("bouncing_ball_orbit.json")));
  run["periodic"]["bounds"]["A"] = {0.2, 0.9};
  run["periodic"]["max_points"] = 400;
  run["periodic"]["grazing"] = "continue";
  std::ofstream(dir / "run.json") << run.dump(2);
  const auto r =
      saltus::testing::run_saltus({"periodic", (dir / "run.json").string(), "--out", (dir / "out").string()});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  const json s = json::parse(std::ifstream(dir / "out" / "summary.json"));
  const json* gr = nullptr;
  for (const auto& sp : s["special_points"])
    if (sp["type"] == "GR") gr = &sp;
  REQUIRE(gr);
  CHECK((*gr)["status"] == "located");
  CHECK(std::abs((*gr)["parameters"]["A"].get<double>() - 0.6222940036) < 1e-9);
  CHECK((*gr)["sequence_before"] == "impact");
  CHECK((*gr)["sequence_after"] == "impact;impact");
  CHECK((*gr)["continued"] == true);

  // branch.csv: every orbit against the closed form of its sequence, at the cut t0.
  const double t0 = s["t0"].get<double>();
  std::ifstream csv(dir / "out" / "branch.csv");
  std::string line;
  std::getline(csv, line);
  std::map<std::string, int> col;
  {
    std::stringstream h(line);
    std::string name;
    for (int i = 0; std::getline(h, name, ','); ++i) col[name] = i;
  }
  const double A_gr = (*gr)["parameters"]["A"].get<double>();
  const Eigen::Vector2d z_gr = one_impact(A_gr, -1, t0);
  CHECK(std::abs((*gr)["state"]["q"].get<double>() - z_gr[0]) < 1e-8);
  CHECK(std::abs((*gr)["state"]["v"].get<double>() - z_gr[1]) < 1e-8);
  // The grazing orbit as a two-impact orbit: the table touches the ball at
  // the smallest gap (second impact at zero relative speed).
  Z z;
  {
    const double V = g * T / 2, phi = -std::acos((1 - e) * g * M_PI / ((1 + e) * A_gr * omega * omega));
    double best = 1e300, tau_best = 0;
    for (int i = 1; i < 20000; ++i) {
      const double tau = T * i / 20000.0;
      const double gap =
          A_gr * std::sin(phi) + V * tau - g * tau * tau / 2 - A_gr * std::sin(phi + omega * tau);
      if (gap < best) best = gap, tau_best = tau;
    }
    z << phi / omega, tau_best, V, V - g * tau_best;
  }
  int one = 0, two = 0;
  while (std::getline(csv, line)) {
    std::vector<std::string> cells;
    std::stringstream row(line);
    std::string cell;
    while (std::getline(row, cell, ',')) cells.push_back(cell);
    const std::string events = cells.at(col.at("events"));
    const double A = std::stod(cells.at(col.at("A")));
    const Eigen::Vector2d x(std::stod(cells.at(col.at("q"))), std::stod(cells.at(col.at("v"))));
    INFO("A = " << std::setprecision(12) << A << ", events " << events);
    if (events == "impact") {
      ++one;
      const double d = std::min((one_impact(A, -1, t0) - x).norm(), (one_impact(A, 1, t0) - x).norm());
      CHECK(d < 1e-8);
    } else if (events == "impact;impact") {
      ++two;
      REQUIRE(solve_two_impact(&z, A));
      CHECK((two_impact(z, A, t0) - x).norm() < 1e-8);
    } else {
      CHECK(cells.at(col.at("label")) == "GR");
    }
  }
  CHECK(one >= 10);
  CHECK(two >= 5);
  std::filesystem::remove_all(dir);
}
