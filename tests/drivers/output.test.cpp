#include "drivers/output.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <stdexcept>

#include "run_cli.h"

namespace fs = std::filesystem;
using namespace saltus::drivers;
using namespace saltus::testing;

TEST_CASE("write_file_atomically: a writer that throws leaves no file behind", "[drivers][output]") {
  const fs::path dir = scratch("atomic");
  fs::create_directories(dir);
  CHECK_THROWS_WITH(write_file_atomically(dir / "a.csv",
                                          [](std::ostream& out) {
                                            out << "half";
                                            throw std::runtime_error("no more");
                                          }),
                    "no more");
  CHECK(fs::is_empty(dir));
  fs::remove_all(dir);
}
