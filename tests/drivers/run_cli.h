#pragma once
// The `saltus` command run in-process for the CLI tests: exit code and what it
// printed, scratch folders, and the examples' paths.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "drivers/cli.h"

namespace saltus::testing {

struct Run {
  int code;
  std::string out, err;
};

inline Run run_saltus(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  const int code = saltus::drivers::run_cli(args, out, err);
  return {code, out.str(), err.str()};
}

// A fresh, not yet existing folder under the temporary directory.
// `saltus continue FILE --out OUT --json`: the summary it printed; the test
// fails (with saltus's stderr) on a non-zero exit.
inline nlohmann::json continue_json(const std::filesystem::path& file, const std::filesystem::path& out) {
  const Run r = run_saltus({"continue", file.string(), "--out", out.string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  return nlohmann::json::parse(r.out);
}

// A file's whole text ("" when it cannot be read).
inline std::string text_of(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The rows of a CSV file as column name -> text.
inline std::vector<std::map<std::string, std::string>> read_csv(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  std::stringstream hs(line);
  for (std::string cell; std::getline(hs, cell, ',');) header.push_back(cell);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    std::stringstream ls(line);
    std::map<std::string, std::string> row;
    std::size_t k = 0;
    for (std::string cell; k < header.size() && std::getline(ls, cell, ','); ++k) row[header[k]] = cell;
    rows.push_back(row);
  }
  return rows;
}

inline std::filesystem::path scratch(const std::string& name) {
  static std::mt19937 rng(std::random_device{}());
  const auto dir =
      std::filesystem::temp_directory_path() / ("saltus-test-" + name + "-" + std::to_string(rng()));
  std::filesystem::remove_all(dir);
  return dir;
}

inline std::filesystem::path example(const std::string& name) {
  return std::filesystem::path(SALTUS_SOURCE_DIR) / "examples" / name;
}

// The text with every run of spaces and newlines one space: a help table's
// row compares whatever its column widths wrap.
inline std::string flat(const std::string& text) {
  std::string out;
  for (const char c : text)
    if (c != ' ' && c != '\n')
      out += c;
    else if (!out.empty() && out.back() != ' ')
      out += ' ';
  return out;
}

// An example's run file, its keys in their order, to change and write_run().
inline nlohmann::ordered_json example_json(const std::string& name) {
  return nlohmann::ordered_json::parse(std::ifstream(example(name)));
}

// `file` written as dir/run.json (dir made first); its path.
inline std::filesystem::path write_run(const std::filesystem::path& dir, const nlohmann::ordered_json& file) {
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "run.json") << file.dump(1);
  return dir / "run.json";
}

}  // namespace saltus::testing
