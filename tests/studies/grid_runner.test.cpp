// The grid runner (studies/grid_runner.h) and `saltus sweep` on it: a
// stopped, killed or interrupted study resumed ends with the files of an
// uninterrupted one, byte for byte.

#include "studies/grid_runner.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "../drivers/run_cli.h"
#include "tests/fuzz/outcome.h"

namespace fs = std::filesystem;
using saltus::studies::GridJob;
using saltus::studies::Json;
using namespace saltus::testing;

namespace {

int lines_of(const fs::path& file) {
  const std::string t = text_of(file);
  return static_cast<int>(std::count(t.begin(), t.end(), '\n'));
}

// A chain whose every value depends on all before it in its block, through
// doubles that a lossy journal would change: x_k = sin(x_{k-1} + k) / 3 + 1 / 7.
GridJob chain_job(int points, int chains, int threads) {
  GridJob job;
  job.command = "test";
  job.kind = "test";
  job.identity = "chain";
  job.points = points;
  job.chains = chains;
  job.threads = threads;
  job.compute = [](int k, const Json* previous) {
    const double x = previous ? saltus::studies::double_of((*previous)["x"]) : 0.1;
    return Json{{"x", std::sin(x + k) / 3 + 1.0 / 7}, {"lyap", saltus::studies::json_double(-INFINITY)}};
  };
  return job;
}

// How the tests run a grid: journalled in dir, stopped (as Ctrl-C would)
// after interrupt_after points.
saltus::studies::GridControl control(const fs::path& dir, bool resume, std::ostream& err,
                                     int interrupt_after = 0) {
  saltus::studies::GridControl c;
  c.journal = dir;
  c.resume = resume;
  c.log = &err;
  c.interrupt_after = interrupt_after;
  return c;
}

}  // namespace

TEST_CASE("grid runner: a run stopped part way and resumed gives the uninterrupted records", "[grid]") {
  const fs::path dir = scratch("grid");
  std::ostringstream err;
  const auto whole = saltus::studies::run_grid(chain_job(40, 4, 3), control(dir, false, err));
  REQUIRE(whole.complete());
  CHECK(whole.computed == 40);
  // The first point of each block starts afresh, so a block's records are
  // those of a one-block run started at its first point: k = 10 of 4 blocks
  // equals the first point of a run whose values are shifted by 10.
  CHECK(whole.records[10]["x"] == Json(std::sin(0.1 + 10) / 3 + 1.0 / 7));
  CHECK(std::isinf(saltus::studies::double_of(whole.records[0]["lyap"])));

  const auto part = saltus::studies::run_grid(chain_job(40, 4, 3), control(dir, false, err, 7));
  CHECK(part.interrupted);
  CHECK(part.computed >= 7);
  CHECK(part.computed < 40);
  CHECK(lines_of(saltus::studies::journal_path(dir, "test")) == 1 + part.computed);

  // A kill leaves a line cut short: ignored on resume.
  std::ofstream(saltus::studies::journal_path(dir, "test"), std::ios::app)
      << R"({"k": 39, "record": {"x": 0.)";
  const auto resumed = saltus::studies::run_grid(chain_job(40, 4, 1), control(dir, true, err));
  CHECK(resumed.complete());
  CHECK(resumed.resumed == part.computed);
  CHECK(resumed.computed == 40 - part.computed);
  for (int k = 0; k < 40; ++k) CHECK(resumed.records[k].dump() == whole.records[k].dump());
  fs::remove_all(dir);
}

TEST_CASE("grid runner: a journal of another study is refused, naming it", "[grid]") {
  const fs::path dir = scratch("grid-other");
  std::ostringstream err;
  saltus::studies::run_grid(chain_job(10, 2, 1), control(dir, false, err, 3));
  GridJob b = chain_job(10, 2, 1);
  b.identity = "another run file";
  CHECK_THROWS_WITH(saltus::studies::run_grid(b, control(dir, true, err)),
                    Catch::Contains("test.journal.jsonl") && Catch::Contains("another study"));
  // The blocks come from the journal: a resume on more threads keeps them.
  const auto resumed = saltus::studies::run_grid(chain_job(10, 5, 4), control(dir, true, err));
  CHECK(resumed.chains == 2);
  CHECK(resumed.records[5]["x"] == Json(std::sin(0.1 + 5) / 3 + 1.0 / 7));
  fs::remove_all(dir);
}

