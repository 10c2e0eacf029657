#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "run_cli.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace saltus::testing;

TEST_CASE("saltus filippov twofold examples/wheel_turntable.json: case 1 at the paper's point", "[cli][filippov]") {
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

TEST_CASE("saltus filippov twofold: a search that cannot converge is a clear error", "[cli][filippov][errors]") {
  const fs::path dir = scratch("twofold");
  fs::create_directories(dir);
  // gamma = pi/2: h_x . f_lambda = -(beta^2 + r^2) never vanishes, so there is no two-fold.
  std::ofstream(dir / "run.json") << R"({"model": "wheel_turntable", "parameters": {"gamma": 1.5707963267948966,
      "kappa": 0.3, "k2": 2.0}, "guess": {"r": 0.2, "v": -0.02, "omega": -1.05}})";
  const Run r = run_saltus({"filippov", "twofold", (dir / "run.json").string()});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("run.json"));
  CHECK(!r.err.empty());
  fs::remove_all(dir);
}
