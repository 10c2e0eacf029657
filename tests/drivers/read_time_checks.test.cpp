// Issue 34, items 7, 10(c) and 10(e): what a hybrid run file says is
// checked when the file is read, not after an orbit was computed and its
// figures drawn; what it accepts works ("periodic.transient": 0 is no
// transient); and its strings never break a message over lines.

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>

#include "run_cli.h"
#include "studies/hybrid_run_file.h"
#include "studies/json_input.h"

using namespace saltus;
using namespace saltus::testing;
namespace fs = std::filesystem;

TEST_CASE("periodic.transient = 0 is no transient: the guess is the initial state, forced or autonomous",
          "[cli][periodic][errors]") {
  // It passed the reader and then failed with "the time span [0, 0] must be
  // finite with t1 > t0". A forced orbit: the same orbit as without the key
  // (the closed-form check of this orbit is fixed_parameter.test.cpp).
  const fs::path dir = scratch("transient-zero");
  nlohmann::ordered_json forced = example_json("user/impact_oscillator.json");
  forced["periodic"].erase("parameter");
  forced["initial"] = {{"x", -0.85}, {"v", 0.12}};  // near the orbit at w = 2.3
  forced["periodic"].erase("transient");
  const Run without = run_saltus(
      {"periodic", write_run(dir / "a", forced).string(), "--out", (dir / "a" / "out").string(), "--json"});
  forced["periodic"]["transient"] = 0;
  const Run zero = run_saltus(
      {"periodic", write_run(dir / "b", forced).string(), "--out", (dir / "b" / "out").string(), "--json"});
  INFO(without.err << zero.err);
  REQUIRE(without.code == 0);
  REQUIRE(zero.code == 0);
  const auto a = nlohmann::ordered_json::parse(without.out), b = nlohmann::ordered_json::parse(zero.out);
  CHECK(a["state"] == b["state"]);
  CHECK(a["parameters"] == b["parameters"]);

  // An autonomous orbit (the relay feedback system): the returns to the
  // section are looked for from the initial state at t0.
  nlohmann::ordered_json relay = example_json("user/relay_feedback.json");
  relay["periodic"].erase("parameter");
  relay["periodic"]["transient"] = 0;
  relay["periodic"]["record"] = 100;
  const Run autonomous = run_saltus(
      {"periodic", write_run(dir / "c", relay).string(), "--out", (dir / "c" / "out").string(), "--json"});
  INFO(autonomous.err);
  CHECK(autonomous.code == 0);
  CHECK_THAT(autonomous.err, !Catch::Contains("time span"));
  fs::remove_all(dir);
}

TEST_CASE("an unknown name in periodic.bounds is refused when the file is read, naming periodic.bounds",
          "[cli][periodic][errors]") {
  // It was found only after the orbit was computed and its figures written,
  // by a message that named neither the key nor the file's components.
  const fs::path dir = scratch("bounds-names");
  nlohmann::ordered_json file = example_json("user/impact_oscillator.json");
  file["periodic"]["bounds"]["omega"] = {0, 1};  // the model's frequency is w
  const fs::path path = write_run(dir, file);
  CHECK_THROWS_WITH(studies::read_hybrid_run(path),
                    Catch::Contains("'periodic.bounds.omega'") && Catch::Contains("known: x, v, w"));
  const Run r = run_saltus({"periodic", path.string(), "--out", (dir / "out").string()});
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("periodic.bounds.omega"));
  CHECK_FALSE(fs::exists(dir / "out"));  // nothing computed, nothing written

  // An autonomous branch has its period "T"; a curve its two parameters
  // (and an NS curve kappa): each accepted, anything else refused.
  nlohmann::ordered_json relay = example_json("user/relay_feedback.json");
  relay["periodic"]["bounds"]["T"] = {0, 100};
  CHECK_NOTHROW(studies::read_hybrid_run(write_run(dir / "relay", relay)));
  nlohmann::ordered_json curves = example_json("user/impact_oscillator_curves.json");
  auto& curve =
      curves["periodic"]["curve"].is_array() ? curves["periodic"]["curve"][0] : curves["periodic"]["curve"];
  curve["bounds"]["F"] = {0, 2};
  CHECK_NOTHROW(studies::read_hybrid_run(write_run(dir / "curve", curves)));
  curve["bounds"]["zeta"] = {0, 2};  // a parameter, but not one of the curve's
  CHECK_THROWS_WITH(studies::read_hybrid_run(write_run(dir / "curve", curves)),
                    Catch::Contains("'periodic.curve.bounds.zeta'"));
  fs::remove_all(dir);
}

TEST_CASE("control characters in a run file's strings are escaped in every message", "[cli][errors]") {
  CHECK(studies::printable("fl\night") == "fl\\night");
  CHECK(studies::printable("a\tb\rc\x01\x7f") == "a\\tb\\rc\\x01\\x7f");
  CHECK(studies::printable("gr\u00fc\u00dfe") == "gr\u00fc\u00dfe");  // UTF-8 passes
  const fs::path dir = scratch("control-characters");
  // A mode's name, a model's name, a key: each quoted back in a message.
  nlohmann::ordered_json mode = example_json("bouncing_ball.json");
  mode["mode"] = "fl\night";
  nlohmann::ordered_json model = example_json("bouncing_ball.json");
  model["model"] = "bouncing\rball";
  nlohmann::ordered_json key = example_json("bouncing_ball.json");
  key["simulation"]["max\tstep"] = 1;
  for (const auto& [file, shown] : {std::pair{mode, "'fl\\night'"}, std::pair{model, "'bouncing\\rball'"},
                                    std::pair{key, "'simulation.max\\tstep'"}}) {
    const Run r = run_saltus({"simulate", write_run(dir, file).string(), "--out", (dir / "out").string()});
    INFO(r.err);
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Catch::Contains(shown));
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);  // one line
    CHECK(r.err.find('\r') == std::string::npos);
    CHECK(r.err.find('\t') == std::string::npos);
  }
  fs::remove_all(dir);
}
