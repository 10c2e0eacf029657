#pragma once
// The keys of a run file, one row each: the dotted path of the key inside the
// file ("periodic.from_simulation.transient"; "events[].name" for the objects
// of a list), its type, its default, its range and what it means. One table
// per kind of run file (studies/option_tables_*.cpp) is the one source of
// the key's description: --help prints it (key_help), the reference page
// docs/reference/run-files.md is it as Markdown (key_markdown, through
// `saltus --reference-markdown` and scripts/reference), and the readers take
// the keys they accept in each object from it (keys_under), so a key the
// reader accepts is a key the table documents. The rows of an Options
// struct's OptionTable (studies/options_json.h) come in with their default
// read from the struct and the range its reader enforces.

#include <filesystem>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "studies/json_input.h"

namespace saltus::studies {

// The values a numeric key accepts: an interval (either side open or closed,
// infinite for none) or a finite set. The reader enforces it and the help
// and the reference print it, from the same row. The engine's own check()
// (ContinuationOptions::check, SimulationOptions::check) stays the guard of
// C++ callers and of relations between keys (ds_min <= ds <= ds_max); the
// test "option tables: each range is the engine's" holds the two together.
struct Range {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_open = false, max_open = false;
  std::vector<double> values;  // when given: one of them, and min, max are unused

  bool contains(double value) const;
  std::string text() const;         // "> 0", ">= 1", "(0, 1)", "[1, 1000]", "one of: -1, 1"; "" for any
  std::string requirement() const;  // "must be > 0", "must be in [1, 1000]", "must be one of: -1, 1"
};

// Every value; a bound, strict or not.
inline Range any_value() { return {}; }
inline Range above(double min) { return {min, std::numeric_limits<double>::infinity(), true, false, {}}; }
inline Range at_least(double min) { return {min, std::numeric_limits<double>::infinity(), false, false, {}}; }
inline Range between(double min, double max, bool min_open = false, bool max_open = false) {
  return {min, max, min_open, max_open, {}};
}
inline Range one_of(std::vector<double> values) { return {0, 0, false, false, std::move(values)}; }

struct KeyRow {
  std::string key;                      // dotted path; "fold_curve.*" stands for every key of `wildcard`
  std::string type;                     // number, integer, boolean, string, expression, object, [string], ...
  std::string default_value;            // "required", a value, or "" (none: absent means not asked for)
  std::string range;                    // "> 0", "[1, 20]", "one of: LP, BP", or "" (printed as is)
  std::string meaning;                  // one sentence
  std::set<std::string> wildcard = {};  // the keys a "prefix.*" row accepts under prefix
  Range limits = {};                    // a number's: read_number / read_integer enforce it
};

using KeyTable = std::vector<KeyRow>;

// A row for a number or an integer whose range the reader enforces through
// read_number / read_integer: its range text is limits.text().
KeyRow number_row(std::string key, std::string type, std::string default_value, Range limits,
                  std::string meaning);

// The value of the row `key` of `table` in `value`, checked against its
// limits; errors name the file, the key, the value and the range.
double read_number(const KeyTable& table, const std::string& key, const Json& value,
                   const std::filesystem::path& path);
int read_integer(const KeyTable& table, const std::string& key, const Json& value,
                 const std::filesystem::path& path);

// One kind of run file: its title (the commands that read it), an
// introduction (paragraphs separated by a blank line: what the keys do
// together, the output folder) and its table.
struct RunFileKind {
  std::string title;
  std::string introduction;
  KeyTable keys;
  // The continuation options a "prefix.*" row of keys stands for (empty
  // when keys lists them itself), printed after keys.
  std::string shared_title = {};
  KeyTable shared = {};
  std::string appendix = {};  // prose printed after (your own system's keys, read by models/)
};

// The kind's --help text: its keys, its shared table and its introduction.
std::string run_file_help(const RunFileKind& kind);

// The kind as Markdown: "## title", the introduction, its tables.
std::string run_file_markdown(const RunFileKind& kind);

// The keys the table accepts directly inside the object at `prefix`
// ("" for the top level, "periodic." for periodic's): the next component of
// every row below it, and a wildcard row's keys.
std::set<std::string> keys_under(const KeyTable& table, const std::string& prefix);

// The table for --help: one row a key, "key  type  meaning (default; range)",
// the meaning wrapped at 110 columns.
std::string key_help(const KeyTable& table, const std::string& indent = "  ");

// The table as Markdown: | key | type | default | range | meaning |.
std::string key_markdown(const KeyTable& table);

// The keys of a run file that the table does not document, as dotted paths
// (a test reads every example with it). Objects whose row has no rows below
// it ({name: number} maps) are not entered.
std::vector<std::string> undocumented_keys(const KeyTable& table, const Json& run_file);

}  // namespace saltus::studies
