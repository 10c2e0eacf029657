// `saltus periodic --over-map MAP.csv`: the two-parameter curves drawn over
// a brute-force map of `saltus map` (drivers/periodic_curve.h,
// map_backdrop in studies/map_files.h), and the clear errors when the
// file is not a map of the curves' parameters.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "run_cli.h"

using namespace saltus::testing;
namespace fs = std::filesystem;

namespace {

// The impact oscillator's curves run file with one short grazing curve
// (the test is about the figure, not the curve).
fs::path short_curves(const fs::path& dir) {
  std::ifstream in(example("user/impact_oscillator_curves.json"));
  nlohmann::json run = nlohmann::json::parse(in);
  run["periodic"]["curve"] = nlohmann::json::array({run["periodic"]["curve"][0]});
  run["periodic"]["curve"][0]["max_points"] = 5;
  fs::create_directories(dir);
  std::ofstream(dir / "curves.json") << run.dump(2);
  return dir / "curves.json";
}

void write(const fs::path& file, const std::string& text) { std::ofstream(file) << text; }

}  // namespace

TEST_CASE("saltus periodic --over-map: the curves over a map of saltus map, faded, either way round",
          "[cli][map][curve]") {
  const fs::path dir = scratch("over-map");
  const fs::path curves = short_curves(dir);
  // A 3 x 2 map of the same system over (w, F), short times.
  std::ifstream in(example("user/impact_oscillator_map.json"));
  nlohmann::json map = nlohmann::json::parse(in);
  map["map"] = {{"x", {{"parameter", "w"}, {"from", 3.0}, {"to", 4.0}, {"steps", 3}}},
                {"y", {{"parameter", "F"}, {"from", 1.0}, {"to", 1.5}, {"steps", 2}}},
                {"transient", 20},
                {"record", 20}};
  std::ofstream(dir / "map.json") << map.dump(2);
  const Run m = run_saltus({"map", (dir / "map.json").string(), "--out", (dir / "map").string()});
  INFO(m.err);
  REQUIRE(m.code == 0);

  const Run r = run_saltus({"periodic", curves.string(), "--over-map", (dir / "map" / "map.csv").string(),
                            "--out", (dir / "out").string()});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::string gp = text_of(dir / "out" / "curves_w_F.gp");
  // Every class of the map is a series under the curve, in its map colour
  // halfway to white: period-1's #1f77b4 becomes #8fbbda ((0x1f + 0x100) / 2 = 0x8f, ...).
  for (const auto& row : read_csv(dir / "map" / "map.csv"))
    CHECK(gp.find("title '" + row.at("class") + "'") != std::string::npos);
  if (gp.find("title 'period-1'") != std::string::npos) CHECK(gp.find("'#8fbbda'") != std::string::npos);
  CHECK(gp.find("grazing (GR)") != std::string::npos);
  CHECK(gp.find("grazing (GR)") > gp.find("index 0 using"));  // the curve after (over) the map

  // A map over (F, w): the same figure with the map's axes swapped.
  std::string swapped = "F,w,class,period,distinct_hits,events\n";
  for (const auto& row : read_csv(dir / "map" / "map.csv"))
    swapped += row.at("F") + "," + row.at("w") + "," + row.at("class") + ",1,1,0\n";
  write(dir / "swapped.csv", swapped);
  const Run s = run_saltus({"periodic", curves.string(), "--over-map", (dir / "swapped.csv").string(),
                            "--out", (dir / "swapped").string()});
  INFO(s.err);
  REQUIRE(s.code == 0);
  CHECK(text_of(dir / "swapped" / "curves_w_F.dat") == text_of(dir / "out" / "curves_w_F.dat"));
}

TEST_CASE("saltus periodic --over-map: a file that is not a map of the curves' parameters is a clear error",
          "[cli][map][curve][errors]") {
  const fs::path dir = scratch("over-map-errors");
  const fs::path curves = short_curves(dir);
  write(dir / "other.csv", "zeta,d,class,period,distinct_hits,events\n0.05,0.1,period-1,1,1,0\n");
  write(dir / "not_a_map.csv", "point,label,w\n1,,2.3\n");
  write(dir / "bad_class.csv", "w,F,class\n2,1,period-0\n");
  write(dir / "bad_row.csv", "w,F,class\n2,one,chaotic\n");
  write(dir / "empty.csv", "w,F,class\n");
  const struct {
    std::string file, runfile, expected;
  } cases[] = {
      {"other.csv", curves.string(), "the map is over (zeta, d), the curves over (w, F)"},
      {"not_a_map.csv", curves.string(), "not a map.csv of `saltus map`"},
      {"bad_class.csv", curves.string(), "'period-0' is not a class of `saltus map`"},
      {"bad_row.csv", curves.string(), "line 2 is not 'x,y,class,...'"},
      {"empty.csv", curves.string(), "the map has no points"},
      {"other.csv", example("user/impact_oscillator.json").string(), "no 'periodic.curve'"},
  };
  for (const auto& c : cases) {
    INFO(c.file << " with " << c.runfile);
    const fs::path out = dir / ("out-" + c.file);
    const Run r =
        run_saltus({"periodic", c.runfile, "--over-map", (dir / c.file).string(), "--out", out.string()});
    CHECK(r.code != 0);
    CHECK(r.err.find(c.expected) != std::string::npos);
    CHECK(r.err.find("--over-map " + (dir / c.file).string()) != std::string::npos);
    CHECK(!fs::exists(out));  // checked before anything is computed or written
  }
}
