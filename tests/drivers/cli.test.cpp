#include "drivers/cli.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <new>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <stdexcept>

#include "run_cli.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace saltus::testing;

namespace {

json run_example(const std::string& name, const fs::path& out) {
  const Run r = run_saltus({"continue", example(name).string(), "--out", out.string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  return json::parse(r.out);
}

std::vector<json> specials(const json& summary, const std::string& type, const std::string& branch) {
  std::vector<json> out;
  for (const auto& s : summary["special_points"])
    if (s["type"] == type && s["branch"] == branch) out.push_back(s);
  return out;
}

fs::path write_run_file(const fs::path& dir, const std::string& text) {
  fs::create_directories(dir);
  const fs::path path = dir / "run.json";
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("examples/cusp.json: two LP at mu = -+2/(3 sqrt 3) to 1e-10", "[cli][examples]") {
  const fs::path out = scratch("cusp");
  const json summary = run_example("cusp.json", out);
  const auto lps = specials(summary, "LP", "branch");
  REQUIRE(lps.size() == 2);
  const double mu = 2.0 / (3.0 * std::sqrt(3.0));
  CHECK(std::abs(lps[0]["parameters"]["mu"].get<double>() - mu) < 1e-10);
  CHECK(std::abs(lps[1]["parameters"]["mu"].get<double>() + mu) < 1e-10);
  for (const auto& lp : lps) CHECK(lp["status"] == "located");
  CHECK(summary["stop_reason"] == "bound");
  for (const char* f : {"branch.csv", "summary.json", "branch.png", "branch.svg", "branch.gp", "branch.dat"})
    CHECK(fs::exists(out / f));
  // The CSV has one row per point plus the header.
  std::ifstream csv(out / "branch.csv");
  const auto rows = std::count(std::istreambuf_iterator<char>(csv), {}, '\n');
  CHECK(rows == summary["points"].get<int>() + 1);
  fs::remove_all(out);
}

TEST_CASE("examples/cusp_fold_curve.json: the fold curve passes the cusp at (0, 0) to 1e-8",
          "[cli][examples]") {
  const fs::path out = scratch("fold-curve");
  const json summary = run_example("cusp_fold_curve.json", out);
  const auto cps = specials(summary, "CP", "fold_curve");
  REQUIRE(cps.size() == 1);
  CHECK(cps[0]["status"] == "located");
  CHECK(std::abs(cps[0]["parameters"]["mu"].get<double>()) < 1e-8);
  CHECK(std::abs(cps[0]["parameters"]["lambda"].get<double>()) < 1e-8);
  CHECK(std::abs(cps[0]["state"]["x"].get<double>()) < 1e-8);
  CHECK(fs::exists(out / "fold_curve.csv"));
  CHECK(fs::exists(out / "fold_curve.png"));
  fs::remove_all(out);
}

TEST_CASE("examples/pitchfork.json: BP at lambda = 0, switching follows x^2 = lambda", "[cli][examples]") {
  const fs::path out = scratch("pitchfork");
  const json summary = run_example("pitchfork.json", out);
  const auto bps = specials(summary, "BP", "branch");
  REQUIRE(bps.size() == 1);
  CHECK(std::abs(bps[0]["parameters"]["lambda"].get<double>()) < 1e-10);
  // Every point of switched.csv lies on x^2 = lambda.
  std::ifstream csv(out / "switched.csv");
  std::string line;
  std::getline(csv, line);
  CHECK(line.rfind("point,label,x,lambda,", 0) == 0);
  int rows = 0;
  while (std::getline(csv, line)) {
    std::stringstream row(line);
    std::string point, label, x, lambda;
    std::getline(row, point, ',');
    std::getline(row, label, ',');
    std::getline(row, x, ',');
    std::getline(row, lambda, ',');
    CHECK(std::abs(std::stod(x) * std::stod(x) - std::stod(lambda)) < 1e-9);
    ++rows;
  }
  CHECK(rows > 10);
  fs::remove_all(out);
}

TEST_CASE("examples/bratu.json: n = 1000, the fold near lambda* = 3.51383071912516", "[cli][examples]") {
  const fs::path out = scratch("bratu");
  const json summary = run_example("bratu.json", out);
  const auto lps = specials(summary, "LP", "branch");
  REQUIRE(lps.size() == 1);
  // The O(h^2) discretization error at h = 1/1001 is 1.8e-6 (see bratu.test.cpp).
  CHECK(std::abs(lps[0]["parameters"]["lambda"].get<double>() - 3.51383071912516) < 5e-6);
  fs::remove_all(out);
}

TEST_CASE("continue --help documents the run-file keys", "[cli]") {
  const Run r = run_saltus({"continue", "--help"});
  CHECK(r.code == 0);
  for (const char* key : {"unknowns", "parameters", "equations", "start", "continuation", "bounds",
                          "fold_curve", "switch_branch", "events", "model"})
    CHECK_THAT(r.out, Catch::Contains(key));
}

TEST_CASE("--help says which parameter 'direction' orders on a curve, as the code does", "[cli]") {
  // Issue 34, item 8: the help said "(first) free parameter", but a
  // periodic.curve carries its first parameter in the orbit's state and
  // continues its second (studies/hybrid_curves.cpp); fold_curve and
  // hopf_curve continue (x, p1, p2), whose first free parameter is p1.
  // The help's tables wrap a meaning where their columns say: compare
  // flattened (run_cli.h).
  for (const char* command : {"continue", "periodic"}) {
    const Run r = run_saltus({command, "--help"});
    INFO(command);
    CHECK(r.code == 0);
    CHECK_THAT(flat(r.out),
               Catch::Contains("sign of the first step of parameter 1 (periodic.curve: parameter 2)"));
    CHECK_THAT(flat(r.out), !Catch::Contains("(first) free parameter"));
  }
  CHECK_THAT(flat(run_saltus({"continue", "--help"}).out), Catch::Contains("(\"direction\": that of p1"));
  CHECK_THAT(flat(run_saltus({"periodic", "--help"}).out),
             Catch::Contains("\"direction\" is that of the second"));
  // And it is what the code does: the fold curve's first step in its first
  // parameter mu has the sign of 'direction'.
  for (const int direction : {-1, 1}) {
    const fs::path dir = scratch("direction");
    fs::create_directories(dir);
    nlohmann::ordered_json file =
        nlohmann::ordered_json::parse(std::ifstream(example("cusp_fold_curve.json")));
    file["fold_curve"]["direction"] = direction;
    std::ofstream(dir / "run.json") << file.dump();
    continue_json(dir / "run.json", dir / "out");
    const auto rows = read_csv(dir / "out" / "fold_curve.csv");
    REQUIRE(rows.size() >= 2);
    CHECK((std::stod(rows[1].at("mu")) - std::stod(rows[0].at("mu"))) * direction > 0);
    fs::remove_all(dir);
  }
  // A periodic.curve's first step in its second parameter: the impact
  // oscillator's PD curve in (w, d), along which w and d move in opposite
  // senses (so the test tells the two apart).
  for (const int direction : {-1, 1}) {
    const fs::path dir = scratch("direction-periodic");
    fs::create_directories(dir);
    nlohmann::ordered_json file =
        nlohmann::ordered_json::parse(std::ifstream(example("user/impact_oscillator_curves.json")));
    file["periodic"]["bounds"] = {{"w", {2.0, 2.5}}};  // the branch ends past its PD at w = 2.4567
    file["periodic"]["curve"] = {{"kind", "PD"},
                                 {"parameters", {"w", "d"}},
                                 {"ds", 0.01},
                                 {"max_points", 3},
                                 {"direction", direction}};
    std::ofstream(dir / "run.json") << file.dump();
    const Run r = run_saltus({"periodic", (dir / "run.json").string(), "--out", (dir / "out").string()});
    INFO(r.err);
    REQUIRE(r.code == 0);
    const auto rows = read_csv(dir / "out" / "curve.csv");
    REQUIRE(rows.size() >= 2);
    CHECK((std::stod(rows[1].at("d")) - std::stod(rows[0].at("d"))) * direction > 0);
    CHECK((std::stod(rows[1].at("w")) - std::stod(rows[0].at("w"))) * direction < 0);
    fs::remove_all(dir);
  }
}

TEST_CASE("bad run files: a clear message, a non-zero exit, nothing written", "[cli][errors]") {
  const std::string good_head = R"({"unknowns": ["x"], "parameters": {"mu": -2, "lambda": 1},)";
  struct Case {
    std::string what, text, message;
  };
  const std::vector<Case> cases = {
      {"syntax error", good_head + R"("equations": ["mu + lambda*x -"], "start": {"x": -1.5},
         "continuation": {"parameter": "mu"}})",
       "syntax error at column"},
      {"unknown name", good_head + R"("equations": ["mu + kappa*x - x^3"], "start": {"x": -1.5},
         "continuation": {"parameter": "mu"}})",
       "unknown name 'kappa'"},
      {"NaN start", good_head + R"("equations": ["mu + lambda*x - x^3"], "start": {"x": NaN},
         "continuation": {"parameter": "mu"}})",
       "NaN"},
      {"null start", good_head + R"("equations": ["mu + lambda*x - x^3"], "start": {"x": null},
         "continuation": {"parameter": "mu"}})",
       "'start.x' is null"},
      {"missing start", good_head + R"("equations": ["mu + lambda*x - x^3"], "start": {},
         "continuation": {"parameter": "mu"}})",
       "'start.x' is missing"},
      {"unknown continuation parameter", good_head + R"("equations": ["mu + lambda*x - x^3"],
         "start": {"x": -1.5}, "continuation": {"parameter": "nu"}})",
       "'nu' is not a parameter"},
      {"misspelt option", good_head + R"("equations": ["mu + lambda*x - x^3"], "start": {"x": -1.5},
         "continuation": {"parameter": "mu", "dsmax": 0.1}})",
       "unknown key 'continuation.dsmax'"},
      {"bad option value", good_head + R"("equations": ["mu + lambda*x - x^3"], "start": {"x": -1.5},
         "continuation": {"parameter": "mu", "ds": -0.1}})",
       "'continuation.ds' = -0.1 must be > 0"},
      {"both parameter keys", good_head + R"("equations": ["mu + lambda*x - x^3"], "start": {"x": -1.5},
         "continuation": {"parameter": "mu", "parameters": ["lambda"]}})",
       "not both"},
      {"name not an identifier", R"({"unknowns": ["2x"], "parameters": {"mu": 0}, "equations": ["mu"],
         "start": {"2x": 0}, "continuation": {"parameter": "mu"}})",
       "has the name '2x'"},
      {"unsafe run name",
       R"({"name": "../up", "unknowns": ["x"], "parameters": {"mu": 0}, "equations": ["x - mu"],
         "start": {"x": 0}, "continuation": {"parameter": "mu"}})",
       "a run name is letters"},
      {"switch without BP detection",
       good_head + R"("equations": ["mu + lambda*x - x^3"], "start": {"x": -1.5},
         "continuation": {"parameter": "mu", "detect": ["LP"]}, "switch_branch": {}})",
       "has no \"BP\""},
      {"follow-up bound on an unknown name",
       good_head + R"("equations": ["mu + lambda*x - x^3"], "start": {"x": -1.5},
         "continuation": {"parameter": "mu"}, "switch_branch": {"bounds": {"nu": [0, 1]}}})",
       "'switch_branch.bounds.nu'"},
      {"no real solution near the start", good_head + R"("equations": ["x^2 + 1 + mu^2"], "start": {"x": 3},
         "continuation": {"parameter": "mu"}})",
       "is not near a solution"},
  };
  for (const auto& c : cases) {
    SECTION(c.what) {
      const fs::path dir = scratch("bad");
      const fs::path file = write_run_file(dir, c.text);
      const fs::path out = dir / "out";
      const Run r = run_saltus({"continue", file.string(), "--out", out.string()});
      INFO(r.err);
      CHECK(r.code != 0);
      CHECK_THAT(r.err, Catch::Contains(c.message));
      CHECK_THAT(r.err, Catch::Contains(file.string()));
      CHECK(!fs::exists(out));
      fs::remove_all(dir);
    }
  }
}

