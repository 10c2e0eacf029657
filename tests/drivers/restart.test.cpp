// `saltus continue RUNFILE --from DIR --point LABEL` (studies/restart.h): a
// follow-up restarted from a point saved in an earlier run's summary.json is
// the branch the one-run file computes. The follow-up depends on the point
// only through its state, parameters and (a BP's) tangent, which the summary
// keeps to full precision (nlohmann's shortest round-trip form), so the two
// agree to rounding; 1e-10 relative leaves room for a platform's libm and
// nothing for a wrong start (a neighbouring point of the branch is 1e-3 away
// or more).

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "run_cli.h"
#include "tests/fuzz/mutator.h"
#include "tests/fuzz/outcome.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace saltus::testing;

namespace {

std::vector<std::vector<std::string>> csv_cells(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

// Every number of the two CSV files within 1e-10 (relative above 1), the
// header and the labels equal.
void require_same_branch(const fs::path& a, const fs::path& b) {
  const auto ra = csv_cells(a), rb = csv_cells(b);
  INFO(a.string() << " against " << b.string());
  REQUIRE(ra.size() > 2);
  REQUIRE(ra.size() == rb.size());
  REQUIRE(ra[0] == rb[0]);
  double worst = 0;
  for (std::size_t i = 1; i < ra.size(); ++i) {
    REQUIRE(ra[i].size() == rb[i].size());
    for (std::size_t j = 0; j < ra[i].size(); ++j) {
      if (j == 1 || ra[i][j].empty() || rb[i][j].empty()) {  // the label column, or an empty cell
        CHECK(ra[i][j] == rb[i][j]);
        continue;
      }
      const double x = std::stod(ra[i][j]), y = std::stod(rb[i][j]);
      worst = std::max(worst, std::abs(x - y) / std::max(1.0, std::abs(x)));
    }
  }
  CHECK(worst <= 1e-10);
}

struct Restarted {
  fs::path first, again;  // the one-run output, the restart's
  json summary;           // the restart's
};

// The one-run file into DIR/one, then the restart from its LABEL into DIR/restart.
Restarted one_run_and_restart(const fs::path& file, const fs::path& dir, const std::string& label) {
  Restarted r{dir / "one", dir / "restart", {}};
  continue_json(file, r.first);
  const Run again = run_saltus({"continue", file.string(), "--from", r.first.string(), "--point", label,
                                "--out", r.again.string(), "--json"});
  INFO(again.err);
  REQUIRE(again.code == 0);
  r.summary = json::parse(again.out);
  return r;
}

void check_restored(const json& summary, const std::string& type) {
  CHECK(summary["points"] == 1);  // the first branch is the saved point alone
  CHECK(summary["stop_reason"] == "restored");
  CHECK(summary["special_points"][0]["type"] == type);
}

}  // namespace

TEST_CASE("restart from a saved LP: the fold curve of examples/cusp_fold_curve.json", "[cli][restart]") {
  const fs::path dir = scratch("restart-lp");
  const Restarted r = one_run_and_restart(example("cusp_fold_curve.json"), dir, "LP1");
  check_restored(r.summary, "LP");
  CHECK(r.summary["restart"]["point"] == "LP1");
  require_same_branch(r.first / "fold_curve.csv", r.again / "fold_curve.csv");
  fs::remove_all(dir);
}

TEST_CASE("restart from a saved BP: the switched branch of examples/pitchfork.json", "[cli][restart]") {
  const fs::path dir = scratch("restart-bp");
  const Restarted r = one_run_and_restart(example("pitchfork.json"), dir, "BP1");
  check_restored(r.summary, "BP");
  require_same_branch(r.first / "switched.csv", r.again / "switched.csv");
  fs::remove_all(dir);
}

TEST_CASE("restart from a saved HB: the cycles of examples/van_der_pol.json", "[cli][restart]") {
  const fs::path dir = scratch("restart-hb");
  const Restarted r = one_run_and_restart(example("van_der_pol.json"), dir, "HB1");
  check_restored(r.summary, "HB");
  require_same_branch(r.first / "cycles.csv", r.again / "cycles.csv");
  fs::remove_all(dir);
}

TEST_CASE("restart from a saved PD: the doubled branch of Lorenz orbits", "[cli][restart]") {
  // examples/lorenz.json shortened: its branch.csv row at rho = 231.02 as the
  // start (no simulation), down in rho through the first PD (rho = 229.41).
  const fs::path dir = scratch("restart-pd");
  fs::create_directories(dir);
  std::ofstream(dir / "lorenz_pd.json") << R"J({
    "unknowns": ["x", "y", "z"],
    "parameters": {"sigma": 10, "rho": 231.02426499560136, "beta": 2.6666666666666667},
    "equations": ["sigma*(y - x)", "x*(rho - z) - y", "x*y - beta*z"],
    "start": {"x": -22.850472751165579, "y": 19.774714360998011, "z": 246.51257533588588},
    "periodic": {"period": 0.47912058174833289,
      "simulation": {"absolute_tolerance": 1e-10, "relative_tolerance": 1e-10, "method": "dop853"},
      "period_doubling": {"levels": 1, "ds": 0.001, "max_points": 6}, "phase": ["x", "z"]},
    "continuation": {"parameter": "rho", "direction": -1, "ds": 0.2, "ds_max": 1.0, "max_points": 12,
      "event_tolerance": 1e-9, "bounds": {"rho": [225, 235]}, "detect": ["PD"]}})J";
  const Restarted r = one_run_and_restart(dir / "lorenz_pd.json", dir, "PD1");
  check_restored(r.summary, "PD");
  require_same_branch(r.first / "doubled1.csv", r.again / "doubled1.csv");
  fs::remove_all(dir);
}

