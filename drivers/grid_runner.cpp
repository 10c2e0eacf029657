#include "drivers/grid_runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <exception>
#include <fstream>
#include <iomanip>
#include <mutex>
#include <sstream>
#include <thread>

#include "continuation/worker_threads.h"
#include "drivers/grid_mpi.h"
#include "drivers/output.h"

namespace saltus::drivers {

namespace fs = std::filesystem;

namespace {

// Set by the SIGINT handler; a plain sig_atomic_t is all a handler may touch.
volatile std::sig_atomic_t interrupt_requested = 0;

extern "C" void on_sigint(int) { interrupt_requested = 1; }

// The handler while a grid runs, the previous one restored after. SA_RESETHAND:
// a second Ctrl-C finds the default action and ends the process at once (the
// journal, flushed line by line, stays usable for --resume).
class SigintGuard {
 public:
  SigintGuard() {
    interrupt_requested = 0;
    struct sigaction action {};
    action.sa_handler = on_sigint;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    installed_ = ::sigaction(SIGINT, &action, &previous_) == 0;
  }
  ~SigintGuard() {
    if (installed_) ::sigaction(SIGINT, &previous_, nullptr);
  }
  SigintGuard(const SigintGuard&) = delete;
  SigintGuard& operator=(const SigintGuard&) = delete;

