#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "drivers/cli.h"
#include "run_cli.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace saltus::testing;

TEST_CASE("saltus simulate examples/bouncing_ball.json: the ball comes to rest on the table",
          "[cli][hybrid]") {
  const fs::path out = scratch("bb");
  const Run r =
      run_saltus({"simulate", example("bouncing_ball.json").string(), "--out", out.string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json summary = json::parse(r.out);
  CHECK(summary["status"] == "finished");
  CHECK(summary["mode_end"] == "contact");
  CHECK(summary["events"].get<int>() < 60);
  for (const char* f : {"trajectory.csv", "events.csv", "summary.json", "phase.png", "time.png"})
    CHECK(fs::exists(out / f));
  CHECK(!summary.contains("transition_matrix"));  // not asked: no variational equations
  fs::remove_all(out);
}

TEST_CASE(
    "saltus simulate --transition-matrix: Phi(t1, t0) of the impact oscillator obeys Liouville with jumps",
    "[cli][hybrid][simulate]") {
  // x'' + 2 zeta x' + x = F cos(w t), impacts at x = d with v -> -r v
  // (examples/user/impact_oscillator.json, zeta = 0.05, r = 0.8, t in [0, 60]).
  // Between events det Phi grows as exp(trace f_x t) = exp(-2 zeta t); at an
  // impact, by the matrix determinant lemma on the saltation matrix
  // S = R_x + (f+ - R_x f-) h_x / (h_x f-) with h = d - x, R_x = diag(1, -r):
  // det S = det R_x (h_x R_x^-1 f+) / (h_x f-) = (-r)(r v- / -v-) = r^2.
  // So det Phi(t1, t0) = exp(-2 zeta (t1 - t0)) r^(2 k) after k impacts.
  const fs::path out = scratch("io-phi");
  const Run r = run_saltus({"simulate", example("user/impact_oscillator.json").string(), "--out",
                            out.string(), "--json", "--transition-matrix"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json summary = json::parse(r.out);
  REQUIRE(summary.contains("transition_matrix"));
  const auto phi = summary["transition_matrix"].get<std::vector<std::vector<double>>>();
  REQUIRE(phi.size() == 2);
  const double det = phi[0][0] * phi[1][1] - phi[0][1] * phi[1][0];
  const int k = summary["events"].get<int>();
  REQUIRE(k > 10);
  const double expected = std::exp(-2 * 0.05 * 60.0) * std::pow(0.8, 2 * k);
  CHECK(std::abs(det / expected - 1) < 1e-6);
  fs::remove_all(out);
}

TEST_CASE("saltus lyapunov: exponents largest first, summing to the impact contraction", "[cli][hybrid]") {
  const Run r = run_saltus({"lyapunov", example("bouncing_ball_chaotic.json").string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json result = json::parse(r.out);
  const auto exponents = result["exponents"].get<std::vector<double>>();
  REQUIRE(exponents.size() == 2);
  CHECK(exponents[0] >= exponents[1]);
  CHECK(exponents[0] > 0.1);  // chaotic bouncing
  CHECK(std::abs(result["sum"].get<double>() - result["mean_log_det_saltation"].get<double>()) < 1e-6);
  // Free flight keeps phase volume: the contraction is the impacts' alone.
  CHECK(result["mean_divergence"].get<double>() == 0.0);
  CHECK(result["contraction"].get<double>() == result["mean_log_det_saltation"].get<double>());
}

TEST_CASE("saltus lyapunov: on a sliding attractor the contraction is -inf and said not comparable",
          "[cli][hybrid][pendulum]") {
  // The stand-in pendulum at q1 = 1.03 sticks on the barrier once per period
  // (a plastic impact: a singular saltation matrix).
  const fs::path dir = scratch("lyapunov-sliding");
  fs::create_directories(dir);
  json run = json::parse(std::ifstream(example("triple_pendulum_periodic.json")));
  run["lyapunov"] = {{"transient", 200}, {"duration", 50}, {"interval", 0.25}};
  std::ofstream(dir / "run.json") << run.dump();
  const Run r = run_saltus({"lyapunov", (dir / "run.json").string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json result = json::parse(r.out);
  CHECK(result["collapsed_intervals"].get<int>() > 0);
  CHECK(result["contraction"] == "-inf");
  CHECK(result["mean_log_det_saltation"] == "-inf");
  const Run text = run_saltus({"lyapunov", (dir / "run.json").string()});
  CHECK_THAT(text.out, Catch::Contains("not comparable"));
  fs::remove_all(dir);
}

TEST_CASE("hybrid run files: bad input is named", "[cli][hybrid][errors]") {
  struct Case {
    std::string what, text, message;
  };
  const std::string pendulum_state =
      R"("time": [0, 1], "initial": {"psi1": 1.8, "psi2": 1.0, "psi3": 2.0, "psi1_dot": 0, "psi2_dot": 0, "psi3_dot": 0})";
  const std::vector<Case> cases = {
      {"restitution above 1", R"({"model": "bouncing_ball", "parameters": {"e": 1.5},
        "initial": {"q": 0.1, "v": 0}, "time": [0, 1]})",
       "e = 1.5"},
      {"negative restitution", R"({"model": "bouncing_ball", "parameters": {"e": -0.2},
        "initial": {"q": 0.1, "v": 0}, "time": [0, 1]})",
       "e = -0.2"},
      {"missing state", R"({"model": "bouncing_ball", "initial": {"q": 0.1}, "time": [0, 1]})",
       "'initial.v' is missing"},
      {"unknown model", R"({"model": "pogo", "initial": {}, "time": [0, 1]})", "unknown model 'pogo'"},
      {"backwards time", R"({"model": "bouncing_ball", "initial": {"q": 0.1, "v": 0}, "time": [1, 0]})",
       "t1 > t0"},
      {"pendulum restitution",
       R"({"model": "triple_pendulum", "parameters": {"e": 1.2}, )" + pendulum_state + "}", "e = 1.2"},
      {"pendulum violated constraint", R"({"model": "triple_pendulum", "time": [0, 1],
        "initial": {"psi1": 0, "psi2": 0, "psi3": 0, "psi1_dot": 0, "psi2_dot": 0, "psi3_dot": 0}})",
       "violates constraint 2: h = -0.8"},
      // beta2 = v12^2 with v13 = v23 = 0: M is singular where psi1 = psi2.
      {"pendulum singular mass matrix", R"({"model": "triple_pendulum", "parameters": {"beta2": 0.4,
        "v12": 0.6324555320336759, "v13": 0, "v23": 0, "beta3": 1}, "time": [0, 1],
        "initial": {"psi1": 1.8, "psi2": 1.8, "psi3": 2.0, "psi1_dot": 0, "psi2_dot": 0, "psi3_dot": 0}})",
       "not symmetric positive definite"},
  };
  for (const auto& c : cases) {
    SECTION(c.what) {
      const fs::path dir = scratch("bad");
      fs::create_directories(dir);
      std::ofstream(dir / "run.json") << c.text;
      const Run r = run_saltus({"simulate", (dir / "run.json").string(), "--out", (dir / "out").string()});
      CHECK(r.code == 1);
      CHECK_THAT(r.err, Catch::Contains(c.message));
      CHECK(!fs::exists(dir / "out"));
      fs::remove_all(dir);
    }
  }
}

