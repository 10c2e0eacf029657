#include "studies/key_table.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace saltus::studies {

namespace {

constexpr std::size_t kColumns = 110;
constexpr std::size_t kKeyWidth = 24, kTypeWidth = 14;

bool has_rows_under(const KeyTable& table, const std::string& prefix) {
  return std::any_of(table.begin(), table.end(),
                     [&](const KeyRow& row) { return row.key.rfind(prefix, 0) == 0; });
}

const KeyRow* row_of(const KeyTable& table, const std::string& key) {
  for (const auto& row : table)
    if (row.key == key) return &row;
  return nullptr;
}

// "(default 0.01; > 0)", "(required)", "" as the help and the reference end a meaning.
std::string default_and_range(const KeyRow& row) {
  std::string text = row.default_value == "required" ? "required"
                     : row.default_value.empty()     ? ""
                                                     : "default " + row.default_value;
  if (!row.range.empty()) text += (text.empty() ? "" : "; ") + row.range;
  return text.empty() ? "" : " (" + text + ")";
}

// `text` from column `at` on, wrapped at kColumns with continuation lines at
// `column`; a \x01 is a space that does not break.
void wrap(std::ostringstream& out, const std::string& text, std::size_t at, std::size_t column) {
  std::istringstream words(text);
  bool first = true;
  for (std::string word; words >> word;) {
    if (!first && at + 1 + word.size() > kColumns) {
      out << "\n" << std::string(column, ' ');
      at = column;
      first = true;
    }
    if (!first) {
      out << ' ';
      ++at;
    }
    for (char& c : word)
      if (c == '\x01') c = ' ';
    out << word;
    at += word.size();
    first = false;
  }
  out << "\n";
}

// The meaning and its "(default ...; range)", which breaks as one word when short.
std::string meaning_text(const KeyRow& row) {
  std::string suffix = default_and_range(row);
  if (suffix.size() <= 32)
    for (std::size_t i = 1; i < suffix.size(); ++i)
      if (suffix[i] == ' ') suffix[i] = '\x01';
  return row.meaning + suffix;
}

// Text for a Markdown page: | (a table's column), * (emphasis) and < (a tag) escaped.
std::string cell(const std::string& text) {
  std::string escaped;
  for (const char c : text) {
    if (c == '<')
      escaped += "&lt;";
    else if (c == '|' || c == '*')
      escaped += std::string("\\") + c;
    else
      escaped += c;
  }
  return escaped;
}

void walk(const KeyTable& table, const Json& object, const std::string& prefix,
          std::vector<std::string>* out) {
  for (const auto& [key, value] : object.items()) {
    const std::string path = prefix + key;
    if (row_of(table, path)) {
      if (value.is_object() && has_rows_under(table, path + "."))
        walk(table, value, path + ".", out);
      else if (value.is_array() && has_rows_under(table, path + "[]."))
        for (const auto& element : value)
          if (element.is_object()) walk(table, element, path + "[].", out);
      continue;
    }
    const KeyRow* wildcard = row_of(table, prefix + "*");
    if (!wildcard || !wildcard->wildcard.count(key)) out->push_back(path);
  }
}

}  // namespace

KeyRow number_row(std::string key, std::string type, std::string default_value, Range limits,
                  std::string meaning) {
  const std::string range = limits.text();
  return {std::move(key), std::move(type), std::move(default_value), range, std::move(meaning), {}, limits};
}

namespace {

const KeyRow& row_for(const KeyTable& table, const std::string& key) {
  if (const KeyRow* row = row_of(table, key)) return *row;
  throw std::logic_error("no row '" + key + "' in the run file's key table");
}

void check_limits(const KeyRow& row, double read, const Json& value, const std::filesystem::path& path) {
  if (!row.limits.contains(read))
    fail(path, "'" + row.key + "' = " + excerpt(value.dump()) + " " + row.limits.requirement());
}

}  // namespace

