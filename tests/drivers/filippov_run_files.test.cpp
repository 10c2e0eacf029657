// `saltus filippov twofold | continue | futures` on run files of the
// "filippov" schema (models/filippov_expression.h), against the built-in
// wheel and against a two-fold in closed form.
//
// examples/user/two_fold.json, derived by hand (Szalai & Jeffrey, Phys. Rev. E
// 90, 022914 (2014), (19), (22), (30)). States (x, y, z), mu = 1,
//
//   h = z - q x^2,   F+ = f(x, +1) = (-1, v1, x - x0),   F- = f(x, -1) = (1, v2, y - y0),
//
// (f = f0 + lambda f_lambda with f0 = (F+ + F-)/2, f_lambda = (F+ - F-)/2,
// as the run file writes it). h_x = (-2 q x, 0, 1), so
//
//   H+ = h_x . F+ = (1 + 2q) x - x0,   H- = h_x . F- = y - y0 - 2 q x,
//
// and the two-fold (h = H+ = H- = 0) is x* = x0 / (1 + 2q), y* = y0 + 2 q x*,
// z* = q x*^2. H+- are linear: grad H+ = (1 + 2q, 0, 0), grad H- = (-2q, 1, 0),
//
//   K++ = grad H+ . F+ = -(1 + 2q),   K+- = grad H+ . F- = 1 + 2q,
//   K-+ = grad H- . F+ = 2q + v1,     K-- = grad H- . F- = v2 - 2q.
//
// F+ is invisible for K++ < 0 (q > -1/2), F- for K-- > 0 (q < v2/2): the
// invisible two-fold (27) for -1/2 < q < v2/2. With S = sqrt(-K++ K--),
// J1 = K-+ / S, J2 = -K+- / S. At q = 0.2, v1 = -3, v2 = 1: J1 = -2.6/S,
// J2 = -1.4/S, J1 J2 = 2.6/0.6 > 1: case 1.
//
// The eigenvalues of (30), independently of the code's formula: on Sigma,
// in the coordinates (xi, eta) = (x - x*, y - y*), the Filippov field times
// (H- - H+) > 0 is H- F+ - H+ F- (the convex combination (16)), whose (x, y)
// part is linear:
//
//   xi'  = -(H- + H+)          = -xi - eta,
//   eta' = v1 H- - v2 H+       = -(2 q v1 + (1 + 2q) v2) xi + v1 eta,
//
// the matrix A = [-1, -1; -(2q v1 + (1+2q) v2), v1]. The scaled field (20) is
// G = (h_x.f_lambda) f0 - (h_x.f0) f_lambda = -(H- F+ - H+ F-) / 2 (mu = 1), and
// models/filippov.h / two_fold.h state that its Jacobian on the tangent plane
// is -(S / (2 mu)) M, M = [J1 1; 1 J2]: so the eigenvalues of (30) are those
// of A divided by S. At the run's values A = [-1 -1; -0.2 -3]: trace -4,
// det 2.8, eigenvalues (-4 +- sqrt(4.8)) / 2, both negative (the sliding
// flow runs into x*: case 1).
//
// Continued in q, x* moves along the closed-form curve above and K-- = v2 - 2q
// changes sign at q = v2 / 2 = 0.5 (the case-1 / visible-invisible boundary)
// at x* = (x0/2, y0 + x0/2, x0^2/8); J1 J2 = (3 - 2q)/(1 - 2q) stays > 1 below it.

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analyses/two_fold/two_fold.h"
#include "drivers/filippov_commands.h"
#include "models/wheel_turntable.h"
#include "run_cli.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace saltus;
using namespace saltus::testing;

