// The run-file tables (studies/option_tables*.cpp) are the one description of
// every key: the readers enforce their ranges, accept exactly their keys, and
// --help and docs/reference/run-files.md print them.

#include "studies/option_tables.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyses/two_fold/futures.h"
#include "analyses/two_fold/map.h"
#include "continuation/flow/simulate.h"
#include "continuation/options.h"
#include "studies/contact_study.h"
#include "studies/filippov_study.h"
#include "studies/hybrid_run_file.h"
#include "studies/run_file.h"

using namespace saltus;
using namespace saltus::studies;
namespace fs = std::filesystem;

namespace {

std::string error_of(const std::function<void()>& read) {
  try {
    read();
  } catch (const RunFileError& e) {
    return e.what();
  }
  return "(no error)";
}

const char* const kCusp = R"({"unknowns": ["x"], "parameters": {"mu": -2, "lambda": 1},
    "equations": ["mu + lambda*x - x^3"], "start": {"x": -1.5}, "continuation": {"parameter": "mu", )";

}  // namespace

TEST_CASE("option tables: a table's range is enforced by the reader, naming file, key, value and range",
          "[run_file][options]") {
  const fs::path file = "/tmp/ranges.json";
  auto continue_error = [&](const std::string& rest) {
    return error_of([&] { parse_run_file(std::string(kCusp) + rest, file); });
  };
  // An option struct's row (ContinuationOptions): step_cut in (0, 1).
  std::string e = continue_error(R"("step_cut": 1.5}})");
  CHECK_THAT(e, Catch::Contains(file.string()) && Catch::Contains("'continuation.step_cut' = 1.5") &&
                    Catch::Contains("must be in (0, 1)"));
  // The same row read in a follow-up, under its own path.
  e = continue_error(R"("detect": ["LP"]}, "fold_curve": {"parameters": ["mu", "lambda"], "direction": 2}})");
  CHECK_THAT(e, Catch::Contains("'fold_curve.direction' = 2 must be one of: -1, 1"));
  e = continue_error(R"("detect": ["LP"]}, "fold_curve": {"parameters": ["mu", "lambda"], "from": 0}})");
  CHECK_THAT(e, Catch::Contains("'fold_curve.from' = 0 must be >= 1"));
  // A structure row with limits (read_integer): period_doubling.levels in [1, 20].
  const std::string lorenz = R"({"model": "lorenz", "parameters": {"sigma": 10, "rho": 24, "beta": 2.6667},
      "start": {"x": 1, "y": 1, "z": 20}, "continuation": {"parameter": "rho"}, )";
  e = error_of([&] {
    parse_run_file(lorenz + R"("periodic": {"period": 0.5, "period_doubling": {"levels": 21}}})", file);
  });
  CHECK_THAT(e, Catch::Contains("'periodic.period_doubling.levels' = 21 must be in [1, 20]"));
  e = error_of(
      [&] { parse_run_file(lorenz + R"("periodic": {"from_simulation": {"return_tolerance": 2}}})", file); });
  CHECK_THAT(e, Catch::Contains("'periodic.from_simulation.return_tolerance' = 2 must be in (0, 1)"));
  // The hybrid run file's sweep and map tables.
  Json hybrid = read_json(fs::path(SALTUS_SOURCE_DIR) / "examples/triple_pendulum.json");
  REQUIRE(hybrid.contains("sweep"));
  hybrid["sweep"]["steps"] = 0;
  e = error_of([&] { parse_hybrid_run(hybrid, file); });
  CHECK_THAT(e, Catch::Contains("'sweep.steps' = 0 must be in [1, 1e6]"));
  hybrid["sweep"]["steps"] = 10;
  hybrid["lyapunov"] = {{"duration", -1}};
  e = error_of([&] { parse_hybrid_run(hybrid, file); });
  CHECK_THAT(e, Catch::Contains("'lyapunov.duration' = -1 must be > 0"));
  // Each message's range is the one --help prints for that key.
  CHECK_THAT(run_file_help(continue_run_file()), Catch::Contains("(default 0.5; (0, 1))"));
}

TEST_CASE("option tables: each range is the engine's check()", "[run_file][options]") {
  // The reader enforces the table's range before the engine's check() sees
  // the options; the two must agree, or a value would pass one and fail the
  // other: a value just outside each finite bound fails check(), one just
  // inside passes it.
  auto probe = [](const auto& table, auto defaults) {
    using Options = decltype(defaults);
    for (const auto& row : table) {
      const Range& r = row.range;
      if (!r.values.empty()) continue;
      std::visit(
          [&](auto field) {
            using T = std::decay_t<decltype(std::declval<Options&>().*field)>;
            if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
              const double step = std::is_integral_v<T> ? 1.0 : 1e-9 * (1 + std::abs(r.min));
              if (std::isfinite(r.min)) {
                auto outside = defaults;
                outside.*field = static_cast<T>(r.min_open ? r.min : r.min - step);
                INFO(row.key << " = " << outside.*field);
                CHECK(!r.contains(static_cast<double>(outside.*field)));
                CHECK(!outside.check().empty());
              }
              if (std::isfinite(r.max)) {
                auto outside = defaults;
                outside.*field = static_cast<T>(r.max_open ? r.max : r.max + step);
                INFO(row.key << " = " << outside.*field);
                CHECK(!outside.check().empty());
              }
            }
          },
          row.field);
    }
  };
  probe(continuation_option_table(), ContinuationOptions{});
  probe(simulation_option_table(), flow::SimulationOptions{});
  probe(orbit_guess_option_table(), periodic::OrbitGuessOptions{});
  probe(lyapunov_option_table(), flow::LyapunovOptions{});
}

