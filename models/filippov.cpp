#include "models/filippov.h"

#include <sstream>

namespace saltus::filippov {

std::string Options::check() const {
  std::ostringstream msg;
  if (!(gradient_tolerance >= 0.0))
    msg << "gradient_tolerance = " << gradient_tolerance << " must be >= 0";
  else if (!(surface_tolerance >= 0.0))
    msg << "surface_tolerance = " << surface_tolerance << " must be >= 0 (infinity to skip the check)";
  else if (!(tangency_tolerance >= 0.0 && tangency_tolerance < 1.0))
    msg << "tangency_tolerance = " << tangency_tolerance << " must be in [0, 1) (a sine)";
  else if (max_projection_iterations < 1)
    msg << "max_projection_iterations = " << max_projection_iterations << " must be >= 1";
  return msg.str();
}

std::string region_name(Region region) {
  switch (region) {
    case Region::kCrossing:
      return "crossing";
    case Region::kSliding:
      return "sliding";
    case Region::kEscaping:
      return "escaping";
    case Region::kTangentPlus:
      return "tangent+";
    case Region::kTangentMinus:
      return "tangent-";
    case Region::kTwoFold:
      return "two-fold";
  }
  return "unknown";
}

namespace detail {

std::string format_point(const Vector& x) {
  std::ostringstream out;
  out.precision(17);
  out << "(";
  for (int i = 0; i < x.size(); ++i) out << (i ? ", " : "") << x[i];
  out << ")";
  return out.str();
}

namespace {

// What the library was doing, in the user's terms (the messages reach a run
// file's author: no C++ names).
std::string doing(const char* where) {
  const std::string w = where;
  if (w == "classify") return "classifying a point of the switching surface h = 0";
  if (w == "equivalent_control") return "the sliding vector field (16) and its equivalent control (15)";
  if (w == "project_onto_surface") return "projecting onto the switching surface h = 0";
  if (w == "lie_gradient") return "the derivative of h_x . f along the surface";
  return "evaluating the Filippov system";
}

}  // namespace

void check_point(const Vector& x, int n, const char* where) {
  if (x.size() != n)
    throw std::invalid_argument("the point has " + std::to_string(x.size()) +
                                " components, the system's state " + std::to_string(n) + " (" + doing(where) +
                                ")");
  if (!x.allFinite())
    throw std::invalid_argument("the point " + format_point(x) + " is not finite (" + doing(where) + ")");
}

void require_regular(const Vector& x, const Vector& h_x, double tolerance, const char* where) {
  const double norm = h_x.norm();
  if (norm <= tolerance || !std::isfinite(norm)) {
    std::ostringstream msg;
    msg.precision(6);
    if (!std::isfinite(norm))
      msg << "the gradient h_x of the switching function is not finite at x = " << format_point(x) << " ("
          << doing(where) << "): h cannot be differentiated there, or its values overflow; check h and the "
          << "parameters";
    else
      msg << "the switching surface is not regular at x = " << format_point(x) << " (" << doing(where)
          << "): |h_x| = " << norm << " <= gradient_tolerance = " << tolerance
          << " (h = 0 is not a surface there; the regions (17)-(18) and the sliding field (16) are "
             "undefined)";
    throw std::invalid_argument(msg.str());
  }
}

SurfacePoint classify_values(const Vector& x, double h, const Vector& h_x, const Vector& f_plus,
                             const Vector& f_minus, double lie0, double lie_lambda, const Options& options) {
  if (!(std::abs(h) <= options.surface_tolerance)) {
    std::ostringstream msg;
    msg << "x = " << format_point(x) << " is not on the switching surface: |h(x)| = " << std::abs(h)
        << " > surface_tolerance = " << options.surface_tolerance;
    throw std::invalid_argument(msg.str());
  }
  SurfacePoint p;
  p.x = x;
  p.h = h;
  p.gradient = h_x;
  p.lie_plus = h_x.dot(f_plus);
  p.lie_minus = h_x.dot(f_minus);
  p.lie0 = lie0;
  p.lie_lambda = lie_lambda;
  if (lie_lambda != 0.0) p.lambda_eq = -lie0 / lie_lambda;
  const double norm = h_x.norm();
  const bool plus_tangent = std::abs(p.lie_plus) <= options.tangency_tolerance * norm * f_plus.norm();
  const bool minus_tangent = std::abs(p.lie_minus) <= options.tangency_tolerance * norm * f_minus.norm();
  if (plus_tangent && minus_tangent) {
    p.region = Region::kTwoFold;
  } else if (plus_tangent) {
    p.region = Region::kTangentPlus;
  } else if (minus_tangent) {
    p.region = Region::kTangentMinus;
  } else if (p.lie_plus < 0.0 && p.lie_minus > 0.0) {
    p.region = Region::kSliding;
  } else if (p.lie_plus > 0.0 && p.lie_minus < 0.0) {
    p.region = Region::kEscaping;
  } else {
    p.region = Region::kCrossing;
    p.direction = p.lie_plus > 0.0 ? +1 : -1;
  }
  return p;
}

}  // namespace detail

}  // namespace saltus::filippov
