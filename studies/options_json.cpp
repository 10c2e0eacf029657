#include "studies/options_json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include "continuation/flow/lyapunov.h"
#include "continuation/periodic/orbit_guess.h"
#include "continuation/periodic/shooting.h"
#include "studies/hybrid_run_file.h"
#include "studies/run_file.h"

namespace saltus::studies {

const OptionTable<ContinuationOptions>& continuation_option_table() {
  using O = ContinuationOptions;
  static const OptionTable<O> table = {
      {"ds", &O::ds, "first step, in arclength of (state, free parameter)", above(0)},
      {"ds_min", &O::ds_min, "a failed step below this ends the branch", above(0)},
      {"ds_max", &O::ds_max, "steps never grow beyond this", above(0)},
      {"step_growth", &O::step_growth, "ds grows by this factor after an easy step", at_least(1)},
      {"step_cut", &O::step_cut, "ds shrinks by this factor after a failed step", between(0, 1, true, true)},
      {"easy_iterations", &O::easy_iterations,
       "a step converged in at most this many Newton iterations is easy", at_least(1)},
      {"max_points", &O::max_points, "regular points of a branch, the start included", at_least(1)},
      {"direction", &O::direction, "sign of the first step of parameter 1 (periodic.curve: parameter 2)",
       one_of({-1, 1})},
      {"newton_tolerance", &O::newton_tolerance, "corrector: converged when |dy|_inf <= this (1 + |y|_inf)",
       above(0)},
      {"residual_tolerance", &O::residual_tolerance, "corrector: and |F|_inf <= this", above(0)},
      {"max_newton_iterations", &O::max_newton_iterations, "corrector iterations per step", at_least(1)},
      {"chord", &O::chord, "shooting: chord steps, one Jacobian per corrector call (else Newton)"},
      {"min_tangent_cosine", &O::min_tangent_cosine, "a step whose tangent turns more is retried shorter",
       between(-1, 1, true, true)},
      {"event_tolerance", &O::event_tolerance, "width of a located special point's arclength bracket",
       above(0)},
      {"max_event_iterations", &O::max_event_iterations, "locator iterations per special point", at_least(1)},
  };
  return table;
}

const OptionTable<flow::SimulationOptions>& simulation_option_table() {
  using O = flow::SimulationOptions;
  static const OptionTable<O> table = {
      {"absolute_tolerance", &O::absolute_tolerance, "Runge-Kutta error control, per component", above(0)},
      {"relative_tolerance", &O::relative_tolerance, "Runge-Kutta error control, relative", at_least(0)},
      {"initial_step", &O::initial_step, "the first step (and the first after an event)", above(0)},
      {"max_step", &O::max_step, "bounds the step, so that no event hides inside one", above(0)},
      {"event_tolerance", &O::event_tolerance, "width of an event's time bracket, relative to 1 + |t|",
       above(0)},
      {"guard_search", &O::guard_search, "search every step for a guard's sign change and back inside it"},
      {"event_samples", &O::event_samples, "guard values per step at equal spacing (> 1: inside it too)",
       between(1, 1000)},
      {"max_events", &O::max_events, "more events end the run", at_least(0)},
      {"zeno_interval", &O::zeno_interval, "events closer than this, zeno_events times in a row, are Zeno",
       at_least(0)},
      {"zeno_events", &O::zeno_events, "see zeno_interval", at_least(2)},
      {"output_interval", &O::output_interval,
       "> 0: record on this time grid (at most 1e7 samples); 0: at every step", at_least(0)},
      {"method", &O::method, "the Runge-Kutta pair (Dormand & Prince 5(4), Hairer's 8(5,3))"},
  };
  return table;
}

std::string format_number(double value) {
  if (std::isinf(value)) return value > 0 ? "none" : "-none";
  char buffer[64];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  std::string text(buffer, end);
  // 1e-08 -> 1e-8, 1e+06 -> 1e6
  if (const auto e = text.find("e-0"); e != std::string::npos) text.erase(e + 2, 1);
  if (const auto e = text.find("e+"); e != std::string::npos) text.erase(e + 1, text[e + 2] == '0' ? 2 : 1);
  return text;
}

bool Range::contains(double value) const {
  if (!std::isfinite(value)) return false;
  if (!values.empty()) return std::find(values.begin(), values.end(), value) != values.end();
  const bool low = min_open ? value > min : value >= min;
  const bool high = max_open ? value < max : value <= max;
  return low && high;
}

std::string Range::text() const {
  if (!values.empty()) {
    std::string list;
    for (const double v : values) list += (list.empty() ? "" : ", ") + format_number(v);
    return "one of: " + list;
  }
  const bool has_min = std::isfinite(min), has_max = std::isfinite(max);
  if (has_min && has_max)
    return std::string(min_open ? "(" : "[") + format_number(min) + ", " + format_number(max) +
           (max_open ? ")" : "]");
  if (has_min) return (min_open ? "> " : ">= ") + format_number(min);
  if (has_max) return (max_open ? "< " : "<= ") + format_number(max);
  return "";
}

std::string Range::requirement() const {
  const std::string range = text();
  if (!values.empty()) return "must be " + range;
  if (std::isfinite(min) && std::isfinite(max)) return "must be in " + range;
  return "must be " + range;
}

namespace {

std::string format_default(double value) { return format_number(value); }

// "continuation." -> "continuation": the object's own name in a message.
std::string section(const std::string& where) {
  return !where.empty() && where.back() == '.' ? where.substr(0, where.size() - 1) : where;
}

template <class Options>
std::string default_of(const OptionKey<Options>& row) {
  return std::visit(
      [](auto field) -> std::string {
        static const Options defaults{};
        const auto value = defaults.*field;
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, bool>)
          return value ? "true" : "false";
        else if constexpr (std::is_same_v<T, flow::IntegrationMethod>)
          return "\"" + flow::to_string(value) + "\"";
        else if constexpr (std::is_same_v<T, double>)
          return format_default(value);
        else
          return std::to_string(value);
      },
      row.field);
}

}  // namespace

