#include "studies/grid_runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include "continuation/worker_threads.h"
#include "studies/grid_mpi.h"
#include "studies/output.h"

namespace saltus::studies {

namespace fs = std::filesystem;

namespace {

// The header line, its "check" the hash of the rest.
Json header(const GridJob& job, int chains) {
  Json h = {{"journal", job.kind},
            {"identity", fnv1a_hex(job.identity)},
            {"points", job.points},
            {"chains", chains}};
  h["check"] = fnv1a_hex(h.dump());
  return h;
}

// The hash an entry carries: of its record, its point and the blocks, so that
// a record is resumed only as the point it was computed as, after the
// predecessor it was computed from.
std::string entry_check(int chains, int k, const Json& record) {
  return fnv1a_hex(std::to_string(chains) + " " + std::to_string(k) + " " + record.dump());
}

// Where a journal's line is wrong, and what to do.
[[noreturn]] void bad_line(const fs::path& path, int line, const std::string& what) {
  throw RunFileError("journal " + path.string() + ", line " + std::to_string(line) + ": " + what);
}

const char* const kStartAfresh = "run without --resume to start afresh";

// Line n of the journal as JSON, with the run files' limits (studies/json_input.h).
Json parse_line(const fs::path& path, int n, const std::string& line, const std::string& what_to_do) {
  try {
    return parse_json_from(line, "journal " + path.string() + ", line " + std::to_string(n));
  } catch (const RunFileError& e) {
    // The parser counts the lines of this line's text alone: give its column only.
    std::string what = e.what();
    if (const std::size_t at = what.find(" at line 1, column "); at != std::string::npos)
      what.replace(at, 19, " at column ");
    throw RunFileError(what + what_to_do);
  }
}

const std::string kNothingResumed =
    std::string(". Nothing was resumed: delete the line to compute its point again, or ") + kStartAfresh;

// The header (line 1) of a journal of this study; its block count.
int read_header(const fs::path& path, const std::string& line, const GridJob& job) {
  const Json head = parse_line(path, 1, line, std::string("; ") + kStartAfresh);
  const auto another = [&] {
    bad_line(path, 1,
             "a journal of another study (another run file, grid or command); remove it, or " +
                 std::string(kStartAfresh));
  };
  if (!head.is_object() || !head.contains("journal") || head["journal"] != Json(job.kind) ||
      !head.contains("identity") || head["identity"] != Json(fnv1a_hex(job.identity)) ||
      !head.contains("points") || head["points"] != Json(job.points))
    another();
  try {
    record::keys(head, {"journal", "identity", "points", "chains", "check"}, {});
    const int chains = record::integer(head, "chains", 1, job.points);
    if (job.chains_fixed && chains != job.chains)
      throw RecordError("'chains' is " + std::to_string(chains) + ", but this study runs in " +
                        std::to_string(job.chains) + " blocks");
    if (head != header(job, chains))
      throw RecordError(
          "the header does not match its 'check' (the hash saltus wrote with it): it was altered");
    return chains;
  } catch (const RecordError& e) {
    bad_line(path, 1, std::string(e.what()) + "; " + kStartAfresh);
  }
}

// Entry `line` (number n) of the journal: its point, the record into *records.
void read_entry(const fs::path& path, int n, const std::string& line, const GridJob& job, int chains,
                std::vector<Json>* records, std::vector<int>* line_of) {
  const Json entry = parse_line(path, n, line, kNothingResumed);
  int k = -1;
  try {
    if (!entry.is_object())
      throw RecordError("not a point's entry {\"k\": ..., \"record\": {...}, \"check\": ...}");
    record::keys(entry, {"k", "record", "check"}, {});
    const int point = record::integer(entry, "k", 0, job.points - 1);
    if ((*line_of)[point] > 0)
      throw RecordError("point " + std::to_string(point) + " is given twice (also on line " +
                        std::to_string((*line_of)[point]) + ")");
    k = point;
    const Json& r = entry["record"];
    if (!r.is_object()) throw RecordError("'record' must be an object, got " + excerpt(r.dump()));
    try {
      if (job.check) job.check(k, r);
    } catch (const RecordError& e) {
      throw RecordError("record: " + std::string(e.what()));
    }
    if (entry["check"] != Json(entry_check(chains, k, r)))
      throw RecordError(
          "the record does not match its 'check' (the hash saltus wrote with it): the line was "
          "altered");
  } catch (const RecordError& e) {
    bad_line(path, n,
             (k >= 0 ? "point " + std::to_string(k) + ": " : std::string()) + e.what() + kNothingResumed);
  }
  (*records)[k] = entry["record"];
  (*line_of)[k] = n;
}

// The records a journal holds (into *records) and its blocks; false when
// there is no journal. A journal of another study, or one with a line this
// study could not have written, throws naming the line.
bool read_journal(const fs::path& path, const GridJob& job, std::vector<Json>* records, int* chains) {
  // *chains: 0 until a journal sets it; a rank's journal of other blocks (a
  // stale one of an earlier run) is left out.
  std::ifstream in(path);
  if (!in) return false;
  std::string line;
  if (!std::getline(in, line)) return false;
  const int head = read_header(path, line, job);
  if (*chains != 0 && *chains != head) return false;
  *chains = head;
  std::vector<Json> read(job.points);
  std::vector<int> line_of(job.points, 0);
  for (int n = 2; std::getline(in, line); ++n) {
    if (in.eof()) break;  // no newline: the line a kill cut short
    read_entry(path, n, line, job, head, &read, &line_of);
  }
  for (int k = 0; k < job.points; ++k)
    if (line_of[k] > 0) (*records)[k] = std::move(read[k]);
  return true;
}

std::string entry_line(int chains, int k, const Json& record) {
  return Json{{"k", k}, {"record", record}, {"check", entry_check(chains, k, record)}}.dump();
}

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
  std::mutex mutex;  // the journal, the count and the progress callback
  std::ofstream journal;
  int computed = 0;
  std::atomic<int> next_chain{0}, workers_done{0};
  std::atomic<bool> stop{false}, failed{false};
  std::exception_ptr error;
};

bool requested(const GridControl& control) { return control.stop_requested && control.stop_requested(); }

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

void run_chain(const GridJob& job, const GridControl& control, int c, int from, GridRun* run, Shared* s) {
  const int end = (c + 1) * job.points / run->chains, begin = c * job.points / run->chains;
  for (int k = from; k < end; ++k) {
    if (s->stop || s->failed) return;
    if (requested(control)) {
      s->stop = true;
      return;
    }
    const Json* previous = k > begin ? &run->records[k - 1] : nullptr;
    Json record = job.compute(k, previous);
    std::lock_guard lock(s->mutex);
    if (s->journal.is_open()) s->journal << entry_line(run->chains, k, record) << '\n' << std::flush;
    run->records[k] = std::move(record);
    const int n = ++s->computed;
    if (control.interrupt_after > 0 && n == control.interrupt_after) s->stop = true;
    if (control.progress && !s->stop && !control.progress(run->resumed + n, job.points)) s->stop = true;
  }
}

void print_progress(const GridJob& job, const GridRun& run, const mpi::World& world, int computed, int todo,
                    int threads, double elapsed, std::ostream& err) {
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

namespace record {

namespace {
std::string got(const Json& v) { return v.is_null() ? "null" : excerpt(v.dump(), 60); }
}  // namespace

const Json& field(const Json& r, const std::string& key) {
  if (!r.is_object() || !r.contains(key)) throw RecordError("'" + key + "' is missing");
  return r[key];
}

void keys(const Json& r, const std::vector<std::string>& required, const std::vector<std::string>& optional) {
  if (!r.is_object()) throw RecordError("must be an object, got " + got(r));
  for (const auto& k : required)
    if (!r.contains(k)) throw RecordError("'" + k + "' is missing");
  for (const auto& [k, v] : r.items())
    if (std::find(required.begin(), required.end(), k) == required.end() &&
        std::find(optional.begin(), optional.end(), k) == optional.end())
      throw RecordError("unknown key " + excerpt(Json(k).dump(), 40));
}

int integer(const Json& r, const std::string& key, long long lo, long long hi) {
  const Json& v = field(r, key);
  const double d = v.is_number() ? v.get<double>() : 0.0;
  if (!v.is_number() || d != std::floor(d) || d < static_cast<double>(lo) || d > static_cast<double>(hi))
    throw RecordError("'" + key + "' must be an integer from " + std::to_string(lo) + " to " +
                      std::to_string(hi) + ", got " + got(v));
  return static_cast<int>(d);
}

double real(const Json& v, const std::string& key, bool finite) {
  const bool word = v.is_string() && (v == "nan" || v == "inf" || v == "-inf");
  if (v.is_number() || (word && !finite)) return double_of(v);
  throw RecordError("'" + key + "' must be a " +
                    (finite ? "finite number" : "number, \"nan\", \"inf\" or \"-inf\"") + ", got " + got(v));
}

std::string text(const Json& r, const std::string& key) {
  const Json& v = field(r, key);
  if (!v.is_string() || v.get_ref<const std::string&>().empty())
    throw RecordError("'" + key + "' must be a non-empty string, got " + got(v));
  return v.get<std::string>();
}

const Json& array(const Json& v, const std::string& key, long long size) {
  if (!v.is_array() || (size >= 0 && static_cast<long long>(v.size()) != size))
    throw RecordError("'" + key + "' must be a list of " +
                      (size >= 0 ? std::to_string(size) + " values" : std::string("values")) + ", got " +
                      got(v));
  return v;
}

}  // namespace record

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
        if (!run.records[k].is_null()) o << entry_line(run.chains, k, run.records[k]) << '\n';
  });
  s->journal.open(path, std::ios::app);
  if (!s->journal) throw std::runtime_error("cannot append to " + path.string());
}