TEST_CASE("restart: bad input is a clear error, nothing written", "[cli][restart]") {
  const fs::path dir = scratch("restart-bad");
  fs::create_directories(dir);
  continue_json(example("cusp_fold_curve.json"), dir / "one");
  const fs::path cusp = dir / "cusp.json";
  auto write_cusp = [&](const std::string& lambda, const std::string& follow_up) {
    std::ofstream(cusp) << R"({"unknowns": ["x"], "parameters": {"mu": -2, "lambda": )" << lambda
                        << R"(}, "equations": ["mu + lambda*x - x^3"], "start": {"x": -1.5},
        "continuation": {"parameter": "mu", "bounds": {"mu": [-2, 2]}}, )"
                        << follow_up << "}";
  };
  const std::string fold = R"("fold_curve": {"parameters": ["mu", "lambda"], "direction": -1})";
  struct Case {
    std::string what, from, point, lambda, follow_up;
    std::vector<std::string> messages;
  };
  const std::vector<Case> cases = {
      {"a folder without a summary",
       (dir / "nothing").string(),
       "LP1",
       "1",
       fold,
       {"summary.json", "give the output folder of an earlier `saltus continue` run"}},
      {"a point the folder does not hold",
       (dir / "one").string(),
       "LP3",
       "1",
       fold,
       {"--point LP3", "has 2 LP point(s)", "give one of LP1, LP2"}},
      {"a label that is no label", (dir / "one").string(), "first", "1", fold, {"as LP1, BP2"}},
      {"a label of another kind",
       (dir / "one").string(),
       "LP1",
       "1",
       R"("switch_branch": {"bounds": {"x": [-1, 1]}})",
       {"no follow-up that starts from an LP point", "LP: fold_curve"}},
      {"a run file that does not match the saved run",
       (dir / "one").string(),
       "LP1",
       "2",
       fold,
       {"the saved run has lambda = 1, the run file 2", "run the study again"}},
  };
  for (const auto& c : cases) {
    SECTION(c.what) {
      write_cusp(c.lambda, c.follow_up);
      const fs::path out = dir / "out";
      const Run r = run_saltus(
          {"continue", cusp.string(), "--from", c.from, "--point", c.point, "--out", out.string()});
      INFO(r.err);
      CHECK(r.code == 1);
      CHECK_THAT(r.err, Catch::StartsWith("saltus: error: " + cusp.string() + ": --from "));
      for (const auto& m : c.messages) CHECK_THAT(r.err, Catch::Contains(m));
      CHECK(!fs::exists(out));
    }
  }
  // --point without --from (and the other way) is a usage error.
  CHECK(run_saltus({"continue", cusp.string(), "--point", "LP1"}).code != 0);
  fs::remove_all(dir);
}