namespace {

json run_json(const std::vector<std::string>& args) {
  const Run r = run_saltus(args);
  INFO(r.err);
  REQUIRE(r.code == 0);
  return json::parse(r.out);
}

double rel(double a, double b) { return std::abs(a - b) / (1.0 + std::abs(b)); }

struct ClosedFormTwoFold {
  double q = 0.2, v1 = -3, v2 = 1, x0 = 0.28, y0 = 0.1;
  Eigen::Vector3d x_star() const {
    const double x = x0 / (1 + 2 * q);
    return {x, y0 + 2 * q * x, q * x * x};
  }
  double S() const { return std::sqrt((1 + 2 * q) * (v2 - 2 * q)); }
  // The eigenvalues of (30): those of A over S, larger first.
  std::array<double, 2> eigenvalues() const {
    const double a = -1, b = -1, c = -(2 * q * v1 + (1 + 2 * q) * v2), d = v1;
    const double tr = a + d, det = a * d - b * c, disc = std::sqrt(tr * tr / 4 - det);
    return {(tr / 2 + disc) / S(), (tr / 2 - disc) / S()};
  }
};

}  // namespace

TEST_CASE("saltus filippov twofold on a run file: the Teixeira two-fold in closed form",
          "[cli][filippov][user]") {
  const ClosedFormTwoFold cf;
  const json j = run_json({"filippov", "twofold", example("user/two_fold.json").string(), "--json"});
  const Eigen::Vector3d xs = cf.x_star();
  CHECK(std::abs(j["x_star"]["x"].get<double>() - xs[0]) < 1e-12);
  CHECK(std::abs(j["x_star"]["y"].get<double>() - xs[1]) < 1e-12);
  CHECK(std::abs(j["x_star"]["z"].get<double>() - xs[2]) < 1e-12);
  CHECK(j["residual"].get<double>() < 1e-12);
  // K exact up to rounding (H+- linear, grad H+- constant).
  CHECK(std::abs(j["K"]["pp"].get<double>() - -(1 + 2 * cf.q)) < 1e-12);
  CHECK(std::abs(j["K"]["pm"].get<double>() - (1 + 2 * cf.q)) < 1e-12);
  CHECK(std::abs(j["K"]["mp"].get<double>() - (2 * cf.q + cf.v1)) < 1e-12);
  CHECK(std::abs(j["K"]["mm"].get<double>() - (cf.v2 - 2 * cf.q)) < 1e-12);
  CHECK(std::abs(j["J1"].get<double>() - (2 * cf.q + cf.v1) / cf.S()) < 1e-12);
  CHECK(std::abs(j["J2"].get<double>() - -(1 + 2 * cf.q) / cf.S()) < 1e-12);
  const auto lambda = cf.eigenvalues();
  CHECK(std::abs(j["eigenvalues"][0].get<double>() - lambda[0]) < 1e-12);
  CHECK(std::abs(j["eigenvalues"][1].get<double>() - lambda[1]) < 1e-12);
  CHECK(j["visibility"]["plus"] == "invisible");
  CHECK(j["visibility"]["minus"] == "invisible");
  CHECK(j["case"] == "case 1");
  CHECK(j["nondeterministic"] == true);
  CHECK(j["parameters"]["q"].get<double>() == 0.2);
}