template <class Options>
std::string type_of(const OptionKey<Options>& row) {
  return std::visit(
      [](auto field) -> std::string {
        using T = std::decay_t<decltype(Options{}.*field)>;
        if constexpr (std::is_same_v<T, bool>)
          return "boolean";
        else if constexpr (std::is_same_v<T, flow::IntegrationMethod>)
          return "string";
        else if constexpr (std::is_same_v<T, double>)
          return "number";
        else
          return "integer";
      },
      row.field);
}

template <class Options>
std::string range_of(const OptionKey<Options>& row) {
  if (std::holds_alternative<flow::IntegrationMethod Options::*>(row.field)) return "one of: dopri5, dop853";
  return row.range.text();
}

template <class Options>
KeyTable option_rows(const OptionTable<Options>& table, const std::string& prefix) {
  KeyTable rows;
  for (const auto& row : table)
    rows.push_back({prefix + row.key, type_of(row), default_of(row), range_of(row), row.doc});
  return rows;
}

template <class Options>
std::string option_help(const OptionTable<Options>& table, const std::string& indent) {
  return key_help(option_rows(table, ""), indent);
}

template <class Options>
void read_option_keys(const Json& object, const OptionTable<Options>& table, Options* options,
                      const std::filesystem::path& path, const std::string& where) {
  for (const auto& row : table) {
    if (!object.contains(row.key)) continue;
    const Json& value = object[row.key];
    const std::string key = where + row.key;
    std::visit(
        [&](auto field) {
          auto& target = options->*field;
          using T = std::decay_t<decltype(target)>;
          if constexpr (std::is_same_v<T, bool>) {
            target = boolean(value, path, key);
          } else if constexpr (std::is_same_v<T, flow::IntegrationMethod>) {
            try {
              target = flow::integration_method_from_string(string(value, path, key));
            } catch (const std::invalid_argument& e) {
              fail(path, "'" + key + "': " + e.what());
            }
          } else {
            T read{};
            if constexpr (std::is_same_v<T, double>)
              read = number(value, path, key);
            else
              read = integer(value, path, key);
            if (!row.range.contains(static_cast<double>(read)))
              fail(path, "'" + key + "' = " + excerpt(value.dump()) + " " + row.range.requirement());
            target = read;
          }
        },
        row.field);
  }
}

// Every Options struct a run file's table reads.
#define SALTUS_OPTION_TABLE(Options)                                                 \
  template KeyTable option_rows(const OptionTable<Options>&, const std::string&);    \
  template std::string option_help(const OptionTable<Options>&, const std::string&); \
  template void read_option_keys(const Json&, const OptionTable<Options>&, Options*, \
                                 const std::filesystem::path&, const std::string&);
SALTUS_OPTION_TABLE(ContinuationOptions)
SALTUS_OPTION_TABLE(flow::SimulationOptions)
SALTUS_OPTION_TABLE(periodic::OrbitGuessOptions)
SALTUS_OPTION_TABLE(periodic::ShootingOptions)
SALTUS_OPTION_TABLE(FollowUp)
SALTUS_OPTION_TABLE(HopfCycles)
SALTUS_OPTION_TABLE(flow::LyapunovOptions)
SALTUS_OPTION_TABLE(SweepSpec)
SALTUS_OPTION_TABLE(PeriodicSpec)
SALTUS_OPTION_TABLE(MapSpec)
SALTUS_OPTION_TABLE(MapAxis)
#undef SALTUS_OPTION_TABLE

void read_bounds(const Json& object, std::map<std::string, Bound>* bounds, const std::filesystem::path& path,
                 const std::string& where) {
  if (!object.contains("bounds")) return;
  const Json& given = object["bounds"];
  if (!given.is_object()) fail(path, "'" + where + "bounds' must be an object {name: [min, max]}");
  for (const auto& [name, range] : given.items()) {
    const std::string key = where + "bounds." + name;
    if (!range.is_array() || range.size() != 2)
      fail(path, "'" + key + "' must be [min, max] (null for an open side), got " + excerpt(range.dump()));
    Bound b;
    if (!range[0].is_null()) b.min = number(range[0], path, key + "[0]");
    if (!range[1].is_null()) b.max = number(range[1], path, key + "[1]");
    (*bounds)[name] = b;
  }
}

ContinuationOptions read_continuation_options(const Json& object, ContinuationOptions base,
                                              const std::filesystem::path& path, const std::string& where) {
  read_option_keys(object, continuation_option_table(), &base, path, where);
  if (object.contains("bounds")) base.bounds.clear();  // given bounds replace the inherited ones
  read_bounds(object, &base.bounds, path, where);
  if (const std::string why = base.check(); !why.empty()) fail(path, "'" + section(where) + "': " + why);
  return base;
}

flow::SimulationOptions read_simulation_options(const Json& object, flow::SimulationOptions base,
                                                const std::filesystem::path& path, const std::string& where) {
  if (!object.is_object()) fail(path, "'" + section(where) + "' must be an object of simulation options");
  only_keys(object, option_keys(simulation_option_table()), path, where);
  read_option_keys(object, simulation_option_table(), &base, path, where);
  if (const std::string why = base.check(); !why.empty()) fail(path, "'" + section(where) + "': " + why);
  return base;
}

std::set<std::string> continuation_keys() {
  std::set<std::string> keys = option_keys(continuation_option_table());
  keys.insert("bounds");
  return keys;
}

}  // namespace saltus::studies
