#pragma once
// A study that Ctrl-C stops cleanly from Python. Python runs its signal
// handlers on the main thread only, so the study runs on a thread of its own
// (the GIL released) while the calling thread, Python's main one, polls for
// Ctrl-C every 50 ms; a KeyboardInterrupt is taken (cleared) and passed to
// the study as on_ctrl_c(), which sets the flag the study polls. The study
// then returns what it has done.

#include <pybind11/pybind11.h>

#include <chrono>
#include <future>

namespace saltus::python {

template <class Study, class OnCtrlC>
auto interruptible(Study study, OnCtrlC on_ctrl_c) {
  namespace py = pybind11;
  std::future<decltype(study())> running;
  {
    py::gil_scoped_release release;
    running = std::async(std::launch::async, std::move(study));
  }
  for (bool ready = false; !ready;) {
    {
      py::gil_scoped_release release;
      ready = running.wait_for(std::chrono::milliseconds(50)) == std::future_status::ready;
    }
    if (!ready && PyErr_CheckSignals() != 0) {
      PyErr_Clear();
      on_ctrl_c();
    }
  }
  return running.get();  // rethrows the study's exception
}

}  // namespace saltus::python
