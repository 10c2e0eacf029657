#include "continuation/branch.h"

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <stdexcept>

#include "continuation/eigenvalues.h"

namespace saltus {

std::string to_string(StopReason reason) {
  switch (reason) {
    case StopReason::kMaxPoints:
      return "max_points";
    case StopReason::kBound:
      return "bound";
    case StopReason::kStepTooSmall:
      return "step_too_small";
    case StopReason::kUserStop:
      return "user_stop";
    case StopReason::kCallback:
      return "callback";
    case StopReason::kStartNotConverged:
      return "start_not_converged";
    case StopReason::kSingularJacobian:
      return "singular_jacobian";
    case StopReason::kEvaluationError:
      return "evaluation_error";
    case StopReason::kRestored:
      return "restored";
  }
  return "unknown";
}

std::string to_string(EventStatus status) {
  switch (status) {
    case EventStatus::kLocated:
      return "located";
    case EventStatus::kBracketed:
      return "bracketed";
    case EventStatus::kJump:
      return "jump";
  }
  return "unknown";
}

std::map<std::string, double> Branch::parameters_at(const Vector& y) const {
  std::map<std::string, double> values;
  for (int i = 0; i < static_cast<int>(parameter_names.size()); ++i)
    values[parameter_names[i]] = parameters[i];
  for (std::size_t k = 0; k < free_parameters.size(); ++k)
    values[parameter_names[free_parameters[k]]] = y[state_size + k];
  return values;
}

std::map<std::string, double> Branch::state_at(const Vector& y) const {
  std::map<std::string, double> values;
  for (int i = 0; i < state_size; ++i) values[names[i]] = y[i];
  return values;
}

double Branch::component(const Vector& y, const std::string& name) const {
  for (int i = 0; i < static_cast<int>(names.size()); ++i)
    if (names[i] == name) return y[i];
  const auto p = parameters_at(y);
  if (auto it = p.find(name); it != p.end()) return it->second;
  throw std::invalid_argument("branch has no component named '" + name + "'");
}

void Branch::write_csv(std::ostream& out) const {
  // Monitored eigenvalues: the count of unstable ones, then (re, im) pairs,
  // rightmost first; a point with fewer leaves its last columns empty.
  Eigen::Index eigenvalues = 0;
  for (const auto& p : points) eigenvalues = std::max(eigenvalues, p.eigenvalues.size());
  out << "point,label";
  for (const auto& n : names) out << ',' << n;
  out << ",ds,newton_iterations";
  if (!cut_name.empty()) out << ',' << cut_name;
  for (const auto& t : test_names) out << ",test_" << t;
  for (const auto& n : names) out << ",tangent_" << n;
  if (eigenvalues > 0) out << ",unstable";
  for (Eigen::Index k = 1; k <= eigenvalues; ++k) out << ",re_" << k << ",im_" << k;
  out << '\n' << std::setprecision(17);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    out << i << ',' << p.label;
    for (int j = 0; j < p.y.size(); ++j) out << ',' << p.y[j];
    out << ',' << p.ds << ',' << p.newton_iterations;
    if (!cut_name.empty()) out << ',' << p.cut;
    for (double t : p.tests) out << ',' << t;
    for (int j = 0; j < p.tangent.size(); ++j) out << ',' << p.tangent[j];
    if (eigenvalues > 0)
      out << ',' << (p.eigenvalues.size() ? std::to_string(unstable_count(p.eigenvalues)) : "");
    for (Eigen::Index k = 0; k < eigenvalues; ++k) {
      if (k < p.eigenvalues.size())
        out << ',' << p.eigenvalues[k].real() << ',' << p.eigenvalues[k].imag();
      else
        out << ",,";
    }
    out << '\n';
  }
}

nlohmann::ordered_json Branch::summary() const {
  nlohmann::ordered_json j;
  j["stop_reason"] = to_string(stop_reason);
  j["message"] = message;
  j["points"] = points.size();
  std::vector<std::string> free;
  for (int k : free_parameters) free.push_back(parameter_names[k]);
  j["continuation_parameters"] = free;
  auto& specials = j["special_points"] = nlohmann::ordered_json::array();
  for (const auto& s : special_points) {
    nlohmann::ordered_json e;
    e["type"] = s.type;
    e["name"] = s.name;
    e["index"] = s.index;
    e["parameters"] = parameters_at(s.y);
    e["state"] = state_at(s.y);
    // The unit tangent there, by component: with the state and parameters it
    // restarts a follow-up (a branch switch needs it) without the branch
    // (`saltus continue --from DIR --point LABEL`, studies/restart.h).
    auto& tangent = e["tangent"] = nlohmann::ordered_json::object();
    for (int i = 0; i < s.tangent.size() && i < static_cast<int>(names.size()); ++i)
      tangent[names[i]] = s.tangent[i];
    e["status"] = to_string(s.status);
    e["precision"] = s.precision;
    e["test_value"] = s.test_value;
    e.update(s.data);
    if (s.index >= 0 && points[s.index].eigenvalues.size()) {
      const Eigen::VectorXcd& lambda = points[s.index].eigenvalues;
      e["unstable"] = unstable_count(lambda);
      auto& list = e["eigenvalues"] = nlohmann::ordered_json::array();
      for (const auto& l : lambda) list.push_back({l.real(), l.imag()});
    }
    specials.push_back(e);
  }
  auto& o = j["options"];
  o["ds"] = options.ds;
  o["ds_min"] = options.ds_min;
  o["ds_max"] = options.ds_max;
  o["step_growth"] = options.step_growth;
  o["step_cut"] = options.step_cut;
  o["easy_iterations"] = options.easy_iterations;
  o["max_points"] = options.max_points;
  o["direction"] = options.direction;
  o["newton_tolerance"] = options.newton_tolerance;
  o["residual_tolerance"] = options.residual_tolerance;
  o["max_newton_iterations"] = options.max_newton_iterations;
  o["min_tangent_cosine"] = options.min_tangent_cosine;
  o["event_tolerance"] = options.event_tolerance;
  o["max_event_iterations"] = options.max_event_iterations;
  o["eigenvalues"] = options.eigenvalues;
  auto& b = o["bounds"] = nlohmann::ordered_json::object();
  for (const auto& [name, bound] : options.bounds) {
    // JSON has no infinity: an open side is null.
    auto side = [](double v) {
      return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json();
    };
    b[name] = {side(bound.min), side(bound.max)};
  }
  return j;
}

}  // namespace saltus
