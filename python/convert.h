#pragma once
// What the compiled module's files share: JSON values and branches as
// Python objects, and the bindings each file adds to the module.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "continuation/branch.h"
#include "studies/json_input.h"

namespace saltus::python {

namespace py = pybind11;

// A JSON value as a Python object, through the json module (exact for
// numbers: both sides are IEEE doubles printed to 17 digits).
inline py::object to_python(const studies::Json& j) {
  return py::module_::import("json").attr("loads")(j.dump());
}

// The branch's points as a (points x columns) array, columns Branch::names.
inline py::array_t<double> points_array(const Branch& b) {
  const auto rows = static_cast<py::ssize_t>(b.points.size());
  const auto cols = static_cast<py::ssize_t>(b.names.size());
  py::array_t<double> a({rows, cols});
  auto m = a.mutable_unchecked<2>();
  for (py::ssize_t i = 0; i < rows; ++i)
    for (py::ssize_t j = 0; j < cols; ++j) m(i, j) = b.points[i].y[j];
  return a;
}

// The Filippov (two-fold) studies (python/two_fold.cpp) and the contact
// geometry ones (python/contact.cpp).
void bind_two_fold(py::module_& m);
void bind_contact(py::module_& m);

}  // namespace saltus::python