TEST_CASE("saltus sweep: a small diagram of the triple pendulum on two threads", "[cli][hybrid]") {
  const fs::path dir = scratch("sweep");
  fs::create_directories(dir);
  std::ofstream(dir / "run.json") << R"({"model": "triple_pendulum",
    "initial": {"psi1": 1.8, "psi2": 1.0, "psi3": 2.0, "psi1_dot": 0, "psi2_dot": 0, "psi3_dot": 0},
    "time": [0, 10], "section": {"variable": "psi1", "value": 0, "angle": true},
    "sweep": {"parameter": "q1", "from": 1.05, "to": 1.2, "steps": 4, "transient": 20, "record": 40, "threads": 2}})";
  const Run r = run_saltus({"sweep", (dir / "run.json").string(), "--out", (dir / "out").string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json summary = json::parse(r.out);
  CHECK(summary["threads"] == 2);
  CHECK(summary["section_hits"].get<int>() >= 4);
  CHECK(summary["failures"].empty());
  CHECK(fs::exists(dir / "out" / "sweep.csv"));
  CHECK(fs::exists(dir / "out" / "sweep.png"));
  fs::remove_all(dir);
}

TEST_CASE("saltus periodic examples/bouncing_ball_orbit.json: multipliers and the fold of cycles",
          "[cli][periodic]") {
  const fs::path out = scratch("orbit");
  const Run r =
      run_saltus({"periodic", example("bouncing_ball_orbit.json").string(), "--out", out.string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json summary = json::parse(r.out);
  // |mu|^2 = det of the impact map = e^2 (e = 0.5), a complex pair: stable.
  REQUIRE(summary["multipliers"].size() == 2);
  for (const auto& m : summary["multipliers"])
    CHECK(std::hypot(m[0].get<double>(), m[1].get<double>()) == Approx(0.5).epsilon(1e-9));
  CHECK(summary["stable"] == true);
  // The existence boundary A omega = (1 - e) g tau / (2 (1 + e)): 0.2602183319...
  const double A_fold = (0.5 * 9.81 * 1.0 / 3.0) / (2 * M_PI);
  bool found = false;
  for (const auto& s : summary["special_points"])
    if (s["type"] == "LPC") {
      found = true;
      CHECK(std::abs(s["parameters"]["A"].get<double>() - A_fold) < 1e-8);
    }
  CHECK(found);
  CHECK(fs::exists(out / "branch.png"));
  fs::remove_all(out);
}

namespace {

// The triple pendulum's orbit run (examples/triple_pendulum_orbit.json) with
// `periodic` replaced, written into dir.
// An empty method is the simulator's default.
fs::path pendulum_orbit_run(const fs::path& dir, const std::string& periodic, bool section = true,
                            const std::string& method = "") {
  fs::create_directories(dir);
  std::ofstream(dir / "run.json") << R"({"model": "triple_pendulum", "parameters": {"q1": 1.03},
    "initial": {"psi1": 1.8, "psi2": 1.0, "psi3": 2.0, "psi1_dot": 0, "psi2_dot": 0, "psi3_dot": 0},
    "time": [0, 10], "simulation": {"absolute_tolerance": 1e-10, "relative_tolerance": 1e-10)"
                                  << (method.empty() ? "" : R"(, "method": ")" + method + "\"") << R"(},)"
                                  << (section
                                          ? R"("section": {"variable": "psi1", "value": 0, "angle": true},)"
                                          : "")
                                  << R"("plot": {"x": "psi2", "y": "psi1_dot"}, "periodic": )" << periodic
                                  << "}";
  return dir / "run.json";
}

}  // namespace

TEST_CASE("saltus periodic: the triple pendulum's orbit from a simulation, continued in q1 to its LPC",
          "[cli][periodic][periodic-pendulum]") {
  const fs::path dir = scratch("pendulum-orbit");
  const fs::path file = pendulum_orbit_run(dir, R"({"parameter": "q1", "transient": 200, "record": 100,
    "direction": 1, "ds": 0.01, "ds_max": 0.05, "max_points": 45, "bounds": {"q1": [1.0, 1.1]},
    "event_tolerance": 1e-9, "diagram": "diagram.csv", "grazing": false})");
  // A two-row stand-in for a sweep CSV (q1, t, state): drawn underneath.
  std::ofstream(dir / "diagram.csv") << "q1,t,psi1,psi2,psi3,psi1_dot,psi2_dot,psi3_dot\n"
                                     << "1.03,0,0,1.7,1.2,0.83,0,0\n1.05,0,0,1.7,1.2,0.80,0,0\n";
  const Run r = run_saltus({"periodic", file.string(), "--out", (dir / "out").string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json s = json::parse(r.out);
  CHECK(s["autonomous"] == true);
  CHECK(s["guess"]["source"] == "section");
  CHECK(s["guess"]["section_returns"] == 1);
  // The return time of the simulation is the period to the return tolerance.
  CHECK(s["period"].get<double>() == Approx(s["guess"]["period"].get<double>()).epsilon(1e-3));
  // Six multipliers: the trivial one (along the flow) apart, five others as [re, im].
  CHECK(std::hypot(s["trivial_multiplier"][0].get<double>() - 1, s["trivial_multiplier"][1].get<double>()) <
        1e-6);
  REQUIRE(s["multipliers"].size() == 5);
  CHECK(s["stable"] == true);
  CHECK(s["section_psi1_dot"].size() == 1);  // psi1 goes round once per period
  bool lpc = false;
  for (const auto& p : s["special_points"]) {
    CHECK(p["type"] != "NS");  // the trivial multiplier would make every LPC an NS too
    if (p["type"] == "LPC") {
      lpc = true;
      CHECK(p["status"] == "located");
      CHECK(std::abs(p["multipliers"][0][0].get<double>() - 1) < 1e-4);
    }
  }
  CHECK(lpc);
  for (const char* f : {"branch.csv", "orbits.csv", "summary.json", "branch.png", "branch.dat", "orbit.png"})
    CHECK(fs::exists(dir / "out" / f));
  // The corrected orbit in the run's (psi2, psi1_dot) plane, impacts marked.
  std::ifstream orbit(dir / "out" / "orbit.dat");
  const std::string orbit_drawn((std::istreambuf_iterator<char>(orbit)), std::istreambuf_iterator<char>());
  CHECK_THAT(orbit_drawn, Catch::Contains("# events"));
  std::ifstream dat(dir / "out" / "branch.dat");
  const std::string drawn((std::istreambuf_iterator<char>(dat)), std::istreambuf_iterator<char>());
  CHECK_THAT(drawn, Catch::Contains("brute-force diagram"));
  fs::remove_all(dir);
}

TEST_CASE("saltus periodic: on the triple pendulum's branch releases and chattering tails are no grazing",
          "[cli][periodic][periodic-pendulum][grazing]") {
  // Along this branch the chattering sequence of the third link (impacts that
  // end in sticking) gains and loses impacts as its last rebound crosses the
  // stick threshold (first near q1 = 1.045): counting those impacts made GR
  // fire there. And where the link is released from the barrier (h = 0 and
  // dh/dt = 0 at the event, h growing like t^2 after it) dh/dt rises through
  // zero from rounding noise just after the restart: that "minimum" of h,
  // 1e-12 or -4e-12, came and went from point to point and once closed a
  // sign change, reported as a grazing at q1 = 1.07713 (with either method).
  // The closest approach to the barrier away from the events is 0.018 at the
  // start and grows along the branch: no grazing up to q1 = 1.1.
  for (const std::string method : {"dopri5", "dop853"}) {
    DYNAMIC_SECTION(method) {
      const fs::path dir = scratch("pendulum-grazing-" + method);
      const fs::path file = pendulum_orbit_run(dir, R"({"parameter": "q1", "transient": 200, "record": 100,
        "direction": 1, "ds": 0.01, "ds_max": 0.05, "max_points": 100, "bounds": {"q1": [1.0, 1.1]},
        "event_tolerance": 1e-9})",
                                               true, method);
      const Run r = run_saltus({"periodic", file.string(), "--out", (dir / "out").string(), "--json"});
      INFO(r.err);
      REQUIRE(r.code == 0);
      const json s = json::parse(r.out);
      std::vector<std::string> types;
      for (const auto& p : s["special_points"]) types.push_back(p["type"]);
      CHECK(types == std::vector<std::string>{"LPC", "LPC", "PD", "PD", "EP"});
      // The test value at every point of the branch.
      std::ifstream csv(dir / "out" / "branch.csv");
      std::string line, cell;
      std::getline(csv, line);
      std::stringstream header(line);
      int column = 0, gr = -1;
      for (; std::getline(header, cell, ','); ++column)
        if (cell == "test_GR") gr = column;
      REQUIRE(gr >= 0);
      double smallest = std::numeric_limits<double>::infinity();
      int points = 0;
      for (; std::getline(csv, line); ++points) {
        std::stringstream row(line);
        for (int c = 0; c <= gr; ++c) std::getline(row, cell, ',');
        smallest = std::min(smallest, std::stod(cell));
      }
      INFO(points << " points");
      CHECK(points > 50);
      CHECK(smallest > 0.015);
      fs::remove_all(dir);
    }
  }
}

TEST_CASE("saltus periodic examples/triple_pendulum_light.json: the period-1 orbit's Neimark-Sacker point",
          "[cli][periodic][periodic-pendulum][table1]") {
  // The torus of the Table 1 test (tests/models/triple_pendulum.test.cpp,
  // q1 = 1.275) is born here: continued down from q1 = 1.287 (stable, a
  // complex pair of modulus 0.951), the orbit's pair leaves the unit circle
  // at q1 = 1.28313 with angle 50.5 degrees (a rotation number of 0.140 at
  // birth; the torus at q1 = 1.275 turns 0.113 per return). No paper or
  // closed form gives this point: q1 is pinned as a regression value, while
  // |mu| = 1 at it is the property itself. The brute-force diagram is
  // replaced by a stand-in (the tour draws the real one).
  const fs::path dir = scratch("light-ns");
  fs::create_directories(dir);
  json run = json::parse(std::ifstream(example("triple_pendulum_light.json")));
  run["periodic"]["diagram"] = (dir / "diagram.csv").string();
  std::ofstream(dir / "diagram.csv")
      << "q1,t,psi1,psi2,psi3,psi1_dot,psi2_dot,psi3_dot\n1.28,0,0,-1.2,2.6,1.24,-0.72,-1.45\n";
  std::ofstream(dir / "run.json") << run.dump();
  const Run r =
      run_saltus({"periodic", (dir / "run.json").string(), "--out", (dir / "out").string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json s = json::parse(r.out);
  CHECK(s["stable"] == true);
  REQUIRE(s["special_points"].size() >= 1);
  const json& ns = s["special_points"][0];
  REQUIRE(ns["type"] == "NS");
  CHECK(ns["status"] == "located");
  CHECK(std::abs(ns["parameters"]["q1"].get<double>() - 1.28313) < 1e-5);
  const double re = ns["multipliers"][0][0].get<double>(), im = ns["multipliers"][0][1].get<double>();
  CHECK(std::abs(std::hypot(re, im) - 1.0) < 1e-6);
  CHECK(std::abs(std::atan2(std::abs(im), re) * 180 / M_PI - 50.5) < 0.1);
  fs::remove_all(dir);
}

TEST_CASE("saltus periodic: bad periodic input is named", "[cli][periodic][errors]") {
  struct Case {
    std::string what, periodic, message;
    bool section = true;
  };
  const std::vector<Case> cases = {
      {"a period for an autonomous model", R"({"period": 10})", "is autonomous; its period is found"},
      {"restitution in the state", R"({"parameter": "e"})", "the model decides on it as a number"},
      {"unknown parameter", R"({"parameter": "zeta"})", "'periodic.parameter' = 'zeta' is not a parameter"},
      {"missing diagram", R"({"parameter": "q1", "diagram": "nowhere.csv"})", "does not exist"},
      {"bad returns", R"({"max_returns": 0})", "'periodic.max_returns' = 0 must be >= 1"},
      {"grazing not a flag", R"({"grazing": 1})",
       "'periodic.grazing' = 1 must be \"stop\", \"continue\", true or false"},
  };
  for (const auto& c : cases) {
    SECTION(c.what) {
      const fs::path dir = scratch("bad-periodic");
      const fs::path file = pendulum_orbit_run(dir, c.periodic, c.section);
      const Run r = run_saltus({"periodic", file.string(), "--out", (dir / "out").string()});
      CHECK(r.code == 1);
      CHECK_THAT(r.err, Catch::Contains(c.message));
      CHECK(!fs::exists(dir / "out"));
      fs::remove_all(dir);
    }
  }
}

TEST_CASE("saltus periodic: the ball continues in its table frequency, the period following 2 pi / omega",
          "[cli][periodic]") {
  // Any parameter is a continuation parameter; omega also moves the forcing
  // period (the model's forcing_period "2*pi/omega") and the cut's phase.
  const fs::path dir = scratch("ball-omega");
  fs::create_directories(dir);
  std::ofstream(dir / "run.json") << R"({"model": "bouncing_ball", "parameters": {"A": 0.3, "e": 0.5},
    "initial": {"q": 1.37, "v": 0.32}, "time": [0.55, 1.55],
    "periodic": {"t0": 0.55, "parameter": "omega", "max_points": 8, "ds": 0.01, "event_tolerance": 1e-12}})";
  const Run r = run_saltus({"periodic", (dir / "run.json").string(), "--out", (dir / "out").string()});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  const auto summary = nlohmann::json::parse(std::ifstream(dir / "out" / "summary.json"));
  CHECK(summary["branch"]["continuation_parameters"][0] == "omega");
  CHECK(summary["branch"]["points"].get<int>() >= 8);
  // Each point's orbit closes over its own period: the branch CSV's omega moves.
  std::ifstream csv(dir / "out" / "branch.csv");
  std::string header, first, line, last;
  std::getline(csv, header);
  std::getline(csv, first);
  while (std::getline(csv, line)) last = line;
  CHECK(first != last);
  fs::remove_all(dir);
}

TEST_CASE("saltus periodic: a chaotic attractor gives no guess, with the closest return",
          "[cli][periodic][errors]") {
  const fs::path dir = scratch("chaotic-orbit");
  const fs::path file = pendulum_orbit_run(dir, R"({"transient": 100, "record": 60, "max_returns": 3})");
  // q1 = 1.18: the chaotic attractor of examples/triple_pendulum_chaotic.json.
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  text.replace(text.find("1.03"), 4, "1.18");
  std::ofstream(file) << text;
  const Run r = run_saltus({"periodic", file.string(), "--out", (dir / "out").string()});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("no guess of a periodic orbit"));
  CHECK_THAT(r.err, Catch::Contains("the closest return"));
  CHECK(!fs::exists(dir / "out"));
  fs::remove_all(dir);
}