TEST_CASE("option tables: the Filippov futures and map ranges are the analyses' check()",
          "[run_file][options]") {
  // The Filippov rows carry no field pointer (their readers are in
  // drivers/filippov_*.cpp): each numeric key is paired with its field here,
  // and a value just outside each finite bound must fail the analysis's own
  // check(), one just inside pass it.
  const KeyTable& table = filippov_run_file().keys;
  const auto limits = [&table](const std::string& key) {
    for (const auto& row : table)
      if (row.key == key) return row.limits;
    FAIL("no row " << key);
    return Range{};
  };
  const auto probe = [&limits](auto defaults, const std::string& key, auto field) {
    const Range r = limits(key);
    using T = std::decay_t<decltype(defaults.*field)>;
    const auto fails = [&](double v) {
      auto o = defaults;
      o.*field = static_cast<T>(v);
      INFO(key << " = " << v);
      CHECK(r.contains(static_cast<double>(o.*field)) == o.check().empty());
      return !o.check().empty();
    };
    const double step = std::is_integral_v<T> ? 1.0 : 1e-9;
    int bounds = 0;
    if (std::isfinite(r.min)) {
      CHECK(fails(r.min_open ? r.min : r.min - step));
      CHECK(!fails(r.min + step));
      ++bounds;
    }
    if (std::isfinite(r.max)) {
      CHECK(fails(r.max_open ? r.max : r.max + step));
      CHECK(!fails(r.max - step));
      ++bounds;
    }
    CHECK(bounds > 0);
  };
  const FuturesOptions f;
  probe(f, "futures.samples", &FuturesOptions::samples);
  probe(f, "futures.approach_samples", &FuturesOptions::approach_samples);
  FuturesOptions near = f;  // approach_radius must also exceed arrival_distance (a relation, not a range)
  near.arrival_distance = 1e-12;
  probe(near, "futures.approach_radius", &FuturesOptions::approach_radius);
  probe(f, "futures.arrival_distance", &FuturesOptions::arrival_distance);
  probe(f, "futures.approach_time", &FuturesOptions::approach_time);
  probe(f, "futures.escape_radius", &FuturesOptions::escape_radius);
  probe(f, "futures.max_liftoff_time", &FuturesOptions::max_liftoff_time);
  probe(f, "futures.simulate_time", &FuturesOptions::simulate_time);
  probe(f, "futures.max_step", &FuturesOptions::max_step);
  const TwoFoldMapOptions m;
  probe(m, "map.threads", &TwoFoldMapOptions::threads);
  probe(m, "map.guess_offset", &TwoFoldMapOptions::guess_offset);
}

TEST_CASE("option tables: every key of every example run file is in its kind's table",
          "[run_file][options]") {
  // The readers take the keys they accept from the tables (keys_under), so a
  // key the reader accepts is documented by construction; this reads the
  // examples the tour runs and checks the other way round: every key they
  // use is a row (or under a "prefix.*" row).
  int checked = 0, filippov = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(SALTUS_SOURCE_DIR) / "examples")) {
    if (entry.path().extension() != ".json") continue;
    const Json json = read_json(entry.path());
    const RunFileKind* kind = nullptr;
    if (json.contains("curve1"))
      kind = &extremal_run_file();
    else if (json.contains("guess") || json.contains("futures") || json.contains("two_fold_at"))
      kind = &filippov_run_file();
    else if (json.contains("initial") || json.contains("time"))
      kind = &hybrid_run_file();
    else
      kind = &continue_run_file();
    INFO(entry.path().string());
    CHECK(undocumented_keys(kind->keys, json).empty());
    // And its reader, which takes its keys and ranges from the same table, reads it.
    if (kind == &extremal_run_file())
      CHECK_NOTHROW(parse_extremal_run(json, entry.path()));
    else if (kind == &hybrid_run_file())
      CHECK_NOTHROW(parse_hybrid_run(json, entry.path()));
    else if (kind == &filippov_run_file()) {
      CHECK_NOTHROW(parse_filippov_run(json, entry.path()));
      ++filippov;
    } else
      CHECK_NOTHROW(parse_run_file(json, entry.path()));
    ++checked;
  }
  CHECK(checked >= 55);
  CHECK(filippov >= 3);  // examples/wheel_turntable.json, user/two_fold.json, user/wheel_turntable.json
  // A key outside the tables is named (the test would catch a reader that accepts more).
  const Json extra =
      parse_json(R"({"continuation": {"parameter": "mu", "dss": 1}, "periodic": {"t1": 2}})", "x");
  CHECK(undocumented_keys(continue_run_file().keys, extra) ==
        std::vector<std::string>{"continuation.dss", "periodic.t1"});
}

TEST_CASE("option tables: the help fits 110 columns and every row has a type or stands for keys",
          "[run_file][options]") {
  for (const RunFileKind* kind : run_file_kinds()) {
    // The tables and the introduction (the appendix is models/' own prose).
    const std::string help = run_file_help(*kind);
    std::istringstream lines(help.substr(0, help.size() - kind->appendix.size()));
    for (std::string line; std::getline(lines, line);) {
      INFO(line);
      CHECK(line.size() <= 110);
    }
    std::set<std::string> keys;
    for (const auto& row : kind->keys) {
      INFO(row.key);
      CHECK(keys.insert(row.key).second);
      CHECK(!row.meaning.empty());
      CHECK(row.type.empty() == (row.key.back() == '*'));
      CHECK(row.wildcard.empty() == (row.key.back() != '*'));
    }
  }
}