TEST_CASE("restart: mutated saved summaries give a run or a clear error", "[cli][restart][fuzz]") {
  // The saved summary.json is read like a run file, so it gets the run
  // files' mutations (tests/fuzz/mutator.h: extreme numbers, deleted keys,
  // swapped types, deep nesting, cut text): every mutant must end in a run
  // or in an error naming the summary, never in library text or a crash.
  const fs::path dir = scratch("restart-fuzz");
  const fs::path file = example("pitchfork.json");
  continue_json(file, dir / "one");
  std::ifstream in(dir / "one" / "summary.json");
  const saltus::fuzz::Json saved = saltus::fuzz::Json::parse(in);
  std::mt19937_64 rng(16);
  int errors = 0;
  for (int i = 0; i < 120; ++i) {
    const saltus::fuzz::Mutant m = saltus::fuzz::mutate(saved, rng);
    fs::create_directories(dir / "mutant");
    std::ofstream(dir / "mutant" / "summary.json", std::ios::binary) << m.text;
    const Run r = run_saltus({"continue", file.string(), "--from", (dir / "mutant").string(), "--point",
                              "BP1", "--out", (dir / "out").string()});
    saltus::fuzz::RunResult result;
    result.exit_code = r.code;
    result.out = r.out;
    result.err = r.err;
    // The error must name the file that is wrong: the summary, not the run file.
    const saltus::fuzz::Outcome outcome =
        saltus::fuzz::classify(result, (dir / "mutant" / "summary.json").string());
    INFO("mutant " << i << ": " << m.description << "\n" << r.err);
    CHECK(!saltus::fuzz::is_failure(outcome));
    errors += outcome == saltus::fuzz::Outcome::error;
    fs::remove_all(dir / "out");
  }
  CHECK(errors > 10);  // the mutants reach the checks
  fs::remove_all(dir);
}

TEST_CASE("restart: a damaged saved point is a clear error naming summary.json and the key",
          "[cli][restart]") {
  // The fuzzer's case (issue 34): "type": null in the saved summary gave
  // nlohmann's "type must be string, but is null", blaming the run file.
  const fs::path dir = scratch("restart-damaged");
  const fs::path file = example("pitchfork.json");
  continue_json(file, dir / "one");
  const json saved = json::parse(text_of(dir / "one" / "summary.json"));
  std::size_t bp = 0;
  while (bp < saved["special_points"].size() && saved["special_points"][bp]["type"] != "BP") ++bp;
  REQUIRE(bp < saved["special_points"].size());
  const std::string at = "'special_points[" + std::to_string(bp) + "]";
  const std::string x = saved["special_points"][bp]["state"].begin().key();
  struct Case {
    std::string what;
    std::function<void(json&)> damage;
    std::string message;
  };
  const auto point = [bp](json& s) -> json& { return s["special_points"][bp]; };
  const std::vector<Case> cases = {
      {"type null", [&](json& s) { point(s)["type"] = nullptr; }, at + ".type' must be a string, got null"},
      {"status a number", [&](json& s) { point(s)["status"] = 3; }, at + ".status' must be a string, got 3"},
      {"status unknown", [&](json& s) { point(s)["status"] = "sure"; },
       at + ".status' must be \"located\" or \"bracketed\", got \"sure\""},
      {"a state value null", [&](json& s) { point(s)["state"][x] = nullptr; },
       at + ".state." + x + "' must be a finite number, got null"},
      // The fuzzer's: a finite state far off the branch, which the branching equation met as NaN.
      {"a state off the branch", [&](json& s) { point(s)["state"][x] = -1e308; },
       at + "' is not a solution of the run file's equations (|F| = "},
      {"a tangent of zeros",
       [&](json& s) {
         for (auto& [k, v] : point(s)["tangent"].items()) v = 0.0;
       },
       at + ".tangent' must be a unit vector (its length is 0.000000)"},
      {"a tangent of another size", [&](json& s) { point(s)["tangent"]["extra"] = 0.0; },
       at + ".tangent' must have the"},
      {"precision a string", [&](json& s) { point(s)["precision"] = "x"; },
       at + ".precision' must be a number or null, got \"x\""},
      {"a name that is no string", [&](json& s) { point(s)["name"] = json::array(); },
       at + ".name' must be a string, got []"},
      {"an entry that is no object", [&](json& s) { s["special_points"][0] = 5; },
       "'special_points[0]' must be an object, got 5"},
      {"a first branch that is no object", [&](json& s) { s["branches"][0] = json::array(); },
       "'branches[0].continuation_parameters' is missing"},
  };
  for (const auto& c : cases) {
    SECTION(c.what) {
      json damaged = saved;
      c.damage(damaged);
      fs::create_directories(dir / "damaged");
      std::ofstream(dir / "damaged" / "summary.json") << damaged.dump(2);
      const Run r = run_saltus({"continue", file.string(), "--from", (dir / "damaged").string(), "--point",
                                "BP1", "--out", (dir / "out").string()});
      INFO(r.err);
      CHECK(r.code == 1);
      CHECK_THAT(r.err, Catch::Contains((dir / "damaged" / "summary.json").string() + ": " + c.message));
      saltus::fuzz::RunResult result;
      result.exit_code = r.code;
      result.err = r.err;
      CHECK(saltus::fuzz::classify(result, (dir / "damaged" / "summary.json").string()) ==
            saltus::fuzz::Outcome::error);
      CHECK(!fs::exists(dir / "out"));
    }
  }
  fs::remove_all(dir);
}