TEST_CASE(
    "saltus filippov continue on a run file: the closed-form two-fold curve and its K-- = 0 at q = v2/2",
    "[cli][filippov][user]") {
  const fs::path dir = scratch("user-twofold-continue");
  const json j = run_json({"filippov", "continue", example("user/two_fold.json").string(), "--out",
                           (dir / "out").string(), "--json"});
  CHECK(j["parameter"] == "q");
  int found = 0;
  for (const auto& b : j["boundaries"]) {
    if (b["test"] != "K--") continue;
    ++found;
    // q = v2/2 = 0.5, x* = (x0/2, y0 + x0/2, x0^2/8).
    CHECK(std::abs(b["q"].get<double>() - 0.5) < 1e-8);
    CHECK(std::abs(b["x"]["x"].get<double>() - 0.14) < 1e-8);
    CHECK(std::abs(b["x"]["y"].get<double>() - 0.24) < 1e-8);
    CHECK(std::abs(b["x"]["z"].get<double>() - 0.0098) < 1e-8);
    CHECK(b["status"] == "located");
    CHECK(b["before"] == "case 1");
    CHECK(b["after"] == "invisible-visible");
  }
  CHECK(found == 1);
  // Every point of the branch on the closed-form curve x*(q).
  std::ifstream csv(dir / "out" / "twofold_branch.csv");
  std::string line;
  std::getline(csv, line);
  CHECK(line.rfind("point,label,x,y,z,q,", 0) == 0);
  int points = 0;
  double q_min = 1, q_max = 0;
  while (std::getline(csv, line)) {
    std::stringstream row(line);
    std::string cell;
    std::vector<double> v;
    std::getline(row, cell, ',');
    std::getline(row, cell, ',');
    for (int k = 0; k < 4 && std::getline(row, cell, ','); ++k) v.push_back(std::stod(cell));
    ClosedFormTwoFold at;
    at.q = v[3];
    const Eigen::Vector3d xs = at.x_star();
    INFO("q = " << at.q);
    CHECK((Eigen::Vector3d(v[0], v[1], v[2]) - xs).lpNorm<Eigen::Infinity>() < 1e-9);
    q_min = std::min(q_min, at.q), q_max = std::max(q_max, at.q);
    ++points;
  }
  CHECK(points > 10);
  CHECK(q_min < 0.0);  // both directions from q = 0.2
  CHECK(q_max > 0.5);
  CHECK(fs::exists(dir / "out" / "twofold_branch.json"));
  fs::remove_all(dir);
}

TEST_CASE("the wheel as a run file (examples/user/wheel_turntable.json) is the built-in wheel",
          "[filippov][user][wheel]") {
  const auto own = drivers::read_filippov_run(example("user/wheel_turntable.json"));
  const auto built_in = drivers::read_filippov_run(example("wheel_turntable.json"));
  REQUIRE(own.own);
  const models::ExpressionFilippov& m = *own.own;
  const models::WheelTurntable& w = built_in.wheel;
  CHECK(m.mu == w.mu);
  // h, g (the barrier) and f(x, lambda) at points on and off Sigma, both
  // sides of g = 0: the same functions (the stretched-string tyre (6)-(7)).
  const Vector xs = locate_two_fold(w, built_in.guess).x;
  std::vector<Vector> points = {xs};
  for (int k = 1; k <= 6; ++k) {
    Vector x = xs;
    x[0] += 0.01 * k * (k % 2 ? 1 : -1);
    x[1] += 0.005 * k * (k % 3 ? 1 : -1);
    x[2] += 0.05 * k * (k % 2 ? -1 : 1);
    points.push_back(x);
  }
  for (const Vector& x : points) {
    INFO("x = " << x.transpose());
    CHECK(rel(m.switching(x.data()), w.switching(x.data())) < 1e-14);
    CHECK(rel(own.barrier(x), built_in.barrier(x)) < 1e-14);
    for (double lambda : {-1.0, -0.3, 0.0, 1.0}) {
      Eigen::Vector3d a, b;
      m.field(x.data(), lambda, a.data());
      w.field(x.data(), lambda, b.data());
      CHECK((a - b).lpNorm<Eigen::Infinity>() < 1e-13 * (1 + b.lpNorm<Eigen::Infinity>()));
    }
  }
}

