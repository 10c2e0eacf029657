#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "continuation/flow/simulate.h"
#include "models/expression_system.h"
#include "run_cli.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace saltus;
using namespace saltus::testing;

namespace {

json run_file_json(const fs::path& file, const fs::path& out) {
  const Run r = run_saltus({"continue", file.string(), "--out", out.string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  return json::parse(r.out);
}

std::vector<json> of_type(const json& summary, const std::string& type) {
  std::vector<json> out;
  for (const auto& s : summary["special_points"])
    if (s["type"] == type) out.push_back(s);
  return out;
}

// The rows of a CSV file as name -> text.
std::vector<std::map<std::string, std::string>> read_csv(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  std::stringstream hs(line);
  for (std::string cell; std::getline(hs, cell, ',');) header.push_back(cell);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    std::stringstream ls(line);
    std::map<std::string, std::string> row;
    std::size_t k = 0;
    for (std::string cell; k < header.size() && std::getline(ls, cell, ','); ++k) row[header[k]] = cell;
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

TEST_CASE("examples/van_der_pol.json: HB at mu = 0, l1 = -1/4; its cycles to mu = 2 have the simulated period",
          "[cli][hopf]") {
  const fs::path out = scratch("van-der-pol");
  const json summary = run_file_json(example("van_der_pol.json"), out);
  const auto hb = of_type(summary, "HB");
  REQUIRE(hb.size() == 1);
  CHECK(std::abs(hb[0]["parameters"]["mu"].get<double>()) < 1e-10);
  CHECK(hb[0]["l1"].get<double>() == Approx(-0.25).epsilon(1e-9));  // derived in tests/testfunctions/hopf.test.cpp
  CHECK(hb[0]["criticality"] == "supercritical");
  for (const char* f : {"branch.csv", "cycles.csv", "summary.json", "branch.png", "orbits.png"})
    CHECK(fs::exists(out / f));

  // branch.csv: stable (no eigenvalue right of the axis) before mu = 0, two unstable after.
  const auto rows = read_csv(out / "branch.csv");
  REQUIRE(rows.size() > 10);
  for (const auto& row : rows) {
    const double mu = std::stod(row.at("mu"));
    if (std::abs(mu) > 1e-6) CHECK(std::stoi(row.at("unstable")) == (mu > 0 ? 2 : 0));
    CHECK(std::stod(row.at("re_1")) == Approx(mu / 2).margin(1e-9));  // eigenvalues mu/2 +- i sqrt(1 - mu^2/4)
  }

  // The cycles end at mu = 2 ("EP"); the period there against a direct
  // simulation: a transient of 200 time units, then the time between two
  // upward crossings of x = 0, located on the dense output.
  const auto cycles = read_csv(out / "cycles.csv");
  REQUIRE(!cycles.empty());
  const auto& last = cycles.back();
  REQUIRE(std::stod(last.at("mu")) == Approx(2.0).margin(1e-9));
  const double T = std::stod(last.at("T"));
  const auto ode = models::make_expression_ode({"x", "y"}, {"mu"}, {"y", "-x + (mu - x^2)*y"});
  flow::SimulationOptions options;
  options.absolute_tolerance = options.relative_tolerance = 1e-13;
  options.event_tolerance = 1e-14;
  options.output_interval = 0;
  Vector x0(3);
  x0 << 0.5, 0.0, 2.0;
  const flow::Section upward{[](double, const Vector& x) { return x[0]; }, flow::Crossing::kRising};
  const flow::Trajectory tr = flow::simulate(*ode, 0, 0.0, x0, 230.0, options, {}, {upward});
  REQUIRE(tr.ok());
  std::vector<double> hits;
  for (const auto& h : tr.section_hits)
    if (h.t > 200) hits.push_back(h.t);
  REQUIRE(hits.size() >= 2);
  CHECK(std::abs(T - (hits[1] - hits[0])) < 1e-8);
  // Stable cycles: the nontrivial multiplier inside the unit circle, as the HB's l1 < 0 says.
  const auto ep = of_type(summary, "EP");
  bool cycle_end = false;
  for (const auto& e : ep)
    if (e["branch"] == "cycles") {
      cycle_end = true;
      CHECK(std::abs(e["multipliers"][0][0].get<double>()) < 1.0);
    }
  CHECK(cycle_end);
}

TEST_CASE("examples/brusselator.json: HB at b = 1 + a^2 = 2, frequency 1, l1 = -1/2", "[cli][hopf]") {
  const json summary = run_file_json(example("brusselator.json"), scratch("brusselator"));
  const auto hb = of_type(summary, "HB");
  REQUIRE(hb.size() == 1);
  CHECK(std::abs(hb[0]["parameters"]["b"].get<double>() - 2.0) < 1e-10);
  CHECK(std::abs(hb[0]["frequency"].get<double>() - 1.0) < 1e-9);
  CHECK(std::abs(hb[0]["l1"].get<double>() + 0.5) < 1e-8);  // -(a^2 + 2) / (2a (2a^2 + 1)) at a = 1
  bool cycles = false;
  for (const auto& b : summary["branches"]) cycles |= b["name"] == "cycles" && b["points"].get<int>() > 5;
  CHECK(cycles);
}

TEST_CASE("Hopf run files: bad input is a clear error", "[cli][hopf]") {
  auto error_of = [](const std::string& text) {
    const fs::path dir = scratch("hopf-bad");
    fs::create_directories(dir);
    const fs::path file = dir / "bad.json";
    std::ofstream(file) << text;
    const Run r = run_saltus({"continue", file.string(), "--out", (dir / "out").string()});
    CHECK(r.code != 0);
    return r.err;
  };
  const std::string base = R"("unknowns": ["x", "y"], "parameters": {"mu": -1}, "equations": ["y", "-x + (mu - x^2)*y"],
                             "start": {"x": 0, "y": 0}, "continuation": {"parameter": "mu", "bounds": {"mu": [-1, 1]}})";
  // HB asked without equilibria.
  CHECK_THAT(error_of("{" + base + R"(, "hopf_cycles": {}})"), Catch::Contains("set \"equilibria\": true"));
  // Cycles from an HB the branch does not have.
  CHECK_THAT(error_of("{" + base + R"(, "equilibria": true, "hopf_cycles": {"from": 2}})"),
             Catch::Contains("'hopf_cycles.from' = 2, but the first branch has 1 HB point(s)"));
  // A non-positive amplitude.
  CHECK_THAT(error_of("{" + base + R"(, "equilibria": true, "hopf_cycles": {"amplitude": -1}})"),
             Catch::Contains("'hopf_cycles.amplitude' must be positive"));
  // Equilibria with a periodic study.
  CHECK_THAT(error_of("{" + base + R"(, "equilibria": true, "periodic": {"period": 6}})"),
             Catch::Contains("give one of them"));
  // Cycles from a degenerate HB (the classical van der Pol, l1 = 0).
  const std::string classical =
      R"({"unknowns": ["x", "y"], "parameters": {"mu": -1}, "equations": ["y", "-x + mu*(1 - x^2)*y"],
          "start": {"x": 0, "y": 0}, "equilibria": true, "hopf_cycles": {},
          "continuation": {"parameter": "mu", "bounds": {"mu": [-1, 1]}}})";
  CHECK_THAT(error_of(classical), Catch::Contains("degenerate"));
}
