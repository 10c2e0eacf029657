#include "analyses/two_fold/continuation.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "continuation/continuation_problem.h"
#include "testfunctions/user_value.h"

namespace saltus {

namespace {

using models::WheelTurntable;

double WheelTurntable::*const kFields[] = {
    &WheelTurntable::d,     &WheelTurntable::m,  &WheelTurntable::c1,     &WheelTurntable::c2,
    &WheelTurntable::beta,  &WheelTurntable::r0, &WheelTurntable::omega0, &WheelTurntable::gamma,
    &WheelTurntable::kappa, &WheelTurntable::k2};

int index_of(const std::string& name) {
  const auto& names = wheel_parameter_names();
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) {
    std::string known;
    for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("wheel on turntable: no constant named '" + name + "' (known: " + known +
                                ")");
  }
  return static_cast<int>(it - names.begin());
}

}  // namespace

const std::vector<std::string>& wheel_parameter_names() {
  static const std::vector<std::string> names = {"d",  "m",      "c1",    "c2",    "beta",
                                                 "r0", "omega0", "gamma", "kappa", "k2"};
  return names;
}

double wheel_parameter(const WheelTurntable& wheel, const std::string& name) {
  return wheel.*kFields[index_of(name)];
}

void set_wheel_parameter(WheelTurntable* wheel, const std::string& name, double value) {
  wheel->*kFields[index_of(name)] = value;
}

Vector wheel_parameters(const WheelTurntable& wheel) {
  Vector p(10);
  for (int i = 0; i < 10; ++i) p[i] = wheel.*kFields[i];
  return p;
}

WheelTurntable wheel_with_parameters(const WheelTurntable& base, const Vector& p) {
  WheelTurntable w = base;
  for (int i = 0; i < 10; ++i) w.*kFields[i] = p[i];
  return w;
}

namespace {

// The wheel at a point u = (x, p) with the base's tyre, or the sticking
// surface values where kappa <= 0 (the stretched string needs kappa > 0;
// the K's are the same for both, see models/wheel_turntable.h).
WheelTurntable wheel_at(const WheelTurntable& base, const Vector& u) {
  WheelTurntable w = wheel_with_parameters(base, u.tail(10));
  if (!(w.kappa > 0.0)) w.tyre = models::TyreModel::kSticking;
  return w;
}

TwoFoldClassification classify_at(const WheelTurntable& base, const Vector& u,
                                  const TwoFoldOptions& options) {
  return classify_two_fold(wheel_at(base, u), u.head(3), options);
}

}  // namespace

std::string TwoFoldContinuationOptions::check() const {
  if (parameter.empty()) return "parameter is empty: name the constant to continue in";
  if (std::string bad = continuation.check(); !bad.empty()) return "continuation: " + bad;
  return {};
}

TwoFoldContinuation continue_two_fold(const WheelTurntable& wheel, const Vector& guess,
                                      const TwoFoldContinuationOptions& options) {
  index_of(options.parameter);  // throws naming the known constants
  detail::TwoFoldCurve curve;
  curve.system = make_system(WheelTwoFoldEquations{wheel});
  curve.parameters = wheel_parameters(wheel);
  curve.locate = [wheel](const Vector& x, const TwoFoldOptions& o) { return locate_two_fold(wheel, x, o); };
  curve.classify = [wheel](const Vector& u, const TwoFoldOptions& o) { return classify_at(wheel, u, o); };
  // g = 0 (omega = omega0 on h = 0): the wheel does not move over the disc
  // and the sticking moment sign(g) kappa lambda changes sign; the curve of
  // (19) is not smooth there, so the branch stops (type "UZ", name "g=0").
  curve.singular = [wheel](const Vector& u) {
    return wheel_with_parameters(wheel, u.tail(10)).rolling(u.data());
  };
  curve.singular_name = "g=0";
  curve.singular_note =
      "at g = 0, omega = omega0 on Sigma: the tyre moment sign(g) kappa lambda switches there, so the "
      "two-fold curve ends";
  return detail::continue_two_fold_curve(curve, guess, options);
}

ExpressionTwoFoldEquations::ExpressionTwoFoldEquations(const models::ExpressionFilippov& model)
    : mu(model.mu) {
  auto free = std::make_shared<models::FilippovSpec>(*model.spec);
  free->decided.assign(free->parameters.size(), false);
  spec = std::move(free);
}

models::ExpressionFilippov with_parameters(const models::ExpressionFilippov& base, const Vector& p) {
  models::ExpressionFilippov m = base;
  for (std::size_t i = 0; i < m.p.size(); ++i) m.p[i] = m.numbers[i] = p[static_cast<int>(i)];
  return m;
}

TwoFoldContinuation continue_two_fold(const models::ExpressionFilippov& model, const Vector& guess,
                                      const TwoFoldContinuationOptions& options) {
  if (model.state_size() != 3)
    throw std::invalid_argument(
        "a two-fold continues as a curve in one parameter only with 3 states; the system has " +
        std::to_string(model.state_size()) + " (two-folds of n states form an (n-3)-dimensional set)");
  detail::TwoFoldCurve curve;
  curve.system = make_system(ExpressionTwoFoldEquations(model));
  const int k = static_cast<int>(model.p.size());
  curve.parameters.resize(k);
  for (int i = 0; i < k; ++i) curve.parameters[i] = model.spec->decided[i] ? model.numbers[i] : model.p[i];
  const models::ExpressionFilippov base = with_parameters(model, curve.parameters);
  curve.locate = [base](const Vector& x, const TwoFoldOptions& o) { return locate_two_fold(base, x, o); };
  curve.classify = [base](const Vector& u, const TwoFoldOptions& o) {
    return classify_two_fold(with_parameters(base, u.tail(u.size() - 3)), u.head(3), o);
  };
  return detail::continue_two_fold_curve(curve, guess, options);
}

