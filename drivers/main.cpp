#include <iostream>

#include "drivers/cli.h"

int main(int argc, char** argv) {
  // run_cli() reports its own errors; this catches what escapes it (CLI11's
  // parsing, the streams).
  try {
    return saltus::drivers::run_cli(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "saltus: error: " << saltus::drivers::error_message(e) << '\n';
    return 1;
  }
}
