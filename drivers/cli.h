#pragma once
// The `saltus` command line. run_cli() is main() without the process: the
// tests call it with arguments and streams.

#include <exception>
#include <ostream>
#include <string>
#include <vector>

namespace saltus::drivers {

// Exit codes: 0 success, 1 invalid input (run file, options), 2 a numerical
// failure the user must act on (a start point that does not converge).
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// What an exception that reached the top level tells a user: std::bad_alloc
// as advice to make the run smaller, any other text without the libraries'
// prefixes ("std::", "[json.exception.type_error.302] ", boost's "Error in
// function boost::...: ").
std::string error_message(const std::exception& e);

}  // namespace saltus::drivers
