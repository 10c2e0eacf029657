#include "studies/json_input.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

namespace saltus::studies {

void fail(const std::filesystem::path& path, const std::string& what) {
  throw RunFileError(printable("run file " + path.string() + ": " + what));
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c != 0x7f) {
      out += ch;
      continue;
    }
    switch (ch) {
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default: {
        static const char* const hex = "0123456789abcdef";
        out += "\\x";
        out += hex[c >> 4];
        out += hex[c & 15];
      }
    }
  }
  return out;
}

namespace {
[[noreturn]] void fail_in(const std::string& source, const std::string& what) {
  throw RunFileError(source + ": " + what);
}
}  // namespace

std::string excerpt(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return printable(text);
  std::size_t end = max_bytes;
  // A byte 10xxxxxx continues a character begun before it.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return printable(text.substr(0, end)) + "...";
}

namespace {
// nlohmann's messages start with "[json.exception.<kind>.<id>] ".
std::string without_library_prefix(const std::string& what) {
  const std::size_t close = what.find("] ");
  return what.rfind("[json.exception.", 0) == 0 && close != std::string::npos ? what.substr(close + 2) : what;
}
}  // namespace

Json parse_json(const std::string& text, const std::filesystem::path& path) {
  return parse_json_from(text, "run file " + path.string());
}

Json parse_json_from(const std::string& text, const std::string& source) {
  // Checked as the parser (iterative) meets each container or key, before a
  // too deep value exists: copying, dumping and comparing a Json recurse once
  // per level, and nlohmann keeps the last of two equal keys without a word.
  struct Open {
    std::set<std::string> keys;
    std::string last;  // the key whose value is being read
  };
  std::vector<Open> objects;
  const auto check = [&](int depth, Json::parse_event_t event, Json& parsed) {
    using E = Json::parse_event_t;
    if ((event == E::object_start || event == E::array_start) && depth >= kMaxJsonNesting)
      fail_in(source, "nesting deeper than " + std::to_string(kMaxJsonNesting) + " levels of [ ] and { }");
    if (event == E::object_start) objects.emplace_back();
    if (event == E::object_end) objects.pop_back();
    if (event == E::key) {
      const auto& key = parsed.get_ref<const std::string&>();
      if (!objects.back().keys.insert(key).second)
        fail_in(source, "key '" + excerpt(key) + "' is given twice");
      objects.back().last = key;
    }
    return true;
  };
  try {
    return Json::parse(text, check);
  } catch (const Json::out_of_range& e) {  // 406: a number beyond +-1.8e308
    const std::string what = e.what();
    const std::size_t open = what.find('\''), close = what.rfind('\'');  // "... parsing '1e999'"
    const std::string number =
        open < close ? " '" + excerpt(what.substr(open + 1, close - open - 1)) + "'" : "";
    const std::string key = objects.empty() ? "" : " at '" + excerpt(objects.back().last) + "'";
    fail_in(source, "number" + number + key + " is too large for a double; give a finite number");
  } catch (const Json::exception& e) {
    std::string hint;
    if (text.find("NaN") != std::string::npos || text.find("Infinity") != std::string::npos)
      hint = " (JSON has no NaN or Infinity: give finite numbers)";
    fail_in(source, "not valid JSON: " + excerpt(without_library_prefix(e.what()), 200) + hint);
  }
}

Json read_json(const std::filesystem::path& path) {
  return read_json_from(path, "run file " + path.string());
}

Json read_json_from(const std::filesystem::path& path, const std::string& source) {
  std::ifstream in(path);
  if (!in) fail_in(source, "cannot be opened");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_json_from(buffer.str(), source);
}

double number(const Json& value, const std::filesystem::path& path, const std::string& key) {
  if (value.is_null()) fail(path, "'" + key + "' is null; give a finite number");
  if (!value.is_number()) fail(path, "'" + key + "' must be a number, got " + excerpt(value.dump()));
  const double v = value.get<double>();
  if (!std::isfinite(v)) fail(path, "'" + key + "' is not finite; give a finite number");
  return v;
}

int integer(const Json& value, const std::filesystem::path& path, const std::string& key) {
  const double v = number(value, path, key);
  if (v != std::floor(v) || std::abs(v) > 1e9)
    fail(path, "'" + key + "' must be an integer, got " + excerpt(value.dump()));
  return static_cast<int>(v);
}

std::string string(const Json& value, const std::filesystem::path& path, const std::string& key) {
  if (!value.is_string()) fail(path, "'" + key + "' must be a string, got " + excerpt(value.dump()));
  return value.get<std::string>();
}

std::vector<std::string> strings(const Json& value, const std::filesystem::path& path,
                                 const std::string& key) {
  if (!value.is_array()) fail(path, "'" + key + "' must be a list of strings, got " + excerpt(value.dump()));
  std::vector<std::string> out;
  for (std::size_t i = 0; i < value.size(); ++i)
    out.push_back(string(value[i], path, key + "[" + std::to_string(i) + "]"));
  return out;
}

std::string expression_text(const Json& value, const std::filesystem::path& path, const std::string& key) {
  if (value.is_number()) return value.dump();  // a number stands for itself: "stick_bound": 1
  if (!value.is_string())
    fail(path, "'" + key + "' must be an expression (a string such as \"-k*x\") or a number, got " +
                   excerpt(value.dump()));
  return value.get<std::string>();
}

std::vector<std::string> expression_texts(const Json& value, const std::filesystem::path& path,
                                          const std::string& key) {
  if (!value.is_array()) fail(path, "'" + key + "' must be a list of expressions, got " + excerpt(value.dump()));
  std::vector<std::string> out;
  for (std::size_t i = 0; i < value.size(); ++i)
    out.push_back(expression_text(value[i], path, key + "[" + std::to_string(i) + "]"));
  return out;
}

bool boolean(const Json& value, const std::filesystem::path& path, const std::string& key) {
  if (!value.is_boolean()) fail(path, "'" + key + "' must be true or false, got " + excerpt(value.dump()));
  return value.get<bool>();
}

void only_keys(const Json& object, const std::set<std::string>& allowed, const std::filesystem::path& path,
               const std::string& where) {
  for (const auto& [key, value] : object.items())
    if (!allowed.count(key)) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail(path, "unknown key '" + where + excerpt(key) + "' (known: " + list + ")");
    }
}

}  // namespace saltus::studies