TEST_CASE("an existing output folder keeps whole files when a later run fails", "[cli][errors]") {
  const fs::path out = scratch("keep");
  run_example("cusp.json", out);
  const auto before = fs::file_size(out / "summary.json");
  const fs::path dir = scratch("keep-bad");
  const fs::path file = write_run_file(dir, R"({"unknowns": ["x"], "parameters": {"mu": 0},
      "equations": ["x^2 + 1"], "start": {"x": 1}, "continuation": {"parameter": "mu"}})");
  const Run r = run_saltus({"continue", file.string(), "--out", out.string()});
  CHECK(r.code == 2);
  CHECK(fs::file_size(out / "summary.json") == before);
  for (const auto& entry : fs::directory_iterator(out))
    CHECK(entry.path().string().find(".tmp") == std::string::npos);
  fs::remove_all(out);
  fs::remove_all(dir);
}

TEST_CASE("a follow-up that cannot start keeps the first branch's files", "[cli][errors]") {
  const fs::path dir = scratch("follow-up");
  const fs::path file = write_run_file(dir, R"({"unknowns": ["x"], "parameters": {"mu": -2, "lambda": 1},
      "equations": ["mu + lambda*x - x^3"], "start": {"x": -1.5},
      "continuation": {"parameter": "mu", "bounds": {"mu": [-2, 2]}},
      "fold_curve": {"from": 3, "parameters": ["mu", "lambda"]}})");
  const Run r = run_saltus({"continue", file.string(), "--out", (dir / "out").string()});
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("'fold_curve.from' = 3, but the first branch has 2 LP point(s)"));
  CHECK(fs::exists(dir / "out" / "branch.csv"));
  CHECK(fs::exists(dir / "out" / "summary.json"));
  fs::remove_all(dir);
}

TEST_CASE("saltus: errors from the libraries are told without their prefixes", "[cli][errors]") {
  using saltus::drivers::error_message;
  CHECK_THAT(error_message(std::bad_alloc()), Catch::Contains("out of memory") && Catch::Contains("reduce"));
  try {
    json::parse("[1]").at("a");
    FAIL("no error");
  } catch (const json::exception& e) {
    CHECK_THAT(error_message(e), !Catch::Contains("json.exception") && Catch::Contains("cannot use at()"));
  }
  const std::runtime_error boost(
      "Error in function boost::math::tools::toms748_solve<double>(F, double, double, double, double, Tol, "
      "std::uintmax_t&): Parameters a and b out of order: a=1");
  CHECK(error_message(boost) == "Parameters a and b out of order: a=1");
  CHECK(error_message(std::runtime_error("std::bad_function_call")) == "bad_function_call");
}
