// The `saltus` Python module's compiled part (saltus._saltus): the studies
// library (studies/study.h) with its results as NumPy arrays. The pure
// Python package (python/saltus/) adds the plotting helpers and the
// documentation a user reads with help().
//
// Long computations release the GIL; the progress callback takes it back
// after each point, calls the user's callback and checks for Ctrl-C: a
// KeyboardInterrupt (or an exception of the callback) stops the branch,
// which comes back with what it has and stop_reason "interrupted".
// RunFileError and StudyError (bad input, a follow-up the branch cannot
// give) become ValueError with the same message; other failures
// RuntimeError.

#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <limits>
#include <sstream>

#include "continuation/flow/simulate.h"
#include "python/convert.h"
#include "python/interruptible.h"
#include "studies/filippov_study.h"
#include "studies/branch_files.h"
#include "studies/hybrid_study.h"
#include "studies/orbit_files.h"
#include "studies/output.h"
#include "studies/trajectory_files.h"
#include "studies/options_json.h"
#include "studies/restart.h"
#include "studies/study.h"
#include "studies/map_files.h"
#include "studies/sweep_files.h"

namespace py = pybind11;
using namespace saltus;
using studies::BranchResult;
using python::points_array;
using python::to_python;

namespace {

studies::Json to_json(const py::object& o) {
  const std::string text = py::module_::import("json").attr("dumps")(o).cast<std::string>();
  return studies::parse_json(text, "<python>");
}

// The progress of one study call: the user's callback and Ctrl-C.
class Observer {
 public:
  explicit Observer(py::object callback) : callback_(std::move(callback)) {}
  studies::Progress progress() {
    return [this](const std::string& name, const Branch& branch) {
      py::gil_scoped_acquire gil;
      if (PyErr_CheckSignals() != 0) return stop(name);
      if (!callback_.is_none()) {
        try {
          const py::object go = callback_(name, branch.points.size());
          if (!go.is_none() && !go.cast<bool>()) return stop(name);
        } catch (py::error_already_set& e) {
          if (!e.matches(PyExc_KeyboardInterrupt)) error_ = e.what();
          return stop(name);
        } catch (const std::exception& e) {  // a result that is no bool
          error_ = e.what();
          return stop(name);
        }
      }
      return true;
    };
  }
  // Marks a result stopped by the observer, saying why.
  void finish(BranchResult* r) {
    if (!stopped_.empty() && r->branch.stop_reason == StopReason::kCallback) {
      r->branch.message = "interrupted after " + std::to_string(r->branch.points.size()) + " points" +
                          (error_.empty() ? " (KeyboardInterrupt, or the progress callback returned False)"
                                          : ": the progress callback raised " + error_);
    }
  }
  bool interrupted() const { return !stopped_.empty(); }

 private:
  bool stop(const std::string& name) {
    PyErr_Clear();
    stopped_ = name;
    return false;
  }
  py::object callback_;
  std::string stopped_, error_;
};

// The progress of a sweep or map: the user's callback(done, total), called
// from the study's worker threads, and Ctrl-C, which Python delivers to
// the main thread only (observed_grid polls for it there and calls
// interrupt()); either stops the study after the points under way.
class GridObserver {
 public:
  explicit GridObserver(py::object callback) : callback_(std::move(callback)) {}
  studies::GridProgress progress() {
    return [this](int done, int total) {
      if (interrupted_) return false;
      if (callback_.is_none()) return true;
      py::gil_scoped_acquire gil;
      try {
        const py::object go = callback_(done, total);
        if (go.is_none() || go.cast<bool>()) return true;
      } catch (py::error_already_set& e) {
        if (!e.matches(PyExc_KeyboardInterrupt)) error_ = e.what();
      } catch (const std::exception& e) {  // a result that is no bool
        error_ = e.what();
      }
      PyErr_Clear();
      interrupted_ = true;
      return false;
    };
  }
  // How the study runs: journalled in `out` (when given), resumed from
  // that journal, stopped by the callback or Ctrl-C.
  studies::GridControl control(const std::string& out, bool resume) {
    studies::GridControl c;
    c.journal = out;
    c.resume = resume;
    c.progress = progress();
    c.stop_requested = [this] { return interrupted_.load(); };
    return c;
  }
  // Ctrl-C, seen on the main thread.
  void interrupt() {
    interrupted_ = true;
  }
  // Says in the result why it stopped.
  void finish(py::dict* d) const {
    if (interrupted_ && (*d)["interrupted"].cast<bool>())
      (*d)["message"] = error_.empty() ? "interrupted (KeyboardInterrupt, or the progress callback returned False)"
                                       : "interrupted: the progress callback raised " + error_;
  }

