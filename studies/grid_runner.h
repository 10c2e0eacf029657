#pragma once
// A study of many independent points (a sweep's parameter values, a map's
// grid points), run so that it survives: on threads, each finished point
// appended to a journal as one flushed line, resumable after a kill, stopped
// cleanly by Ctrl-C (the caller's stop_requested), on MPI ranks.
//
// The points 0..n-1 form `chains` consecutive blocks [c n / chains,
// (c + 1) n / chains). Within a block point k may start from point k - 1's
// end (a quasi-static sweep, a seeded map row), so a block runs in order on
// one thread; blocks are independent. The result of a point is a function of
// its predecessor's record only, and the records travel through the journal
// exactly (JSON numbers are written in their shortest round-trip form), so
// every way of running a study (threads, a resume at any point, ranks) gives
// byte for byte the same files as one uninterrupted run.
//
// The journal (<out>/<kind>.journal.jsonl): a header line naming the study
// ({"journal": kind, "identity": hash, "points": n, "chains": c, "check":
// h}), then one line per finished point ({"k": k, "record": {...}, "check":
// h}); each h an FNV-1a hash, of the header's other keys, of the blocks, k and
// the record's text. A line cut short by a kill is ignored on resume. The
// command removes the journal once its final files are written.
//
// A journal read back is input like a run file: a resume takes nothing from
// it that this study could not have written. Every line is parsed with the
// run files' limits (nesting, keys given twice), the header must be this
// study's, each entry's point must be in range and given once, its record
// must pass the command's check (GridJob::check: every key's type, range,
// finiteness and size against the run) and match its hash (so a record
// altered to other valid values, or moved to another point, is not resumed
// either). Anything else is an
// error naming the journal, the line and the key, before anything is
// computed or written.

#include <filesystem>
#include <functional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "studies/json_input.h"

namespace saltus::studies {

struct GridJob {
  std::string command;   // "saltus sweep": starts progress lines
  std::string kind;      // "sweep": names the journal
  std::string identity;  // the study (run-file text, grid): a journal of another study is refused
  int points = 0;
  int chains = 1;   // consecutive blocks (see above); a resumed journal keeps its own
  int threads = 1;  // workers (at most the chains)
  // Point k from its predecessor's record in its block (nullptr at the
  // block's start); returns the point's record, a JSON object holding
  // whatever the next point starts from. Called on worker threads.
  std::function<Json(int k, const Json* previous)> compute;
  // A record read back from a journal for point k: throws RecordError when
  // compute could not have returned it (nullptr: any object passes).
  std::function<void(int k, const Json& record)> check;
  // The blocks are part of the study (a seeded map's rows): a journal with
  // another count is refused. Else a resumed journal keeps its own.
  bool chains_fixed = false;
};

// Called after each point (from the worker threads, one at a time) with the
// points done (those resumed included) and their number; false stops the
// study after the points under way, and it is not called again.
using GridProgress = std::function<bool(int done, int total)>;

// How a grid runs: where it journals, whether it resumes, who may stop it.
struct GridControl {
  std::filesystem::path journal;  // the journal's folder (journal_path); empty: no journal
  bool resume = false;            // continue from the journal
  GridProgress progress;
  // Polled before each point and every 0.1 s, from any thread: true stops
  // the study after the points under way (the command line's Ctrl-C, a
  // Python KeyboardInterrupt).
  std::function<bool()> stop_requested;
  // Progress lines every 2 s and notes (a missing journal, an interrupt);
  // null: silent.
  std::ostream* log = nullptr;
  // Testing: stop once this many points have been computed in this run
  // (0: never), as a Ctrl-C would.
  int interrupt_after = 0;
  // Split the blocks over the MPI ranks when mpirun started the process
  // (studies/grid_mpi.h): the command line's choice. Off, a library caller
  // (Python, a C++ driver) runs on this process's threads, under mpirun too.
  bool ranks = false;
};

struct GridRun {
  std::vector<Json> records;  // per point; null where not computed (an interrupted run)
  int chains = 1;             // the blocks used (a resumed journal's)
  int resumed = 0;            // points read from the journal
  int computed = 0;           // points computed in this run
  bool interrupted = false;   // stopped: the records hold the finished points
  bool writer = true;         // rank 0 (studies/grid_mpi.h): holds every record and writes the files
  bool complete() const { return !interrupted; }
  int done() const;  // the points with a record
};

// The journal's path in the output folder.
std::filesystem::path journal_path(const std::filesystem::path& dir, const std::string& kind);

// Runs job, journalling into journal_path(control.journal, job.kind). With
// resume, the points the journal holds are taken from it and each block
// continues from its last finished point (no journal: from the start, said on
// the log); a journal of another study throws RunFileError. Without resume an
// old journal is replaced. A stop (control) ends the run after the points
// under way; the journal stays usable. Under mpirun the blocks are dealt to
// the ranks (with control.ranks: block c to rank c mod N), each journalling into
// <journal>.<rank> (rank 0: the journal itself), and rank 0 gathers every
// record: only its GridRun is the writer.
GridRun run_grid(const GridJob& job, const GridControl& control);

// After the final files are written: the journal is no longer needed.
void remove_journal(const std::filesystem::path& dir, const std::string& kind);

// A 64-bit FNV-1a hash as 16 hex digits (a study's identity).
std::string fnv1a_hex(const std::string& text);

// Doubles in records: finite ones as JSON numbers, others as "nan", "inf",
// "-inf" (JSON has no such numbers); and back.
Json json_double(double v);
double double_of(const Json& v);

// What is wrong with a record read back from a journal, naming its key
// ("'t' must be a finite number, got null"); run_grid adds the journal's
// path and line.
class RecordError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Checked reading of a journal record for GridJob::check; each throws
// RecordError naming the key.
namespace record {
// r[key], which must be there.
const Json& field(const Json& r, const std::string& key);
// The object's keys: every one of `required`, the others from `optional`.
void keys(const Json& r, const std::vector<std::string>& required, const std::vector<std::string>& optional);
// r[key]: an integer in [lo, hi].
int integer(const Json& r, const std::string& key, long long lo, long long hi);
// v (named key): a double as json_double writes it; with `finite`, a finite number only.
double real(const Json& v, const std::string& key, bool finite);
// r[key]: a non-empty string.
std::string text(const Json& r, const std::string& key);
// v (named key): an array of `size` elements (size < 0: any number).
const Json& array(const Json& v, const std::string& key, long long size);
}  // namespace record

}  // namespace saltus::studies
