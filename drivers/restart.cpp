#include "drivers/restart.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "continuation/pseudo_arclength.h"

namespace saltus::drivers {

namespace fs = std::filesystem;

namespace {

struct Label {
  std::string type;
  int n = 0;
};

[[noreturn]] void refuse(const fs::path& dir, const std::string& label, const std::string& what) {
  throw RunFileError("--from " + dir.string() + " --point " + excerpt(label, 40) + ": " + what);
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

// The point's special-point entry of the saved summary: the n-th of its type
// on the first branch ("branch"), jumps left out.
const Json& find_point(const Json& summary, const fs::path& dir, const std::string& label, const Label& l) {
  const fs::path file = dir / "summary.json";
  if (!summary.is_object() || !summary.contains("special_points") || !summary["special_points"].is_array())
    refuse(dir, label,
           file.string() + " has no 'special_points': give the output folder of a `saltus continue` run");
  std::map<std::string, int> seen;
  std::vector<std::string> labels;
  for (const Json& s : summary["special_points"]) {
    if (!s.is_object() || s.value("branch", "branch") != "branch" || s.value("status", "") == "jump")
      continue;
    const std::string type = s.value("type", "");
    if (type == "EP") continue;
    const int k = ++seen[type];
    if (type == l.type && k == l.n) return s;
    labels.push_back(type + std::to_string(k));
  }
  std::string have;
  for (const auto& s : labels) have += (have.empty() ? "" : ", ") + s;
  refuse(dir, label,
         "the first branch saved there has " + std::to_string(seen[l.type]) + " " + l.type + " point(s); " +
             (have.empty() ? "it has no special point to restart from" : "give one of " + have));
}

// A value of the saved point's object `key` by name.
double saved_value(const Json& point, const std::string& key, const std::string& name, const fs::path& dir,
                   const std::string& label) {
  if (!point.contains(key) || !point[key].is_object())
    refuse(dir, label,
           "the saved point has no '" + key + "' (written by an older saltus): run the earlier study again");
  if (!point[key].contains(name))
    refuse(dir, label,
           "the saved point has no " + key + " '" + name +
               "': the run file does not match the saved run (its unknowns or parameters differ)");
  return number(point[key][name], dir / "summary.json", "special_points." + key + "." + name);
}

// The saved run's first-branch continuation parameters against the run's.
void check_parameters(const RunFile& run, const ContinuationProblem& problem, const Json& summary,
                      const Json& point, const fs::path& dir, const std::string& label) {
  const Json* first = nullptr;
  if (summary.contains("branches") && summary["branches"].is_array() && !summary["branches"].empty())
    first = &summary["branches"][0];
  if (!first || !first->is_object() ||
      first->value("continuation_parameters", Json::array()) != Json(run.continuation_parameters))
    refuse(dir, label,
           "the saved run continued in " +
               (first ? first->value("continuation_parameters", Json()).dump() : "?") + ", the run file in " +
               Json(run.continuation_parameters).dump() + ": the run file does not match the saved run");
  const auto names = problem.system().parameter_names();
  if (!point.contains("parameters") || !point["parameters"].is_object() ||
      point["parameters"].size() != names.size())
    refuse(dir, label,
           "the saved run has other parameters than the run file: it does not match the saved run");
  const auto& free = problem.free_parameters();
  for (int k = 0; k < static_cast<int>(names.size()); ++k) {
    const double saved = saved_value(point, "parameters", names[k], dir, label);
    if (std::find(free.begin(), free.end(), k) != free.end() || saved == run.parameters[k]) continue;
    std::ostringstream msg;
    msg.precision(17);
    msg << "the saved run has " << names[k] << " = " << saved << ", the run file " << run.parameters[k]
        << ": give the run file the earlier run's value, or run the study again";
    refuse(dir, label, msg.str());
  }
}

}  // namespace

void prepare_restart(RunFile* run, const fs::path& dir, const std::string& label) {
  const fs::path file = dir / "summary.json";
  if (!fs::is_regular_file(file))
    refuse(dir, label,
           "there is no " + file.string() + ": give the output folder of an earlier `saltus continue` run");
  const Label l = parse_label(dir, label);
  const Json summary = read_json(file);
  const Json& point = find_point(summary, dir, label, l);
  const std::vector<std::string> keys = follow_ups_from(*run, l.type);
  if (keys.empty())
    refuse(dir, label,
           "the run file has no follow-up that starts from an " + l.type +
               " point (LP: fold_curve, BP: switch_branch, HB: hopf_curve or hopf_cycles, PD: "
               "periodic.period_doubling)");
  const ContinuationProblem problem(run->system, run->parameters, run->continuation_parameters);
  check_parameters(*run, problem, summary, point, dir, label);
  const std::vector<std::string> names = problem.names();
  const int n = problem.state_size();
  if (!point.contains("state") || !point["state"].is_object() || static_cast<int>(point["state"].size()) != n)
    refuse(dir, label, "the saved point's unknowns are not the run file's: it does not match the saved run");
  SpecialPoint p;
  p.type = l.type;
  p.name = point.value("name", l.type);
  p.index = 0;
  p.y.resize(problem.size());
  p.tangent.resize(problem.size());
  const auto& free = problem.free_parameters();
  const auto pnames = problem.system().parameter_names();
  for (int i = 0; i < problem.size(); ++i) {
    p.y[i] = i < n ? saved_value(point, "state", names[i], dir, label)
                   : saved_value(point, "parameters", pnames[free[i - n]], dir, label);
    p.tangent[i] = saved_value(point, "tangent", names[i], dir, label);
  }
  p.status = point.value("status", "") == "located" ? EventStatus::kLocated : EventStatus::kBracketed;
  if (point.contains("precision") && point["precision"].is_number()) p.precision = point["precision"];
  if (point.contains("test_value") && point["test_value"].is_number()) p.test_value = point["test_value"];
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

}  // namespace saltus::drivers
