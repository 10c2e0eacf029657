#include "drivers/output.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "run_cli.h"

namespace fs = std::filesystem;
using namespace saltus::drivers;
using namespace saltus::testing;

TEST_CASE("write_file_atomically: a writer that throws leaves no file behind", "[drivers][output]") {
  const fs::path dir = scratch("atomic");
  fs::create_directories(dir);
  CHECK_THROWS_WITH(write_file_atomically(dir / "a.csv",
                                          [](std::ostream& out) {
                                            out << "half";
                                            throw std::runtime_error("no more");
                                          }),
                    "no more");
  CHECK(fs::is_empty(dir));
  fs::remove_all(dir);
}

TEST_CASE("write_file_atomically: a file that cannot take the place leaves no temporary file",
          "[drivers][output]") {
  // A folder where the file should go: the rename fails after the text is written.
  const fs::path dir = scratch("atomic-rename");
  fs::create_directories(dir / "sweep.journal.jsonl" / "inside");
  CHECK_THROWS_WITH(
      write_file_atomically(dir / "sweep.journal.jsonl", [](std::ostream& out) { out << "{}\n"; }),
      Catch::Contains("cannot write") && Catch::Contains("sweep.journal.jsonl") &&
          !Catch::Contains("filesystem error"));
  for (const auto& e : fs::directory_iterator(dir)) CHECK(e.path().filename() == "sweep.journal.jsonl");
  fs::remove_all(dir);
}

namespace {
Figure line_figure(const std::string& title, const std::string& style) {
  Figure f{title, "x", "y", {}, {}};
  f.series.push_back({"a line", {{0.0, 0.0}, {1.0, 2.0}, {2.0, 1.0}}, style, ""});
  return f;
}
std::string contents(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}
}  // namespace

TEST_CASE("draw: one gnuplot for a run's figures; a failing figure loses only itself", "[drivers][output]") {
  const fs::path dir = scratch("draw_batch");
  fs::create_directories(dir);
  Figure square = line_figure("square", "lines");
  square.equal_axes = true;  // a setting that must not carry over into the next figure
  std::vector<std::string> warnings;
  const auto made = draw({{"square", square}, {"plain", line_figure("plain", "lines")}}, dir, &warnings);
  CHECK(warnings.empty());
  CHECK(made.size() == 8);  // .dat .gp .png .svg each
  for (const char* f : {"square.png", "square.svg", "plain.png", "plain.svg"}) CHECK(fs::exists(dir / f));

  // The second figure of the batch is the one gnuplot draws alone.
  const fs::path alone = dir / "alone";
  fs::create_directories(alone);
  draw(line_figure("plain", "lines"), alone, "plain", nullptr);
  CHECK(contents(dir / "plain.svg") == contents(alone / "plain.svg"));

  // A style gnuplot rejects: the figures before and after it are drawn all the same.
  const fs::path failing = dir / "failing";
  fs::create_directories(failing);
  warnings.clear();
  draw({{"first", line_figure("first", "lines")},
        {"bad", line_figure("bad", "no_such_style")},
        {"last", line_figure("last", "points")}},
       failing, &warnings);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("figure bad not drawn") != std::string::npos);
  for (const char* f : {"first.png", "first.svg", "last.png", "last.svg", "bad.dat", "bad.gp"})
    CHECK(fs::exists(failing / f));
  CHECK_FALSE(fs::exists(failing / "bad.png"));
  for (const auto& entry : fs::directory_iterator(failing))  // no temporary left behind
    CHECK(entry.path().string().find(".tmp") == std::string::npos);
  fs::remove_all(dir);
}
