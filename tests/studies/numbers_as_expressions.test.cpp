// Numbers are accepted wherever an expression is (issue 35): "stick_bound":
// 1.6 is the expression "1.6", a field entry 0 the rate 0; other types are
// refused with the key and what to give.

#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>

#include "studies/hybrid_study.h"

using namespace saltus;
using studies::Json;

namespace {

Json example(const std::string& name) {
  return Json::parse(std::ifstream(std::string(SALTUS_SOURCE_DIR) + "/examples/" + name));
}

}  // namespace

TEST_CASE("a number stands for itself where an expression is expected", "[studies][expressions]") {
  // The stick-slip oscillator's static bound mu_s / mu_k = 0.4 / 0.25, as
  // the expression and as the number 1.6.
  Json text = example("user/stick_slip.json");
  Json number = text;
  number["filippov"]["stick_bound"] = 1.6;
  const flow::Trajectory a = studies::simulate(*studies::load_hybrid_description(text, "text"));
  const flow::Trajectory b = studies::simulate(*studies::load_hybrid_description(number, "number"));
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a.events.size() == b.events.size());
  CHECK((a.x_end - b.x_end).norm() <= 1e-12 * (1 + a.x_end.norm()));

  // A free particle: v' = 0 given as the number 0, x' = v.
  Json free = {{"name", "free"},
               {"states", {"x", "v"}},
               {"parameters", Json::object()},
               {"modes", {{"flight", {{"field", {{"x", "v"}, {"v", 0}}}}}}},
               {"initial", {{"x", 1.0}, {"v", 0.5}}},
               {"time", {0, 4}}};
  const flow::Trajectory f = studies::simulate(*studies::load_hybrid_description(free, "free"));
  REQUIRE(f.ok());
  CHECK(std::abs(f.x_end[0] - 3.0) < 1e-12);
  CHECK(f.x_end[1] == 0.5);

  // The forcing period of an own system (here a forced Filippov one) as a
  // number: before, "'forcing_period' must be an expression of the parameters".
  Json forced = example("user/dry_friction_oscillator.json");
  forced["forcing_period"] = 4.0;
  CHECK(studies::load_hybrid_description(forced, "forced")->forcing_period == 4.0);
  forced["forcing_period"] = true;
  CHECK_THROWS_WITH(studies::load_hybrid_description(forced, "bad"),
                    Catch::Contains("forcing_period") && Catch::Contains("or a number, got true"));

  number["filippov"]["stick_bound"] = true;
  CHECK_THROWS_WITH(studies::load_hybrid_description(number, "bad"),
                    Catch::Contains("filippov.stick_bound") && Catch::Contains("or a number, got a boolean"));
}
