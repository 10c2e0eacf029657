#pragma once
// Mutations of a run file for the fuzzer (tests/fuzz/fuzz_run_files.cpp): the
// mistakes and the extremes a user or a broken script can produce. Numbers to
// their extremes, strings the expression parser must survive, deleted keys,
// swapped types, transplanted values, nesting far beyond any run file, and a
// few edits of the text itself (truncation, a key given twice, stray bytes).
// Everything is drawn from the caller's generator, so a seed reproduces it.

#include <nlohmann/json.hpp>
#include <random>
#include <string>

namespace saltus::fuzz {

using Json = nlohmann::ordered_json;

struct Mutant {
  std::string text;         // the mutated run file
  std::string description;  // what was done, one clause per mutation
};

// 1 to 4 mutations of `seed_file` (a parsed example run file), written with
// `indent` (-1: on one line).
Mutant mutate(const Json& seed_file, std::mt19937_64& rng, int indent = 2);

// A journal of `saltus sweep` or `saltus map` (JSON lines: a header, then one
// entry per point) mutated as a script, a disk or an editor can: one line
// given mutate()'s mutations (its records' fields, usually), or lines
// deleted, repeated, swapped, emptied, or the text cut.
Mutant mutate_journal(const std::string& journal, std::mt19937_64& rng);

}  // namespace saltus::fuzz
