#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "drivers/cli.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Run {
  int code;
  std::string out, err;
};

Run run_saltus(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int code = saltus::drivers::run_cli(args, out, err);
  return {code, out.str(), err.str()};
}

fs::path scratch(const std::string& name) {
  static std::mt19937 rng(std::random_device{}());
  return fs::temp_directory_path() / ("saltus-hybrid-" + name + "-" + std::to_string(rng()));
}

fs::path example(const std::string& name) { return fs::path(SALTUS_SOURCE_DIR) / "examples" / name; }

}  // namespace

TEST_CASE("saltus simulate examples/bouncing_ball.json: the ball comes to rest on the table", "[cli][hybrid]") {
  const fs::path out = scratch("bb");
  const Run r = run_saltus({"simulate", example("bouncing_ball.json").string(), "--out", out.string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json summary = json::parse(r.out);
  CHECK(summary["status"] == "finished");
  CHECK(summary["mode_end"] == "contact");
  CHECK(summary["events"].get<int>() < 60);
  for (const char* f : {"trajectory.csv", "events.csv", "summary.json", "phase.png", "time.png"})
    CHECK(fs::exists(out / f));
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
}

TEST_CASE("hybrid run files: bad input is named", "[cli][hybrid][errors]") {
  struct Case {
    std::string what, text, message;
  };
  const std::vector<Case> cases = {
      {"restitution above 1", R"({"model": "bouncing_ball", "parameters": {"e": 1.5},
        "initial": {"q": 0.1, "v": 0}, "time": [0, 1]})", "e = 1.5"},
      {"negative restitution", R"({"model": "bouncing_ball", "parameters": {"e": -0.2},
        "initial": {"q": 0.1, "v": 0}, "time": [0, 1]})", "e = -0.2"},
      {"missing state", R"({"model": "bouncing_ball", "initial": {"q": 0.1}, "time": [0, 1]})",
       "'initial.v' is missing"},
      {"unknown model", R"({"model": "pogo", "initial": {}, "time": [0, 1]})", "unknown model 'pogo'"},
      {"backwards time", R"({"model": "bouncing_ball", "initial": {"q": 0.1, "v": 0}, "time": [1, 0]})",
       "t1 > t0"},
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