double read_number(const KeyTable& table, const std::string& key, const Json& value,
                   const std::filesystem::path& path) {
  const KeyRow& row = row_for(table, key);
  const double read = number(value, path, key);
  check_limits(row, read, value, path);
  return read;
}

int read_integer(const KeyTable& table, const std::string& key, const Json& value,
                 const std::filesystem::path& path) {
  const KeyRow& row = row_for(table, key);
  const int read = integer(value, path, key);
  check_limits(row, read, value, path);
  return read;
}

std::set<std::string> keys_under(const KeyTable& table, const std::string& prefix) {
  std::set<std::string> keys;
  for (const auto& row : table) {
    if (row.key.size() <= prefix.size() || row.key.rfind(prefix, 0) != 0) continue;
    const std::string rest = row.key.substr(prefix.size());
    if (rest == "*")
      keys.insert(row.wildcard.begin(), row.wildcard.end());
    else
      keys.insert(rest.substr(0, rest.find_first_of(".[")));
  }
  return keys;
}

std::string key_help(const KeyTable& table, const std::string& indent) {
  std::size_t key_width = 0, type_width = 0;
  for (const auto& row : table) {
    if (row.key.size() <= kKeyWidth) key_width = std::max(key_width, row.key.size());
    if (row.type.size() <= kTypeWidth) type_width = std::max(type_width, row.type.size());
  }
  const std::size_t type_column = indent.size() + key_width + 2;
  const std::size_t meaning_column = type_column + type_width + 2;
  std::ostringstream out;
  for (const auto& row : table) {
    // A key longer than its column has a line of its own; a type longer
    // than its column pushes the meaning's first line to the right.
    out << indent << row.key;
    std::size_t at = indent.size() + row.key.size();
    if (at + 2 > type_column) {
      out << "\n";
      at = 0;
    }
    out << std::string(type_column - at, ' ') << row.type;
    at = type_column + row.type.size();
    const std::size_t start = std::max(meaning_column, at + 2);
    out << std::string(start - at, ' ');
    wrap(out, meaning_text(row), start, meaning_column);
  }
  return out.str();
}

std::string key_markdown(const KeyTable& table) {
  std::ostringstream out;
  out << "| key | type | default | range | meaning |\n|---|---|---|---|---|\n";
  for (const auto& row : table)
    out << "| `" << row.key << "` | " << cell(row.type) << " | " << cell(row.default_value) << " | "
        << cell(row.range) << " | " << cell(row.meaning) << " |\n";
  return out.str();
}

std::string run_file_help(const RunFileKind& kind) {
  std::string help =
      "Run file keys (JSON; key  type  meaning (default; range)); objects' keys are dotted:\n" +
      key_help(kind.keys);
  if (!kind.shared.empty()) help += kind.shared_title + ":\n" + key_help(kind.shared);
  // The introduction's paragraphs, each wrapped.
  std::ostringstream intro;
  for (std::size_t at = 0; at < kind.introduction.size();) {
    const std::size_t end = std::min(kind.introduction.find("\n\n", at), kind.introduction.size());
    if (at > 0) intro << "\n";
    wrap(intro, kind.introduction.substr(at, end - at), 0, 0);
    at = end + 2;
  }
  return help + "\n" + intro.str() + (kind.appendix.empty() ? "" : "\n" + kind.appendix);
}

std::string run_file_markdown(const RunFileKind& kind) {
  std::string page = "## " + kind.title + "\n\n" + cell(kind.introduction) + "\n\n" + key_markdown(kind.keys);
  if (!kind.shared.empty()) page += "\n" + cell(kind.shared_title) + ":\n\n" + key_markdown(kind.shared);
  if (!kind.appendix.empty())
    page += "\n```\n" + kind.appendix + (kind.appendix.back() == '\n' ? "" : "\n") + "```\n";
  return page;
}

std::vector<std::string> undocumented_keys(const KeyTable& table, const Json& run_file) {
  std::vector<std::string> out;
  if (run_file.is_object()) walk(table, run_file, "", &out);
  return out;
}

}  // namespace saltus::studies
