#include "drivers/grid_command.h"

#include <atomic>

namespace saltus::drivers {

namespace {

// Set by the handler, read by the study's threads: a lock-free atomic is
// safe in a signal handler and across threads alike.
std::atomic<bool> pressed_flag{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_sigint(int) { pressed_flag = true; }

}  // namespace

CtrlC::CtrlC() {
  pressed_flag = false;
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;
  installed_ = ::sigaction(SIGINT, &action, &previous_) == 0;
}

CtrlC::~CtrlC() {
  if (installed_) ::sigaction(SIGINT, &previous_, nullptr);
}

bool CtrlC::pressed() { return pressed_flag; }

studies::GridControl grid_control(const GridOptions& options, const std::filesystem::path& dir,
                                  std::ostream& err) {
  studies::GridControl control;
  control.journal = dir;
  control.resume = options.resume;
  control.interrupt_after = options.interrupt_after;
  control.stop_requested = &CtrlC::pressed;
  control.log = &err;
  control.ranks = true;
  return control;
}

}  // namespace saltus::drivers
