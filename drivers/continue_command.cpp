#include "drivers/continue_command.h"

#include <cmath>
#include <complex>
#include <iomanip>
#include <limits>
#include <optional>
#include <sstream>

#include "continuation/eigenvalues.h"
#include "continuation/flow/simulate.h"
#include "studies/output.h"
#include "studies/study.h"

namespace saltus::drivers {

namespace fs = std::filesystem;

std::vector<NamedBranch> run_continuation(const RunFile& run, const Progress& progress,
                                          std::string* follow_up_error) {
  const auto shared = std::make_shared<const RunFile>(run);
  studies::Progress observe;
  if (progress)
    observe = [progress](const std::string& name, const Branch& b) {
      progress(name, b);
      return true;
    };
  std::vector<NamedBranch> branches{studies::continue_run(shared, observe)};
  try {
    studies::continue_run_follow_ups(&branches, observe);
  } catch (const RunFileError& e) {
    if (!follow_up_error) throw;
    *follow_up_error = e.what();
  }
  return branches;
}

}  // namespace saltus::drivers
