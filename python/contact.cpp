// The contact-geometry studies of saltus._saltus (studies/contact_study.h,
// studies/contact_branches.h, Damerau & Low 2016): a ContactSystem from a
// contact run file, its degenerate point classified, the extremal points at
// a pose, and the contact points followed through pose space and along a
// motion, each as a dict with its arrays.

#include <atomic>

#include <pybind11/stl.h>

#include "python/convert.h"
#include "python/interruptible.h"
#include "studies/contact_branches.h"

namespace saltus::python {

namespace {

// Each branch as {"columns": {name: array}, "special_points": [...]} of Branch::summary().
py::list branches_list(const std::vector<Branch>& branches) {
  py::list list;
  for (const Branch& b : branches) {
    const py::array_t<double> a = points_array(b);
    py::dict columns;
    for (std::size_t j = 0; j < b.names.size(); ++j)
      columns[py::str(b.names[j])] =
          a[py::make_tuple(py::slice(py::none(), py::none(), py::none()), static_cast<py::ssize_t>(j))];
    py::dict d = to_python(b.summary());
    d["columns"] = columns;
    list.append(d);
  }
  return list;
}

}  // namespace

void bind_contact(py::module_& m) {
  py::class_<studies::ExtremalRun, std::shared_ptr<studies::ExtremalRun>>(m, "ContactSystem")
      .def_property_readonly("name", [](const studies::ExtremalRun& r) { return r.name; })
      .def_property_readonly("description", [](const studies::ExtremalRun& r) { return r.description; })
      .def_property_readonly("source", [](const studies::ExtremalRun& r) { return r.path.string(); })
      .def_property_readonly("point", [](const studies::ExtremalRun& r) { return to_python(studies::point_json(r.point)); })
      .def("__repr__", [](const studies::ExtremalRun& r) { return "<saltus.ContactSystem '" + r.name + "'>"; });
  m.def(
      "_load_contact_path",
      [](const std::string& path) {
        return std::make_shared<studies::ExtremalRun>(studies::read_extremal_run(std::filesystem::path(path)));
      },
      py::arg("path"));
  m.def(
      "_load_contact_text",
      [](const std::string& text, const std::string& where) {
        return std::make_shared<studies::ExtremalRun>(
            studies::parse_extremal_run(studies::parse_json(text, where), where));
      },
      py::arg("text"), py::arg("where"));
  m.def(
      "_classify",
      [](std::shared_ptr<studies::ExtremalRun> run) {
        studies::Json j;
        {
          py::gil_scoped_release release;
          j = studies::classification_json(*run, studies::classify(*run));
        }
        return to_python(j);
      },
      py::arg("system"));
  m.def(
      "_extremal_points",
      [](std::shared_ptr<studies::ExtremalRun> run, double x, double y, double phi, double box) {
        studies::Json j;
        {
          py::gil_scoped_release release;
          j = studies::extremal_points_json(*run, studies::extremal_points(*run, Eigen::Vector3d(x, y, phi), box));
        }
        return to_python(j);
      },
      py::arg("system"), py::arg("x"), py::arg("y"), py::arg("phi"), py::arg("box") = 0.0);

  m.def(
      "_contact_continuation",
      [](std::shared_ptr<studies::ExtremalRun> run) {
        std::atomic<bool> stop{false};
        const studies::ContactContinueStudy s = interruptible(
            [&] { return studies::continue_contact(*run, [&stop] { return stop.load(); }); }, [&] { stop = true; });
        py::dict d = to_python(s.summary);
        for (const auto* list : {&s.result.branches, &s.result.fold_curves, &s.result.cusp_curves})
          for (const Branch& b : *list)
            if (b.stop_reason == StopReason::kCallback) d["interrupted"] = true;
        // Beside the summary's "branches" (all of them, as the command line's):
        // each kind's branches with their arrays.
        d["branch_arrays"] = branches_list(s.result.branches);
        d["fold_curve_arrays"] = branches_list(s.result.fold_curves);
        d["cusp_curve_arrays"] = branches_list(s.result.cusp_curves);
        return d;
      },
      py::arg("system"));
  m.def(
      "_contact_track",
      [](std::shared_ptr<studies::ExtremalRun> run) {
        std::atomic<bool> stop{false};
        const studies::ContactTrackStudy s = interruptible(
            [&] { return studies::track_contact(*run, [&stop] { return stop.load(); }); }, [&] { stop = true; });
        py::dict d = to_python(s.summary);
        py::list pieces;
        for (const auto& piece : s.track.curves) {
          py::array_t<double> a({static_cast<py::ssize_t>(piece.size()), py::ssize_t{3}});
          auto v = a.mutable_unchecked<2>();
          for (std::size_t i = 0; i < piece.size(); ++i)
            for (int k = 0; k < 3; ++k) v(static_cast<py::ssize_t>(i), k) = piece[i][k];
          pieces.append(a);
        }
        d["pieces"] = pieces;
        return d;
      },
      py::arg("system"));
}

}  // namespace saltus::python