namespace {

// The smallest gap between the ball and the table over the flight of the
// period-1 orbit (n = 1, T = 2 pi / omega) of the bouncing ball, from the
// impact map in closed form: the ball leaves the table at phase phi with
// the speed V = g T / 2 that brings it back after T, cos(phi) = (1 - e) g pi /
// ((1 + e) A omega^2), and flies as
//
//   G(tau) = A sin(phi) + V tau - g tau^2 / 2 - A sin(phi + omega tau).
//
// Its interior minima are the roots of G' found on a grid and bisected.
double smallest_gap(double A, double phi_sign, double g, double e, double omega) {
  const double T = 2 * M_PI / omega, V = g * T / 2;
  const double phi = phi_sign * std::acos((1 - e) * g * M_PI / ((1 + e) * A * omega * omega));
  auto G = [&](double t) {
    return A * std::sin(phi) + V * t - g * t * t / 2 - A * std::sin(phi + omega * t);
  };
  auto dG = [&](double t) { return V - g * t - A * omega * std::cos(phi + omega * t); };
  double smallest = std::numeric_limits<double>::infinity();
  const int N = 2000;
  for (int i = 0; i + 1 < N; ++i) {
    double a = T * (i + 0.5) / N, b = T * (i + 1.5) / N;
    if (!(dG(a) < 0 && dG(b) >= 0)) continue;
    for (int it = 0; it < 60; ++it) (dG(0.5 * (a + b)) < 0 ? a : b) = 0.5 * (a + b);
    smallest = std::min(smallest, G(a));
  }
  return smallest;
}

}  // namespace

