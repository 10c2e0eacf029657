#include "studies/restart.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <sstream>

#include "continuation/pseudo_arclength.h"

namespace saltus::studies {

namespace fs = std::filesystem;

namespace {

struct Label {
  std::string type;
  int n = 0;
};

[[noreturn]] void refuse(const fs::path& dir, const std::string& label, const std::string& what) {
  throw RunFileError("--from " + dir.string() + " --point " + excerpt(label, 40) + ": " + what);
}

// What the saved summary (dir/summary.json) holds that refuses the restart.
[[noreturn]] void refuse_saved(const fs::path& dir, const std::string& label, const std::string& what) {
  refuse(dir, label, (dir / "summary.json").string() + ": " + what);
}

Label parse_label(const fs::path& dir, const std::string& label) {
  std::size_t i = 0;
  while (i < label.size() && std::isupper(static_cast<unsigned char>(label[i]))) ++i;
  const bool digits = i < label.size() && label.size() - i <= 6 &&
                      std::all_of(label.begin() + static_cast<long>(i), label.end(),
                                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  if (i == 0 || !digits || std::stoi(label.substr(i)) < 1)
    refuse(dir, label,
           "a label is a point's type and its number on the first branch, as LP1, BP2, HB1 or PD1 (see "
           "the special points in " +
               (dir / "summary.json").string() + ")");
  return {label.substr(0, i), std::stoi(label.substr(i))};
}

// The run file's follow-ups that start from a point of `type`.
std::vector<std::string> follow_ups_from(const RunFile& run, const std::string& type) {
  std::vector<std::string> keys;
  if (type == "LP" && run.fold_curve) keys.push_back("fold_curve");
  if (type == "BP" && run.switch_branch) keys.push_back("switch_branch");
  if (type == "HB" && run.hopf_curve && run.hopf_curve->from_bt == 0) keys.push_back("hopf_curve");
  if (type == "HB" && run.hopf_cycles) keys.push_back("hopf_cycles");
  if (type == "PD" && run.periodic && run.periodic->doublings > 0) keys.push_back("periodic.period_doubling");
  return keys;
}

// A bad value in the saved summary: the file and the key.
[[noreturn]] void refuse_value(const fs::path& dir, const std::string& label, const std::string& key,
                               const std::string& what, const Json& got) {
  refuse_saved(dir, label,
               "'" + key + "' " + what + ", got " +
                   (got.is_null() ? std::string("null") : excerpt(got.dump(), 60)) +
                   ": give the output folder of a `saltus continue` run as it wrote it");
}

// entry[key] as a string (`where` names entry); "" when absent and not required.
std::string saved_string(const Json& entry, const std::string& key, const std::string& where, bool required,
                         const fs::path& dir, const std::string& label) {
  if (!entry.contains(key)) {
    if (required) refuse_value(dir, label, where + "." + key, "is missing", nullptr);
    return "";
  }
  if (!entry[key].is_string()) refuse_value(dir, label, where + "." + key, "must be a string", entry[key]);
  return entry[key].get<std::string>();
}

// The point's special-point entry of the saved summary: the n-th of its type
// on the first branch ("branch"), jumps left out; *where names it.
const Json& find_point(const Json& summary, const fs::path& dir, const std::string& label, const Label& l,
                       std::string* where) {
  const fs::path file = dir / "summary.json";
  if (!summary.is_object() || !summary.contains("special_points") || !summary["special_points"].is_array())
    refuse_saved(dir, label, "it has no 'special_points': give the output folder of a `saltus continue` run");
  std::map<std::string, int> seen;
  std::vector<std::string> labels;
  const Json& specials = summary["special_points"];
  for (std::size_t i = 0; i < specials.size(); ++i) {
    const Json& s = specials[i];
    *where = "special_points[" + std::to_string(i) + "]";
    if (!s.is_object()) refuse_value(dir, label, *where, "must be an object", s);
    const std::string branch = saved_string(s, "branch", *where, false, dir, label);
    const std::string status = saved_string(s, "status", *where, true, dir, label);
    const std::string type = saved_string(s, "type", *where, true, dir, label);
    if ((!branch.empty() && branch != "branch") || status == "jump" || type == "EP") continue;
    const int k = ++seen[type];
    if (type == l.type && k == l.n) return s;
    labels.push_back(excerpt(type, 8) + std::to_string(k));
  }
  std::string have;
  for (const auto& s : labels) have += (have.empty() ? "" : ", ") + s;
  refuse_saved(dir, label,
               "the first branch saved there has " + std::to_string(seen[l.type]) + " " + l.type +
                   " point(s); " +
                   (have.empty() ? "it has no special point to restart from" : "give one of " + have));
}

// A value of the saved point's object `key` by name (`where` names the point).
double saved_value(const Json& point, const std::string& where, const std::string& key,
                   const std::string& name, const fs::path& dir, const std::string& label) {
  if (!point.contains(key) || !point[key].is_object())
    refuse_saved(dir, label,
                 "'" + where + "." + key +
                     "' is missing or not an object (written by an older saltus?): run "
                     "the earlier study again");
  if (!point[key].contains(name))
    refuse_saved(dir, label,
                 "'" + where + "." + key + "' has no '" + name +
                     "': the run file does not match the saved run (its unknowns or parameters differ)");
  const Json& v = point[key][name];
  if (!v.is_number()) refuse_value(dir, label, where + "." + key + "." + name, "must be a finite number", v);
  return v.get<double>();  // finite: JSON has no other numbers, and the parse refuses 1e999
}

// The saved run's first-branch continuation parameters against the run's.
void check_parameters(const RunFile& run, const ContinuationProblem& problem, const Json& summary,
                      const Json& point, const std::string& where, const fs::path& dir,
                      const std::string& label) {
  const Json* first = nullptr;
  if (summary.contains("branches") && summary["branches"].is_array() && !summary["branches"].empty())
    first = &summary["branches"][0];
  if (!first || !first->is_object() || !first->contains("continuation_parameters"))
    refuse_value(dir, label, "branches[0].continuation_parameters", "is missing", nullptr);
  const Json& saved_free = (*first)["continuation_parameters"];
  if (saved_free != Json(run.continuation_parameters))
    refuse_saved(dir, label,
                 "the saved run continued in " + excerpt(saved_free.dump(), 80) + ", the run file in " +
                     Json(run.continuation_parameters).dump() +
                     ": the run file does not match the saved run");
  const auto names = problem.system().parameter_names();
  if (!point.contains("parameters") || !point["parameters"].is_object() ||
      point["parameters"].size() != names.size())
    refuse_saved(
        dir, label,
        "'" + where + ".parameters' are not the run file's: the run file does not match the saved run");
  const auto& free = problem.free_parameters();
  for (int k = 0; k < static_cast<int>(names.size()); ++k) {
    const double saved = saved_value(point, where, "parameters", names[k], dir, label);
    if (std::find(free.begin(), free.end(), k) != free.end() || saved == run.parameters[k]) continue;
    std::ostringstream msg;
    msg.precision(17);
    msg << "the saved run has " << names[k] << " = " << saved << ", the run file " << run.parameters[k]
        << ": give the run file the earlier run's value, or run the study again";
    refuse_saved(dir, label, msg.str());
  }
}

}  // namespace

namespace {

// The saved point as a special point of `problem`: its state and parameters,
// its unit tangent (a BP's incoming direction), status, precision and test
// value, each checked (`where` names it in the summary).
SpecialPoint saved_point(const Json& point, const std::string& where, const ContinuationProblem& problem,
                         const Label& l, const fs::path& dir, const std::string& label) {
  const std::vector<std::string> names = problem.names();
  const int n = problem.state_size();
  if (!point.contains("state") || !point["state"].is_object() || static_cast<int>(point["state"].size()) != n)
    refuse_saved(
        dir, label,
        "'" + where + ".state' holds other unknowns than the run file's: it does not match the saved run");
  if (point.contains("tangent") && point["tangent"].is_object() &&
      static_cast<int>(point["tangent"].size()) != problem.size())
    refuse_value(dir, label, where + ".tangent",
                 "must have the " + std::to_string(problem.size()) +
                     " components of the run's unknowns and "
                     "continuation parameters",
                 point["tangent"]);
  SpecialPoint p;
  p.type = l.type;
  p.name = point.contains("name") ? saved_string(point, "name", where, true, dir, label) : l.type;
  p.index = 0;
  p.y.resize(problem.size());
  p.tangent.resize(problem.size());
  const auto& free = problem.free_parameters();
  const auto pnames = problem.system().parameter_names();
  for (int i = 0; i < problem.size(); ++i) {
    p.y[i] = i < n ? saved_value(point, where, "state", names[i], dir, label)
                   : saved_value(point, where, "parameters", pnames[free[i - n]], dir, label);
    p.tangent[i] = saved_value(point, where, "tangent", names[i], dir, label);
  }
  // Branch::summary writes the unit tangent to 17 digits.
  if (!(std::abs(p.tangent.norm() - 1) <= 1e-8))
    refuse_value(dir, label, where + ".tangent",
                 "must be a unit vector (its length is " + std::to_string(p.tangent.norm()) + ")",
                 point["tangent"]);
  const std::string status = saved_string(point, "status", where, true, dir, label);
  if (status != "located" && status != "bracketed")
    refuse_value(dir, label, where + ".status", "must be \"located\" or \"bracketed\"", point["status"]);
  p.status = status == "located" ? EventStatus::kLocated : EventStatus::kBracketed;
  // A NaN is written as null: kept as NaN.
  for (const auto& [key, value] : {std::pair{"precision", &p.precision}, {"test_value", &p.test_value}}) {
    if (!point.contains(key)) continue;
    const Json& v = point[key];
    if (!v.is_null() && !v.is_number())
      refuse_value(dir, label, where + "." + key, "must be a number or null", v);
    *value = v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
  }
  return p;
}

// A saved point of a branch of equilibria solves the run file's equations
// F(x, p) = 0 as the corrector left it (|F|_inf <= residual_tolerance, and a
// located point is a corrected one); a point far off them is not the saved
// run's (an altered summary, or a run file whose equations changed), and the
// follow-ups would start from nonsense. 1e3 times the tolerance, relative to
// the point's size, leaves room for any point saltus wrote.
void check_on_branch(const RunFile& run, const ContinuationProblem& problem, const SpecialPoint& p,
                     const std::string& where, const fs::path& dir, const std::string& label) {
  const double residual = problem.residual(p.y).lpNorm<Eigen::Infinity>();
  const double allowed = 1e3 * run.options.residual_tolerance * (1 + p.y.lpNorm<Eigen::Infinity>());
  if (residual <= allowed) return;
  std::ostringstream msg;
  msg.precision(3);
  msg << "'" << where << "' is not a solution of the run file's equations (|F| = " << residual
      << " there): the summary was altered, or the run file's equations differ from the saved run's";
  refuse_saved(dir, label, msg.str());
}

}  // namespace

void prepare_restart(RunFile* run, const fs::path& dir, const std::string& label) {
  const fs::path file = dir / "summary.json";
  if (!fs::is_regular_file(file))
    refuse(dir, label,
           "there is no " + file.string() + ": give the output folder of an earlier `saltus continue` run");
  const Label l = parse_label(dir, label);
  const Json summary = read_json_from(
      file, "--from " + dir.string() + " --point " + excerpt(label, 40) + ": " + file.string());
  std::string where;
  const Json& point = find_point(summary, dir, label, l, &where);
  const std::vector<std::string> keys = follow_ups_from(*run, l.type);
  if (keys.empty())
    refuse(dir, label,
           "the run file has no follow-up that starts from an " + l.type +
               " point (LP: fold_curve, BP: switch_branch, HB: hopf_curve or hopf_cycles, PD: "
               "periodic.period_doubling)");
  const ContinuationProblem problem(run->system, run->parameters, run->continuation_parameters);
  check_parameters(*run, problem, summary, point, where, dir, label);
  const SpecialPoint p = saved_point(point, where, problem, l, dir, label);
  if (!run->periodic) check_on_branch(*run, problem, p, where, dir, label);
  // Only the follow-ups of the point's kind run, each from it.
  if (l.type != "LP") run->fold_curve.reset();
  if (l.type != "BP") run->switch_branch.reset();
  if (l.type != "HB" || (run->hopf_curve && run->hopf_curve->from_bt > 0)) run->hopf_curve.reset();
  if (l.type != "HB") run->hopf_cycles.reset();
  if (run->fold_curve) run->fold_curve->from = 1;
  if (run->switch_branch) run->switch_branch->from = 1;
  if (run->hopf_curve) run->hopf_curve->from = 1;
  if (run->hopf_cycles) run->hopf_cycles->from = 1;
  run->restart = RunFile::Restart{dir, label, p};
}

Branch restored_branch(const RunFile& run, const ContinuationProblem& problem) {
  const RunFile::Restart& r = *run.restart;
  Branch b = empty_branch(problem);
  b.options = run.options;
  BranchPoint point;
  point.y = r.point.y;
  point.tangent = r.point.tangent;
  point.label = r.point.type;
  b.points = {point};
  b.special_points = {r.point};
  b.stop_reason = StopReason::kRestored;
  b.message = "restarted from " + r.label + " of " + (r.dir / "summary.json").string() + ", not recomputed";
  return b;
}

}  // namespace saltus::studies
