#include "models/expression_json.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace saltus::models::expression_json {

void bad(const std::string& key, const std::string& what) {
  throw std::invalid_argument("'" + key + "': " + what);
}

std::string text(const Json& value, const std::string& key) {
  if (!value.is_string()) bad(key, "must be a string");
  return value.get<std::string>();
}

Expression expression(const Json& value, const std::vector<std::string>& names, const std::string& key) {
  // A number stands for itself ("stick_bound": 1, "v": 0).
  if (!value.is_string() && !value.is_number())
    bad(key, std::string("must be an expression (a string such as \"-k*x\") or a number, got a ") +
                 value.type_name());
  const std::string s = value.is_number() ? value.dump() : value.get<std::string>();
  try {
    return Expression::parse(s, names);
  } catch (const ExpressionError& e) {
    bad(key, e.what());
  }
}

void only(const Json& object, const std::set<std::string>& allowed, const std::string& key) {
  for (const auto& [name, value] : object.items())
    if (!allowed.count(name)) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      bad(key + "." + name, "is not a key (known: " + list + ")");
    }
}

void Names::add(const std::string& name, const std::string& key) {
  if (name.empty()) bad(key, "a name must not be empty");
  if (name == "t" || name == "pi")
    bad(key, "'" + name + "' is reserved (time, the constant); choose another name");
  if (!seen_.insert(name).second) bad(key, "the name '" + name + "' is used twice");
}

std::vector<std::string> list_of_names(const Json& value, const std::string& key, Names* names) {
  if (!value.is_array() || value.empty()) bad(key, "must be a non-empty list of names");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string where = key + "[" + std::to_string(i) + "]";
    out.push_back(text(value[i], where));
    names->add(out.back(), where);
  }
  return out;
}

std::vector<std::optional<Expression>> per_name(const Json& value, const std::vector<std::string>& targets,
                                                const std::vector<std::string>& names, bool every,
                                                const std::string& key) {
  const std::size_t n = targets.size();
  std::vector<std::optional<Expression>> out(n);
  if (value.is_array()) {
    if (value.size() != n)
      bad(key, "has " + std::to_string(value.size()) + " expressions for " + std::to_string(n) + " (" +
                   targets.front() + ", ...): give one each, in their order");
    for (std::size_t i = 0; i < n; ++i)
      out[i] = expression(value[i], names, key + "[" + std::to_string(i) + "]");
    return out;
  }
  if (!value.is_object())
    bad(key, "must be {" + targets.front() + ": expression, ...} or a list in that order");
  for (const auto& [name, e] : value.items()) {
    const auto it = std::find(targets.begin(), targets.end(), name);
    if (it == targets.end())
      bad(key + "." + name, "'" + name + "' is not one of " + targets.front() + ", ...");
    out[it - targets.begin()] = expression(e, names, key + "." + name);
  }
  if (every)
    for (std::size_t i = 0; i < n; ++i)
      if (!out[i]) bad(key + "." + targets[i], "is missing: give one for each");
  return out;
}

Definitions definitions(const Json& run, std::vector<std::string>* names, Names* seen) {
  Definitions out;
  if (!run.contains("definitions")) return out;
  const Json& d = run["definitions"];
  if (!d.is_object()) bad("definitions", "must be {name: expression}, in order");
  for (const auto& [name, e] : d.items()) {
    seen->add(name, "definitions." + name);
    out.expressions.push_back(expression(e, *names, "definitions." + name));
    out.names.push_back(name);
    names->push_back(name);
  }
  return out;
}

void parameters(const Json& run, Names* names, std::vector<std::string>* out, std::vector<double>* values) {
  if (!run.contains("parameters")) return;
  const Json& p = run["parameters"];
  if (!p.is_object()) bad("parameters", "must be {name: number}");
  for (const auto& [name, value] : p.items()) {
    names->add(name, "parameters." + name);
    if (!value.is_number() || !std::isfinite(value.get<double>()))
      bad("parameters." + name, "must be a finite number");
    out->push_back(name);
    values->push_back(value.get<double>());
  }
}

}  // namespace saltus::models::expression_json
