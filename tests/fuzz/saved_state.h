#pragma once
// Fuzzing the files saltus reads back: the journals that `saltus sweep` and
// `saltus map` resume from (--resume) and the summary.json that `saltus
// continue --from DIR --point LABEL` restarts from. Valid ones are made
// first, by running the commands on small versions of the examples (a sweep
// or a map stopped part way with --interrupt-after; a continuation run to
// its end), with the result of the unmutated file as a reference; then each
// mutant (tests/fuzz/mutator.h) is read back by the command that reads it.
//
// Besides what tests/fuzz/outcome.h tells, a run is judged on its result: a
// resumed journal ends in exactly the reference files or in an error (a
// record is resumed only as saltus wrote it: every field checked, and its
// hash); a restart from a summary whose point (and the run it belongs to)
// reads as the reference's ends in the reference's branches. Exit 0 with
// anything else is a wrong success. A temporary file left behind by a run
// that ended is litter.

#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "tests/fuzz/mutator.h"
#include "tests/fuzz/outcome.h"

namespace saltus::fuzz {

struct StateSeed {
  std::string name;                              // "sweep journal of triple_pendulum_light.json"
  std::filesystem::path run_file;                // the run file the state belongs to
  std::vector<std::string> command;              // "sweep", "map" or "continue"
  bool journal = true;                           // a journal (--resume), else a summary (--from, --point)
  std::string label;                             // a summary's point, as "LP1"
  std::filesystem::path state;                   // the valid journal or summary.json
  std::map<std::string, std::string> reference;  // the unmutated run's result files, by name
};

// Makes the seeds under dir (about 10 s on one core); throws naming the step that failed.
std::vector<StateSeed> make_state_seeds(const std::filesystem::path& saltus,
                                        const std::filesystem::path& examples,
                                        const std::filesystem::path& dir);

struct StateRun {
  Outcome outcome;
  std::string command;           // the command line, for the list of failures
  std::string description;       // what the mutation did
  std::filesystem::path mutant;  // the mutated file
  std::string text;              // its text (a resumed journal is gone at the end)
  RunResult result;
};

// Mutant `index` of the seeds (a seed and a mutation drawn from rng), run in
// dir with the time and memory limits.
StateRun fuzz_state(const std::vector<StateSeed>& seeds, const std::filesystem::path& saltus,
                    const std::filesystem::path& dir, std::mt19937_64& rng, double timeout,
                    std::size_t memory_bytes);

}  // namespace saltus::fuzz
