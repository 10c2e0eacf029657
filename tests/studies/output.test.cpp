#include "studies/output.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "../drivers/run_cli.h"

namespace fs = std::filesystem;
using namespace saltus::studies;
using namespace saltus::testing;

TEST_CASE("write_file_atomically: a writer that throws leaves no file behind", "[studies][output]") {
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
          "[studies][output]") {
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

TEST_CASE("draw: one gnuplot for a run's figures; a failing figure loses only itself", "[studies][output]") {
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

TEST_CASE("write_number: the characters the stream writes at that precision, by std::to_chars",
          "[studies][output]") {
  // trajectory.csv and the figures' .dat were written by the stream; their
  // text must not change with the faster formatting: every kind of double
  // (integers, the 17th digit, subnormals, the extremes, signed zero, inf,
  // nan of both signs) and random bit patterns at 17 and 12 digits.
  std::vector<double> values{0.0,
                             -0.0,
                             1.0,
                             -2.5,
                             0.1,
                             1.0 / 3.0,
                             1e-5,
                             1e-4,
                             123456789012345678.0,
                             1e16,
                             1e17,
                             1e21,
                             5e-324,
                             2.2250738585072014e-308,
                             1.7976931348623157e308,
                             std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::quiet_NaN(),
                             -std::numeric_limits<double>::quiet_NaN(),
                             60.0,
                             0.01 * 3,
                             2 * M_PI};
  std::mt19937_64 random(37);
  for (int k = 0; k < 20000; ++k) {
    const std::uint64_t bits = random();
    double x;
    std::memcpy(&x, &bits, sizeof x);
    values.push_back(x);
    values.push_back(std::uniform_real_distribution<double>(-100, 100)(random));
  }
  for (const int precision : {17, 12}) {
    for (const double x : values) {
      std::ostringstream stream, fast;
      stream << std::setprecision(precision) << x;
      saltus::studies::write_number(fast, x, precision);
      INFO(stream.str());
      REQUIRE(fast.str() == stream.str());
    }
  }
}