namespace {

// A sweep of the triple pendulum with short times (about 0.1 s a value).
fs::path small_sweep(const fs::path& dir, int steps) {
  fs::create_directories(dir);
  std::ofstream(dir / "run.json") << R"({"name": "small", "model": "triple_pendulum",
    "parameters": {"eta": 1.8, "c1": 0.12, "c2": 0.12, "c3": 0.12, "e": 0.9},
    "initial": {"psi1": 1.8, "psi2": 1.0, "psi3": 2.0, "psi1_dot": 0, "psi2_dot": 0, "psi3_dot": 0},
    "time": [0, 10], "section": {"variable": "psi1", "value": 0, "angle": true},
    "sweep": {"parameter": "q1", "from": 1.31, "to": 1.25, "steps": )"
                                  << steps
                                  << R"(, "transient": 10, "record": 30, "threads": 2, "plot": "psi2_dot"}})";
  return dir / "run.json";
}

void check_same_files(const fs::path& a, const fs::path& b) {
  for (const char* f : {"sweep.csv", "sweep.json", "sweep.dat"}) {
    INFO(f);
    CHECK(text_of(a / f) == text_of(b / f));
  }
  CHECK(!fs::exists(b / "sweep.journal.jsonl"));
}

}  // namespace

TEST_CASE("saltus sweep --resume after Ctrl-C writes the uninterrupted files byte for byte", "[grid][cli]") {
  const fs::path dir = scratch("sweep-resume");
  const fs::path run = small_sweep(dir, 8);
  const Run whole = run_saltus({"sweep", run.string(), "--out", (dir / "whole").string()});
  INFO(whole.err);
  REQUIRE(whole.code == 0);
  CHECK(!fs::exists(dir / "whole" / "sweep.journal.jsonl"));

  const fs::path out = dir / "part";
  const Run part =
      run_saltus({"sweep", run.string(), "--out", out.string(), "--json", "--interrupt-after", "3"});
  CHECK(part.code == 130);
  CHECK_THAT(part.err, Catch::Contains("interrupted") && Catch::Contains("--resume"));
  const auto summary = nlohmann::json::parse(part.out);
  CHECK(summary["status"] == "interrupted");
  CHECK(summary["values_done"].get<int>() >= 3);
  CHECK(summary["values_done"].get<int>() < 8);
  CHECK(lines_of(out / "sweep.journal.jsonl") == 1 + summary["values_done"].get<int>());

  const Run resumed = run_saltus({"sweep", run.string(), "--out", out.string(), "--resume"});
  INFO(resumed.err);
  REQUIRE(resumed.code == 0);
  CHECK_THAT(resumed.out, Catch::Contains("from the journal"));
  check_same_files(dir / "whole", out);
  fs::remove_all(dir);
}

TEST_CASE("saltus sweep killed (SIGKILL) or stopped (SIGINT) as a process, then resumed", "[grid][cli]") {
  const fs::path dir = scratch("sweep-kill");
  const fs::path run = small_sweep(dir, 24);
  const std::string saltus = std::string(SALTUS_BINARY_DIR) + "/saltus";
  REQUIRE(fs::exists(saltus));
  const Run whole = run_saltus({"sweep", run.string(), "--out", (dir / "whole").string()});
  REQUIRE(whole.code == 0);

  for (int signal : {SIGKILL, SIGINT}) {
    INFO("signal " << signal);
    const fs::path out = dir / ("out" + std::to_string(signal));
    const fs::path journal = out / "sweep.journal.jsonl";
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      ::freopen("/dev/null", "w", stderr);
      ::freopen("/dev/null", "w", stdout);
      ::execl(saltus.c_str(), "saltus", "sweep", run.c_str(), "--out", out.c_str(),
              static_cast<char*>(nullptr));
      ::_exit(127);
    }
    // Wait for the header and 4 finished values, then stop it part way.
    const auto t0 = std::chrono::steady_clock::now();
    while (lines_of(journal) < 5 && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(60))
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ::kill(pid, signal);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (signal == SIGKILL) {
      CHECK(WIFSIGNALED(status));
      CHECK(!fs::exists(out / "sweep.json"));  // nothing of the final files
    } else {
      REQUIRE(WIFEXITED(status));
      CHECK(WEXITSTATUS(status) == 130);
      CHECK(nlohmann::json::parse(text_of(out / "sweep.json"))["status"] == "interrupted");
    }
    CHECK(lines_of(journal) < 25);  // stopped part way
    const Run resumed = run_saltus({"sweep", run.string(), "--out", out.string(), "--resume"});
    INFO(resumed.err);
    REQUIRE(resumed.code == 0);
    check_same_files(dir / "whole", out);
  }
  fs::remove_all(dir);
}

