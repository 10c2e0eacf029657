// The fuzzer's judge: if it called a crash or a silent run "ok", the fuzz
// smoke test could never fail.
#include "tests/fuzz/outcome.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <filesystem>
#include <random>

#include "tests/fuzz/mutator.h"

using namespace saltus::fuzz;

TEST_CASE("fuzz: outcomes are classified as a user would see them", "[fuzz]") {
  RunResult r;
  CHECK(classify(r, "a.json") == Outcome::ok);
  r.exit_code = 1;
  r.err = "saltus: run file /x/a.json: 'time' must be a number, got \"t\"\n";
  CHECK(classify(r, "/x/a.json") == Outcome::error);
  CHECK(classify(r, "/y/b.json") == Outcome::unclear);  // does not name the file
  r.err = "saltus: error: [json.exception.type_error.302] type must be number\n";
  CHECK(classify(r, "/x/a.json") == Outcome::raw);
  r.err = "terminate called without an active exception\n";
  CHECK(classify(r, "/x/a.json") == Outcome::raw);
  r.err.clear();
  r.signal = 11;
  CHECK(classify(r, "/x/a.json") == Outcome::crash);
  r = RunResult{};
  r.timed_out = true;
  r.silent_for = 1.0;
  CHECK(classify(r, "/x/a.json") == Outcome::slow);
  r.silent_for = 5.0;
  CHECK(classify(r, "/x/a.json") == Outcome::silent);
}

TEST_CASE("fuzz: a child's signal, exit code and silence are seen", "[fuzz]") {
  const auto dir =
      std::filesystem::temp_directory_path() / ("saltus-fuzz-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto segv = run_process({"/bin/sh", "-c", "kill -SEGV $$"}, dir, 5, std::size_t(1) << 30);
  CHECK(segv.signal == SIGSEGV);
  CHECK(classify(segv, "f") == Outcome::crash);
  const auto fail = run_process({"/bin/sh", "-c", "echo 'saltus: run file f: bad' >&2; exit 3"}, dir, 5,
                                std::size_t(1) << 30);
  CHECK(fail.exit_code == 3);
  CHECK(classify(fail, "f") == Outcome::error);
  // Busy and silent: CPU time passes without a line (even on a loaded
  // machine 4 s of wall time give more than 0.2 s of it).
  const auto quiet = run_process({"/bin/sh", "-c", "while :; do :; done"}, dir, 4, std::size_t(1) << 30);
  CHECK(quiet.timed_out);
  CHECK(quiet.silent_for > 0.2);
  CHECK(classify(quiet, "f", 0.2) == Outcome::silent);
  // Waiting is no work: sleeping past the limit is slow, not silent.
  const auto waiting = run_process({"/bin/sh", "-c", "sleep 3"}, dir, 1.5, std::size_t(1) << 30);
  CHECK(waiting.timed_out);
  CHECK(classify(waiting, "f", 0.2) == Outcome::slow);
  std::filesystem::remove_all(dir);
}

TEST_CASE("fuzz: mutants are reproducible from their seed and differ from the file", "[fuzz]") {
  const Json file = Json::parse(R"({"a": 1, "b": {"c": [1, 2, 3], "d": "x"}})");
  int changed = 0;
  for (unsigned long i = 0; i < 50; ++i) {
    std::mt19937_64 one(i), two(i);
    const Mutant m1 = mutate(file, one), m2 = mutate(file, two);
    CHECK(m1.text == m2.text);
    CHECK(m1.description == m2.description);
    changed += m1.text != file.dump(2);
  }
  CHECK(changed >= 45);
}
