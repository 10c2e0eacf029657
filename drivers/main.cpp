#include <iostream>

#include "drivers/cli.h"

int main(int argc, char** argv) {
  return saltus::drivers::run_cli(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
}
