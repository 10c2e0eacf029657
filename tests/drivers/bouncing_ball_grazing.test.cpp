// The bouncing ball through its grazing (examples/bouncing_ball_grazing.json,
// "grazing": "continue"), against the exact dynamics: flights are parabolas,
// impacts Newton's law on the relative velocity, so both the grazing and
// the orbits past it can be checked without an integrator.
//
// Grazing. The unstable period-1 orbit (bouncing_ball_closed_form.h, the
// side sin(phi) < 0) leaves the table at t_i = phi / omega with u = g tau / 2,
// so its gap to the table s after the impact is
//   gap(s) = A sin(phi) + u s - g s^2 / 2 - A sin(phi + omega s),
// and it grazes where min over the flight of gap(s) = 0: found here by a fine
// scan in s refined by bisection on gap'(s) = 0, then bisection in A.
//
// Past it. Each orbit of the branch with two impacts per period is followed
// from its state (q, v) at the cut t0 for one period exactly: parabolic
// flights, each impact found as a sign change of the gap on a 1e-4 grid and
// refined by bisection to machine precision, then v+ - T' = -e (v- - T').
// It must return to (q, v) to 1e-8, with two impacts on the way.

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../continuation/periodic/bouncing_ball_closed_form.h"
#include "run_cli.h"

using namespace saltus::testing;
namespace fs = std::filesystem;

namespace {

constexpr double kG = 9.81, kE = 0.5, kOmega = 2 * M_PI, kT0 = 0.55;

template <class F>
double bisect(F f, double a, double b) {
  double fa = f(a);
  for (int i = 0; i < 200 && b - a > 0; ++i) {
    const double m = 0.5 * (a + b);
    if (m <= a || m >= b) break;
    const double fm = f(m);
    if ((fm < 0) == (fa < 0))
      a = m, fa = fm;
    else
      b = m;
  }
  return 0.5 * (a + b);
}

// The least gap over the flight of the unstable one-impact orbit at A.
double least_gap(double A) {
  const BallClosedForm ball{kG, kE, kOmega};
  const double phi = ball.phi(A, -1.0), u = kG * ball.tau() / 2;
  const auto gap = [&](double s) {
    return A * std::sin(phi) + u * s - kG * s * s / 2 - A * std::sin(phi + kOmega * s);
  };
  const auto slope = [&](double s) { return u - kG * s - A * kOmega * std::cos(phi + kOmega * s); };
  double least = INFINITY;
  const int n = 20000;
  const double tau = ball.tau();
  for (int i = 1; i < n - 1; ++i) {
    const double a = tau * i / n, b = tau * (i + 1) / n;
    if (slope(a) < 0 && slope(b) >= 0) least = std::min(least, gap(bisect(slope, a, b)));
  }
  return least;
}

// One period of the exact dynamics from (q, v) at t0 at amplitude A; the
// number of impacts in *impacts.
std::pair<double, double> one_period(double A, double q, double v, int* impacts) {
  const auto table = [&](double t) { return A * std::sin(kOmega * t); };
  const auto table_v = [&](double t) { return A * kOmega * std::cos(kOmega * t); };
  double t = kT0;
  const double end = kT0 + 2 * M_PI / kOmega, dt = 1e-4;
  *impacts = 0;
  while (true) {
    const double t_start = t, q_start = q, v_start = v;
    const auto gap = [&](double s) {
      return q_start + v_start * (s - t_start) - kG * (s - t_start) * (s - t_start) / 2 - table(s);
    };
    // The first time the gap turns negative after t_start (or none before the end).
    double hit = -1;
    for (double a = t_start; a < end; a += dt) {
      const double b = std::min(a + dt, end);
      if (gap(b) < 0 && (a > t_start || gap(a) >= 0)) {
        hit = bisect(gap, a, b);
        break;
      }
    }
    if (hit < 0) {
      const double s = end - t_start;
      return {q_start + v_start * s - kG * s * s / 2, v_start - kG * s};
    }
    const double s = hit - t_start, incoming = v_start - kG * s;
    q = table(hit);
    v = table_v(hit) - kE * (incoming - table_v(hit));
    t = hit;
    ++*impacts;
    REQUIRE(*impacts < 10);
  }
}

}  // namespace

TEST_CASE("examples/bouncing_ball_grazing.json: the grazing and the two-impact orbits past it, exactly",
          "[cli][periodic][grazing][bouncing-ball]") {
  const fs::path out = scratch("ball-grazing");
  const Run r = run_saltus(
      {"periodic", example("bouncing_ball_grazing.json").string(), "--out", out.string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto summary = nlohmann::json::parse(text_of(out / "summary.json"));
  std::vector<nlohmann::json> gr;
  for (const auto& s : summary["special_points"])
    if (s["type"] == "GR") gr.push_back(s);
  REQUIRE(gr.size() >= 2);

  // The first grazing against min gap = 0 (bisection in A between orbits
  // that clear the table and orbits that pass through it).
  REQUIRE(least_gap(0.60) > 0);
  REQUIRE(least_gap(0.64) < 0);
  const double A_g = bisect(least_gap, 0.60, 0.64);
  CHECK(std::abs(gr[0]["parameters"]["A"].get<double>() - A_g) < 1e-8);
  CHECK(gr[0]["sequence_before"] == "impact");
  CHECK(gr[0]["sequence_after"] == "impact;impact");
  CHECK(gr[0]["continued"] == true);

  // Every orbit of the two-impact branch is a periodic orbit of the exact
  // dynamics with two impacts per period.
  int checked = 0;
  for (const auto& row : read_csv(out / "branch.csv")) {
    if (row.at("events") != "impact;impact" || !row.at("label").empty()) continue;
    const double A = std::stod(row.at("A")), q = std::stod(row.at("q")), v = std::stod(row.at("v"));
    int impacts = 0;
    const auto [q1, v1] = one_period(A, q, v, &impacts);
    INFO("A = " << A);
    CHECK(impacts == 2);
    CHECK(std::abs(q1 - q) < 1e-8);
    CHECK(std::abs(v1 - v) < 1e-8);
    ++checked;
  }
  CHECK(checked > 10);
}

TEST_CASE("the bouncing ball past its grazing without bounded steps: the GR entry says what to do",
          "[cli][periodic][grazing][bouncing-ball]") {
  const fs::path dir = scratch("ball-grazing-unbounded");
  std::ifstream in(example("bouncing_ball_grazing.json"));
  nlohmann::json run = nlohmann::json::parse(in);
  run.erase("simulation");
  fs::create_directories(dir);
  std::ofstream(dir / "run.json") << run.dump(2);
  const Run r = run_saltus({"periodic", (dir / "run.json").string(), "--out", (dir / "out").string()});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto summary = nlohmann::json::parse(text_of(dir / "out" / "summary.json"));
  int grazings = 0;
  for (const auto& s : summary["special_points"]) {
    if (s["type"] != "GR") continue;
    ++grazings;
    CHECK(s["continued"] == false);
    CHECK(s["message"].get<std::string>().find("'simulation.max_step'") != std::string::npos);
  }
  CHECK(grazings == 1);
}
