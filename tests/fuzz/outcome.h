#pragma once
// One fuzzed `saltus` run: started as a child process with a time limit, and
// classified by what a user would see.

#include <filesystem>
#include <string>
#include <vector>

namespace saltus::fuzz {

enum class Outcome {
  ok,     // exit 0
  error,  // exit non-zero with a "saltus...: " message naming the run file
  slow,   // still running at the limit, but it said what it was doing in the last seconds
  // The failures:
  crash,    // ended by a signal (segmentation fault, abort, ...)
  raw,      // library or compiler text reached the user (std::, json.exception, boost::, ...)
  silent,   // still running at the limit with no progress line for a few seconds (of CPU time
            // per thread: a shared machine stretches wall time, not work)
  unclear,  // exit non-zero without a message naming the run file
  wrong,    // exit 0 with a result that is wrong where the fuzzer can tell (a saved state read back:
            // tests/fuzz/saved_state.h)
  litter,   // a run that ended (not killed) left a temporary file (*.tmp<pid>) behind
};
constexpr int kOutcomes = 9;
const char* to_string(Outcome o);
bool is_failure(Outcome o);

struct RunResult {
  int exit_code = 0;
  int signal = 0;          // the signal that ended it, 0 when it exited
  bool timed_out = false;  // killed by us at the limit
  double silent_for = 0;   // CPU seconds per thread since the last output on stderr, when killed
  std::string out, err;
};

// Runs argv[0] with the arguments in `dir` (stdout, stderr to files there),
// killed after `timeout` seconds of wall time; address space capped at
// `memory_bytes` (0: no cap) so a run without bound meets bad_alloc, not the
// machine's OOM killer.
RunResult run_process(const std::vector<std::string>& argv, const std::filesystem::path& dir, double timeout,
                      std::size_t memory_bytes);

// `run_file` is the path given on the command line (or the mutated file read
// back); a clear error names it.
Outcome classify(const RunResult& r, const std::string& run_file, double allowed_silence = 3.5);

// The temporary files (a name holding ".tmp") under dir: a finished run leaves none.
std::vector<std::filesystem::path> temporary_files(const std::filesystem::path& dir);

}  // namespace saltus::fuzz
