// --no-figures (issue 37 item 5): every command that writes files writes its
// results (CSV, JSON) and no figure, no gnuplot input and starts no gnuplot;
// without the flag the figures are drawn as before, and the flag of one run
// does not carry over to the next in the same process.

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "run_cli.h"

namespace fs = std::filesystem;
using namespace saltus::testing;

namespace {

// The extensions of the files in dir (".csv", ".json", ".png", ...).
std::set<std::string> extensions(const fs::path& dir) {
  std::set<std::string> found;
  for (const auto& entry : fs::directory_iterator(dir)) found.insert(entry.path().extension().string());
  return found;
}

void check_no_figures(const fs::path& dir) {
  const auto found = extensions(dir);
  for (const char* figure : {".png", ".svg", ".dat", ".gp"}) {
    INFO(dir.string() << " holds a " << figure << " file");
    CHECK(found.count(figure) == 0);
  }
}

}  // namespace

TEST_CASE("no figures: saltus simulate --no-figures writes its results and no figure", "[cli][figures]") {
  const fs::path dir = scratch("no-figures-simulate");
  const Run r = run_saltus(
      {"simulate", example("bouncing_ball.json").string(), "--out", (dir / "out").string(), "--no-figures"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  for (const char* f : {"trajectory.csv", "events.csv", "summary.json"}) CHECK(fs::exists(dir / "out" / f));
  CHECK(read_csv(dir / "out" / "trajectory.csv").size() > 100);
  check_no_figures(dir / "out");

  // The next run in the same process draws again.
  const Run drawn =
      run_saltus({"simulate", example("bouncing_ball.json").string(), "--out", (dir / "b").string()});
  REQUIRE(drawn.code == 0);
  CHECK(fs::exists(dir / "b" / "phase.png"));
  CHECK(fs::exists(dir / "b" / "time.svg"));
  fs::remove_all(dir);
}

TEST_CASE(
    "no figures: saltus continue, periodic and lyapunov with --no-figures write their results and no figure",
    "[cli][figures]") {
  const fs::path dir = scratch("no-figures-continue");
  const Run c = run_saltus(
      {"continue", example("lorenz.json").string(), "--out", (dir / "c").string(), "--no-figures"});
  INFO(c.err);
  REQUIRE(c.code == 0);
  CHECK(fs::exists(dir / "c" / "summary.json"));
  CHECK(extensions(dir / "c").count(".csv") == 1);
  check_no_figures(dir / "c");

  const Run p = run_saltus({"periodic", example("user/impact_oscillator.json").string(), "--out",
                            (dir / "p").string(), "--no-figures", "--json"});
  INFO(p.err);
  REQUIRE(p.code == 0);
  CHECK(fs::exists(dir / "p" / "summary.json"));
  CHECK(fs::exists(dir / "p" / "branch.csv"));
  check_no_figures(dir / "p");
  fs::remove_all(dir);
}

TEST_CASE("no figures: --no-figures is an option of every command that writes files", "[cli][figures]") {
  for (const std::vector<std::string>& command :
       std::vector<std::vector<std::string>>{{"continue"},
                                             {"simulate"},
                                             {"lyapunov"},
                                             {"periodic"},
                                             {"sweep"},
                                             {"map"},
                                             {"extremal", "continue"},
                                             {"extremal", "track"},
                                             {"filippov", "map"},
                                             {"filippov", "futures"},
                                             {"filippov", "continue"}}) {
    std::vector<std::string> args = command;
    args.push_back("--help");
    const Run r = run_saltus(args);
    INFO(command.back());
    CHECK(r.out.find("--no-figures") != std::string::npos);
  }
}