 private:
  py::object callback_;
  std::atomic<bool> interrupted_{false};
  std::string error_;
};

// A study run with the GIL released, observed by the user's callback and
// Ctrl-C: study(progress) gives a branch, or a grid's result for to_dict.
template <class Study>
BranchResult observed(py::object callback, Study study) {
  Observer observer(std::move(callback));
  BranchResult r;
  {
    py::gil_scoped_release release;
    r = study(observer.progress());
  }
  observer.finish(&r);
  return r;
}

// The study runs on a thread of its own while the main thread polls for
// Ctrl-C (python/interruptible.h).
template <class Study, class ToDict>
py::dict observed_grid(py::object callback, const std::string& out, bool resume, Study study, ToDict to_dict) {
  if (resume && out.empty()) throw studies::RunFileError("resume=True needs out=, the folder of the journal");
  GridObserver observer(std::move(callback));
  const studies::GridControl control = observer.control(out, resume);
  py::dict d = to_dict(python::interruptible([&] { return study(control); }, [&] { observer.interrupt(); }));
  observer.finish(&d);
  return d;
}

std::string stop_reason(const BranchResult& r) {
  return r.branch.stop_reason == StopReason::kCallback ? "interrupted" : to_string(r.branch.stop_reason);
}

studies::FromOptions from_options(const BranchResult& from, const std::string& to,
                                  const std::vector<std::string>& parameters, const py::object& options,
                                  double amplitude, const std::string& name) {
  studies::FromOptions o;
  o.to = to;
  o.parameters = parameters;
  o.amplitude = amplitude;
  o.name = name;
  if (!options.is_none()) {
    ContinuationOptions base = from.branch.options;
    base.callback = nullptr;
    const studies::Json j = to_json(options);
    if (!j.is_object()) throw studies::RunFileError("'options' must be a dict of continuation keys (ds, bounds, ...)");
    studies::only_keys(j, studies::continuation_keys(), "<python>", "options.");
    o.options = studies::read_continuation_options(j, base, "<python>", "options.");
  }
  return o;
}

py::dict special_point_dict(const BranchResult& r, const SpecialPoint& s) {
  py::dict d;
  d["type"] = s.type;
  d["label"] = s.label();
  d["index"] = s.index;
  d["status"] = to_string(s.status);
  d["precision"] = s.precision;
  d["test"] = s.name;
  py::dict values;
  for (std::size_t j = 0; j < r.branch.names.size(); ++j) values[py::str(r.branch.names[j])] = s.y[j];
  d["values"] = values;
  studies::Json data;
  {
    py::gil_scoped_release release;
    data = studies::point_data(r, s);
  }
  d["data"] = to_python(data);
  return d;
}

// One period of the orbit at point y of a branch of orbits, sampled.
py::dict orbit_of(const BranchResult& r, const Vector& y, int samples) {
  if (!r.shooting) throw studies::StudyError("'" + r.name + "' is not a branch of orbits");
  if (samples < 2) throw studies::StudyError("'samples' must be at least 2");
  flow::Trajectory traj;
  std::vector<std::string> names;
  {
    py::gil_scoped_release release;
    const Vector u = studies::u_of(r.branch, y);
    const auto shooting = studies::shooting_at(r, y);  // cut where the point was
    const double T = shooting->period(u);
    flow::SimulationOptions plain = shooting->options().simulation;
    plain.variational = false;
    plain.output_interval = T / samples;
    const double t0 = shooting->start_time(u);
    traj = flow::simulate(*shooting->hybrid(), shooting->options().mode, t0, shooting->hybrid_state(u), t0 + T,
                          plain);
    names = shooting->hybrid()->state_names();
  }
  py::dict d;
  d["t"] = py::array_t<double>(static_cast<py::ssize_t>(traj.t.size()), traj.t.data());
  for (std::size_t j = 0; j < names.size(); ++j) {
    std::vector<double> column(traj.x.size());
    for (std::size_t i = 0; i < traj.x.size(); ++i) column[i] = traj.x[i][j];
    d[py::str(names[j])] = py::array_t<double>(static_cast<py::ssize_t>(column.size()), column.data());
  }
  return d;
}

// A vector of doubles as a NumPy array.
py::array_t<double> array_of(const std::vector<double>& v) {
  return py::array_t<double>(static_cast<py::ssize_t>(v.size()), v.data());
}

// A sweep's columns are named by the states: none may hide the result's own
// keys (checked before the sweep runs).
void check_sweep_names(const flow::HybridSystem& system) {
  for (const auto& name : system.state_names())
    for (const char* key : {"parameter", "values", "t", "failures", "values_done", "chains", "interrupted", "message"})
      if (name == key)
        throw studies::StudyError("sweep: the state '" + name + "' has the name of a key of the sweep's result; "
                                  "rename it in the run file");
}

// A sweep as columns of its section hits (one row per hit: the parameter's
// value, t and the state) and its failures.
py::dict sweep_dict(const studies::SweepResult& r, const flow::HybridSystem& system) {
  const auto names = system.state_names();
  std::vector<double> value, t;
  std::vector<std::vector<double>> x(names.size());
  py::list failures;
  int done = 0;
  for (std::size_t k = 0; k < r.values.size(); ++k) {
    done += r.done[k];
    if (!r.points[k].failure.empty())
      failures.append(py::dict(py::arg("value") = r.values[k], py::arg("message") = r.points[k].failure));
    for (const auto& h : r.points[k].hits) {
      value.push_back(r.values[k]);
      t.push_back(h.t);
      for (std::size_t j = 0; j < names.size(); ++j) x[j].push_back(h.x[static_cast<Eigen::Index>(j)]);
    }
  }
  py::dict d;
  d["parameter"] = r.parameter;
  d["values"] = array_of(r.values);
  d[py::str(r.parameter)] = array_of(value);
  d["t"] = array_of(t);
  for (std::size_t j = 0; j < names.size(); ++j) d[py::str(names[j])] = array_of(x[j]);
  d["failures"] = failures;
  d["values_done"] = done;
  d["chains"] = r.chains;
  d["interrupted"] = r.interrupted;
  return d;
}

// A map as (y steps x x steps) arrays: class, period (0 when not periodic),
// distinct hits, events, the largest Lyapunov exponent (NaN when not asked),
// done; and its failures.
py::dict map_dict(const studies::MapResult& r, const studies::MapSpec& spec) {
  const auto ny = static_cast<py::ssize_t>(r.y.size()), nx = static_cast<py::ssize_t>(r.x.size());
  py::array_t<int> period({ny, nx}), distinct({ny, nx}), events({ny, nx});
  py::array_t<double> lyapunov({ny, nx});
  py::array_t<bool> done({ny, nx});
  py::list classes, failures;
  for (py::ssize_t j = 0; j < ny; ++j) {
    py::list row;
    for (py::ssize_t i = 0; i < nx; ++i) {
      const auto k = static_cast<std::size_t>(j * nx + i);
      const studies::MapPoint& p = r.points[k];
      const bool failed = !p.settled.failure.empty();
      const std::string c = r.done[k] ? studies::map_class(p.distinct, failed, spec.max_period) : "";
      row.append(c);
      period.mutable_at(j, i) = c.rfind("period-", 0) == 0 ? p.distinct : 0;
      distinct.mutable_at(j, i) = p.distinct;
      events.mutable_at(j, i) = p.settled.events;
      lyapunov.mutable_at(j, i) = p.lyapunov;
      done.mutable_at(j, i) = r.done[k];
      if (failed)
        failures.append(py::dict(py::arg("x") = r.x[i], py::arg("y") = r.y[j], py::arg("message") = p.settled.failure));
    }
    classes.append(row);
  }
  py::dict d;
  d["x_parameter"] = spec.x.label();
  d["y_parameter"] = spec.y.label();
  d["x"] = array_of(r.x);
  d["y"] = array_of(r.y);
  d["classes"] = classes;
  d["period"] = period;
  d["distinct_hits"] = distinct;
  d["events"] = events;
  d["lyapunov"] = lyapunov;
  d["done"] = done;
  d["max_period"] = spec.max_period;
  d["failures"] = failures;
  d["interrupted"] = r.interrupted;
  return d;
}

// A simulation as arrays: "t", "mode" and one per state component; its
// events and section hits as dicts; its status and message.
py::dict trajectory_dict(const flow::Trajectory& tr, const flow::HybridSystem& system) {
  const auto names = system.state_names();
  py::dict d;
  d["status"] = flow::to_string(tr.status);
  d["message"] = tr.message;
  d["ok"] = tr.ok();
  d["t"] = array_of(tr.t);
  d["mode"] = py::array_t<int>(static_cast<py::ssize_t>(tr.mode.size()), tr.mode.data());
  for (std::size_t j = 0; j < names.size(); ++j) {
    std::vector<double> column(tr.x.size());
    for (std::size_t i = 0; i < tr.x.size(); ++i) column[i] = tr.x[i][static_cast<Eigen::Index>(j)];
    d[py::str(names[j])] = array_of(column);
  }
  const auto state = [&names](const Vector& x) {
    py::dict s;
    for (std::size_t j = 0; j < names.size(); ++j) s[py::str(names[j])] = x[static_cast<Eigen::Index>(j)];
    return s;
  };
  py::list events;
  for (const auto& e : tr.events)
    events.append(py::dict(py::arg("t") = e.t, py::arg("guard") = e.guard_name,
                           py::arg("mode_before") = system.mode_name(e.mode_before),
                           py::arg("mode_after") = system.mode_name(e.mode_after),
                           py::arg("before") = state(e.x_before), py::arg("after") = state(e.x_after)));
  d["events"] = events;
  py::list hits;
  for (const auto& h : tr.section_hits)
    hits.append(py::dict(py::arg("t") = h.t, py::arg("mode") = system.mode_name(h.mode), py::arg("state") = state(h.x)));
  d["section_hits"] = hits;
  return d;
}

}  // namespace

