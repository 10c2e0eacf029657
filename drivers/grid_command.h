#pragma once
// What `saltus sweep` and `saltus map` share: --resume, the hidden
// --interrupt-after, and Ctrl-C. While a CtrlC guard lives, SIGINT only sets a
// flag that a study polls (studies::GridControl::stop_requested), which ends
// the study after the points under way with its finished points written.
// SA_RESETHAND: a second Ctrl-C finds the default action and ends the process
// at once (a journal, flushed line by line, stays usable for --resume).

#include <csignal>
#include <filesystem>
#include <ostream>

#include "studies/grid_runner.h"

namespace saltus::drivers {

class CtrlC {
 public:
  CtrlC();
  ~CtrlC();
  CtrlC(const CtrlC&) = delete;
  CtrlC& operator=(const CtrlC&) = delete;
  // Whether Ctrl-C was pressed since the guard was made (any thread may ask).
  static bool pressed();

 private:
  struct sigaction previous_ {};
  bool installed_ = false;
};

// The command line's options of a grid study.
struct GridOptions {
  bool resume = false;      // --resume: continue from the journal
  int interrupt_after = 0;  // testing (hidden --interrupt-after): stop after N points, as Ctrl-C does
};

// How the command line runs a grid study: journalled in dir, stopped by
// Ctrl-C (a CtrlC guard must live while it runs), progress lines on err.
studies::GridControl grid_control(const GridOptions& options, const std::filesystem::path& dir,
                                  std::ostream& err);

}  // namespace saltus::drivers