TEST_CASE("saltus filippov twofold, futures, continue: the wheel as a run file gives the built-in's results",
          "[cli][filippov][user][wheel]") {
  const std::string own = example("user/wheel_turntable.json").string();
  const std::string built_in = example("wheel_turntable.json").string();
  const json a = run_json({"filippov", "twofold", own, "--json"});
  const json b = run_json({"filippov", "twofold", built_in, "--json"});
  for (const char* s : {"r", "v", "omega"})
    CHECK(std::abs(a["x_star"][s].get<double>() - b["x_star"][s].get<double>()) < 1e-12);
  for (const char* k : {"pp", "pm", "mp", "mm"})
    CHECK(rel(a["K"][k].get<double>(), b["K"][k].get<double>()) < 1e-9);
  CHECK(rel(a["J1"].get<double>(), b["J1"].get<double>()) < 1e-9);
  CHECK(rel(a["J2"].get<double>(), b["J2"].get<double>()) < 1e-9);
  for (int i = 0; i < 2; ++i)
    CHECK(rel(a["eigenvalues"][i].get<double>(), b["eigenvalues"][i].get<double>()) < 1e-9);
  CHECK(a["case"] == "case 1");
  CHECK(a["case"] == b["case"]);
  CHECK(a["type"] == b["type"]);

  const fs::path dir = scratch("user-wheel-futures");
  const json fa =
      run_json({"filippov", "futures", own, "--samples", "4", "--out", (dir / "a").string(), "--json"});
  const json fb =
      run_json({"filippov", "futures", built_in, "--samples", "4", "--out", (dir / "b").string(), "--json"});
  REQUIRE(fa["approaches"].size() == fb["approaches"].size());
  for (std::size_t i = 0; i < fa["approaches"].size(); ++i) {
    const auto &p = fa["approaches"][i], &q = fb["approaches"][i];
    CHECK(p["arrived"] == q["arrived"]);
    CHECK(std::abs(p["arrival_time"].get<double>() - q["arrival_time"].get<double>()) < 1e-10);
  }
  REQUIRE(fa["futures"].size() == fb["futures"].size());
  for (std::size_t i = 0; i < fa["futures"].size(); ++i) {
    const auto &p = fa["futures"][i], &q = fb["futures"][i];
    CHECK(p["start_region"] == q["start_region"]);
    CHECK(p["left_side"] == q["left_side"]);
    CHECK(p["segments"] == q["segments"]);
    CHECK(std::abs(p["liftoff_time"].get<double>() - q["liftoff_time"].get<double>()) < 1e-10);
    // These futures end where a slip returns to Sigma next to g = 0 (|g| <= 1e-8), the line h = g = 0
    // where the tyre's slip angle atan2(|h|, |g|) is undefined: near it the field is ill-conditioned,
    // and the two evaluations' rounding (measured: up to 4e-7 in time after ~10 segments) grows.
    CHECK(p["end"].get<std::string>().substr(0, 50) == q["end"].get<std::string>().substr(0, 50));
    CHECK(std::abs(p["end_time"].get<double>() - q["end_time"].get<double>()) < 1e-5);
  }
  // The two-fold continued in k2: the same case boundaries (K++ = 0 into visible-invisible, J1 = 0
  // inside it). The branches end differently near g = 0 (omega = omega0), where the built-in stops at
  // its test "g=0" and the run file's corrector fails: the boundaries lie before that.
  const json ca = run_json({"filippov", "continue", own, "--out", (dir / "ca").string(), "--json"});
  const json cb = run_json({"filippov", "continue", built_in, "--out", (dir / "cb").string(), "--json"});
  REQUIRE(ca["boundaries"].size() == cb["boundaries"].size());
  CHECK(ca["boundaries"].size() >= 2);
  for (std::size_t i = 0; i < ca["boundaries"].size(); ++i) {
    const auto &p = ca["boundaries"][i], &q = cb["boundaries"][i];
    CHECK(p["test"] == q["test"]);
    CHECK(p["before"] == q["before"]);
    CHECK(p["after"] == q["after"]);
    CHECK(rel(p["k2"].get<double>(), q["k2"].get<double>()) < 1e-9);
    for (const char* s : {"r", "v", "omega"})
      CHECK(std::abs(p["x"][s].get<double>() - q["x"][s].get<double>()) < 1e-9);
  }
  // The same files, the figure's data on the same axes (r, omega; v solved on Sigma).
  for (const char* file : {"futures.csv", "approach.csv", "regions.csv", "futures.json", "futures.gp"}) {
    CHECK(fs::exists(dir / "a" / file));
  }
  std::ifstream regions(dir / "a" / "regions.csv");
  std::string header;
  std::getline(regions, header);
  CHECK(header == "r,omega,v,region");
  fs::remove_all(dir);
}

