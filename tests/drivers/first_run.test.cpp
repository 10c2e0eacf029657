// The first run of a new run file (issue 37 item 2): with an empty cache its
// expressions are interpreted while they compile in the background, and the
// run after the compile loads them; both give the same files, byte for byte
// (the compiled blocks are the interpreter's bit for bit:
// tests/models/compiled_block.test.cpp), and summary.json says which ran. A
// compile that fails is a warning of the next run, which names its log.

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "models/compiled_block.h"
#include "run_cli.h"
#include "tests/scoped_environment.h"

namespace fs = std::filesystem;
using namespace saltus::testing;

namespace {

using Environment = saltus::testing::ScopedEnvironment;

// `saltus continue examples/lorenz.json` into out, without figures.
Run lorenz(const fs::path& out) {
  return run_saltus({"continue", example("lorenz.json").string(), "--out", out.string(), "--no-figures"});
}

nlohmann::json summary(const fs::path& out) { return nlohmann::json::parse(text_of(out / "summary.json")); }

}  // namespace

TEST_CASE(
    "first run: the Lorenz run file with an empty cache runs interpreted, the next compiled, the same files",
    "[cli][compiled][background]") {
  const fs::path dir = scratch("first-run");
  const Environment cache("SALTUS_CACHE_DIR", (dir / "cache").string()), mode("SALTUS_COMPILE", std::nullopt),
      compiler("SALTUS_CXX", std::nullopt);
  const Run first = lorenz(dir / "first");
  INFO(first.err);
  REQUIRE(first.code == 0);
  const auto first_summary = summary(dir / "first");
  INFO(first_summary["expressions"].dump());
  CHECK(first_summary["expressions"]["evaluated"] == "interpreted");
  CHECK(first.err.find("warning") == std::string::npos);
  CHECK(saltus::models::wait_for_background_compiles() == 1);

  const Run second = lorenz(dir / "second");
  REQUIRE(second.code == 0);
  CHECK(summary(dir / "second")["expressions"]["evaluated"] == "compiled");
  int compared = 0;
  for (const auto& entry : fs::directory_iterator(dir / "first")) {
    if (entry.path().extension() != ".csv") continue;
    INFO(entry.path().filename().string());
    CHECK(text_of(entry.path()) == text_of(dir / "second" / entry.path().filename()));
    ++compared;
  }
  CHECK(compared >= 3);  // the branch and the two doubled ones
  auto a = first_summary, b = summary(dir / "second");
  a.erase("expressions");
  b.erase("expressions");
  CHECK(a.dump() == b.dump());
  fs::remove_all(dir);
}

TEST_CASE("first run: a background compile that fails is a warning of the next run, naming its log",
          "[cli][compiled][background]") {
  const fs::path dir = scratch("first-run-failure");
  const Environment cache("SALTUS_CACHE_DIR", (dir / "cache").string()), mode("SALTUS_COMPILE", std::nullopt),
      compiler("SALTUS_CXX", "/bin/false");
  REQUIRE(lorenz(dir / "first").code == 0);
  CHECK(saltus::models::wait_for_background_compiles() == 1);
  const Run next = lorenz(dir / "next");
  REQUIRE(next.code == 0);
  INFO(next.err);
  CHECK(next.err.find("saltus continue: warning: an earlier compile of these expressions failed (see " +
                      (dir / "cache" / "failed-").string()) != std::string::npos);
  const auto expressions = summary(dir / "next")["expressions"];
  CHECK(expressions["evaluated"] == "interpreted");
  CHECK(expressions["note"].get<std::string>().find("failed") != std::string::npos);
  fs::remove_all(dir);
}
