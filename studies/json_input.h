#pragma once
// Reading run files: typed getters that name the file and the key in every
// error, so a user knows what to fix (RunFileError).

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace saltus::studies {

class RunFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using Json = nlohmann::ordered_json;

// Reads and parses a JSON file (with a hint when it holds NaN or Infinity).
// Fails on nesting deeper than kMaxJsonNesting, on a key given twice in one
// object and on a number beyond a double's range, naming the file.
Json read_json(const std::filesystem::path& path);
Json parse_json(const std::string& text, const std::filesystem::path& path);
constexpr int kMaxJsonNesting = 64;  // levels of [ ] and { }; run files use a handful
// The same for text that is not a run file (a journal's line, a saved
// summary): `source` begins each error ("journal out/sweep.journal.jsonl,
// line 3").
Json parse_json_from(const std::string& text, const std::string& source);
Json read_json_from(const std::filesystem::path& path, const std::string& source);

// At most max_bytes of text, cut at a UTF-8 character boundary, "..." when
// cut, its control characters escaped (printable): for quoting a user's
// value in a message.
std::string excerpt(std::string_view text, std::size_t max_bytes = 80);

// The text with its control characters escaped as in C and JSON ("fl\night"
// for a value with a newline, \t, \r, others \xHH): a string from a run
// file never breaks a message over lines or moves the cursor. UTF-8 passes.
std::string printable(std::string_view text);

// Throws RunFileError "run file PATH: WHAT", printable.
[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what);
double number(const Json& value, const std::filesystem::path& path, const std::string& key);  // finite
int integer(const Json& value, const std::filesystem::path& path, const std::string& key);
std::string string(const Json& value, const std::filesystem::path& path, const std::string& key);
// An expression's text: a string, or a number standing for itself (JSON's
// shortest round-trip form).
std::string expression_text(const Json& value, const std::filesystem::path& path, const std::string& key);
std::vector<std::string> expression_texts(const Json& value, const std::filesystem::path& path,
                                          const std::string& key);
std::vector<std::string> strings(const Json& value, const std::filesystem::path& path,
                                 const std::string& key);
bool boolean(const Json& value, const std::filesystem::path& path, const std::string& key);
// Fails on a key of `object` outside `allowed` (typos), listing the known ones.
void only_keys(const Json& object, const std::set<std::string>& allowed, const std::filesystem::path& path,
               const std::string& where);

}  // namespace saltus::studies