 private:
  struct sigaction previous_ {};
  bool installed_ = false;
};

Json header(const GridJob& job, int chains) {
  return {{"journal", job.kind},
          {"identity", fnv1a_hex(job.identity)},
          {"points", job.points},
          {"chains", chains}};
}

// The records a journal holds (into *records) and its blocks; false when
// there is no journal. A journal of another study throws.
bool read_journal(const fs::path& path, const GridJob& job, std::vector<Json>* records, int* chains) {
  // *chains: 0 until a journal sets it; a rank's journal of other blocks (a
  // stale one of an earlier run) is left out.
  std::ifstream in(path);
  if (!in) return false;
  std::string line;
  if (!std::getline(in, line)) return false;
  const Json head = Json::parse(line, nullptr, false);
  const Json expected = header(job, 1);
  if (head.is_discarded() || !head.is_object() || head.value("journal", "") != job.kind ||
      head.value("identity", "") != expected["identity"] || head.value("points", -1) != job.points ||
      !head.contains("chains") || !head["chains"].is_number_integer() || head["chains"].get<int>() < 1 ||
      head["chains"].get<int>() > job.points)
    throw RunFileError(path.string() + ": a journal of another study (another run file, grid or command); " +
                       "remove it, or run without --resume to start afresh");
  if (*chains != 0 && *chains != head["chains"].get<int>()) return false;
  *chains = head["chains"].get<int>();
  while (std::getline(in, line)) {
    if (in.eof()) break;  // no newline: the line a kill cut short
    const Json entry = Json::parse(line, nullptr, false);
    if (entry.is_discarded() || !entry.is_object() || !entry.contains("k") ||
        !entry["k"].is_number_integer() || !entry.contains("record") || !entry["record"].is_object())
      continue;
    const int k = entry["k"].get<int>();
    if (k >= 0 && k < job.points) (*records)[k] = entry["record"];
  }
  return true;
}

std::string entry_line(int k, const Json& record) { return Json{{"k", k}, {"record", record}}.dump(); }

// The points still to compute, per block: from the first one missing on (a
// later one present is computed again: it came from another predecessor).
// Keeps the records before it, drops the others; returns the kept count.
int first_missing(int points, int chains, std::vector<Json>* records, std::vector<int>* start) {
  int kept = 0;
  start->assign(chains, 0);
  for (int c = 0; c < chains; ++c) {
    const int begin = c * points / chains, end = (c + 1) * points / chains;
    int k = begin;
    while (k < end && !(*records)[k].is_null()) ++k;
    (*start)[c] = k;
    kept += k - begin;
    for (int j = k; j < end; ++j) (*records)[j] = nullptr;
  }
  return kept;
}

struct Shared {
  std::mutex journal_mutex;
  std::ofstream journal;
  std::atomic<int> next_chain{0}, computed{0}, workers_done{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
};

fs::path rank_journal(const fs::path& journal, int rank) {
  return rank == 0 ? journal : fs::path(journal.string() + "." + std::to_string(rank));
}

// Every journal of the study (rank 0's and the other ranks'), into *records.
bool read_journals(const fs::path& path, const GridJob& job, std::vector<Json>* records, int* chains) {
  *chains = 0;
  bool found = read_journal(path, job, records, chains);
  for (int r = 1; r <= kMaxThreads; ++r)
    if (fs::exists(rank_journal(path, r)))
      found = read_journal(rank_journal(path, r), job, records, chains) || found;
  return found;
}

void run_chain(const GridJob& job, int chains, int c, int from, GridRun* run, Shared* s) {
  const int end = (c + 1) * job.points / chains, begin = c * job.points / chains;
  for (int k = from; k < end; ++k) {
    if (interrupt_requested || s->failed) return;
    const Json* previous = k > begin ? &run->records[k - 1] : nullptr;
    Json record = job.compute(k, previous);
    {
      std::lock_guard lock(s->journal_mutex);
      s->journal << entry_line(k, record) << '\n' << std::flush;
    }
    run->records[k] = std::move(record);
    const int n = ++s->computed;
    if (job.interrupt_after > 0 && n == job.interrupt_after) std::raise(SIGINT);
  }
}

void print_progress(const GridJob& job, const GridRun& run, int computed, int todo, int threads,
                    double elapsed, std::ostream& err) {
  const mpi::World world = mpi::world();
  if (world.size > 1)  // rank 0 sees its own blocks only
    err << job.command << ": rank 0 of " << world.size << ": " << computed << " / " << todo
        << " of its points";
  else
    err << job.command << ": " << run.resumed + computed << " / " << job.points << " points";
  if (run.resumed > 0) err << " (" << run.resumed << " from the journal)";
  err << " on " << threads << " threads, " << std::setprecision(3) << elapsed << " s";
  if (computed > 0 && computed < todo)
    err << ", about " << std::setprecision(3) << elapsed * (todo - computed) / computed << " s left";
  err << '\n' << std::flush;
}

}  // namespace

fs::path journal_path(const fs::path& dir, const std::string& kind) {
  return dir / (kind + ".journal.jsonl");
}

void remove_journal(const fs::path& dir, const std::string& kind) {
  std::error_code ignored;
  for (int r = 0; r <= kMaxThreads; ++r) fs::remove(rank_journal(journal_path(dir, kind), r), ignored);
}

int GridRun::done() const {
  return static_cast<int>(
      std::count_if(records.begin(), records.end(), [](const Json& r) { return !r.is_null(); }));
}

std::string fnv1a_hex(const std::string& text) {
  std::uint64_t h = 14695981039346656037ull;  // FNV-1a offset basis and prime (Fowler, Noll, Vo)
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  std::ostringstream s;
  s << std::hex << std::setw(16) << std::setfill('0') << h;
  return s.str();
}

Json json_double(double v) {
  if (std::isfinite(v)) return v;
  return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
}

double double_of(const Json& v) {
  if (v.is_number()) return v.get<double>();
  const std::string s = v.is_string() ? v.get<std::string>() : "nan";
  if (s == "inf") return std::numeric_limits<double>::infinity();
  if (s == "-inf") return -std::numeric_limits<double>::infinity();
  return std::numeric_limits<double>::quiet_NaN();
}

namespace {

// The journal this rank appends to, afresh: its header and the kept records
// of its blocks (a line cut short goes).
void start_journal(const GridJob& job, const GridRun& run, const fs::path& path,
                   const std::vector<int>& owned, Shared* s) {
  write_file_atomically(path, [&](std::ostream& o) {
    o << header(job, run.chains).dump() << '\n';
    for (int c : owned)
      for (int k = c * job.points / run.chains; k < (c + 1) * job.points / run.chains; ++k)
        if (!run.records[k].is_null()) o << entry_line(k, run.records[k]) << '\n';
  });
  s->journal.open(path, std::ios::app);
  if (!s->journal) throw std::runtime_error("cannot append to " + path.string());
}

// The owned blocks on `threads` workers; progress on err (rank 0) while they run.
void run_blocks(const GridJob& job, const std::vector<int>& owned, const std::vector<int>& start, int threads,
                bool talk, GridRun* run, Shared* s, std::ostream& err) {
  int todo = 0;  // the points of the owned blocks still to compute
  for (int c : owned)
    for (int k = start[c]; k < (c + 1) * job.points / run->chains; ++k) todo += run->records[k].is_null();
  const auto t0 = std::chrono::steady_clock::now();
  WorkerThreads workers(threads, [&](int) {
    for (int i; (i = s->next_chain++) < static_cast<int>(owned.size());) {
      try {
        run_chain(job, run->chains, owned[i], start[owned[i]], run, s);
      } catch (...) {
        std::lock_guard lock(s->journal_mutex);
        if (!s->failed.exchange(true)) s->error = std::current_exception();
      }
    }
    ++s->workers_done;
  });
  double last = 0;
  bool told = false;
  while (s->workers_done < workers.started()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (interrupt_requested && !told) {
      err << job.command << ": interrupted: finishing the points under way (Ctrl-C again stops at once)\n"
          << std::flush;
      told = true;
    }
    if (talk && elapsed > 1.0 && elapsed - last >= 2.0) {
      print_progress(job, *run, s->computed, todo, threads, elapsed, err);
      last = elapsed;
    }
  }
}

}  // namespace

GridRun run_grid(const GridJob& job, const fs::path& dir, bool resume, std::ostream& err) {
  const mpi::World world = mpi::world();
  GridRun run;
  run.records.assign(job.points, nullptr);
  run.chains = job.chains;
  run.writer = world.rank == 0;
  const fs::path path = journal_path(dir, job.kind);
  fs::create_directories(dir);
  if (resume && !read_journals(path, job, &run.records, &run.chains) && run.writer)
    err << job.command << ": no journal " << path.string() << ": starting from the beginning\n";
  if (run.chains == 0) run.chains = job.chains;
  mpi::barrier();  // every rank has read the journals: the stale ones of absent ranks can go
  if (run.writer)
    for (int r = world.size; r <= kMaxThreads; ++r) {
      std::error_code ignored;
      fs::remove(rank_journal(path, r), ignored);
    }
  std::vector<int> start, owned;
  run.resumed = first_missing(job.points, run.chains, &run.records, &start);
  for (int c = world.rank; c < run.chains; c += world.size) owned.push_back(c);
  Shared s;
  start_journal(job, run, rank_journal(path, world.rank), owned, &s);
  {
    SigintGuard guard;
    const int threads = std::max(1, std::min<int>(job.threads, owned.size()));
    run_blocks(job, owned, start, threads, run.writer, &run, &s, err);
  }
  if (s.error) {
    if (world.size > 1) {  // the other ranks wait in the gather: end them all
      try {
        std::rethrow_exception(s.error);
      } catch (const std::exception& e) {
        err << "saltus: error: " << job.command << ": rank " << world.rank << ": " << e.what() << '\n';
      }
      mpi::abort(1);
    }
    std::rethrow_exception(s.error);
  }
  run.computed = s.computed;
  if (world.size > 1) {  // every rank's records of its blocks to rank 0
    std::vector<std::string> lines;
    for (int c : owned)
      for (int k = c * job.points / run.chains; k < (c + 1) * job.points / run.chains; ++k)
        if (!run.records[k].is_null()) lines.push_back(entry_line(k, run.records[k]));
    for (const auto& line : mpi::gather_lines(lines)) {
      const Json entry = Json::parse(line);
      run.records[entry["k"].get<int>()] = entry["record"];
    }
  }
  // Rank 0 holds every record; another rank judges its own blocks.
  for (int c = 0; c < run.chains; ++c)
    if (run.writer || c % world.size == world.rank)
      for (int k = c * job.points / run.chains; k < (c + 1) * job.points / run.chains; ++k)
        run.interrupted = run.interrupted || run.records[k].is_null();
  return run;
}

}  // namespace saltus::drivers
