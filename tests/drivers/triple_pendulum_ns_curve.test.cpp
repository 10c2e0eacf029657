// The light-set triple pendulum's Neimark-Sacker curve in (q1, c) with the
// joint dampings tied, c = c1 = c2 = c3 (examples/triple_pendulum_light_ns_
// curve.json: shooting through the impacts plus the bordered NS test
// function of the saltation-corrected monodromy, continuation/periodic/
// cycle_curve.h, on the tangent-lifted mechanical system) against an
// independent one-parameter location of the NS at another damping.

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>

#include "run_cli.h"

using namespace saltus::testing;
namespace fs = std::filesystem;

namespace {

constexpr const char* tied = "c1=c2=c3";  // the curve's second parameter, as the map labels it

// The first located NS of a branch's special points: its q1 (NaN if none).
double first_ns(const nlohmann::json& special_points) {
  for (const auto& sp : special_points)
    if (sp["type"] == "NS" && sp["status"] == "located") return sp["parameters"]["q1"].get<double>();
  return NAN;
}

nlohmann::json run_periodic(const nlohmann::json& run, const fs::path& dir) {
  fs::create_directories(dir);
  std::ofstream(dir / "run.json") << run.dump(2);
  const Run r = run_saltus({"periodic", (dir / "run.json").string(), "--out", (dir / "out").string()});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  return nlohmann::json::parse(std::ifstream(dir / "out" / "summary.json"));
}

}  // namespace

TEST_CASE(
    "saltus periodic examples/triple_pendulum_light_ns_curve.json: the NS curve in (q1, c) with c1 = c2 = c3 "
    "tied passes through the one-parameter NS at c = 0.12 and c = 0.122",
    "[cli][periodic][curve][cycle_curve][triple_pendulum]") {
  const fs::path dir = scratch("triple-pendulum-ns-curve");
  const auto example =
      nlohmann::json::parse(std::ifstream(saltus::testing::example("triple_pendulum_light_ns_curve.json")));

  // The curve one way only, up in c to c = 0.122, where it ends at its bound
  // (a located EP): a short stretch of the example's curve.
  nlohmann::json run = example;
  nlohmann::json curve = example["periodic"]["curve"][0];
  curve["bounds"][tied] = {0.1, 0.122};
  run["periodic"]["curve"] = nlohmann::json::array({curve});
  const auto summary = run_periodic(run, dir / "curve");
  // The start: the branch's NS at c = 0.12, q1 = 1.28313 (the diagram of
  // examples/triple_pendulum_light.json, tests/drivers/hybrid_cli.test.cpp).
  const double start = first_ns(summary["branch"]["special_points"]);
  CHECK(std::abs(start - 1.28313) < 1e-5);
  const auto rows = read_csv(dir / "curve" / "out" / "curve_1.csv");
  REQUIRE(rows.size() >= 2);
  // The curve starts on the located NS, corrected onto the curve's equations.
  CHECK(std::abs(std::stod(rows.front().at("q1")) - start) < 1e-8);
  CHECK(std::abs(std::stod(rows.front().at(tied)) - 0.12) < 1e-12);
  REQUIRE(summary["curves"].size() == 1);
  double end = NAN;
  for (const auto& sp : summary["curves"][0]["special_points"]) {
    INFO(sp.dump());
    if (sp["type"] == "EP" && sp["status"] == "located" &&
        std::abs(sp["parameters"][tied].get<double>() - 0.122) < 1e-9)
      end = sp["state"]["q1"].get<double>();
  }
  REQUIRE(std::isfinite(end));

  // The one-parameter branch at c = 0.122 from q1 = 1.287 down in q1 to its
  // NS: no curve system involved. It starts its transient on the period-1
  // orbit of c = 0.12 (the branch's first point): from the example's
  // initial state the pendulum settles on another attractor at c = 0.122
  // (the light set is multistable there).
  nlohmann::json one = example;
  one["periodic"].erase("curve");
  for (const char* c : {"c1", "c2", "c3"}) one["parameters"][c] = 0.122;
  const auto first = read_csv(dir / "curve" / "out" / "branch.csv").front();
  for (auto& [name, value] : one["initial"].items()) value = std::stod(first.at(name));
  const double ns = first_ns(run_periodic(one, dir / "one")["branch"]["special_points"]);
  WARN("NS curve at c = 0.122: q1 = " << std::setprecision(12) << end << " (one-parameter NS: " << ns << ")");
  // Both located to event_tolerance 1e-9 on orbits integrated to 1e-10.
  CHECK(std::abs(end - ns) < 1e-7);
  // Damping delays the torus: the NS moves down in q1 as c grows.
  CHECK(end < start - 1e-3);
  fs::remove_all(dir);
}
