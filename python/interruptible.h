#pragma once
// A study that Ctrl-C stops cleanly from Python. Python runs its signal
// handlers on the main thread only, so the study runs on a thread of its own
// (the GIL released) while the calling thread, Python's main one, polls for
// Ctrl-C every 50 ms; a KeyboardInterrupt is taken (cleared) and passed to
// the study as on_ctrl_c(), which sets the flag the study polls. The study
// then returns what it has done. Another signal handler's exception
// (SystemExit from a SIGTERM handler, a timeout) stops the study the same
// way and is raised once it has stopped. The study is always waited for:
// it may hold references to the caller's locals.

#include <pybind11/pybind11.h>

#include <chrono>
#include <future>
#include <optional>

namespace saltus::python {

template <class Study, class OnCtrlC>
auto interruptible(Study study, OnCtrlC on_ctrl_c) {
  namespace py = pybind11;
  std::future<decltype(study())> running;
  {
    py::gil_scoped_release release;
    running = std::async(std::launch::async, std::move(study));
  }
  std::optional<py::error_already_set> raised;  // another signal handler's exception, raised after the study
  for (bool ready = false; !ready;) {
    {
      py::gil_scoped_release release;
      ready = running.wait_for(std::chrono::milliseconds(50)) == std::future_status::ready;
    }
    if (!ready && !raised && PyErr_CheckSignals() != 0) {
      if (PyErr_ExceptionMatches(PyExc_KeyboardInterrupt))
        PyErr_Clear();
      else
        raised.emplace();  // takes the exception (SystemExit from a SIGTERM handler, ...)
      on_ctrl_c();
    }
  }
  if (raised) throw std::move(*raised);  // the study has stopped: its captures are no longer used
  return running.get();  // rethrows the study's exception
}

}  // namespace saltus::python
