// Issue 12, "must show" 6: each kind of bad input in a run file's own system
// (hybrid, mechanical, Filippov schemas) through the command line: exit 1,
// `saltus: error: <file>: ...` naming the key and the value, and nothing
// written (the output folder is not even created). The reader-level checks
// of the same cases are in user_models.test.cpp; this is the end-to-end run.

#include <catch2/catch.hpp>
#include <fstream>

#include "run_cli.h"

namespace fs = std::filesystem;
using namespace saltus::testing;

TEST_CASE("your own system: each kind of bad input is a named error, exit 1, nothing written",
          "[cli][user][errors]") {
  struct Case {
    std::string what, text;
    std::vector<std::string> messages;  // each must appear in stderr
  };
  const std::string hybrid = R"("states": ["x", "v"], "parameters": {"k": 1}, "initial": {"x": 1, "v": 0},
                                "time": [0, 1], )";
  const std::string mechanical = R"("coordinates": ["q"], "parameters": {"m": 1}, "time": [0, 1],
                                    "forces": ["-q"], )";
  const std::string filippov = R"("states": ["x", "y"], "parameters": {"a": 1}, "initial": {"x": 1, "y": 0},
                                  "time": [0, 1], )";
  const std::vector<Case> cases = {
      {"a guard naming an unknown mode",
       "{" + hybrid + R"("modes": {"free": {"field": ["v", "-k*x"],
        "guards": [{"h": "x + 2", "to": "flyng"}]}}})",
       {"modes.free.guards[0].to", "'flyng' is not a mode"}},
      {"a reset of the wrong length",
       "{" + hybrid + R"("modes": {"free": {"field": ["v", "-k*x"],
        "guards": [{"h": "x + 2", "reset": ["x", "v", "k"]}]}}})",
       {"modes.free.guards[0].reset", "3 expressions for 2"}},
      {"a mass matrix singular at the start (zero)",
       "{" + mechanical + R"("mass": ["m - 1"],
        "initial": {"q": 0.5, "q_dot": 0}})",
       {"'initial'", "not symmetric positive definite"}},
      {"a mass matrix singular at the start (2 x 2, det = 1 - q1^2 = 0)",
       R"({"coordinates": ["q1", "q2"], "time": [0, 1], "forces": ["0", "0"],
        "mass": [["1", "q1"], ["q1", "1"]], "initial": {"q1": 1, "q2": 0, "q1_dot": 0, "q2_dot": 0}})",
       {"'initial'", "not symmetric positive definite"}},
      {"a constraint that does not depend on q",
       "{" + mechanical + R"("mass": ["1"],
        "constraints": [{"h": "m + 1 - t"}], "initial": {"q": 0.5, "q_dot": 0}})",
       {"constraints[0].h", "'m + 1 - t'", "does not depend on the coordinates"}},
      {"an initial state through a constraint",
       "{" + mechanical + R"("mass": ["1"],
        "constraints": [{"name": "wall", "h": "1 - q"}], "initial": {"q": 1.5, "q_dot": 0}})",
       {"'initial'", "violates constraint 1"}},
      {"an initial state past a guard (your own bouncing ball below its table)",
       R"({"states": ["q", "v"], "initial": {"q": -0.1, "v": 0}, "time": [0, 1],
        "modes": {"flight": {"field": ["v", "-1"], "guards": [{"name": "impact", "h": "q", "reset": ["q", "-v"]}]}}})",
       {"'initial'", "past its guard 'impact'"}},
      {"the built-in ball below its table",
       R"({"model": "bouncing_ball", "initial": {"q": -0.1, "v": 0},
        "time": [0, 1]})",
       {"'initial'", "past its guard 'impact'"}},
      {"a Filippov field not affine in lambda",
       "{" + filippov + R"("filippov": {"h": "x",
        "field": ["-x + lambda", "a*lambda^2"]}})",
       {"filippov.field", "not affine in lambda"}},
      {"a name used twice (a state and a parameter)",
       R"({"states": ["x", "k"], "parameters": {"k": 1},
        "initial": {"x": 1, "k": 0}, "time": [0, 1], "modes": {"free": {"field": ["k", "-x"]}}})",
       {"'k' is used twice"}},
      {"a name used twice (a Filippov state)",
       R"({"states": ["x", "x"], "initial": {"x": 1}, "time": [0, 1],
        "filippov": {"h": "x", "field": ["-lambda", "1"]}})",
       {"'x' is used twice"}},
      {"a name used twice (a mechanical definition)",
       "{" + mechanical + R"("definitions": {"q": "1"},
        "mass": ["1"], "initial": {"q": 0.5, "q_dot": 0}})",
       {"definitions.q", "used twice"}},
      {"an unknown name (hybrid field)",
       "{" + hybrid + R"("modes": {"free": {"field": ["v", "-kappa*x"]}}})",
       {"modes.free.field[1]", "unknown name 'kappa'"}},
      {"an unknown name (mechanical force)",
       R"({"coordinates": ["q"], "time": [0, 1], "mass": ["1"],
        "initial": {"q": 0.5, "q_dot": 0}, "forces": ["-omega^2*q"]})",
       {"forces", "unknown name 'omega'"}},
      {"an unknown name (Filippov switching function)",
       "{" + filippov + R"("filippov": {"h": "x - b",
        "field": ["-lambda", "a"]}})",
       {"filippov.h", "unknown name 'b'"}},
  };
  for (const auto& c : cases) {
    SECTION(c.what) {
      const fs::path dir = scratch("user-bad");
      fs::create_directories(dir);
      std::ofstream(dir / "run.json") << c.text;
      const Run r = run_saltus({"simulate", (dir / "run.json").string(), "--out", (dir / "out").string()});
      INFO(r.err);
      CHECK(r.code == 1);
      CHECK_THAT(r.err, Catch::StartsWith("saltus: error: ") && Catch::Contains("run.json"));
      for (const auto& m : c.messages) CHECK_THAT(r.err, Catch::Contains(m));
      CHECK_FALSE(fs::exists(dir / "out"));
      fs::remove_all(dir);
    }
  }
}
