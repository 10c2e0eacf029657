#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "run_cli.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace saltus::testing;

TEST_CASE("saltus filippov twofold examples/wheel_turntable.json: case 1 at the paper's point",
          "[cli][filippov]") {
  const Run r = run_saltus({"filippov", "twofold", example("wheel_turntable.json").string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  CHECK(j["x_star"]["r"].get<double>() == Approx(0.1859).margin(1e-12));
  CHECK(j["x_star"]["omega"].get<double>() == Approx(-1.037).margin(1e-12));
  CHECK(j["residual"].get<double>() < 1e-12);
  for (const char* k : {"pp", "pm", "mp", "mm"}) CHECK(j["K"].contains(k));
  CHECK(j["J1"].get<double>() < 0);
  CHECK(j["J2"].get<double>() < 0);
  CHECK(j["J1"].get<double>() * j["J2"].get<double>() > 1);
  CHECK(j["eigenvalues"].size() == 2);
  CHECK(j["case"] == "case 1");
}

TEST_CASE("saltus filippov twofold: a search that cannot converge is a clear error",
          "[cli][filippov][errors]") {
  const fs::path dir = scratch("twofold");
  fs::create_directories(dir);
  // gamma = pi/2: h_x . f_lambda = -(beta^2 + r^2) never vanishes, so there is no two-fold.
  std::ofstream(dir / "run.json")
      << R"({"model": "wheel_turntable", "parameters": {"gamma": 1.5707963267948966,
      "kappa": 0.3, "k2": 2.0}, "guess": {"r": 0.2, "v": -0.02, "omega": -1.05}})";
  const Run r = run_saltus({"filippov", "twofold", (dir / "run.json").string()});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("run.json"));
  CHECK(!r.err.empty());
  fs::remove_all(dir);
}

namespace {

// The example's wheel with extra keys (a small map, few futures, ...).
fs::path wheel_run(const fs::path& dir, const std::string& extra) {
  fs::create_directories(dir);
  std::ofstream(dir / "run.json")
      << R"({"model": "wheel_turntable", "two_fold_at": {"r": 0.1859, "omega": -1.037},
      "guess": {"r": 0.2, "v": -0.02, "omega": -1.05})"
      << extra << "}";
  return dir / "run.json";
}

}  // namespace

TEST_CASE("saltus filippov map: a small grid around the paper's point, case 1 there",
          "[cli][filippov][map]") {
  const fs::path dir = scratch("map");
  const fs::path run = wheel_run(dir, R"(, "map": {"r": [0.1759, 0.1959], "omega": [-1.047, -1.027],
      "resolution": [3, 3]})");
  const Run r = run_saltus(
      {"filippov", "map", run.string(), "--out", (dir / "out").string(), "--threads", "2", "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  CHECK(j["points"] == 9);
  CHECK(j["case1"] == 9);
  CHECK(j["threads"] == 2);
  CHECK(j["two_fold_at"]["case"] == "case 1");
  CHECK(j["two_fold_at"]["case1"] == true);
  CHECK(fs::exists(dir / "out" / "map.csv"));
  CHECK(fs::exists(dir / "out" / "map.json"));
  CHECK(fs::exists(dir / "out" / "map.gp"));
  // The centre row of the CSV is the paper's point, case 1.
  std::ifstream csv(dir / "out" / "map.csv");
  std::string line, centre;
  int row = 0;
  while (std::getline(csv, line))
    if (!line.empty() && row++ == 5)
      centre = line;  // header, then rows 1..9 (blank lines between omega rows)
  CHECK_THAT(centre, Catch::StartsWith("0.1859,-1.037,1,1,"));
  CHECK_THAT(centre, Catch::EndsWith(",1,1,case 1"));
  fs::remove_all(dir);
}

TEST_CASE("saltus filippov map: bad grids and thread counts are clear errors",
          "[cli][filippov][map][errors]") {
  const fs::path dir = scratch("map-bad");
  const fs::path run = wheel_run(dir, R"(, "map": {"resolution": [1, 3]})");
  Run r = run_saltus({"filippov", "map", run.string(), "--out", (dir / "out").string()});
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("run.json"));
  CHECK_THAT(r.err, Catch::Contains("resolution 1 x 3"));
  CHECK_FALSE(fs::exists(dir / "out" / "map.csv"));
  const fs::path run2 = wheel_run(dir, R"(, "map": {"r": [0.4, 0.1]})");
  r = run_saltus({"filippov", "map", run2.string(), "--out", (dir / "out").string()});
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("r_min < r_max"));
  r = run_saltus({"filippov", "map", example("wheel_turntable.json").string(), "--threads", "-1"});
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("--threads -1"));
  fs::remove_all(dir);
}

