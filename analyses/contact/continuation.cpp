#include "analyses/contact/continuation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

#include "continuation/newton.h"
#include "continuation/pseudo_arclength.h"
#include "testfunctions/fold.h"

namespace saltus {

namespace {

const char* const kPoseNames[] = {"x", "y", "phi"};

void require_problem(const models::ExtremalProblem& problem, const char* where) {
  if (!problem.system || !problem.degeneracy)
    throw std::invalid_argument(
        std::string(where) + ": the problem has no system or degeneracy scalars (use make_extremal_problem)");
}

// Index of a pose parameter in u = (s1, s2, x, y, phi); throws naming it.
int pose_index(const std::string& name, const char* where) {
  for (int i = 0; i < 3; ++i)
    if (name == kPoseNames[i]) return 2 + i;
  throw std::invalid_argument(std::string(where) + ": unknown pose parameter '" + name +
                              "'; use one of x, y, phi");
}

Vector to_vector(const std::array<double, 5>& a) { return Eigen::Map<const Vector>(a.data(), 5); }
std::array<double, 5> to_array(const Vector& u) {
  std::array<double, 5> a{};
  for (int i = 0; i < 5; ++i) a[i] = u[i];
  return a;
}

void check_point(const std::array<double, 5>& point, const char* where) {
  const char* names[] = {"s1", "s2", "x", "y", "phi"};
  for (int i = 0; i < 5; ++i)
    if (!std::isfinite(point[i]))
      throw std::invalid_argument(std::string(where) + ": " + names[i] + " = " + std::to_string(point[i]) +
                                  " is not finite");
}

}  // namespace

ExtremalDegeneracyFunction::ExtremalDegeneracyFunction(
    std::shared_ptr<const models::ExtremalDegeneracy> degeneracy, int which)
    : degeneracy_(std::move(degeneracy)), which_(which) {
  if (!degeneracy_) throw std::invalid_argument("ExtremalDegeneracyFunction: no degeneracy scalars");
  if (which < 0 || which > 1)
    throw std::invalid_argument("ExtremalDegeneracyFunction: which = " + std::to_string(which) +
                                " must be 0 (det) or 1 (c2)");
}

double ExtremalDegeneracyFunction::evaluate(const System&, const Vector& u, Vector* gradient) const {
  if (!gradient) return degeneracy_->evaluate(u)[which_];
  Eigen::Matrix<double, 3, 5> g;
  const Eigen::Vector3d values = degeneracy_->evaluate(u, &g);
  *gradient = g.row(which_).transpose();
  return values[which_];
}

ExtremalDegeneracyTest::ExtremalDegeneracyTest(std::shared_ptr<const models::ExtremalDegeneracy> degeneracy,
                                               int which)
    : degeneracy_(std::move(degeneracy)), which_(which) {
  if (!degeneracy_) throw std::invalid_argument("ExtremalDegeneracyTest: no degeneracy scalars");
  if (which < 1 || which > 2)
    throw std::invalid_argument("ExtremalDegeneracyTest: which = " + std::to_string(which) +
                                " must be 1 (CP) or 2 (SW)");
}

double ExtremalDegeneracyTest::value(const PointContext& point) const {
  return degeneracy_->evaluate(point.problem.u(point.y))[which_];
}

std::string ContactContinuationOptions::check() const {
  for (const auto& [name, o] : {std::pair<const char*, const ContinuationOptions*>{"branch", &branch},
                                {"fold_curve", &fold_curve},
                                {"cusp_curve", &cusp_curve}})
    if (const std::string why = o->check(); !why.empty()) return std::string(name) + "." + why;
  if (const std::string why = classification.check(); !why.empty()) return "classification." + why;
  if (polish_iterations < 0)
    return "polish_iterations = " + std::to_string(polish_iterations) + " must be >= 0";
  if (!(polish_tolerance > 0))
    return "polish_tolerance = " + std::to_string(polish_tolerance) + " must be positive";
  if (!(duplicate_tolerance > 0))
    return "duplicate_tolerance = " + std::to_string(duplicate_tolerance) + " must be positive";
  return {};
}

Branch extremal_branch(const models::ExtremalProblem& problem, const std::array<double, 5>& start,
                       const std::string& parameter, const ContinuationOptions& options) {
  require_problem(problem, "extremal_branch");
  check_point(start, "extremal_branch");
  pose_index(parameter, "extremal_branch");
  const Vector u = to_vector(start);
  ContinuationProblem cp(problem.system, u.tail(3), {parameter});
  return continue_branch(cp, cp.y(u), options, {std::make_shared<FoldTest>()});
}

Branch extremal_fold_curve(const models::ExtremalProblem& problem, const std::array<double, 5>& fold,
                           const std::array<std::string, 2>& parameters, const ContinuationOptions& options) {
  require_problem(problem, "extremal_fold_curve");
  check_point(fold, "extremal_fold_curve");
  if (pose_index(parameters[0], "extremal_fold_curve") == pose_index(parameters[1], "extremal_fold_curve"))
    throw std::invalid_argument("extremal_fold_curve: the two parameters are both '" + parameters[0] +
                                "'; give two different ones of x, y, phi");
  const Vector u = to_vector(fold);
  ContinuationProblem cp(problem.system, u.tail(3), {parameters[0], parameters[1]},
                         {std::make_shared<ExtremalDegeneracyFunction>(problem.degeneracy, 0)});
  return continue_branch(cp, cp.y(u), options,
                         {std::make_shared<ExtremalDegeneracyTest>(problem.degeneracy, 1)});
}

Branch extremal_cusp_curve(const models::ExtremalProblem& problem, const std::array<double, 5>& cusp,
                           const ContinuationOptions& options) {
  require_problem(problem, "extremal_cusp_curve");
  check_point(cusp, "extremal_cusp_curve");
  const Vector u = to_vector(cusp);
  ContinuationProblem cp(problem.system, u.tail(3), {"x", "y", "phi"},
                         {std::make_shared<ExtremalDegeneracyFunction>(problem.degeneracy, 0),
                          std::make_shared<ExtremalDegeneracyFunction>(problem.degeneracy, 1)});
  return continue_branch(cp, cp.y(u), options,
                         {std::make_shared<ExtremalDegeneracyTest>(problem.degeneracy, 2)});
}

LocatedContactPoint refine_contact_point(const models::ExtremalProblem& problem, const std::string& type,
                                         const std::array<double, 5>& point,
                                         const std::vector<std::string>& free,
                                         const ContactContinuationOptions& options) {
  require_problem(problem, "refine_contact_point");
  check_point(point, "refine_contact_point");
  int extra = 0;  // the degeneracy scalars used: det; det, c2~; det, c2~, c3~
  if (type == "LP")
    extra = 1;
  else if (type == "CP")
    extra = 2;
  else if (type == "SW")
    extra = 3;
  else
    throw std::invalid_argument("refine_contact_point: type '" + type + "' is not one of LP, CP, SW");
  if (static_cast<int>(free.size()) != extra)
    throw std::invalid_argument("refine_contact_point: a " + type + " point needs " + std::to_string(extra) +
                                " free pose parameters, got " + std::to_string(free.size()));
  std::vector<int> columns{0, 1};
  for (const std::string& name : free) columns.push_back(pose_index(name, "refine_contact_point"));
  const int n = static_cast<int>(columns.size());  // = 2 + extra

  LocatedContactPoint out;
  out.type = type;
  out.located = point;
  Vector u = to_vector(point);
  // Residual and Jacobian of the square system (f, det, [c2~, [c3~]]) in the chosen columns.
  auto evaluate = [&](const Vector& at, Vector* r, Matrix* jac) {
    Eigen::Vector2d f;
    problem.system->residual(at.data(), f.data());
    Eigen::Matrix<double, 3, 5> g;
    const Eigen::Vector3d s = problem.degeneracy->evaluate(at, jac ? &g : nullptr);
    r->resize(n);
    r->head<2>() = f;
    r->tail(extra) = s.head(extra);
    if (jac) {
      Matrix full(n, 5);
      full.topRows<2>() = problem.system->jacobian(at).leftCols<5>();
      full.bottomRows(extra) = g.topRows(extra);
      jac->resize(n, n);
      for (int j = 0; j < n; ++j) jac->col(j) = full.col(columns[j]);
    }
  };
  // Plain Newton (continuation/newton.h, no damping) on the chosen columns,
  // converged when the step is below polish_tolerance (1 + |u|_inf).
  auto with = [&](const Vector& x) {
    Vector full = u;
    for (int j = 0; j < n; ++j) full[columns[j]] = x[j];
    return full;
  };
  // The residual comes with its Jacobian (the degeneracy's exact gradient);
  // the Jacobian of the last residual is kept for the step from there.
  Vector cached_x;
  Matrix cached_jac;
  NewtonProblem newton;
  newton.residual = [&](const Vector& x, Vector* res) {
    evaluate(with(x), res, &cached_jac);
    cached_x = x;
  };
  newton.jacobian = [&](const Vector& x, Matrix* jac) {
    if (!(cached_x.size() == x.size() && cached_x == x)) {
      Vector ignored;
      evaluate(with(x), &ignored, &cached_jac);
      cached_x = x;
    }
    *jac = cached_jac;
  };
  newton.solve = [](const Matrix& jac, const Vector& res, Vector* step) {
    *step = jac.fullPivLu().solve(res);
    return true;
  };
  newton.scale = [&](const Vector& x) { return 1.0 + with(x).lpNorm<Eigen::Infinity>(); };
  NewtonOptions settings;
  settings.max_iterations = options.polish_iterations;
  settings.residual_tolerance = std::numeric_limits<double>::infinity();
  settings.step_tolerance = options.polish_tolerance;
  settings.damping = false;
  Vector r;
  try {
    Vector x(n);
    for (int j = 0; j < n; ++j) x[j] = u[columns[j]];
    const NewtonResult polished = damped_newton(newton, x, settings);
    out.polished = polished.converged();
    u = with(polished.x);
    if (out.polished) evaluate(u, &r, nullptr);
  } catch (const std::invalid_argument&) {
    out.polished = false;  // Newton met a non-regular curve point: keep the located point
  }
  if (!out.polished || !u.allFinite() || (u - to_vector(point)).lpNorm<Eigen::Infinity>() > 1e-3) {
    out.polished = false;
    u = to_vector(point);
    evaluate(u, &r, nullptr);
  }
  out.point = to_array(u);
  out.residual = r.lpNorm<Eigen::Infinity>();
  out.scalars = problem.degeneracy->evaluate(u);
  try {
    out.classification = classify(problem, out.point, options.classification);
    out.classified = true;
  } catch (const std::exception& e) {
    out.message = e.what();
  }
  return out;
}

namespace {

// The special points of `type` on the branches, refined, without duplicates.
void collect(const models::ExtremalProblem& problem, const std::vector<Branch>& branches,
             const std::string& type, const std::vector<std::string>& free,
             const ContactContinuationOptions& options, std::vector<LocatedContactPoint>* out) {
  for (const Branch& branch : branches) {
    for (const SpecialPoint& sp : branch.special_points) {
      if (sp.type != type) continue;
      // u from y = (s1, s2, free parameters), the fixed ones from the branch.
      Vector u(5);
      u.head<2>() = sp.y.head<2>();
      u.tail<3>() = branch.parameters;
      for (std::size_t k = 0; k < branch.free_parameters.size(); ++k)
        u[2 + branch.free_parameters[k]] = sp.y[2 + static_cast<int>(k)];
      LocatedContactPoint p = refine_contact_point(problem, type, to_array(u), free, options);
      const bool duplicate = std::any_of(out->begin(), out->end(), [&](const LocatedContactPoint& q) {
        return (to_vector(q.point) - to_vector(p.point)).lpNorm<Eigen::Infinity>() <=
               options.duplicate_tolerance;
      });
      if (!duplicate) out->push_back(std::move(p));
    }
  }
}

// The bounds of `options` that name components of a stage's branch (the
// chain's options may bound any of s1, s2, x, y, phi).
ContinuationOptions restrict_bounds(ContinuationOptions options, const std::vector<std::string>& components) {
  std::map<std::string, Bound> kept;
  for (const auto& [name, bound] : options.bounds)
    if (std::find(components.begin(), components.end(), name) != components.end()) kept[name] = bound;
  options.bounds = std::move(kept);
  return options;
}

template <class Run>
std::vector<Branch> both_ways(ContinuationOptions options, Run run) {
  std::vector<Branch> branches;
  for (int direction : {+1, -1}) {
    options.direction = direction;
    branches.push_back(run(options));
  }
  return branches;
}

}  // namespace

ContactContinuationResult continue_contact_points(
    const models::ExtremalProblem& problem, const std::array<double, 5>& start, const std::string& parameter,
    const std::optional<std::array<std::string, 2>>& fold_parameters, bool cusp_curve,
    const ContactContinuationOptions& options) {
  if (const std::string why = options.check(); !why.empty())
    throw std::invalid_argument("contact continuation options: " + why);
  require_problem(problem, "continue_contact_points");
  pose_index(parameter, "continue_contact_points");
  if (fold_parameters) {
    pose_index((*fold_parameters)[0], "continue_contact_points (fold curve)");
    pose_index((*fold_parameters)[1], "continue_contact_points (fold curve)");
  }
  if (cusp_curve && !fold_parameters)
    throw std::invalid_argument(
        "continue_contact_points: a cusp curve starts from a cusp of the fold curve; "
        "give the fold-curve parameters too");
  ContactContinuationResult result;
  result.branches =
      both_ways(restrict_bounds(options.branch, {"s1", "s2", parameter}),
                [&](const ContinuationOptions& o) { return extremal_branch(problem, start, parameter, o); });
  collect(problem, result.branches, "LP", {parameter}, options, &result.folds);
  if (fold_parameters && !result.folds.empty()) {
    const auto fold = result.folds.front().point;
    result.fold_curves = both_ways(
        restrict_bounds(options.fold_curve, {"s1", "s2", (*fold_parameters)[0], (*fold_parameters)[1]}),
        [&](const ContinuationOptions& o) {
          return extremal_fold_curve(problem, fold, *fold_parameters, o);
        });
    collect(problem, result.fold_curves, "CP", {(*fold_parameters)[0], (*fold_parameters)[1]}, options,
            &result.cusps);
  }
  if (cusp_curve && !result.cusps.empty()) {
    const auto cusp = result.cusps.front().point;
    result.cusp_curves =
        both_ways(restrict_bounds(options.cusp_curve, {"s1", "s2", "x", "y", "phi"}),
                  [&](const ContinuationOptions& o) { return extremal_cusp_curve(problem, cusp, o); });
    collect(problem, result.cusp_curves, "SW", {"x", "y", "phi"}, options, &result.swallowtails);
  }
  std::ostringstream message;
  message << result.folds.size() << " fold" << (result.folds.size() == 1 ? "" : "s");
  if (fold_parameters)
    message << ", " << result.cusps.size() << " cusp" << (result.cusps.size() == 1 ? "" : "s");
  if (cusp_curve)
    message << ", " << result.swallowtails.size() << " swallowtail"
            << (result.swallowtails.size() == 1 ? "" : "s");
  message << " located";
  if (fold_parameters && result.folds.empty()) message << " (no fold on the branch: no fold curve)";
  if (cusp_curve && fold_parameters && !result.folds.empty() && result.cusps.empty())
    message << " (no cusp on the fold curve: no cusp curve)";
  result.message = message.str();
  return result;
}

}  // namespace saltus
