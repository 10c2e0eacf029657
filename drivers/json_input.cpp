#include "drivers/json_input.h"

#include <cmath>
#include <fstream>
#include <sstream>

namespace saltus::drivers {

void fail(const std::filesystem::path& path, const std::string& what) {
  throw RunFileError("run file " + path.string() + ": " + what);
}

Json parse_json(const std::string& text, const std::filesystem::path& path) {
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& e) {
    std::string hint;
    if (text.find("NaN") != std::string::npos || text.find("Infinity") != std::string::npos)
      hint = " (JSON has no NaN or Infinity: give finite numbers)";
    fail(path, std::string("not valid JSON: ") + e.what() + hint);
  }
}

Json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw RunFileError("run file " + path.string() + ": cannot be opened");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_json(buffer.str(), path);
}

double number(const Json& value, const std::filesystem::path& path, const std::string& key) {
  if (value.is_null()) fail(path, "'" + key + "' is null; give a finite number");
  if (!value.is_number()) fail(path, "'" + key + "' must be a number, got " + value.dump());
  const double v = value.get<double>();
  if (!std::isfinite(v)) fail(path, "'" + key + "' is not finite; give a finite number");
  return v;
}

int integer(const Json& value, const std::filesystem::path& path, const std::string& key) {
  const double v = number(value, path, key);
  if (v != std::floor(v) || std::abs(v) > 1e9) fail(path, "'" + key + "' must be an integer, got " + value.dump());
  return static_cast<int>(v);
}

std::string string(const Json& value, const std::filesystem::path& path, const std::string& key) {
  if (!value.is_string()) fail(path, "'" + key + "' must be a string, got " + value.dump());
  return value.get<std::string>();
}

std::vector<std::string> strings(const Json& value, const std::filesystem::path& path, const std::string& key) {
  if (!value.is_array()) fail(path, "'" + key + "' must be a list of strings, got " + value.dump());
  std::vector<std::string> out;
  for (std::size_t i = 0; i < value.size(); ++i) out.push_back(string(value[i], path, key + "[" + std::to_string(i) + "]"));
  return out;
}

bool boolean(const Json& value, const std::filesystem::path& path, const std::string& key) {
  if (!value.is_boolean()) fail(path, "'" + key + "' must be true or false, got " + value.dump());
  return value.get<bool>();
}

void only_keys(const Json& object, const std::set<std::string>& allowed, const std::filesystem::path& path,
               const std::string& where) {
  for (const auto& [key, value] : object.items())
    if (!allowed.count(key)) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail(path, "unknown key '" + where + key + "' (known: " + list + ")");
    }
}

}  // namespace saltus::drivers
