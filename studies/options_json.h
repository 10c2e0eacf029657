#pragma once
// The run-file keys of the engine's options, one table per Options struct:
// each row is a key, the field it sets and one line of documentation. The
// default of every key is the struct's in-class default (continuation/options.h,
// continuation/flow/simulate.h), so it is written once; every command reads
// these keys through the table's reader, and every --help text lists them
// through the table's help. A command that wants another value than the
// default does not change it here: its run file says so.

#include <filesystem>
#include <limits>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "continuation/flow/simulate.h"
#include "continuation/options.h"
#include "studies/json_input.h"
#include "studies/key_table.h"

namespace saltus::studies {

template <class Options>
struct OptionKey {
  const char* key;
  std::variant<double Options::*, int Options::*, long Options::*, bool Options::*,
               flow::IntegrationMethod Options::*>
      field;
  const char* doc;   // one line; the default is added from Options{}
  Range range = {};  // enforced by read_option_keys
};

template <class Options>
using OptionTable = std::vector<OptionKey<Options>>;

// ds, ds_min, ds_max, ..., max_event_iterations (everything but bounds and
// the callback).
const OptionTable<ContinuationOptions>& continuation_option_table();
// absolute_tolerance, relative_tolerance, initial_step, max_step, ...
const OptionTable<flow::SimulationOptions>& simulation_option_table();

// The table's keys, for only_keys.
template <class Options>
std::set<std::string> option_keys(const OptionTable<Options>& table) {
  std::set<std::string> keys;
  for (const auto& row : table) keys.insert(row.key);
  return keys;
}

// The table's rows for a run file's table, each key under `prefix`
// ("periodic.simulation."), with its type, default (from Options{}) and range.
template <class Options>
KeyTable option_rows(const OptionTable<Options>& table, const std::string& prefix);

// The table as key_help prints it (at most 110 columns).
template <class Options>
std::string option_help(const OptionTable<Options>& table, const std::string& indent);

// The keys of the table present in `object` over `base` (other keys are the
// caller's to check); errors name the file, `where` + key, the value and the
// row's range.
template <class Options>
void read_option_keys(const Json& object, const OptionTable<Options>& table, Options* options,
                      const std::filesystem::path& path, const std::string& where);

// "bounds": {name: [min, max]} (null for an open side) over `base`'s bounds.
void read_bounds(const Json& object, std::map<std::string, Bound>* bounds, const std::filesystem::path& path,
                 const std::string& where);

// The continuation keys and "bounds" of `object` over `base`, checked
// (ContinuationOptions::check, naming `where`). `object` may hold other keys.
ContinuationOptions read_continuation_options(const Json& object, ContinuationOptions base,
                                              const std::filesystem::path& path, const std::string& where);
// The keys of `object` (an object of simulation keys only) over `base`, checked.
flow::SimulationOptions read_simulation_options(const Json& object, flow::SimulationOptions base,
                                                const std::filesystem::path& path, const std::string& where);

// continuation_option_table()'s keys plus "bounds".
std::set<std::string> continuation_keys();

}  // namespace saltus::studies
