// `saltus extremal continue` and `saltus extremal track` on
// examples/extremal/ex444_continue.json, ex445_continue.json and
// ex444_track.json, through the command line in-process
// (tests/drivers/run_cli.h), and their bad-input messages and exit codes.
// Tag [extremal-continue].

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "run_cli.h"

namespace fs = std::filesystem;
using nlohmann::json;
using saltus::testing::run_saltus;
using saltus::testing::scratch;

namespace {

std::string extremal_example(const std::string& name) {
  return saltus::testing::example("extremal/" + name + ".json").string();
}

double distance(const json& point, const std::array<double, 5>& known) {
  const char* names[5] = {"s1", "s2", "x", "y", "phi"};
  double d = 0;
  for (int i = 0; i < 5; ++i) d = std::max(d, std::abs(point[names[i]].get<double>() - known[i]));
  return d;
}

// A copy of an example with `patch` merged into its top level.
fs::path patched(const std::string& name, const json& patch, const fs::path& dir) {
  std::ifstream in(extremal_example(name));
  json j = json::parse(in);
  j.merge_patch(patch);
  fs::create_directories(dir);
  const fs::path file = dir / (name + "_patched.json");
  std::ofstream(file) << j.dump(2);
  return file;
}

}  // namespace

TEST_CASE("extremal continue: example 4.4.4, folds and the cusp located and classified",
          "[extremal-continue]") {
  const fs::path dir = scratch("ext-continue-444");
  const auto r = run_saltus(
      {"extremal", "continue", extremal_example("ex444_continue"), "--out", dir.string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  REQUIRE(j["folds"].size() == 2);
  for (const auto& fold : j["folds"]) {
    // the parabola's evolute at y = -0.55 (see tests/analyses/contact/continuation.test.cpp)
    CHECK(std::abs(fold["point"]["x"].get<double>()) ==
          Approx(4.0 * std::pow(1.0 / 60.0, 1.5)).epsilon(1e-12));
    CHECK(fold["classification"]["codimension"] == 1);
  }
  REQUIRE(j["cusps"].size() == 1);
  CHECK(distance(j["cusps"][0]["located"], {0, 0, 0, -0.5, 0}) < 1e-8);
  CHECK(j["cusps"][0]["classification"]["codimension"] == 2);
  CHECK(j["cusps"][0]["classification"]["type"] == "cusp");
  for (const char* file : {"continue.json", "branch_1.csv", "branch_2.csv", "fold_curve_1.csv", "branch.dat",
                           "branch.gp", "fold_curve.dat", "fold_curve.gp"})
    CHECK(fs::exists(dir / file));
  fs::remove_all(dir);
}

TEST_CASE("extremal continue: example 4.4.5, the swallowtail located and classified", "[extremal-continue]") {
  const fs::path dir = scratch("ext-continue-445");
  const auto r = run_saltus(
      {"extremal", "continue", extremal_example("ex445_continue"), "--out", dir.string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  CHECK(j["cusps"].size() == 2);
  for (const auto& cusp : j["cusps"]) CHECK(cusp["classification"]["codimension"] == 2);
  REQUIRE(j["swallowtails"].size() == 1);
  const json& sw = j["swallowtails"][0];
  CHECK(distance(sw["located"], {0, 0, 0, 0.25, 0}) < 1e-8);
  CHECK(distance(sw["point"], {0, 0, 0, 0.25, 0}) < 1e-12);
  CHECK(sw["classification"]["codimension"] == 3);
  CHECK(sw["classification"]["type"] == "swallowtail");
  CHECK(fs::exists(dir / "cusp_curve_1.csv"));
  fs::remove_all(dir);
}

TEST_CASE("extremal track: example 4.4.4, a birth and a death of extremal points", "[extremal-continue]") {
  const fs::path dir = scratch("ext-track-444");
  const auto r =
      run_saltus({"extremal", "track", extremal_example("ex444_track"), "--out", dir.string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  CHECK(j["initial_count"] == 1);
  REQUIRE(j["events"].size() == 2);
  // x(t) = -0.05 + 0.1 t meets the folds x = -+4 (1/60)^(3/2) at t = 0.5 -+ 40 (1/60)^(3/2).
  const double half = 40.0 * std::pow(1.0 / 60.0, 1.5);
  const json& birth = j["events"][0];
  const json& death = j["events"][1];
  CHECK(birth["t"].get<double>() == Approx(0.5 - half).epsilon(1e-9));
  CHECK(death["t"].get<double>() == Approx(0.5 + half).epsilon(1e-9));
  CHECK(birth["kind"] == "birth");
  CHECK(death["kind"] == "death");
  CHECK(birth["type"] == "fold");
  CHECK(death["codimension"] == 1);
  CHECK(birth["before"] == 1);
  CHECK(birth["after"] == 3);
  CHECK(death["before"] == 3);
  CHECK(death["after"] == 1);
  for (const char* file : {"track.json", "track.csv", "track_s1.dat", "track_s2.dat", "event1_before.dat",
                           "event1_at.dat", "event1_after.dat", "event2_at.gp"})
    CHECK(fs::exists(dir / file));
  // The snapshots are geometry: one unit as long in x as in y (the hole stays round).
  std::ifstream gp(dir / "event2_at.gp");
  const std::string script((std::istreambuf_iterator<char>(gp)), std::istreambuf_iterator<char>());
  CHECK_THAT(script, Catch::Contains("set size ratio -1"));
  std::ifstream s1(dir / "track_s1.gp");
  const std::string curves((std::istreambuf_iterator<char>(s1)), std::istreambuf_iterator<char>());
  CHECK_THAT(curves, !Catch::Contains("set size ratio"));
  fs::remove_all(dir);
}

TEST_CASE("extremal continue / track: bad input is a clear message and a non-zero exit",
          "[extremal-continue]") {
  const fs::path dir = scratch("ext-continue-bad");
  SECTION("an unknown pose parameter") {
    const auto file = patched("ex444_continue", {{"continue", {{"parameter", "z"}}}}, dir);
    const auto r = run_saltus({"extremal", "continue", file.string(), "--out", (dir / "out").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Catch::Contains("continue.parameter") && Catch::Contains("'z'") &&
                          Catch::Contains("x, y, phi"));
    CHECK_FALSE(fs::exists(dir / "out"));
  }
  SECTION("the same parameter twice in the fold curve") {
    const auto file = patched("ex444_continue", {{"continue", {{"fold_curve", {"y", "y"}}}}}, dir);
    const auto r = run_saltus({"extremal", "continue", file.string(), "--out", (dir / "out").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Catch::Contains("continue.fold_curve") && Catch::Contains("twice"));
  }
  SECTION("no 'continue' object") {
    const auto r =
        run_saltus({"extremal", "continue", extremal_example("ex441"), "--out", (dir / "out").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Catch::Contains("'continue' is missing"));
  }
  SECTION("no fold on the branch although a fold curve was asked for: exit 2, the branch still written") {
    // At y = -0.45 the circle's centre is outside the parabola's evolute: one extremal point, no fold.
    const auto file = patched("ex444_continue", {{"continue", {{"start", {{"y", -0.45}}}}}}, dir);
    const auto r = run_saltus({"extremal", "continue", file.string(), "--out", (dir / "out").string()});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("no fold on the branch") && Catch::Contains("continue.start"));
    CHECK(fs::exists(dir / "out" / "branch_1.csv"));
    CHECK(fs::exists(dir / "out" / "continue.json"));
  }
  SECTION("a motion expression with a syntax error") {
    const auto file = patched("ex444_track", {{"track", {{"x", "-0.05 + 0.1*t +"}}}}, dir);
    const auto r = run_saltus({"extremal", "track", file.string(), "--out", (dir / "out").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Catch::Contains("track.x") && Catch::Contains("-0.05 + 0.1*t +"));
  }
  SECTION("a motion in an unknown variable") {
    const auto file = patched("ex444_track", {{"track", {{"y", "-0.55 + tau"}}}}, dir);
    const auto r = run_saltus({"extremal", "track", file.string(), "--out", (dir / "out").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Catch::Contains("track.y") && Catch::Contains("tau"));
  }
  SECTION("an empty time interval") {
    const auto file = patched("ex444_track", {{"track", {{"t", {1, 1}}}}}, dir);
    const auto r = run_saltus({"extremal", "track", file.string(), "--out", (dir / "out").string()});
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Catch::Contains("track.t") && Catch::Contains("t0 < t1"));
  }
  fs::remove_all(dir);
}
