#pragma once
// Reading the expression-defined systems of run files (hybrid, mechanical):
// names, numbers and expressions under a key, every error naming the key
// (std::invalid_argument; the run-file reader adds the file).

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "models/expression.h"

namespace saltus::models::expression_json {

using Json = nlohmann::ordered_json;

[[noreturn]] void bad(const std::string& key, const std::string& what);
std::string text(const Json& value, const std::string& key);
Expression expression(const Json& value, const std::vector<std::string>& names, const std::string& key);
// Fails on a key of `object` outside `allowed`, listing the known ones.
void only(const Json& object, const std::set<std::string>& allowed, const std::string& key);

// The names of a system: each once, not empty, not "t" or "pi".
class Names {
 public:
  void add(const std::string& name, const std::string& key);

 private:
  std::set<std::string> seen_;
};

// A non-empty list of names under `key`, each added to `names`.
std::vector<std::string> list_of_names(const Json& value, const std::string& key, Names* names);

// Per target (a state, a coordinate): an expression of `names`, from
// {target: expression} (every target when `every`) or a list in the
// targets' order.
std::vector<std::optional<Expression>> per_name(const Json& value, const std::vector<std::string>& targets,
                                                const std::vector<std::string>& names, bool every,
                                                const std::string& key);

// "definitions": {name: expression} of the run, each over `names` and the
// definitions before it; their names are appended to `names` (and `seen`).
Definitions definitions(const Json& run, std::vector<std::string>* names, Names* seen);

// "parameters": {name: number}: names (added to `names`) and values.
void parameters(const Json& run, Names* names, std::vector<std::string>* out, std::vector<double>* values);

}  // namespace saltus::models::expression_json
