// The Filippov studies of saltus._saltus (studies/filippov_study.h,
// studies/two_fold_study.h): a two-fold located and classified, the map of
// Szalai & Jeffrey's Fig. 4, the futures of Fig. 5 and the two-fold's
// continuation in one constant, each as a dict with its arrays. Every call
// takes a run file's path, or the JSON text of a description with the name
// `where` gives it in errors.

#include <atomic>

#include <pybind11/stl.h>

#include "python/convert.h"
#include "python/interruptible.h"
#include "studies/two_fold_study.h"

namespace saltus::python {

namespace {

studies::FilippovRun read(const std::string& source, const std::string& where) {
  return where.empty() ? studies::read_filippov_run(std::filesystem::path(source))
                       : studies::parse_filippov_run(studies::parse_json(source, where), where);
}

// A flow segment's samples: {"kind", "t": (n,), "x": (n, states)}.
py::dict segment_dict(const FlowSegment& s) {
  const auto n = static_cast<py::ssize_t>(s.t.size());
  const auto dim = static_cast<py::ssize_t>(s.x.empty() ? 0 : s.x.front().size());
  py::array_t<double> x({n, dim});
  auto m = x.mutable_unchecked<2>();
  for (py::ssize_t i = 0; i < n; ++i)
    for (py::ssize_t j = 0; j < dim; ++j) m(i, j) = s.x[static_cast<std::size_t>(i)][j];
  py::dict d;
  d["kind"] = segment_name(s.kind);
  d["t"] = py::array_t<double>(n, s.t.data());
  d["x"] = x;
  return d;
}

// map.csv's numeric columns as arrays (r index inner, omega outer).
py::dict grid_columns(const TwoFoldMap& map) {
  const auto n = static_cast<py::ssize_t>(map.points.size());
  const char* names[] = {"r", "omega", "designed", "exists", "kappa", "k2", "case1", "case_code"};
  std::vector<py::array_t<double>> columns;
  for (std::size_t c = 0; c < std::size(names); ++c) columns.emplace_back(n);
  for (py::ssize_t i = 0; i < n; ++i) {
    const TwoFoldMapPoint& p = map.points[static_cast<std::size_t>(i)];
    const double row[] = {p.r,     p.omega, double(p.designed), double(p.exists),
                          p.kappa, p.k2,    double(p.case1),    double(case_code(p))};
    for (std::size_t c = 0; c < std::size(names); ++c) columns[c].mutable_at(i) = row[c];
  }
  py::dict d;
  for (std::size_t c = 0; c < std::size(names); ++c) d[names[c]] = columns[c];
  d["shape"] = py::make_tuple(map.options.omega_steps, map.options.r_steps);
  return d;
}

}  // namespace

void bind_two_fold(py::module_& m) {
  m.def(
      "_two_fold",
      [](const std::string& source, const std::string& where) {
        const studies::FilippovRun run = read(source, where);
        studies::Json j;
        {
          py::gil_scoped_release release;
          const TwoFoldResult result = studies::two_fold(run);
          if (const std::string why = studies::two_fold_failure(run, result); !why.empty()) {
            j = {{"name", run.name}, {"located", false}, {"message", why}};
          } else {
            j = studies::two_fold_json(run, result);
            j["located"] = true;
          }
        }
        return to_python(j);
      },
      py::arg("source"), py::arg("where") = "");
  m.def(
      "_two_fold_map",
      [](const std::string& source, const std::string& where, int threads) {
        const studies::FilippovRun run = read(source, where);
        TwoFoldMapOptions options = studies::two_fold_map_options(run, threads);
        std::atomic<bool> stop{false};
        options.stop_requested = [&stop] { return stop.load(); };
        const studies::TwoFoldMapStudy s =
            interruptible([&] { return studies::two_fold_map(run, options); }, [&] { stop = true; });
        py::dict d = to_python(s.summary);
        d["cells"] = grid_columns(s.map);
        return d;
      },
      py::arg("source"), py::arg("where") = "", py::arg("threads") = 0);
  m.def(
      "_two_fold_futures",
      [](const std::string& source, const std::string& where, int samples) {
        const studies::FilippovRun run = read(source, where);
        const FuturesOptions options = studies::futures_options(run, samples);
        studies::FuturesStudy s;
        std::string failure;
        {
          py::gil_scoped_release release;
          try {
            s = studies::two_fold_futures(run, options);
          } catch (const studies::StudyError& e) {  // not located, not case 1: a result, not an error
            failure = e.what();
          }
        }
        if (!failure.empty()) return py::dict(py::arg("name") = run.name, py::arg("ok") = false, py::arg("message") = failure);
        py::dict d = to_python(s.summary);
        d["ok"] = true;
        d["states"] = run.states;
        py::list approaches, futures;
        for (std::size_t i = 0; i < s.result.approaches.size(); ++i) {
          py::dict a = py::list(d["approaches"])[i];
          a["path"] = segment_dict(s.result.approaches[i].path);
          approaches.append(a);
        }
        for (std::size_t i = 0; i < s.result.futures.size(); ++i) {
          py::dict f = py::list(d["futures"])[i];
          py::list segments;
          for (const auto& seg : s.result.futures[i].segments) segments.append(segment_dict(seg));
          f["segments"] = segments;
          futures.append(f);
        }
        d["approaches"] = approaches;
        d["futures"] = futures;
        const studies::SigmaAxes axes = studies::sigma_axes(run, s.gradient);
        d["axes"] = py::make_tuple(run.states[axes.ix], run.states[axes.iy], run.states[axes.iz]);
        return d;
      },
      py::arg("source"), py::arg("where") = "", py::arg("samples") = 0);
  m.def(
      "_two_fold_continuation",
      [](const std::string& source, const std::string& where) {
        const studies::FilippovRun run = read(source, where);
        TwoFoldContinuationOptions options = studies::two_fold_continuation_options(run);
        std::atomic<bool> stop{false};
        options.continuation.callback = [&stop](const Branch&) { return !stop; };
        TwoFoldContinuation c;
        std::string failure;
        interruptible(
            [&] {
              try {
                c = studies::continue_two_fold(run, options);
              } catch (const studies::StudyError& e) {  // the start not located: a result, not an error
                failure = e.what();
              }
              return 0;
            },
            [&] { stop = true; });
        if (!failure.empty()) return py::dict(py::arg("name") = run.name, py::arg("ok") = false, py::arg("message") = failure);
        py::dict d = to_python(studies::two_fold_continuation_json(run, c));
        d["ok"] = true;
        if (c.branch.stop_reason == StopReason::kCallback) d["interrupted"] = true;
        py::dict columns;
        const py::array_t<double> a = points_array(c.branch);
        for (std::size_t j = 0; j < c.branch.names.size(); ++j)
          columns[py::str(c.branch.names[j])] =
              a[py::make_tuple(py::slice(py::none(), py::none(), py::none()), static_cast<py::ssize_t>(j))];
        d["columns"] = columns;
        d["cases"] = c.cases;
        return d;
      },
      py::arg("source"), py::arg("where") = "");
}

}  // namespace saltus::python
