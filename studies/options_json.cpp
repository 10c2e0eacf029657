#include "studies/options_json.h"

#include <charconv>
#include <cmath>
#include <sstream>

namespace saltus::studies {

const OptionTable<ContinuationOptions>& continuation_option_table() {
  using O = ContinuationOptions;
  static const OptionTable<O> table = {
      {"ds", &O::ds, "first step, in arclength of (state, free parameter)"},
      {"ds_min", &O::ds_min, "a failed step below this ends the branch"},
      {"ds_max", &O::ds_max, "steps never grow beyond this"},
      {"step_growth", &O::step_growth, "ds grows by this factor after an easy step"},
      {"step_cut", &O::step_cut, "ds shrinks by this factor after a failed step"},
      {"easy_iterations", &O::easy_iterations,
       "a step converged in at most this many Newton iterations is easy"},
      {"max_points", &O::max_points, "regular points of a branch, the start included"},
      {"direction", &O::direction,
       "+1 | -1: sign of the first step of parameter 1 (periodic.curve: parameter 2)"},
      {"newton_tolerance", &O::newton_tolerance, "corrector: converged when |dy|_inf <= this (1 + |y|_inf)"},
      {"residual_tolerance", &O::residual_tolerance, "corrector: and |F|_inf <= this"},
      {"max_newton_iterations", &O::max_newton_iterations, "corrector iterations per step"},
      {"chord", &O::chord, "shooting: chord steps, one Jacobian per corrector call (else Newton)"},
      {"min_tangent_cosine", &O::min_tangent_cosine, "a step whose tangent turns more is retried shorter"},
      {"event_tolerance", &O::event_tolerance, "width of a located special point's arclength bracket"},
      {"max_event_iterations", &O::max_event_iterations, "locator iterations per special point"},
  };
  return table;
}

const OptionTable<flow::SimulationOptions>& simulation_option_table() {
  using O = flow::SimulationOptions;
  static const OptionTable<O> table = {
      {"absolute_tolerance", &O::absolute_tolerance, "Runge-Kutta error control, per component"},
      {"relative_tolerance", &O::relative_tolerance, "Runge-Kutta error control, relative"},
      {"initial_step", &O::initial_step, "the first step (and the first after an event)"},
      {"max_step", &O::max_step, "bounds the step, so that no event hides inside one"},
      {"event_tolerance", &O::event_tolerance, "width of an event's time bracket, relative to 1 + |t|"},
      {"guard_search", &O::guard_search, "search every step for a guard's sign change and back inside it"},
      {"event_samples", &O::event_samples, "guard values per step at equal spacing (> 1: inside it too)"},
      {"max_events", &O::max_events, "more events end the run"},
      {"zeno_interval", &O::zeno_interval, "events closer than this, zeno_events times in a row, are Zeno"},
      {"zeno_events", &O::zeno_events, "see zeno_interval"},
      {"output_interval", &O::output_interval,
       "> 0: record on this time grid (at most 1e7 samples); 0: at every step"},
      {"method", &O::method, "\"dopri5\" or \"dop853\" (Runge-Kutta pairs)"},
  };
  return table;
}

namespace {

std::string format_default(double value) {
  if (std::isinf(value)) return value > 0 ? "none" : "-none";
  char buffer[64];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  std::string text(buffer, end);
  // 1e-08 -> 1e-8
  if (const auto e = text.find("e-0"); e != std::string::npos) text.erase(e + 2, 1);
  return text;
}

// "continuation." -> "continuation": the object's own name in a message.
std::string section(const std::string& where) {
  return !where.empty() && where.back() == '.' ? where.substr(0, where.size() - 1) : where;
}

template <class Options>
std::string default_of(const OptionKey<Options>& row) {
  static const Options defaults{};
  return std::visit(
      [](auto field) -> std::string {
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
std::string option_help(const OptionTable<Options>& table, const std::string& indent) {
  std::size_t width = 0;
  for (const auto& row : table) width = std::max(width, std::string(row.key).size());
  std::ostringstream out;
  for (const auto& row : table) {
    const std::string key = row.key;
    out << indent << key << std::string(width + 2 - key.size(), ' ') << row.doc << " (" << default_of(row)
        << ")\n";
  }
  return out.str();
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
          } else if constexpr (std::is_same_v<T, double>) {
            target = number(value, path, key);
          } else {
            target = integer(value, path, key);
          }
        },
        row.field);
  }
}

template std::string option_help(const OptionTable<ContinuationOptions>&, const std::string&);
template std::string option_help(const OptionTable<flow::SimulationOptions>&, const std::string&);
template void read_option_keys(const Json&, const OptionTable<ContinuationOptions>&, ContinuationOptions*,
                               const std::filesystem::path&, const std::string&);
template void read_option_keys(const Json&, const OptionTable<flow::SimulationOptions>&,
                               flow::SimulationOptions*, const std::filesystem::path&, const std::string&);

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