TEST_CASE("saltus filippov futures: arrivals at x* and futures through the escaping region",
          "[cli][filippov][futures]") {
  const fs::path dir = scratch("futures");
  const Run r = run_saltus({"filippov", "futures", example("wheel_turntable.json").string(), "--out",
                            (dir / "out").string(), "--samples", "4", "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  CHECK(j["case"] == "case 1");
  REQUIRE(j["approaches"].size() == 5);
  for (const auto& a : j["approaches"]) {
    CHECK(a["start_region"] == "sliding");
    CHECK(a["arrived"] == true);
    CHECK(a["final_distance"].get<double>() <= 1.000001e-6);
    CHECK(a["arrival_time"].get<double>() > 0.0);
  }
  REQUIRE(j["futures"].size() == 4);
  for (const auto& f : j["futures"]) {
    CHECK(f["start_region"] == "escaping");
    CHECK(f["left_side"] == f["sampled_side"]);
  }
  for (const char* file : {"futures.csv", "approach.csv", "regions.csv", "futures.json", "futures.gp"})
    CHECK(fs::exists(dir / "out" / file));
  fs::remove_all(dir);
}

TEST_CASE("saltus filippov futures: a two-fold that is not case 1 is a clear error",
          "[cli][filippov][futures][errors]") {
  const fs::path dir = scratch("futures-bad");
  fs::create_directories(dir);
  // (r*, omega*) = (0.3, -0.8): case 3 (kappa < 0: the tyre's surface values).
  std::ofstream(dir / "run.json") << R"({"model": "wheel_turntable", "tyre": "sticking",
      "two_fold_at": {"r": 0.3, "omega": -0.8}, "guess": {"r": 0.3, "v": -0.04, "omega": -0.8}})";
  const Run r =
      run_saltus({"filippov", "futures", (dir / "run.json").string(), "--out", (dir / "out").string()});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("not a case-1 two-fold"));
  fs::remove_all(dir);
}

TEST_CASE("saltus filippov continue: the two-fold in k2 crosses the K++ = 0 boundary of case 1",
          "[cli][filippov][continue]") {
  const fs::path dir = scratch("twofold-continue");
  const fs::path run = wheel_run(dir, R"(, "continuation": {"parameter": "k2", "max_points": 40})");
  const Run r = run_saltus({"filippov", "continue", run.string(), "--out", (dir / "out").string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  bool found = false;
  for (const auto& b : j["boundaries"])
    if (b["test"] == "K++") {
      found = true;
      CHECK(b["before"] == "case 1");
      CHECK(b["after"] == "visible-invisible");
      CHECK(b["x"]["omega"].get<double>() == Approx(-1.2515).margin(1e-3));
      CHECK(b["status"] == "located");
    }
  CHECK(found);
  CHECK(fs::exists(dir / "out" / "twofold_branch.csv"));
  const fs::path bad = wheel_run(dir / "bad", R"(, "continuation": {"parameter": "spring"})");
  const Run e = run_saltus({"filippov", "continue", bad.string()});
  CHECK(e.code == 1);
  CHECK_THAT(e.err, Catch::Contains("'spring'"));
  fs::remove_all(dir);
}

TEST_CASE("saltus filippov twofold: a switching surface without gradient at the guess",
          "[cli][filippov][errors]") {
  const fs::path dir = scratch("twofold-gradient");
  fs::create_directories(dir);
  // gamma = 0: h = -r (omega - omega0), whose gradient (-(omega - omega0), 0, -r) vanishes at r = 0, omega =
  // omega0.
  std::ofstream(dir / "run.json")
      << R"({"model": "wheel_turntable", "parameters": {"gamma": 0, "kappa": 0.2, "k2": 1},
      "guess": {"r": 0, "v": 0.3, "omega": -1}})";
  const Run r = run_saltus({"filippov", "twofold", (dir / "run.json").string()});
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("run.json"));
  CHECK_THAT(r.err, Catch::Contains("not regular"));
  CHECK_THAT(r.err, Catch::Contains("|h_x| = 0"));
  fs::remove_all(dir);
}
