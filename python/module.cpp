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

#include <sstream>

#include "continuation/flow/simulate.h"
#include "studies/options_json.h"
#include "studies/study.h"

namespace py = pybind11;
using namespace saltus;
using studies::BranchResult;

namespace {

// A JSON value as a Python object, through the json module (exact for
// numbers: both sides are IEEE doubles printed to 17 digits).
py::object to_python(const studies::Json& j) { return py::module_::import("json").attr("loads")(j.dump()); }

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
          if (!e.matches(PyExc_KeyboardInterrupt)) {
            error_ = e.what();
            return stop(name);
          }
          return stop(name);
        }
      }
      return true;
    };
  }
  // Marks a result stopped by the observer, and rethrows a callback's error.
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

// The branch's points as a (points x components) array.
py::array_t<double> points_array(const Branch& b) {
  const auto rows = static_cast<py::ssize_t>(b.points.size());
  const auto cols = static_cast<py::ssize_t>(b.names.size());
  py::array_t<double> a({rows, cols});
  auto m = a.mutable_unchecked<2>();
  for (py::ssize_t i = 0; i < rows; ++i)
    for (py::ssize_t j = 0; j < cols; ++j) m(i, j) = b.points[i].y[j];
  return a;
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
    const double T = r.shooting->period(u);
    flow::SimulationOptions plain = r.shooting->options().simulation;
    plain.variational = false;
    plain.output_interval = T / samples;
    const double t0 = r.shooting->options().t0;
    traj = flow::simulate(*r.shooting->hybrid(), r.shooting->options().mode, t0, r.shooting->hybrid_state(u),
                          t0 + T, plain);
    names = r.shooting->hybrid()->state_names();
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
      .def("__repr__", [](const studies::RunFile& r) { return "<saltus.System '" + r.name + "'>"; });

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
      "_continuation",
      [](std::shared_ptr<studies::RunFile> run, py::object progress) {
        Observer observer(std::move(progress));
        BranchResult r;
        {
          py::gil_scoped_release release;
          r = studies::continue_run(run, observer.progress());
        }
        observer.finish(&r);
        return r;
      },
      py::arg("system"), py::arg("progress") = py::none());
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
        Observer observer(std::move(progress));
        BranchResult r;
        {
          py::gil_scoped_release release;
          r = studies::continue_from(from, *sp, o, observer.progress());
        }
        observer.finish(&r);
        return r;
      },
      py::arg("branch"), py::arg("point"), py::arg("to") = "", py::arg("parameters") = std::vector<std::string>{},
      py::arg("options") = py::none(), py::arg("amplitude") = 0.01, py::arg("name") = "",
      py::arg("progress") = py::none());
}