PYBIND11_MODULE(_saltus, m) {
  m.doc() = "saltus: bifurcation analysis of smooth and non-smooth systems (compiled part)";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const studies::RunFileError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const studies::StudyError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const std::bad_alloc&) {
      PyErr_SetString(PyExc_MemoryError, "out of memory: the study asked for more than the machine has");
    }
  });

  py::class_<studies::RunFile, std::shared_ptr<studies::RunFile>>(m, "System")
      .def_property_readonly("name", [](const studies::RunFile& r) { return r.name; })
      .def_property_readonly("description", [](const studies::RunFile& r) { return r.description; })
      .def_property_readonly("source", [](const studies::RunFile& r) { return r.path.string(); })
      .def_property_readonly("unknowns", [](const studies::RunFile& r) { return r.system->state_names(); })
      .def_property_readonly("parameters",
                             [](const studies::RunFile& r) {
                               py::dict d;
                               const auto names = r.system->parameter_names();
                               for (std::size_t i = 0; i < names.size(); ++i)
                                 d[py::str(names[i])] = r.parameters[static_cast<Eigen::Index>(i)];
                               return d;
                             })
      .def_property_readonly("continuation_parameter",
                             [](const studies::RunFile& r) { return r.continuation_parameters.at(0); })
      .def_property_readonly("expressions",
                             [](const studies::RunFile& r) -> py::object {
                               if (!r.expressions) return py::none();
                               py::dict d;
                               d["evaluated"] = r.expressions->compiled ? "compiled" : "interpreted";
                               d["note"] = r.expressions->note;
                               return d;
                             })
      .def("__repr__", [](const studies::RunFile& r) { return "<saltus.System '" + r.name + "'>"; });
  m.def("wait_for_compiles", &models::wait_for_background_compiles,
        "Waits until the background compiles of run-file expressions this process started are done "
        "(models/compiled_block.h); returns how many there were.");

  m.def(
      "_load_path",
      [](const std::string& path) {
        return std::const_pointer_cast<studies::RunFile>(studies::load(std::filesystem::path(path)));
      },
      py::arg("path"));
  m.def(
      "_load_text",
      [](const std::string& text, const std::string& where) {
        return std::make_shared<studies::RunFile>(studies::parse_run_file(text, where));
      },
      py::arg("text"), py::arg("where"));

  m.def(
      "_restart",
      [](const studies::RunFile& system, const std::string& from, const std::string& point) {
        auto restarted = std::make_shared<studies::RunFile>(system);
        studies::prepare_restart(restarted.get(), from, point);
        return restarted;
      },
      py::arg("system"), py::arg("from_dir"), py::arg("point"));

  py::class_<studies::HybridRun, std::shared_ptr<studies::HybridRun>>(m, "HybridSystem")
      .def_property_readonly("name", [](const studies::HybridRun& r) { return r.name; })
      .def_property_readonly("description", [](const studies::HybridRun& r) { return r.description; })
      .def_property_readonly("source", [](const studies::HybridRun& r) { return r.path.string(); })
      .def_property_readonly("model", [](const studies::HybridRun& r) { return r.model; })
      .def_property_readonly("states", [](const studies::HybridRun& r) { return r.system->state_names(); })
      .def_property_readonly("parameters",
                             [](const studies::HybridRun& r) {
                               py::dict d;
                               for (const auto& p : r.system->parameters()) d[py::str(p.name)] = p.value;
                               return d;
                             })
      .def_property_readonly("continuation_parameter",
                             [](const studies::HybridRun& r) -> py::object {
                               if (!r.periodic || r.periodic->parameter.empty()) return py::none();
                               return py::str(r.periodic->parameter);
                             })
      .def("__repr__", [](const studies::HybridRun& r) { return "<saltus.HybridSystem '" + r.name + "'>"; });
  m.def(
      "_load_hybrid_path",
      [](const std::string& path) {
        return std::const_pointer_cast<studies::HybridRun>(studies::load_hybrid(std::filesystem::path(path)));
      },
      py::arg("path"));
  m.def(
      "_load_hybrid_text",
      [](const std::string& text, const std::string& where) {
        return std::const_pointer_cast<studies::HybridRun>(
            studies::load_hybrid_description(studies::parse_json(text, where), where));
      },
      py::arg("text"), py::arg("where"));
  m.def(
      "_simulate",
      [](std::shared_ptr<studies::HybridRun> run, bool transition_matrix, const std::string& out) {
        flow::Trajectory tr;
        std::vector<std::string> warnings;
        {
          py::gil_scoped_release release;
          tr = studies::simulate(*run, transition_matrix);
          if (!out.empty()) warnings = studies::write_trajectory(*run, tr, out);
        }
        py::dict d = trajectory_dict(tr, *run->system);
        d["warnings"] = warnings;
        if (transition_matrix) {
          const Matrix& phi = tr.transition_matrix;
          py::array_t<double> a({phi.rows(), phi.cols()});
          for (Eigen::Index i = 0; i < phi.rows(); ++i)
            for (Eigen::Index j = 0; j < phi.cols(); ++j) a.mutable_at(i, j) = phi(i, j);
          d["transition_matrix"] = a;
        }
        return d;
      },
      py::arg("system"), py::arg("transition_matrix") = false, py::arg("out") = "");
  m.def(
      "_sweep",
      [](std::shared_ptr<studies::HybridRun> run, py::object progress, const std::string& out, bool resume) {
        check_sweep_names(*run->system);
        return observed_grid(
            std::move(progress), out, resume,
            [&](const studies::GridControl& c) { return studies::sweep(*run, c); },
            [&](const auto& r) {
              std::vector<std::string> warnings;
              if (!out.empty()) {
                py::gil_scoped_release release;
                warnings = studies::write_sweep(*run, r, out);
                if (!r.interrupted) studies::remove_journal(out, "sweep");
              }
              for (const auto& w : warnings)  // a figure gnuplot could not draw
                py::module_::import("warnings").attr("warn")(w, py::module_::import("builtins").attr("UserWarning"), 3);
              return sweep_dict(r, *run->system);
            });
      },
      py::arg("system"), py::arg("progress") = py::none(), py::arg("out") = "", py::arg("resume") = false);
  m.def(
      "_attractor_map",
      [](std::shared_ptr<studies::HybridRun> run, py::object progress, const std::string& out, bool resume) {
        return observed_grid(
            std::move(progress), out, resume,
            [&](const studies::GridControl& c) { return studies::attractor_map(*run, c); },
            [&](const auto& r) {
              std::vector<std::string> warnings;
              if (!out.empty()) {
                py::gil_scoped_release release;
                warnings = studies::write_map(*run, r, out);
                if (!r.interrupted) studies::remove_journal(out, "map");
              }
              for (const auto& w : warnings)  // a figure gnuplot could not draw
                py::module_::import("warnings").attr("warn")(w, py::module_::import("builtins").attr("UserWarning"), 3);
              return map_dict(r, *run->map);
            });
      },
      py::arg("system"), py::arg("progress") = py::none(), py::arg("out") = "", py::arg("resume") = false);
  m.def(
      "_lyapunov",
      [](std::shared_ptr<studies::HybridRun> run, const std::string& out) {
        flow::LyapunovResult r;
        std::vector<std::string> warnings;
        {
          py::gil_scoped_release release;
          r = studies::lyapunov(*run);
          if (!out.empty()) warnings = studies::write_lyapunov(*run, r, out);
        }
        py::dict d;
        d["warnings"] = warnings;
        d["status"] = flow::to_string(r.status);
        d["message"] = r.message;
        d["ok"] = r.ok();
        d["exponents"] = array_of(std::vector<double>(r.exponents.data(), r.exponents.data() + r.exponents.size()));
        d["time"] = r.time;
        d["events"] = r.events;
        d["contraction"] = r.time > 0 ? r.contraction() : std::numeric_limits<double>::quiet_NaN();
        d["collapsed_intervals"] = r.collapsed;
        d["times"] = array_of(r.times);
        py::list running;
        for (const auto& v : r.running) running.append(array_of(std::vector<double>(v.data(), v.data() + v.size())));
        d["running"] = running;
        return d;
      },
      py::arg("system"), py::arg("out") = "");
  m.def(
      "_find_orbit",
      [](std::shared_ptr<studies::HybridRun> run, py::object progress) {
        return observed(std::move(progress), [&](const studies::Progress& p) { return studies::find_orbit(run, p); });
      },
      py::arg("system"), py::arg("progress") = py::none());
  m.def(
      "_continue_orbits",
      [](const BranchResult& orbit, py::object progress) {
        return observed(std::move(progress), [&](const studies::Progress& p) { return studies::continue_orbits(orbit, p); });
      },
      py::arg("orbit"), py::arg("progress") = py::none());

  python::bind_contact(m);
  python::bind_two_fold(m);

  py::class_<BranchResult>(m, "Branch")
      .def_readonly("name", &BranchResult::name)
      .def_property_readonly("kind", [](const BranchResult& r) { return studies::to_string(r.kind); })
      .def_property_readonly("stop_reason", &stop_reason)
      .def_property_readonly("message", [](const BranchResult& r) { return r.branch.message; })
      .def_property_readonly("usable", [](const BranchResult& r) { return r.branch.usable(); })
      .def_property_readonly("interrupted",
                             [](const BranchResult& r) { return r.branch.stop_reason == StopReason::kCallback; })
      .def_readonly("started_from", &BranchResult::started_from)
      .def_readonly("curve_parameters", &BranchResult::parameters)
      .def_property_readonly("columns", [](const BranchResult& r) { return r.branch.names; })
      .def_property_readonly("state_size", [](const BranchResult& r) { return r.branch.state_size; })
      .def_property_readonly("array", [](const BranchResult& r) { return points_array(r.branch); })
      .def_property_readonly("test_names", [](const BranchResult& r) { return r.branch.test_names; })
      .def_readonly("sequences", &BranchResult::sequences)
      .def_property_readonly("info", [](const BranchResult& r) { return to_python(r.info); })
      .def_property_readonly("parameters",
                             [](const BranchResult& r) {
                               py::dict d;
                               for (std::size_t i = 0; i < r.branch.parameter_names.size(); ++i)
                                 d[py::str(r.branch.parameter_names[i])] =
                                     r.branch.parameters[static_cast<Eigen::Index>(i)];
                               return d;
                             })
      .def("__len__", [](const BranchResult& r) { return r.branch.points.size(); })
      .def("_column",
           [](const BranchResult& r, const std::string& name) {
             std::vector<double> v(r.branch.points.size());
             for (std::size_t i = 0; i < v.size(); ++i) v[i] = r.branch.component(r.branch.points[i].y, name);
             return py::array_t<double>(static_cast<py::ssize_t>(v.size()), v.data());
           })
      .def("_stability",
           [](const BranchResult& r) -> py::object {
             std::vector<std::optional<bool>> s(r.branch.points.size());
             {
               py::gil_scoped_release release;
               for (std::size_t i = 0; i < s.size(); ++i) s[i] = studies::stable_at(r, r.branch.points[i]);
             }
             py::list out;
             for (const auto& v : s) out.append(v ? py::cast(*v) : py::none());
             return out;
           })
      .def("_special_points",
           [](const BranchResult& r) {
             py::list out;
             for (const auto& s : r.branch.special_points) out.append(special_point_dict(r, s));
             return out;
           })
      .def("_eigenvalues",
           [](const BranchResult& r) {
             py::list out;
             for (const auto& p : r.branch.points) {
               std::vector<std::complex<double>> e(p.eigenvalues.data(), p.eigenvalues.data() + p.eigenvalues.size());
               out.append(py::array_t<std::complex<double>>(static_cast<py::ssize_t>(e.size()), e.data()));
             }
             return out;
           })
      .def("_multipliers",
           [](const BranchResult& r, int index) {
             if (index < 0 || index >= static_cast<int>(r.branch.points.size()))
               throw studies::StudyError("point index " + std::to_string(index) + " is outside 0.." +
                                         std::to_string(static_cast<int>(r.branch.points.size()) - 1));
             Eigen::VectorXcd mu;
             {
               py::gil_scoped_release release;
               mu = studies::multipliers(r, r.branch.points[index].y);
             }
             std::vector<std::complex<double>> v(mu.data(), mu.data() + mu.size());
             return py::array_t<std::complex<double>>(static_cast<py::ssize_t>(v.size()), v.data());
           })
      .def("_orbit",
           [](const BranchResult& r, int index, int samples) {
             if (index < 0 || index >= static_cast<int>(r.branch.points.size()))
               throw studies::StudyError("point index " + std::to_string(index) + " is outside the branch");
             return orbit_of(r, r.branch.points[index].y, samples);
           })
      .def("_orbit_at_special",
           [](const BranchResult& r, int k, int samples) {
             return orbit_of(r, r.branch.special_points.at(k).y, samples);
           })
      .def("_summary", [](const BranchResult& r) { return to_python(studies::summary(r)); })
      .def("_csv", [](const BranchResult& r) {
        std::ostringstream out;
        r.branch.write_csv(out);
        return out.str();
      });

  m.def(
      "_write",
      [](const std::vector<BranchResult>& branches, const std::string& folder) {
        if (branches.empty()) throw studies::StudyError("saltus.write: no branches to write");
        const BranchResult& first = branches.front();
        std::vector<std::string> warnings, files;
        if (first.hybrid && first.shooting) {  // a hybrid orbit and its branch: `saltus periodic`'s files
          if (branches.size() > 1)
            throw studies::StudyError("saltus.write: give a hybrid orbit's branch alone (its curves are not written)");
          {
            py::gil_scoped_release release;
            const studies::HybridRun& run = *first.hybrid;
            const studies::OrbitView view = studies::orbit_view(run, first);
            studies::Json summary = studies::orbit_summary(run, view, first);
            const std::filesystem::path dir(folder);
            std::filesystem::create_directories(dir);
            warnings = studies::draw_orbit(run, first, dir);
            if (first.branch.points.size() > 1)
              for (auto& w : studies::write_orbit_branch(run, view, first, {}, dir, &summary)) warnings.push_back(w);
            studies::write_file_atomically(dir / "summary.json",
                                           [&](std::ostream& o) { o << summary.dump(2) << '\n'; });
            for (const auto& entry : std::filesystem::directory_iterator(dir)) files.push_back(entry.path().string());
          }
          return py::make_tuple(files, warnings);
        }
        if (!first.run)
          throw studies::StudyError("saltus.write: branch '" + first.name + "' is not of a run file's study");
        {
          py::gil_scoped_release release;
          for (const auto& f : studies::write_outputs(*first.run, branches, folder, &warnings)) files.push_back(f.string());
        }
        return py::make_tuple(files, warnings);
      },
      py::arg("branches"), py::arg("folder"));
  m.def(
      "_continuation",
      [](std::shared_ptr<studies::RunFile> run, py::object progress) {
        return observed(std::move(progress), [&](const studies::Progress& p) { return studies::continue_run(run, p); });
      },
      py::arg("system"), py::arg("progress") = py::none());
  m.def(
      "_follow_ups",
      [](const BranchResult& first, py::object progress) {
        Observer observer(std::move(progress));
        std::vector<BranchResult> branches{first};
        {
          py::gil_scoped_release release;
          studies::continue_run_follow_ups(&branches, observer.progress());
        }
        for (auto& b : branches) observer.finish(&b);
        branches.erase(branches.begin());
        return branches;
      },
      py::arg("first"), py::arg("progress") = py::none());
  m.def(
      "_continue_from",
      [](const BranchResult& from, py::object point, const std::string& to, const std::vector<std::string>& parameters,
         py::object options, double amplitude, const std::string& name, py::object progress) {
        const SpecialPoint* sp = nullptr;
        if (py::isinstance<py::str>(point)) {
          sp = &studies::special_point(from, point.cast<std::string>());
        } else {
          const int k = point.cast<int>();
          if (k < 0 || k >= static_cast<int>(from.branch.special_points.size()))
            throw studies::StudyError("special point " + std::to_string(k) + " is outside the branch's " +
                                      std::to_string(from.branch.special_points.size()));
          sp = &from.branch.special_points[k];
        }
        const studies::FromOptions o = from_options(from, to, parameters, options, amplitude, name);
        return observed(std::move(progress), [&](const studies::Progress& p) { return studies::continue_from(from, *sp, o, p); });
      },
      py::arg("branch"), py::arg("point"), py::arg("to") = "", py::arg("parameters") = std::vector<std::string>{},
      py::arg("options") = py::none(), py::arg("amplitude") = 0.01, py::arg("name") = "",
      py::arg("progress") = py::none());
}