namespace detail {

namespace {

// Both directions joined: the backward points reversed (without the shared
// start), then the forward ones.
void join(Branch back, Branch* branch) {
  const int shift = static_cast<int>(back.points.size()) - 1;
  std::vector<BranchPoint> points;
  for (int i = shift; i >= 1; --i) {
    BranchPoint p = back.points[i];
    p.tangent = -p.tangent;
    points.push_back(std::move(p));
  }
  std::vector<SpecialPoint> specials;
  for (auto s : back.special_points) {
    s.index = shift - s.index;
    s.tangent = -s.tangent;
    specials.push_back(std::move(s));
  }
  std::reverse(specials.begin(), specials.end());
  for (auto& p : branch->points) points.push_back(std::move(p));
  for (auto s : branch->special_points) {
    s.index += shift;
    specials.push_back(std::move(s));
  }
  branch->points = std::move(points);
  branch->special_points = std::move(specials);
  branch->message = "backward: " + back.message + "; forward: " + branch->message;
}

}  // namespace

TwoFoldContinuation continue_two_fold_curve(const TwoFoldCurve& curve, const Vector& guess,
                                            const TwoFoldContinuationOptions& options) {
  if (const std::string bad = options.check(); !bad.empty())
    throw std::invalid_argument("the two-fold continuation options: " + bad);
  const int n = curve.system->state_size();
  const auto names = curve.system->parameter_names();
  const auto it = std::find(names.begin(), names.end(), options.parameter);
  if (it == names.end()) {
    std::string known;
    for (const auto& name : names) known += (known.empty() ? "" : ", ") + name;
    throw std::invalid_argument("the continuation parameter '" + options.parameter +
                                "' is not a parameter (known: " + known + ")");
  }
  TwoFoldContinuation out;
  out.parameter = options.parameter;
  out.start = curve.locate(guess, options.two_fold);
  if (!out.start.located()) {
    out.message = "the start: " + out.start.message;
    return out;
  }
  // Along the curve the classification needs |G| of the corrected points,
  // which the engine drives to its residual_tolerance, not to 1e-12.
  TwoFoldOptions along = options.two_fold;
  along.point_tolerance = std::max(along.point_tolerance, 10.0 * options.continuation.residual_tolerance);

  const ContinuationProblem problem(curve.system, curve.parameters, {options.parameter});
  TestFunctions tests;
  const auto classify = curve.classify;
  for (CaseBoundary b :
       {CaseBoundary::kKpp, CaseBoundary::kKmm, CaseBoundary::kJ1, CaseBoundary::kJ2, CaseBoundary::kJ1J2})
    tests.push_back(std::make_shared<CaseBoundaryTest>(
        b, [classify, along](const Vector& u) { return classify(u, along).K; }));
  if (curve.singular) tests.push_back(std::make_shared<UserTest>(curve.singular_name, curve.singular, true));
  Vector y0(n + 1);
  y0 << out.start.x, curve.parameters[it - names.begin()];

  const auto at_singular = [&](const Vector& y) {
    return curve.singular && std::abs(curve.singular(problem.u(y))) <= 1e-6;
  };
  // A branch that ends where the model's curve is not smooth: say so.
  const auto explain_end = [&](Branch& b) {
    if (b.points.empty() || b.stop_reason != StopReason::kStepTooSmall) return;
    if (at_singular(b.points.back().y)) b.message += " (" + curve.singular_note + ")";
  };
  ContinuationOptions forward = options.continuation;
  Branch branch = continue_branch(problem, y0, forward, tests);
  explain_end(branch);
  if (!branch.usable()) {
    out.message = "continuation in " + options.parameter + ": " + branch.message;
    out.branch = std::move(branch);
    return out;
  }
  if (options.both_directions) {
    ContinuationOptions backward = options.continuation;
    backward.direction = -forward.direction;
    Branch back = continue_branch(problem, y0, backward, tests);
    explain_end(back);
    if (back.usable() && back.points.size() > 1) join(std::move(back), &branch);
  }

  for (const auto& p : branch.points) {
    try {
      out.cases.push_back(short_case(classify(problem.u(p.y), along)));
    } catch (const std::exception& e) {
      out.cases.push_back("unclassified");
    }
  }
  for (const auto& s : branch.special_points) {
    if (s.type != "CB") continue;
    // A sign change where the curve is not smooth (the wheel's jump of sign(g)) is not a case boundary.
    if (at_singular(s.y)) continue;
    CaseBoundaryPoint b;
    b.name = s.name;
    b.x = s.y.head(n);
    b.parameter = s.y[n];
    b.status = s.status;
    b.precision = s.precision;
    const int count = static_cast<int>(branch.points.size());
    // The regular points on either side (the located point itself is in the list too).
    int before = s.index - 1, after = s.index + 1;
    while (before >= 0 && !branch.points[before].label.empty()) --before;
    while (after < count && !branch.points[after].label.empty()) ++after;
    b.before = before >= 0 ? out.cases[before] : "-";
    b.after = after < count ? out.cases[after] : "-";
    out.boundaries.push_back(std::move(b));
  }
  out.ok = true;
  out.branch = std::move(branch);
  out.message = std::to_string(out.branch.points.size()) + " points in " + options.parameter + ", " +
                std::to_string(out.boundaries.size()) + " case boundaries (" + out.branch.message + ")";
  return out;
}

}  // namespace detail

}  // namespace saltus
