#include "studies/options_json.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "drivers/studies.h"
#include "run_cli.h"

namespace fs = std::filesystem;
using namespace saltus;
using namespace saltus::drivers;
using namespace saltus::testing;

namespace {

// A key's row as option_help writes it, flattened: "key type meaning (default ...; range)".
template <class Options>
std::string help_row(const OptionTable<Options>& table, const std::string& key) {
  const std::string help = flat(option_help(table, ""));
  const auto at = help.find(key + " ");
  if (at == std::string::npos) return "";
  const auto end = help.find(')', help.find("(default", at));
  return help.substr(at, end + 1 - at);
}

}  // namespace

TEST_CASE("option tables: one default per key, the struct's, in the help", "[cli][options]") {
  CHECK_THAT(help_row(continuation_option_table(), "ds"), Catch::EndsWith("(default 0.01; > 0)"));
  CHECK_THAT(help_row(continuation_option_table(), "ds_min"), Catch::EndsWith("(default 1e-8; > 0)"));
  CHECK_THAT(help_row(continuation_option_table(), "max_points"), Catch::EndsWith("(default 500; >= 1)"));
  CHECK_THAT(help_row(simulation_option_table(), "relative_tolerance"),
             Catch::EndsWith("(default 1e-12; >= 0)"));
  CHECK_THAT(help_row(simulation_option_table(), "max_step"), Catch::EndsWith("(default none; > 0)"));
  CHECK_THAT(help_row(simulation_option_table(), "method"),
             Catch::EndsWith("(default \"dop853\"; one of: dopri5, dop853)"));
  // Every key once, and every line within the column limit.
  std::set<std::string> continuation_keys, simulation_keys;
  for (const auto& row : continuation_option_table()) CHECK(continuation_keys.insert(row.key).second);
  for (const auto& row : simulation_option_table()) CHECK(simulation_keys.insert(row.key).second);
  std::istringstream lines(option_help(continuation_option_table(), "      ") +
                           option_help(simulation_option_table(), "      "));
  for (std::string line; std::getline(lines, line);) CHECK(line.size() <= 110);
}

TEST_CASE("option tables: every command's --help lists the same keys with the same defaults",
          "[cli][options]") {
  const std::vector<std::vector<std::string>> commands = {{"continue", "--help"},
                                                          {"periodic", "--help"},
                                                          {"extremal", "continue", "--help"},
                                                          {"extremal", "track", "--help"},
                                                          {"filippov", "continue", "--help"}};
  const std::string ds = help_row(continuation_option_table(), "ds");
  const std::string tolerance = help_row(simulation_option_table(), "relative_tolerance");
  for (const auto& args : commands) {
    const Run r = run_saltus(args);
    INFO(args[0] << " " << args[1]);
    CHECK(r.code == 0);
    for (const auto& row : continuation_option_table()) CHECK_THAT(r.out, Catch::Contains(row.key));
    CHECK_THAT(flat(r.out), Catch::Contains(ds.substr(ds.find("first step"))));
  }
  for (const auto& args :
       std::vector<std::vector<std::string>>{{"continue", "--help"}, {"simulate", "--help"}}) {
    const Run r = run_saltus(args);
    CHECK_THAT(flat(r.out), Catch::Contains(tolerance.substr(tolerance.find("Runge"))));
  }
}

TEST_CASE("option tables: the readers name the file, the key and the bad value", "[cli][options]") {
  const fs::path dir = scratch("options");
  fs::create_directories(dir);
  const fs::path file = dir / "run.json";
  const auto run = [&](const std::string& continuation) {
    std::ofstream(file) << R"({"unknowns": ["x"], "parameters": {"mu": -2}, "equations": ["mu - x^3"],
        "start": {"x": -1.2}, "continuation": {"parameter": "mu", )" +
                               continuation + "}}";
    return run_saltus({"continue", file.string(), "--out", (dir / "out").string()});
  };
  Run r = run(R"("ds": "big")");
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains(file.string()) && Catch::Contains("continuation.ds"));
  r = run(R"("ds_min": 0.5, "ds": 0.1)");
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("'continuation'") && Catch::Contains("ds_min <= ds <= ds_max"));
  r = run(R"("dss": 0.1)");
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains("dss") && Catch::Contains("min_tangent_cosine"));
  // Each table key works in every command: min_tangent_cosine in `extremal continue`.
  nlohmann::json ex;
  std::ifstream(example("extremal/ex444_continue.json")) >> ex;
  ex["continue"]["min_tangent_cosine"] = 0.6;
  ex["continue"]["max_points"] = 3;
  std::ofstream(dir / "ex.json") << ex.dump();
  r = run_saltus({"extremal", "continue", (dir / "ex.json").string(), "--out", (dir / "ex").string()});
  // Read and run (3 points find no fold: exit 2, "no fold on the branch"), not refused as a key.
  CHECK_THAT(r.err, !Catch::Contains("unknown key") && Catch::Contains("no fold"));
  CHECK(r.code == 2);
  fs::remove_all(dir);
}

TEST_CASE("saltus --help names the program", "[cli]") {
  const Run r = run_saltus({"--help"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("Usage: saltus "));
}