// As if mpirun had started this process (its environment variable set): the
// test binary has no MPI module beside it (studies/grid_mpi.h), so the study
// must not run as an unsplit copy on every rank, writing the same files N
// times over, but stop with what to do.
TEST_CASE("saltus sweep under mpirun without saltus's MPI module is a clear error", "[grid][cli][mpi]") {
  const fs::path dir = scratch("sweep-no-mpi-module");
  const fs::path run = small_sweep(dir, 4);
  ::setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
  const Run r = run_saltus({"sweep", run.string(), "--out", (dir / "out").string()});
  ::unsetenv("OMPI_COMM_WORLD_SIZE");
  INFO(r.err);
  CHECK(r.code == 1);
  CHECK_THAT(r.err, Catch::Contains(run.string()) && Catch::Contains("mpirun started saltus") &&
                        Catch::Contains("libsaltus_mpi.so") && Catch::Contains("built without MPI"));
  CHECK(!fs::exists(dir / "out" / "sweep.csv"));
  // Without mpirun the same run works.
  CHECK(run_saltus({"sweep", run.string(), "--out", (dir / "out").string()}).code == 0);
  fs::remove_all(dir);
}

// A journal read back is input like a run file (studies/grid_runner.h): a
// damaged line is an error naming the journal, the line and the key, before
// anything is computed or written; nothing is resumed from it.
namespace {

fs::path journal_of(const fs::path& dir) { return saltus::studies::journal_path(dir, "test"); }

std::vector<std::string> lines_in(const fs::path& file) {
  std::istringstream in(text_of(file));
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

void write_lines(const fs::path& file, const std::vector<std::string>& lines) {
  std::ofstream out(file, std::ios::binary);
  for (const auto& l : lines) out << l << '\n';
}

// The chain job with its records checked as a command checks them: "x" a
// finite number, "lyap" as json_double writes it.
GridJob checked_chain_job(int points, int chains) {
  GridJob job = chain_job(points, chains, 1);
  job.check = [](int, const Json& r) {
    saltus::studies::record::keys(r, {"x", "lyap"}, {});
    saltus::studies::record::real(r["x"], "x", true);
    saltus::studies::record::real(r["lyap"], "lyap", false);
  };
  return job;
}

std::string resume_error(const GridJob& job, const fs::path& dir) {
  std::ostringstream err;
  try {
    saltus::studies::run_grid(job, control(dir, true, err));
  } catch (const saltus::studies::RunFileError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("grid runner: a damaged journal is refused naming the journal, the line and the key", "[grid]") {
  const fs::path dir = scratch("grid-damaged");
  std::ostringstream err;
  REQUIRE(saltus::studies::run_grid(checked_chain_job(10, 1), control(dir, false, err, 6)).interrupted);
  const std::vector<std::string> valid = lines_in(journal_of(dir));
  REQUIRE(valid.size() == 7);
  const Json entry = Json::parse(valid[3]);  // point 2
  const std::string where = journal_of(dir).string() + ", line 4: ";

  const auto with_line_4 = [&](const std::string& line) {
    std::vector<std::string> lines = valid;
    lines[3] = line;
    return lines;
  };
  const auto with_record = [&](const char* key, const Json& value) {
    Json e = entry;
    e["record"][key] = value;
    return with_line_4(e.dump());
  };
  std::string deep = R"({"k": 2, "record": )";
  for (int i = 0; i < 100000; ++i) deep += "{\"a\":";
  deep += "1" + std::string(100000, '}') + "}";
  struct Case {
    std::string what;
    std::vector<std::string> lines;
    std::vector<std::string> messages;
  };
  Json moved = entry;
  moved["k"] = 8;
  Json altered = entry;
  altered["record"]["x"] = altered["record"]["x"].get<double>() * (1 + 1e-15);
  Json header = Json::parse(valid[0]);
  header["chains"] = 2;
  const std::vector<Case> cases = {
      {"a record nested 100,000 deep", with_line_4(deep), {where, "nesting deeper than 64 levels"}},
      {"null where a number is",
       with_record("x", nullptr),
       {where, "point 2: record: 'x' must be a finite number, got null"}},
      {"a string", with_record("x", "nan"), {where, "'x' must be a finite number, got \"nan\""}},
      {"an array", with_record("lyap", Json::array({1})), {where, "'lyap' must be a number, \"nan\""}},
      {"a key missing",
       with_line_4(R"({"k": 2, "record": {"x": 0.5}, "check": "0"})"),
       {where, "'lyap' is missing"}},
      {"an unknown key", with_record("y", 1), {where, "unknown key \"y\""}},
      {"a point out of range",
       with_line_4(R"({"k": 1e18, "record": {}, "check": ""})"),
       {where, "'k' must be an integer from 0 to 9, got 1e+18"}},
      {"a point given twice", with_line_4(valid[2]), {where, "point 1 is given twice (also on line 3)"}},
      {"not an entry", with_line_4("[1, 2]"), {where, "not a point's entry"}},
      {"not JSON", with_line_4("{\"k\": 2, \"rec"), {where, "not valid JSON"}},
      {"an empty line", with_line_4(""), {where, "not valid JSON"}},
      {"a key given twice",
       with_line_4(R"({"k": 2, "k": 3, "record": {}, "check": ""})"),
       {where, "key 'k' is given twice"}},
      {"a valid record altered", with_line_4(altered.dump()), {where, "does not match its 'check'"}},
      {"a record moved to another point",
       with_line_4(moved.dump()),
       {where, "point 8:", "does not match its 'check'"}},
      {"the blocks altered",
       [&] {
         auto l = valid;
         l[0] = header.dump();
         return l;
       }(),
       {journal_of(dir).string() + ", line 1: ", "the header does not match its 'check'"}},
      {"an entry for a header",
       [&] {
         auto l = valid;
         l[0] = valid[1];
         return l;
       }(),
       {journal_of(dir).string() + ", line 1: ", "a journal of another study"}},
  };
  for (const auto& c : cases) {
    SECTION(c.what) {
      write_lines(journal_of(dir), c.lines);
      const std::string before = text_of(journal_of(dir));
      const std::string e = resume_error(checked_chain_job(10, 1), dir);
      INFO(e.substr(0, 600));
      for (const auto& m : c.messages) CHECK_THAT(e, Catch::Contains(m));
      if (c.what != "a record nested 100,000 deep") CHECK(e.size() < 600);
      CHECK(text_of(journal_of(dir)) == before);  // nothing written
      for (const auto& f : fs::directory_iterator(dir))
        CHECK(f.path().filename().string().find(".tmp") == std::string::npos);
    }
  }
  // A line cut short by a kill (no newline) is still no damage: computed again.
  write_lines(journal_of(dir), valid);
  std::ofstream(journal_of(dir), std::ios::app) << R"({"k": 6, "record": {"x": nu)";
  const auto resumed = saltus::studies::run_grid(checked_chain_job(10, 1), control(dir, true, err));
  CHECK(resumed.resumed == 6);
  CHECK(resumed.complete());
  fs::remove_all(dir);
}

namespace {

// The sweep's journal after `saltus sweep RUN --interrupt-after 3` in out, as lines.
std::vector<std::string> stopped_sweep(const fs::path& run, const fs::path& out) {
  const Run part = run_saltus({"sweep", run.string(), "--out", out.string(), "--interrupt-after", "3"});
  REQUIRE(part.code == 130);
  return lines_in(out / "sweep.journal.jsonl");
}

// Line n (from 1) of the journal with record[key] = value.
std::vector<std::string> with_value(std::vector<std::string> lines, int n, const std::string& key,
                                    const Json& value) {
  Json e = Json::parse(lines[n - 1]);
  e["record"][key] = value;
  lines[n - 1] = e.dump();
  return lines;
}

std::vector<std::string> without_key(std::vector<std::string> lines, int n, const std::string& key) {
  Json e = Json::parse(lines[n - 1]);
  e["record"].erase(key);
  lines[n - 1] = e.dump();
  return lines;
}

}  // namespace

TEST_CASE("saltus sweep --resume: a damaged journal is a clear error, nothing resumed, nothing left behind",
          "[grid][cli]") {
  // The cases a mutation fuzzer found (issue 34): "t": null started the next
  // value at a NaN time, a mode beyond the model's read past its modes, a
  // record 100,000 deep overflowed the stack (and left a temporary file).
  const fs::path dir = scratch("sweep-damaged");
  const fs::path run = small_sweep(dir, 6);
  const fs::path out = dir / "out", journal = out / "sweep.journal.jsonl";
  const std::vector<std::string> valid = stopped_sweep(run, out);
  REQUIRE(valid.size() >= 4);
  std::string deep = R"({"k": 1, "record": )" + std::string(100000, '[') + std::string(100000, ']') + "}";
  struct Case {
    std::string what;
    std::vector<std::string> lines;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"t null", with_value(valid, 2, "t", nullptr), "record: 't' must be a finite number, got null"},
      {"a mode the pendulum does not have", with_value(valid, 3, "mode", 8),
       "record: 'mode' must be an integer from 0 to 7, got 8"},
      {"a state of another size", with_value(valid, 2, "x", Json::array({1, 2})),
       "'x' must be a list of 6 values, got [1,2]"},
      {"an event count beyond an int", with_value(valid, 2, "events", 1e18),
       "'events' must be an integer from 0 to 2147483647, got 1e+18"},
      {"a hit of another size", with_value(valid, 2, "hits", Json::array({Json::array({0.5})})),
       "'hits[0]' must be a list of 7 values"},
      {"a failure that is not a message", with_value(valid, 2, "failure", 3),
       "'failure' must be a non-empty string, got 3"},
      // The library's texts the fuzzer saw: "key 'mode' not found", "basic_string:
      // construction from null is not valid", "cannot use operator[] with a
      // numeric argument with number", "type must be number, but is array".
      {"no mode", without_key(valid, 2, "mode"), "record: 'mode' is missing"},
      {"a failure null", with_value(valid, 2, "failure", nullptr),
       "'failure' must be a non-empty string, got null"},
      {"a hit that is a number", with_value(valid, 2, "hits", Json::array({1})),
       "'hits[0]' must be a list of 7 values, got 1"},
      {"events a list", with_value(valid, 2, "events", Json::array({1, 2})),
       "'events' must be an integer from 0 to 2147483647, got [1,2]"},
      {"a record 100,000 deep",
       [&] {
         auto l = valid;
         l[1] = deep;
         return l;
       }(),
       "line 2: nesting deeper than 64 levels"},
  };
  for (const auto& c : cases) {
    SECTION(c.what) {
      write_lines(journal, c.lines);
      const Run r = run_saltus({"sweep", run.string(), "--out", out.string(), "--resume"});
      INFO(r.err);
      CHECK(r.code == 1);
      CHECK_THAT(r.err, Catch::StartsWith("saltus: error: " + run.string() + ": journal " + journal.string() +
                                          ", line "));
      CHECK_THAT(r.err, Catch::Contains(c.message) && Catch::Contains("run without --resume"));
      saltus::fuzz::RunResult result;
      result.exit_code = r.code;
      result.err = r.err;
      CHECK(saltus::fuzz::classify(result, journal.string()) == saltus::fuzz::Outcome::error);
      CHECK(saltus::fuzz::temporary_files(out).empty());
      CHECK(lines_in(journal) == c.lines);  // the journal as it was: nothing resumed, nothing rewritten
    }
  }
  fs::remove_all(dir);
}
