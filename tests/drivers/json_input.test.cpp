#include "studies/json_input.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "drivers/studies.h"
#include "run_cli.h"

namespace fs = std::filesystem;
using namespace saltus::drivers;
using namespace saltus::testing;
using Catch::Contains;

namespace {

std::string error_of(const std::string& text) {
  try {
    parse_json(text, "run.json");
  } catch (const RunFileError& e) {
    return e.what();
  }
  return "";
}

std::string nested(int levels) { return std::string(levels, '[') + std::string(levels, ']'); }

}  // namespace

TEST_CASE("run files: nesting deeper than 64 levels is an error naming the file and the limit",
          "[drivers][json][errors]") {
  CHECK(error_of(nested(kMaxJsonNesting)).empty());
  CHECK(error_of("{\"a\": " + nested(kMaxJsonNesting - 1) + "}").empty());
  CHECK(error_of(nested(kMaxJsonNesting + 1)) ==
        "run file run.json: nesting deeper than 64 levels of [ ] and { }");
  // Far beyond where a recursive parse or dump would overflow the stack.
  CHECK_THAT(error_of(nested(1000000)), Contains("deeper than 64 levels"));
  CHECK_THAT(error_of(std::string(1000000, '[')), Contains("deeper than 64 levels"));
}

TEST_CASE("run files: a number beyond a double's range names the file and the key, in our words",
          "[drivers][json][errors]") {
  CHECK(error_of(R"({"parameters": {"mu": 1e999}})") ==
        "run file run.json: number '1e999' at 'mu' is too large for a double; give a finite number");
  CHECK_THAT(error_of(R"({"x0": [1, -1e400]})"), Contains("'-1e400' at 'x0'"));
  CHECK_THAT(error_of("1e999"), Contains("number '1e999' is too large"));
  CHECK_THAT(error_of("{\"a\": 1" + std::string(1000, '0') + "}"), Contains("too large") && Contains("...'"));
  CHECK_THAT(error_of("{\"a\": 1,}"), Contains("not valid JSON") && !Contains("json.exception"));
}

TEST_CASE("run files: a key given twice in one object is an error naming it", "[drivers][json][errors]") {
  CHECK(error_of(R"({"model": "cusp", "parameters": {"mu": 1, "mu": 2}})") ==
        "run file run.json: key 'mu' is given twice");
  CHECK(error_of(R"({"a": {"k": 1}, "b": {"k": 2}, "c": [{"k": 3}, {"k": 4}]})").empty());
}

TEST_CASE("run files: quoted values are cut to 80 bytes, never inside a UTF-8 character", "[drivers][json]") {
  CHECK(excerpt("short") == "short");
  CHECK(excerpt(std::string(80, 'x')) == std::string(80, 'x'));
  // \u00e9 is two bytes; the 80th would be its second.
  CHECK(excerpt(std::string(79, 'x') + "\u00e9\u00e9") == std::string(79, 'x') + "...");
  const Json long_list = Json(std::vector<int>(1000, 1));
  try {
    number(long_list, "run.json", "mu");
    FAIL("no error");
  } catch (const RunFileError& e) {
    CHECK(std::string(e.what()).size() < 150);
  }
}

TEST_CASE("saltus: a deep or overflowing run file is reported, not a crash or a library message",
          "[cli][json][errors]") {
  const fs::path dir = scratch("json");
  fs::create_directories(dir);
  for (const std::string& text :
       {"{\"model\": " + nested(100000) + "}", std::string(R"({"model": 1e999})")}) {
    std::ofstream(dir / "run.json") << text;
    for (const char* command : {"continue", "simulate"}) {
      const Run r = run_saltus({command, (dir / "run.json").string(), "--out", (dir / "out").string()});
      CHECK(r.code == 1);
      CHECK_THAT(r.err, Contains((dir / "run.json").string()) && !Contains("json.exception"));
    }
  }
  fs::remove_all(dir);
}
