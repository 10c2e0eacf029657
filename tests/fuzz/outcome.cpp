#include "tests/fuzz/outcome.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <thread>

namespace saltus::fuzz {

const char* to_string(Outcome o) {
  static const char* names[kOutcomes] = {"ok",     "error",   "slow",  "crash", "raw",
                                         "silent", "unclear", "wrong", "litter"};
  return names[static_cast<int>(o)];
}

bool is_failure(Outcome o) { return o >= Outcome::crash; }

namespace {

std::string slurp(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// CPU seconds the process has used (all its threads) and its thread count,
// from /proc/PID/stat (fields 14, 15 and 20); zeros when it is gone.
std::pair<double, int> cpu_and_threads(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t close = text.rfind(')');  // the command name may hold spaces
  if (close == std::string::npos) return {0.0, 0};
  std::istringstream fields(text.substr(close + 2));
  std::vector<std::string> f((std::istream_iterator<std::string>(fields)),
                             std::istream_iterator<std::string>());
  if (f.size() < 18) return {0.0, 0};
  // After the name: field 3 is f[0], so utime (14) is f[11], stime f[12], threads (20) f[17].
  const double ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
  return {(std::stod(f[11]) + std::stod(f[12])) / ticks, std::stoi(f[17])};
}

}  // namespace

RunResult run_process(const std::vector<std::string>& argv, const std::filesystem::path& dir, double timeout,
                      std::size_t memory_bytes) {
  // Everything the child needs is made before fork: after it, only
  // async-signal-safe calls (the fuzzer runs several children from threads).
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const std::string out_file = (dir / "stdout").string(), err_file = (dir / "stderr").string();
  const std::string dir_name = dir.string();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    const int out = ::open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = ::open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || err < 0 || ::chdir(dir_name.c_str()) != 0) ::_exit(125);
    ::dup2(out, STDOUT_FILENO);
    ::dup2(err, STDERR_FILENO);
    const rlimit memory{memory_bytes, memory_bytes};
    if (memory_bytes > 0) ::setrlimit(RLIMIT_AS, &memory);
    const rlim_t cpu = static_cast<rlim_t>(4 * timeout + 10);  // a backstop: wall time decides
    const rlimit cpu_limit{cpu, cpu};
    ::setrlimit(RLIMIT_CPU, &cpu_limit);
    const rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    ::execv(args[0], args.data());
    ::_exit(126);
  }
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  // Silence is counted in CPU time per thread, not wall time: on a shared
  // machine a run waits for the processor, and a progress line every 2 s of
  // wall time is then several seconds apart on the clock but not in work.
  double cpu_at_output = 0, cpu = 0;
  int threads = 1;
  off_t err_size = 0;
  RunResult r;
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (const auto [c, n] = cpu_and_threads(pid); n > 0) cpu = c, threads = n;
    struct stat st {};
    if (::stat(err_file.c_str(), &st) == 0 && st.st_size != err_size) {
      err_size = st.st_size;
      cpu_at_output = cpu;
    }
    const auto now = clock::now();
    if (std::chrono::duration<double>(now - start).count() > timeout) {
      r.timed_out = true;
      r.silent_for = (cpu - cpu_at_output) / std::max(1, threads);
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!r.timed_out) {
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  }
  r.out = slurp(out_file);
  r.err = slurp(err_file);
  return r;
}

Outcome classify(const RunResult& r, const std::string& run_file, double allowed_silence) {
  // Text no user should read: library exceptions, type names, the runtime's
  // last words and assertion failures; and nlohmann's and libstdc++'s own
  // messages, which reach the user without their "[json.exception...]" or
  // "std::" (drivers/cli.cpp, error_message, cuts those).
  static const std::regex raw(
      R"(json\.exception|std::|boost::|terminate called|Assertion|what\(\):|basic_string|Error in function|)"
      R"(Sanitizer|runtime error:|)"  // and a sanitizer's report, when run on such a build
      R"(type must be |cannot use operator|cannot use value\(\)|key '[^']*' not found|_M_[a-z_]+|)"
      R"(construction from null|array index [0-9]+ is out of range|invalid UTF-8 byte|)"
      R"(\bsto(i|l|ul|ll|ull|f|d|ld)\b|filesystem error)");
  if (r.signal != 0 && !r.timed_out) return Outcome::crash;
  if (std::regex_search(r.err, raw) || std::regex_search(r.out, raw)) return Outcome::raw;
  if (r.timed_out) return r.silent_for > allowed_silence ? Outcome::silent : Outcome::slow;
  if (r.exit_code == 0) return Outcome::ok;
  // A clear error: a line "saltus[ command]: ..." that names the run file.
  std::istringstream lines(r.err);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("saltus", 0) == 0 && line.find(": ") != std::string::npos &&
        line.find(run_file) != std::string::npos)
      return Outcome::error;
  return Outcome::unclear;
}

std::vector<std::filesystem::path> temporary_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> found;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return found;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir, ec))
    if (e.path().filename().string().find(".tmp") != std::string::npos) found.push_back(e.path());
  return found;
}

}  // namespace saltus::fuzz
