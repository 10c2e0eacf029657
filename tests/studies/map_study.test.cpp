// The attractor map study (studies/map_study.h) against `saltus map`, which
// runs the same points through the grid runner's journal: the same class
// and event count at every grid point, seeded by rows or not.

#include "studies/map_study.h"

#include <catch2/catch.hpp>
#include <fstream>

#include "../drivers/run_cli.h"
#include "studies/hybrid_study.h"

using namespace saltus;
using namespace saltus::testing;

TEST_CASE("map study: the command line's classes and events at every grid point", "[studies][map]") {
  const std::filesystem::path dir = scratch("map-study");
  std::filesystem::create_directories(dir);
  for (const char* seed : {"none", "rows"}) {
    INFO(seed);
    studies::Json description =
        studies::Json::parse(std::ifstream(example("user/impact_oscillator_map.json")));
    description["map"] = {{"x", {{"parameter", "w"}, {"from", 2.0}, {"to", 4.0}, {"steps", 6}}},
                          {"y", {{"parameter", "F"}, {"from", 0.5}, {"to", 1.5}, {"steps", 3}}},
                          {"transient", 40},
                          {"record", 30},
                          {"seed", seed},
                          {"threads", 2}};
    std::ofstream(dir / "run.json") << description.dump();
    const Run cli = run_saltus({"map", (dir / "run.json").string(), "--out", (dir / seed).string()});
    INFO(cli.err);
    REQUIRE(cli.code == 0);
    const auto rows = read_csv(dir / seed / "map.csv");

    const auto run = studies::load_hybrid_description(description, "map");
    const studies::MapResult map = studies::attractor_map(*run);
    CHECK(!map.interrupted);
    REQUIRE(map.x.size() == 6);
    REQUIRE(map.y.size() == 3);
    REQUIRE(rows.size() == 18);
    std::set<std::string> classes;
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const studies::MapPoint& p = map.points[k];
      CHECK(map.done[k]);
      CHECK(std::stod(rows[k].at("w")) == Approx(map.x[k % 6]).epsilon(1e-14));
      CHECK(std::stod(rows[k].at("F")) == Approx(map.y[k / 6]).epsilon(1e-14));
      const std::string c = studies::map_class(p.distinct, !p.settled.failure.empty(), run->map->max_period);
      CHECK(rows[k].at("class") == c);
      CHECK(std::stoi(rows[k].at("events")) == p.settled.events);
      CHECK(std::stoi(rows[k].at("distinct_hits")) == p.distinct);
      classes.insert(c);
    }
    CHECK(classes.size() >= 2);  // the map is not one class: the comparison sees the classes differ
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("map_class: period-N up to max_period, then chaotic; a failure escaped", "[map][studies]") {
  CHECK(saltus::studies::map_class(2, false, 8) == "period-2");
  CHECK(saltus::studies::map_class(9, false, 8) == "chaotic");
  CHECK(saltus::studies::map_class(0, false, 8) == "no hits");
  CHECK(saltus::studies::map_class(1, true, 8) == "escaped");
}
