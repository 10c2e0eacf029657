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
  if (std::find(wheel_parameter_names().begin(), wheel_parameter_names().end(), parameter) ==
      wheel_parameter_names().end())
    return "parameter = '" + parameter + "' is not a constant of the wheel";
  if (std::string bad = continuation.check(); !bad.empty()) return "continuation: " + bad;
  return {};
}

TwoFoldContinuation continue_two_fold(const WheelTurntable& wheel, const Vector& guess,
                                      const TwoFoldContinuationOptions& options) {
  if (const std::string bad = options.check(); !bad.empty())
    throw std::invalid_argument("continue_two_fold: " + bad);
  TwoFoldContinuation out;
  out.parameter = options.parameter;
  out.start = locate_two_fold(wheel, guess, options.two_fold);
  if (!out.start.located()) {
    out.message = "the start: " + out.start.message;
    return out;
  }
  // Along the curve the classification needs |G| of the corrected points,
  // which the engine drives to its residual_tolerance, not to 1e-12.
  TwoFoldOptions along = options.two_fold;
  along.point_tolerance = std::max(along.point_tolerance, 10.0 * options.continuation.residual_tolerance);

  const auto system = make_system(WheelTwoFoldEquations{wheel});
  const ContinuationProblem problem(system, wheel_parameters(wheel), {options.parameter});
  TestFunctions tests;
  for (CaseBoundary b :
       {CaseBoundary::kKpp, CaseBoundary::kKmm, CaseBoundary::kJ1, CaseBoundary::kJ2, CaseBoundary::kJ1J2})
    tests.push_back(std::make_shared<CaseBoundaryTest>(
        b, [wheel, along](const Vector& u) { return classify_at(wheel, u, along).K; }));
  // g = 0 (omega = omega0 on h = 0): the wheel does not move over the disc
  // and the sticking moment sign(g) kappa lambda changes sign; the curve of
  // (19) is not smooth there, so the branch stops (type "UZ", name "g=0").
  tests.push_back(std::make_shared<UserTest>(
      "g=0", [wheel](const Vector& u) { return wheel_with_parameters(wheel, u.tail(10)).rolling(u.data()); },
      true));
  Vector y0(4);
  y0 << out.start.x, wheel_parameter(wheel, options.parameter);

  // A branch that ends where g -> 0 ends at the line where the tyre moment's
  // sign(g) switches (the curve of (19) is not smooth there): say so.
  const auto explain_end = [&](Branch& b) {
    if (b.points.empty() || b.stop_reason != StopReason::kStepTooSmall) return;
    const Vector u = problem.u(b.points.back().y);
    if (std::abs(wheel_with_parameters(wheel, u.tail(10)).rolling(u.data())) <= 1e-6)
      b.message +=
          " (at g = 0, omega = omega0 on Sigma: the tyre moment sign(g) kappa lambda switches there, "
          "so the two-fold curve ends)";
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
    if (back.usable() && back.points.size() > 1) {
      // Joined: the backward points reversed (without the shared start), then the forward ones.
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
      for (auto& p : branch.points) points.push_back(std::move(p));
      for (auto s : branch.special_points) {
        s.index += shift;
        specials.push_back(std::move(s));
      }
      branch.points = std::move(points);
      branch.special_points = std::move(specials);
      branch.message = "backward: " + back.message + "; forward: " + branch.message;
    }
  }

  for (const auto& p : branch.points) {
    try {
      out.cases.push_back(short_case(classify_at(wheel, problem.u(p.y), along)));
    } catch (const std::exception& e) {
      out.cases.push_back("unclassified");
    }
  }
  for (const auto& s : branch.special_points) {
    if (s.type != "CB") continue;
    // A sign change at g = 0 is the jump of sign(g), not a case boundary.
    const Vector u = problem.u(s.y);
    if (std::abs(wheel_with_parameters(wheel, u.tail(10)).rolling(u.data())) <= 1e-6) continue;
    CaseBoundaryPoint b;
    b.name = s.name;
    b.x = s.y.head(3);
    b.parameter = s.y[3];
    b.status = s.status;
    b.precision = s.precision;
    const int n = static_cast<int>(branch.points.size());
    // The regular points on either side (the located point itself is in the list too).
    int before = s.index - 1, after = s.index + 1;
    while (before >= 0 && !branch.points[before].label.empty()) --before;
    while (after < n && !branch.points[after].label.empty()) ++after;
    b.before = before >= 0 ? out.cases[before] : "-";
    b.after = after < n ? out.cases[after] : "-";
    out.boundaries.push_back(std::move(b));
  }
  out.ok = true;
  out.branch = std::move(branch);
  out.message = std::to_string(out.branch.points.size()) + " points in " + options.parameter + ", " +
                std::to_string(out.boundaries.size()) + " case boundaries (" + out.branch.message + ")";
  return out;
}

}  // namespace saltus