// The owned blocks on `threads` workers; progress on the log (rank 0) while they run.
void run_owned(const GridJob& job, const GridControl& control, const mpi::World& world,
               const std::vector<int>& owned, const std::vector<int>& start, int threads, GridRun* run,
               Shared* s) {
  const bool talk = world.rank == 0;
  int todo = 0;  // the points of the owned blocks still to compute
  for (int c : owned)
    for (int k = start[c]; k < (c + 1) * job.points / run->chains; ++k) todo += run->records[k].is_null();
  const auto t0 = std::chrono::steady_clock::now();
  WorkerThreads workers(threads, [&](int) {
    for (int i; (i = s->next_chain++) < static_cast<int>(owned.size());) {
      try {
        run_chain(job, control, owned[i], start[owned[i]], run, s);
      } catch (...) {
        std::lock_guard lock(s->mutex);
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
    if (!told && requested(control)) {
      s->stop = true;
      told = true;
      if (control.log)
        *control.log << job.command
                     << ": interrupted: finishing the points under way (Ctrl-C again stops at once)\n"
                     << std::flush;
    }
    if (talk && control.log && elapsed > 1.0 && elapsed - last >= 2.0) {
      int computed;
      {
        std::lock_guard lock(s->mutex);
        computed = s->computed;
      }
      print_progress(job, *run, world, computed, todo, threads, elapsed, *control.log);
      last = elapsed;
    }
  }
}

}  // namespace

GridRun run_grid(const GridJob& job, const GridControl& control) {
  const mpi::World world = control.ranks ? mpi::world() : mpi::World{};
  GridRun run;
  run.records.assign(job.points, nullptr);
  run.chains = job.chains;
  run.writer = world.rank == 0;
  const bool journal = !control.journal.empty();
  const fs::path path = journal ? journal_path(control.journal, job.kind) : fs::path();
  if (journal) {
    fs::create_directories(control.journal);
    if (control.resume && !read_journals(path, job, &run.records, &run.chains) && run.writer && control.log)
      *control.log << job.command << ": no journal " << path.string() << ": starting from the beginning\n";
  }
  if (run.chains == 0) run.chains = job.chains;
  if (control.ranks) mpi::barrier();  // every rank has read the journals: the stale ones of absent ranks can go
  if (journal && run.writer)
    for (int r = world.size; r <= kMaxThreads; ++r) {
      std::error_code ignored;
      fs::remove(rank_journal(path, r), ignored);
    }
  std::vector<int> start, owned;
  run.resumed = first_missing(job.points, run.chains, &run.records, &start);
  for (int c = world.rank; c < run.chains; c += world.size) owned.push_back(c);
  Shared s;
  if (journal) start_journal(job, run, rank_journal(path, world.rank), owned, &s);
  const int threads = std::max(1, std::min<int>(job.threads, owned.size()));
  run_owned(job, control, world, owned, start, threads, &run, &s);
  if (s.error) {
    if (world.size > 1) {  // the other ranks wait in the gather: end them all
      try {
        std::rethrow_exception(s.error);
      } catch (const std::exception& e) {
        (control.log ? *control.log : std::cerr)
            << "saltus: error: " << job.command << ": rank " << world.rank << ": " << e.what() << '\n';
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
        if (!run.records[k].is_null()) lines.push_back(entry_line(run.chains, k, run.records[k]));
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

}  // namespace saltus::studies
