#pragma once
// A Branch is data: its points, its special points, the options used and why
// it stopped. It writes itself as CSV (one row per point) and as a JSON
// summary; plotting reads those files.

#include <iosfwd>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "continuation/locate.h"
#include "continuation/options.h"
#include "continuation/system.h"

namespace saltus {

enum class StopReason {
  kMaxPoints,          // options.max_points reached
  kBound,              // a component left options.bounds (an "EP" point ends the branch)
  kStepTooSmall,       // the corrector failed with ds below ds_min
  kUserStop,           // a stopping test function (user value) was reached
  kCallback,           // options.callback returned false
  kStartNotConverged,  // the start point could not be corrected onto the solution set
  kSingularJacobian,   // the bordered Jacobian at the start is singular
  kEvaluationError,    // the problem threw while the branch was followed (say, a curve that
                       // is not regular there); the message is the problem's
  kRestored,           // not followed: the saved point of an earlier run, a restart's start
};
std::string to_string(StopReason reason);

struct BranchPoint {
  Vector y;         // (x, p_free)
  Vector tangent;   // unit tangent, oriented along the branch
  double ds = 0.0;  // arclength from the previous regular point
  int newton_iterations = 0;
  std::vector<double> tests;     // one value per test function, in Branch::test_names order
  std::string label;             // the special-point type at this point, else empty
  Eigen::VectorXcd eigenvalues;  // of F_x, rightmost first, when the branch monitors them
  // Where the system was cut at this point (System::cut: a shooting
  // problem's t0, which moves along a branch when an event nears it); NaN
  // for a system without a cut.
  double cut = std::numeric_limits<double>::quiet_NaN();
};

// A special point carries an EventStatus (continuation/locate.h): located,
// bracketed, or a jump of the test function.

struct SpecialPoint {
  std::string type;  // AUTO's labels: "LP", "BP", "CP", "UZ", "EP", ...
  std::string name;  // the test function that found it
  int index = -1;    // its position in Branch::points
  Vector y, tangent;
  EventStatus status = EventStatus::kBracketed;
  double precision = 0.0;   // width of the final arclength bracket
  double test_value = 0.0;  // the test function at the point
  nlohmann::ordered_json data =
      nlohmann::ordered_json::object();  // what the test function adds
                                         // (TestFunction::describe): an HB's frequency and l1, ...
  // The type, marked when it is a jump ("PD (jump)"): for figures and tables.
  std::string label() const { return status == EventStatus::kJump ? type + " (jump)" : type; }
};

struct Branch {
  std::vector<std::string> names;            // components of y
  int state_size = 0;                        // y = (x[0..state_size), p_free)
  std::vector<std::string> parameter_names;  // all parameters of the system
  Vector parameters;                         // their values, the free ones as at the start
  std::vector<int> free_parameters;          // indices into parameters
  std::vector<std::string> test_names;
  std::string cut_name;  // System::cut_name: a column of the CSV after newton_iterations ("" : none)
  std::vector<BranchPoint> points;
  std::vector<SpecialPoint> special_points;
  StopReason stop_reason = StopReason::kMaxPoints;
  std::string message;          // a sentence on why it stopped
  ContinuationOptions options;  // as used (callback not serialized)

  // The branch has points to use: its start converged (whatever ended it
  // later). Not "finished": a branch that stopped at a bound is usable.
  bool usable() const {
    return stop_reason != StopReason::kStartNotConverged && stop_reason != StopReason::kSingularJacobian;
  }
  // name -> value at a point y of the branch.
  std::map<std::string, double> parameters_at(const Vector& y) const;
  std::map<std::string, double> state_at(const Vector& y) const;
  // Value of the named component (state or any parameter) at y.
  double component(const Vector& y, const std::string& name) const;

  void write_csv(std::ostream& out) const;
  nlohmann::ordered_json summary() const;
};

std::string to_string(EventStatus status);

}  // namespace saltus