TEST_CASE("saltus periodic: the bouncing ball's unstable period-1 orbit grazes the table, GR ends the branch",
          "[cli][periodic][grazing]") {
  // examples/bouncing_ball_orbit.json continued further: down to the LPC,
  // then up along the unstable orbit (impact phase phi < 0) until the table
  // catches up with the ball in flight, touching it tangentially.
  const fs::path dir = scratch("ball-grazing");
  fs::create_directories(dir);
  json run = json::parse(std::ifstream(example("bouncing_ball_orbit.json")));
  run["periodic"]["bounds"]["A"] = {0.2, 3.0};
  run["periodic"]["max_points"] = 400;
  std::ofstream(dir / "run.json") << run.dump(2);
  const Run r =
      run_saltus({"periodic", (dir / "run.json").string(), "--out", (dir / "out").string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json s = json::parse(r.out);
  REQUIRE(s["special_points"].size() == 2);
  CHECK(s["special_points"][0]["type"] == "LPC");
  const json& gr = s["special_points"][1];
  CHECK(gr["type"] == "GR");
  CHECK(gr["status"] == "located");
  // The grazing amplitude: the smallest gap of the unstable orbit reaching 0,
  // by bisection in A (the gap is 0.04 at A = 0.6 and -0.015 at A = 0.63).
  const double g = 9.81, e = 0.5, omega = 2 * M_PI;
  double lo = 0.6, hi = 0.63;
  for (int it = 0; it < 60; ++it)
    (smallest_gap(0.5 * (lo + hi), -1, g, e, omega) > 0 ? lo : hi) = 0.5 * (lo + hi);
  INFO("grazing at A = " << lo << " (closed form), " << gr["parameters"]["A"].get<double>() << " (branch)");
  CHECK(std::abs(gr["parameters"]["A"].get<double>() - lo) < 1e-8);
  // The text summary says so.
  const Run text = run_saltus({"periodic", (dir / "run.json").string(), "--out", (dir / "out").string()});
  CHECK_THAT(text.out, Catch::Contains("GR located"));
  fs::remove_all(dir);
}

TEST_CASE(
    "saltus periodic examples/stick_slip_orbit.json: the cycle from a simulation, period = closed form in v0",
    "[cli][periodic][stick-slip]") {
  const fs::path out = scratch("stick-slip-orbit");
  const Run r =
      run_saltus({"periodic", example("stick_slip_orbit.json").string(), "--out", out.string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json s = json::parse(r.out);
  CHECK(s["autonomous"] == true);
  CHECK(s["guess"]["source"] == "section");
  // The closed form of tests/models/stick_slip.test.cpp (c = 0): with
  // omega = sqrt(k/m) and D = (mu_s - mu_k) m g / k,
  //   T = 2 D / v0 + (pi + 2 atan(v0 / (omega D))) / omega.
  const double m = 1, k = 4, g = 9.81, mu_s = 0.4, mu_k = 0.25;
  const double omega = std::sqrt(k / m), D = (mu_s - mu_k) * m * g / k;
  auto period = [&](double v0) { return 2 * D / v0 + (M_PI + 2 * std::atan(v0 / (omega * D))) / omega; };
  CHECK(std::abs(s["period"].get<double>() - period(0.5)) < 1e-8);
  // Sticking projects every perturbation onto v = v0: the one nontrivial
  // multiplier is 0 (to rounding); the trivial one is 1.
  REQUIRE(s["multipliers"].size() == 1);
  CHECK(std::hypot(s["multipliers"][0][0].get<double>(), s["multipliers"][0][1].get<double>()) < 1e-10);
  CHECK(std::abs(s["trivial_multiplier"][0].get<double>() - 1) < 1e-8);
  // Along the branch (orbits.csv: v0, period, ...) to the bound v0 = 1.5,
  // the period is the closed form to the integration tolerance (1e-10).
  std::ifstream csv(out / "orbits.csv");
  std::string line;
  std::getline(csv, line);
  CHECK(line.rfind("v0,period,", 0) == 0);
  int rows = 0;
  double last_v0 = 0;
  while (std::getline(csv, line)) {
    double v0, T;
    char comma;
    std::istringstream(line) >> v0 >> comma >> T;
    INFO("v0 = " << v0);
    CHECK(std::abs(T - period(v0)) < 1e-8);
    last_v0 = v0;
    ++rows;
  }
  // One crossing of the section per orbit, each drawn (also those cut on
  // the section, whose crossings at the ends are up to rounding).
  CHECK(rows == s["branch"]["points"].get<int>());
  CHECK(rows >= 10);
  CHECK(last_v0 == Approx(1.5).margin(1e-9));
  // The orbit in the (x, v) plane with its stick and slip transitions.
  CHECK(fs::exists(out / "orbit.png"));
  std::ifstream dat(out / "orbit.dat");
  const std::string drawn((std::istreambuf_iterator<char>(dat)), std::istreambuf_iterator<char>());
  CHECK_THAT(drawn, Catch::Contains("# events"));
  fs::remove_all(out);

  // The friction coefficients decide the modes as numbers: not in the state.
  const fs::path dir = scratch("stick-slip-bad");
  fs::create_directories(dir);
  json run = json::parse(std::ifstream(example("stick_slip_orbit.json")));
  run["periodic"]["parameter"] = "mu_k";
  std::ofstream(dir / "run.json") << run.dump(2);
  const Run bad = run_saltus({"periodic", (dir / "run.json").string(), "--out", (dir / "out").string()});
  CHECK(bad.code == 1);
  CHECK_THAT(bad.err,
             Catch::Contains("'periodic.parameter' = 'mu_k'") && Catch::Contains("cannot ride in the state"));
  CHECK(!fs::exists(dir / "out"));
  fs::remove_all(dir);
}
