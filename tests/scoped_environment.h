#pragma once
// An environment variable set (or unset: nullopt) for one scope, restored
// after: the tests and benchmarks of the compile cache (SALTUS_COMPILE,
// SALTUS_CACHE_DIR, the compiler) run each case under its own settings.

#include <cstdlib>
#include <optional>
#include <string>

namespace saltus::testing {

class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      setenv(name, value->c_str(), 1);
    else
      unsetenv(name);
  }
  ~ScopedEnvironment() {
    if (old_)
      setenv(name_, old_->c_str(), 1);
    else
      unsetenv(name_);
  }
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace saltus::testing