TEST_CASE("saltus filippov on run files: bad input is named", "[cli][filippov][user][errors]") {
  const fs::path dir = scratch("user-filippov-errors");
  fs::create_directories(dir);
  auto run = [&](const std::string& command, const std::string& text) {
    std::ofstream(dir / "run.json") << text;
    std::vector<std::string> args = {"filippov", command, (dir / "run.json").string()};
    if (command != "twofold") args.insert(args.end(), {"--out", (dir / "out").string()});
    return run_saltus(args);
  };
  const std::string system = R"("states": ["x", "y", "z"], "parameters": {"a": 1},
      "filippov": {"h": "z", "field": ["-lambda", "a", "x + lambda*y"]})";
  Run r = run("map", "{" + system + R"(, "guess": {"x": 0, "y": 0, "z": 0}})");
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("run.json") && Catch::Contains("wheel_turntable"));
  r = run("twofold", "{" + system + R"(, "guess": {"x": 0, "y": 0}})");
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("'guess.z' is missing"));
  r = run("twofold", R"({"states": ["x", "y"], "filippov": {"h": "y", "field": ["1", "x + lambda"]},
      "guess": {"x": 0, "y": 0}})");
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("at least 3 states"));
  r = run("continue", "{" + system + R"(, "guess": {"x": 0, "y": 0, "z": 0},
      "continuation": {"parameter": "b"}})");
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("'continuation.parameter' = 'b'") && Catch::Contains("known: a"));
  r = run("futures", "{" + system + R"(, "guess": {"x": 0, "y": 0, "z": 0}, "futures": {"barrier": "w"}})");
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("futures.barrier") && Catch::Contains("unknown name 'w'"));
  // Not affine in lambda: caught at the guess (there is no initial state).
  r = run("twofold", R"({"states": ["x", "y", "z"], "filippov": {"h": "z", "field": ["-lambda", "1",
      "x + lambda^2*y"]}, "guess": {"x": 0, "y": 1, "z": 0}})");
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("filippov.field") && Catch::Contains("not affine in lambda"));
  // No two-fold (h_x . f_lambda = 1 never vanishes): a failed search is a status, exit 2.
  r = run("twofold", R"({"states": ["x", "y", "z"], "filippov": {"h": "z", "field": ["1", "0", "x + lambda"]},
      "guess": {"x": 0, "y": 1, "z": 0}})");
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("run.json"));
  CHECK_FALSE(fs::exists(dir / "out"));
  fs::remove_all(dir);
}

TEST_CASE("one run file for simulate and filippov: the wheel's sliding into its two-fold as the built-in's",
          "[cli][filippov][user][wheel]") {
  // examples/user/wheel_turntable.json carries the two-fold keys (guess, futures, continuation) and a
  // simulation from the start of examples/wheel_turntable_sliding.json: the same events and end state.
  const fs::path dir = scratch("user-wheel-simulate");
  const json a = run_json(
      {"simulate", example("user/wheel_turntable.json").string(), "--out", (dir / "a").string(), "--json"});
  const json b = run_json({"simulate", example("wheel_turntable_sliding.json").string(), "--out",
                           (dir / "b").string(), "--json"});
  CHECK(a["mode_end"] == "two-fold");
  CHECK(a["mode_end"] == b["mode_end"]);
  CHECK(a["events"] == b["events"]);
  for (const char* s : {"r", "v", "omega"})
    CHECK(std::abs(a["state_end"][s].get<double>() - b["state_end"][s].get<double>()) < 1e-9);
  // The two-fold keys beside a system that is not an own Filippov one: named.
  fs::create_directories(dir);
  std::ofstream(dir / "run.json") << R"({"model": "bouncing_ball", "initial": {"q": 0.1, "v": 0},
      "time": [0, 1], "guess": {"q": 0, "v": 0}})";
  const Run r = run_saltus({"simulate", (dir / "run.json").string(), "--out", (dir / "out").string()});
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("'guess' is a key of `saltus filippov`"));
  fs::remove_all(dir);
}
