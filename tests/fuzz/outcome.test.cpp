// The fuzzer's judge: if it called a crash or a silent run "ok", the fuzz
// smoke test could never fail.
#include "tests/fuzz/outcome.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <filesystem>
#include <fstream>
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
  // nlohmann's and libstdc++'s texts after drivers/cli.cpp cut their prefixes
  // (the messages issue 34 saw from a saved summary and a journal).
  for (const char* library : {"type must be string, but is array", "key 'mode' not found",
                              "basic_string: construction from null is not valid",
                              "cannot use operator[] with a numeric argument with number",
                              "vector::_M_range_check: __n (which is 7) >= this->size() (which is 1)", "stoi",
                              "filesystem error: cannot rename: Is a directory"}) {
    r.err = std::string("saltus: error: /x/a.json: ") + library + "\n";
    INFO(library);
    CHECK(classify(r, "/x/a.json") == Outcome::raw);
  }
  r.err =
      "saltus: error: /x/a.json: journal /x/out/map.journal.jsonl, line 4: point 2: record: 'mode' must be "
      "an integer from 0 to 0, got 7\n";
  CHECK(classify(r, "/x/out/map.journal.jsonl") == Outcome::error);
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

TEST_CASE("fuzz: journal mutants are reproducible, line-wise, and temporary files are found", "[fuzz]") {
  const std::string journal = R"({"journal":"map","points":3}
{"k":0,"record":{"t":1.5,"x":[0.25,1]}}
{"k":1,"record":{"t":2.5,"x":[0.5,2]}}
)";
  int changed = 0;
  for (unsigned long i = 0; i < 60; ++i) {
    std::mt19937_64 one(i), two(i);
    const Mutant m1 = mutate_journal(journal, one), m2 = mutate_journal(journal, two);
    CHECK(m1.text == m2.text);
    CHECK(m1.description.find("line") != std::string::npos);  // it says which line
    changed += m1.text != journal;
  }
  CHECK(changed >= 50);
  const auto dir = std::filesystem::temp_directory_path() / ("saltus-fuzz-tmp-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "out");
  CHECK(temporary_files(dir).empty());
  std::ofstream(dir / "out" / "sweep.journal.jsonl.tmp1234") << "{";
  CHECK(temporary_files(dir).size() == 1);
  std::filesystem::remove_all(dir);
  CHECK(temporary_files(dir).empty());
}
