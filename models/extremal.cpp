#include "models/extremal.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "continuation/newton.h"

namespace saltus::models {

Vector extremal_u(double s1, double s2, const Eigen::Vector3d& pose) {
  Vector u(5);
  u << s1, s2, pose[0], pose[1], pose[2];
  return u;
}

ExtremalGeometry extremal_geometry(const ExtremalProblem& problem, const Vector& u) {
  if (!problem.system || !problem.curve1 || !problem.curve2)
    throw std::invalid_argument(
        "extremal_geometry: the problem has no system or curves (use make_extremal_problem)");
  if (u.size() != 5)
    throw std::invalid_argument("extremal_geometry: u has " + std::to_string(u.size()) +
                                " components, expected 5 (s1, s2, x, y, phi)");
  const char* names[] = {"s1", "s2", "x", "y", "phi"};
  for (int i = 0; i < 5; ++i)
    if (!std::isfinite(u[i]))
      throw std::invalid_argument(std::string("the extremal-point unknown ") + names[i] + " = " +
                                  format_number(u[i]) + " is not finite");
  const PlanarCurve& curve1 = *problem.curve1;
  const PlanarCurve& curve2 = *problem.curve2;
  const double s1 = u[0], s2 = u[1], phi = u[4];
  ExtremalGeometry g;
  g.c1 = curve1.point(s1);
  g.t1 = curve1.tangent(s1);
  g.n1 = curve1.normal(s1);
  g.speed1 = curve1.speed(s1);
  g.kappa1 = curve1.curvature(s1);
  const Eigen::Matrix2d A = Eigen::Rotation2Dd(phi).toRotationMatrix();  // eq. (2)
  g.c2 = A * curve2.point(s2) + Eigen::Vector2d(u[2], u[3]);
  g.t2 = A * curve2.tangent(s2);
  g.n2 = A * curve2.normal(s2);
  g.speed2 = curve2.speed(s2);
  g.kappa2 = curve2.curvature(s2);
  g.d = (g.c2 - g.c1).dot(g.n1);
  g.epsilon = g.t1.dot(g.t2);

  problem.system->residual(u.data(), g.residual.data());
  Matrix J;
  problem.system->jacobian(u.data(), &J);
  g.jacobian = J;
  g.jacobian_arclength = J.leftCols<2>() * Eigen::Vector2d(1.0 / g.speed1, 1.0 / g.speed2).asDiagonal();
  const double eps = g.epsilon, nn = g.n1.dot(g.n2);
  g.jacobian_closed_form << -1.0 - g.kappa1 * g.d, eps, g.kappa1 * eps, -g.kappa2 * nn;  // eq. (8)
  g.det = J.leftCols<2>().determinant();
  g.det_arclength = g.jacobian_arclength.determinant();
  g.det_closed_form = g.jacobian_closed_form.determinant();
  g.det_eq10 = -g.kappa1 - g.kappa2 - g.kappa1 * g.kappa2 * g.d;
  g.trace_arclength = g.jacobian_arclength.trace();
  return g;
}

std::string ExtremalSearchOptions::check() const {
  auto bad = [](const std::string& field, double value, const std::string& why) {
    return field + " = " + format_number(value) + " " + why;
  };
  if (!std::isfinite(s1_centre)) return bad("s1_centre", s1_centre, "must be finite");
  if (!std::isfinite(s2_centre)) return bad("s2_centre", s2_centre, "must be finite");
  if (!(std::isfinite(half_width) && half_width > 0))
    return bad("half_width", half_width, "must be positive and finite");
  if (grid < 1 || grid > 10000) return "grid = " + std::to_string(grid) + " must be in 1..10000";
  if (max_iterations < 1) return "max_iterations = " + std::to_string(max_iterations) + " must be >= 1";
  if (!(residual_tolerance > 0)) return bad("residual_tolerance", residual_tolerance, "must be positive");
  if (!(step_tolerance > 0)) return bad("step_tolerance", step_tolerance, "must be positive");
  if (!(duplicate_tolerance > 0)) return bad("duplicate_tolerance", duplicate_tolerance, "must be positive");
  if (!(degenerate_tolerance >= 0)) return bad("degenerate_tolerance", degenerate_tolerance, "must be >= 0");
  return {};
}

namespace {

// |a - b| along one parameter, modulo the curve's period when it has one.
double parameter_distance(double a, double b, double period) {
  double delta = std::abs(a - b);
  if (period > 0) {
    delta = std::fmod(delta, period);
    delta = std::min(delta, period - delta);
  }
  return delta;
}

struct StartResult {
  bool converged = false;
  bool non_regular = false;
  Eigen::Vector2d s;
  double residual = 0;
  int iterations = 0;
};

// Damped Newton (continuation/newton.h) on f(s1, s2) at a fixed pose. A step
// is halved (up to 30 times) until |f|_inf decreases or falls below a
// thousandth of the tolerance; a start that leaves the box by more than its
// width, meets a singular Jacobian or a non-regular point is abandoned. A
// root where the residual is small enough is a root even when the step test
// fails (a degenerate root converges only linearly, or stalls at rounding).
StartResult newton(const System& system, const Eigen::Vector2d& start, const Eigen::Vector3d& pose,
                   const ExtremalSearchOptions& options) {
  StartResult result;
  auto at = [&pose](const Vector& s) { return extremal_u(s[0], s[1], pose); };
  const Eigen::Vector2d centre(options.s1_centre, options.s2_centre);
  saltus::NewtonProblem problem;
  problem.residual = [&](const Vector& s, Vector* f) {
    f->resize(2);
    system.residual(at(s).data(), f->data());
  };
  problem.jacobian = [&](const Vector& s, Matrix* J) { *J = system.jacobian(at(s)).leftCols<2>(); };
  problem.solve = [](const Matrix& J, const Vector& f, Vector* ds) {
    const Eigen::Matrix2d Js = J;
    if (!Js.allFinite() || Js.determinant() == 0.0) return false;
    *ds = Js.partialPivLu().solve(Eigen::Vector2d(f));
    return true;
  };
  problem.admissible = [&](const Vector& s) {
    return !((s - centre).cwiseAbs().array() > 3.0 * options.half_width).any();
  };
  NewtonOptions settings;
  settings.max_iterations = options.max_iterations;
  settings.residual_tolerance = options.residual_tolerance;
  settings.step_tolerance = options.step_tolerance;
  settings.accept_residual = options.residual_tolerance * 1e-3;
  try {
    const saltus::NewtonResult r = damped_newton(problem, start, settings);
    if (r.status == NewtonStatus::kSingular || r.status == NewtonStatus::kLeftDomain) return result;
    result.converged = r.residual <= options.residual_tolerance;
    result.s = r.x;
    result.residual = r.residual;
    // A step that found no decrease counts as an iteration too.
    result.iterations = r.iterations + (r.status == NewtonStatus::kNoDescent ? 1 : 0);
  } catch (const std::invalid_argument&) {
    result.non_regular = true;  // the iterate met a non-regular point of a curve
    result.converged = false;
  }
  return result;
}

}  // namespace

ExtremalPoints find_extremal_points(const ExtremalProblem& problem, const Eigen::Vector3d& pose,
                                    const ExtremalSearchOptions& options) {
  if (const std::string why = options.check(); !why.empty())
    throw std::invalid_argument("extremal-point search options: " + why);
  if (!problem.system || !problem.curve1 || !problem.curve2)
    throw std::invalid_argument(
        "find_extremal_points: the problem has no system or curves (use make_extremal_problem)");
  const char* names[] = {"x", "y", "phi"};
  for (int i = 0; i < 3; ++i)
    if (!std::isfinite(pose[i]))
      throw std::invalid_argument(std::string("the pose ") + names[i] + " = " + format_number(pose[i]) +
                                  " is not finite");

  ExtremalPoints out;
  out.pose = pose;
  out.options = options;
  const double H = options.half_width;
  const double cell = 2.0 * H / options.grid;
  const double box_slack = 1e-12 * std::max(1.0, H);
  const double period1 = problem.curve1->period(), period2 = problem.curve2->period();
  std::vector<StartResult> roots;
  for (int i = 0; i < options.grid; ++i) {
    for (int j = 0; j < options.grid; ++j) {
      const Eigen::Vector2d start(options.s1_centre - H + (i + 0.5) * cell,
                                  options.s2_centre - H + (j + 0.5) * cell);
      ++out.starts;
      const StartResult r = newton(*problem.system, start, pose, options);
      if (r.non_regular) ++out.non_regular;
      if (!r.converged) continue;
      if (std::abs(r.s[0] - options.s1_centre) > H + box_slack ||
          std::abs(r.s[1] - options.s2_centre) > H + box_slack)
        continue;
      ++out.converged;
      auto same = std::find_if(roots.begin(), roots.end(), [&](const StartResult& other) {
        return parameter_distance(r.s[0], other.s[0], period1) <= options.duplicate_tolerance &&
               parameter_distance(r.s[1], other.s[1], period2) <= options.duplicate_tolerance;
      });
      if (same == roots.end())
        roots.push_back(r);
      else if (r.residual < same->residual)
        *same = r;
    }
  }
  std::sort(roots.begin(), roots.end(), [](const StartResult& a, const StartResult& b) {
    return a.s[0] != b.s[0] ? a.s[0] < b.s[0] : a.s[1] < b.s[1];
  });
  for (const StartResult& r : roots) {
    ExtremalPoint p;
    p.s1 = r.s[0];
    p.s2 = r.s[1];
    p.iterations = r.iterations;
    p.geometry = extremal_geometry(problem, extremal_u(p.s1, p.s2, pose));
    p.residual = p.geometry.residual.lpNorm<Eigen::Infinity>();
    if (!(p.residual <= options.residual_tolerance)) continue;  // verification of the reported point
    p.degenerate = std::abs(p.geometry.det_arclength) <= options.degenerate_tolerance;
    if (p.geometry.opposing()) ++out.opposing_count;
    out.solutions.push_back(p);
  }
  out.count = static_cast<int>(out.solutions.size());
  std::ostringstream message;
  message << out.count << " extremal point" << (out.count == 1 ? "" : "s") << " (" << out.opposing_count
          << " opposing) in |s1 - " << format_number(options.s1_centre) << "| <= " << format_number(H)
          << ", |s2 - " << format_number(options.s2_centre) << "| <= " << format_number(H) << " from "
          << out.starts << " Newton starts (" << out.converged << " converged inside the box";
  if (out.non_regular > 0) message << ", " << out.non_regular << " stopped at non-regular points";
  message << ")";
  out.message = message.str();
  return out;
}

}  // namespace saltus::models
