#include "drivers/grid_command.h"

namespace saltus::drivers {

namespace {

// Set by the handler; a plain sig_atomic_t is all a handler may touch.
volatile std::sig_atomic_t pressed_flag = 0;

extern "C" void on_sigint(int) { pressed_flag = 1; }

}  // namespace

CtrlC::CtrlC() {
  pressed_flag = 0;
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;
  installed_ = ::sigaction(SIGINT, &action, &previous_) == 0;
}

CtrlC::~CtrlC() {
  if (installed_) ::sigaction(SIGINT, &previous_, nullptr);
}

bool CtrlC::pressed() { return pressed_flag != 0; }

studies::GridControl grid_control(const GridOptions& options, const std::filesystem::path& dir,
                                  std::ostream& err) {
  studies::GridControl control;
  control.journal = dir;
  control.resume = options.resume;
  control.interrupt_after = options.interrupt_after;
  control.stop_requested = &CtrlC::pressed;
  control.log = &err;
  return control;
}

}  // namespace saltus::drivers
