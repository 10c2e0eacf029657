#include "drivers/continue_command.h"

#include <cmath>

#include "continuation/branch_switching.h"
#include "continuation/pseudo_arclength.h"
#include "drivers/output.h"
#include "testfunctions/branch_point.h"
#include "testfunctions/fold.h"
#include "testfunctions/user_value.h"

namespace saltus::drivers {

namespace fs = std::filesystem;

namespace {

ContinuationOptions with_progress(ContinuationOptions options, const std::string& name, const Progress& progress) {
  if (progress)
    options.callback = [progress, name](const Branch& b) {
      progress(name, b);
      return true;
    };
  return options;
}

const SpecialPoint& nth(const Branch& branch, const std::string& type, int n, const std::string& key) {
  int seen = 0;
  for (const auto& s : branch.special_points)
    if (s.type == type && ++seen == n) return s;
  throw RunFileError("'" + key + ".from' = " + std::to_string(n) + ", but the first branch has " +
                     std::to_string(seen) + " " + type + " point(s)");
}

}  // namespace

// The fold curve and the switched branch, appended to *out.
void follow_ups(const RunFile& run, const ContinuationProblem& problem, const TestFunctions& tests,
                const Progress& progress, std::vector<NamedBranch>* out);

std::vector<NamedBranch> run_continuation(const RunFile& run, const Progress& progress,
                                          std::string* follow_up_error) {
  const auto system = run.system;
  ContinuationProblem problem(system, run.parameters, run.continuation_parameters);
  TestFunctions tests;
  if (run.detect_folds) tests.push_back(std::make_shared<FoldTest>());
  if (run.detect_branch_points) tests.push_back(std::make_shared<BranchPointTest>());
  for (const auto& e : run.events) {
    const models::Expression expression = e.expression;
    tests.push_back(std::make_shared<UserTest>(
        e.name, [expression](const Vector& u) { return expression.evaluate(u.data()); }, e.stop));
  }
  Vector y0(problem.size());
  y0.head(problem.state_size()) = run.start_state;
  y0[problem.state_size()] = run.parameters[problem.free_parameters()[0]];

  std::vector<NamedBranch> branches;
  branches.reserve(3);  // the first branch, a fold curve, a switched branch: references stay valid
  branches.push_back({"branch", continue_branch(problem, y0, with_progress(run.options, "branch", progress), tests)});
  if (!branches.front().branch.ok()) return branches;

  try {
    follow_ups(run, problem, tests, progress, &branches);
  } catch (const RunFileError& e) {
    if (!follow_up_error) throw;
    *follow_up_error = e.what();
  }
  return branches;
}

void follow_ups(const RunFile& run, const ContinuationProblem& problem, const TestFunctions& tests,
                const Progress& progress, std::vector<NamedBranch>* out) {
  std::vector<NamedBranch>& branches = *out;
  const auto& system = run.system;
  const Branch& first = branches.front().branch;
  if (run.fold_curve) {
    const SpecialPoint& lp = nth(first, "LP", run.fold_curve->from, "fold_curve");
    FoldCurve curve = fold_curve(system, problem.u(lp.y), run.fold_curve->parameters);
    branches.push_back({"fold_curve", continue_branch(*curve.problem, curve.start,
                                                      with_progress(run.fold_curve->options, "fold_curve", progress),
                                                      {curve.cusp})});
  }
  if (run.switch_branch) {
    const SpecialPoint& bp = nth(first, "BP", run.switch_branch->from, "switch_branch");
    try {
      branches.push_back({"switched", switch_branch(problem, bp, with_progress(run.switch_branch->options, "switched", progress),
                                                    tests)});
    } catch (const std::invalid_argument& e) {
      throw RunFileError(std::string("switch_branch: ") + e.what());
    }
  }
}

nlohmann::ordered_json summarize(const RunFile& run, const std::vector<NamedBranch>& branches) {
  nlohmann::ordered_json j;
  j["name"] = run.name;
  j["run_file"] = run.path.string();
  const Branch& first = branches.front().branch;
  j["stop_reason"] = to_string(first.stop_reason);
  j["message"] = first.message;
  j["points"] = first.points.size();
  auto& specials = j["special_points"] = nlohmann::ordered_json::array();
  auto& list = j["branches"] = nlohmann::ordered_json::array();
  for (const auto& [name, branch] : branches) {
    nlohmann::ordered_json b = {{"name", name}, {"file", name + ".csv"}};
    b.update(branch.summary());
    for (auto s : b["special_points"]) {
      s["branch"] = name;
      specials.push_back(s);
    }
    list.push_back(b);
  }
  return j;
}

namespace {

double plotted(const Branch& branch, const Vector& y, const std::string& axis) {
  if (axis == "max") return y.head(branch.state_size).lpNorm<Eigen::Infinity>();
  if (axis == "norm") return y.head(branch.state_size).norm() / std::sqrt(double(branch.state_size));
  return branch.component(y, axis);
}

Figure figure_of(const std::string& title, const std::string& x, const std::string& y,
                 const std::vector<const NamedBranch*>& branches) {
  Figure f;
  f.title = title;
  f.xlabel = x;
  f.ylabel = y == "max" ? "max |x_i|" : y == "norm" ? "|x| / sqrt(n)" : y;
  for (const NamedBranch* nb : branches) {
    Figure::Series s{nb->name, {}};
    for (const auto& p : nb->branch.points)
      s.points.emplace_back(plotted(nb->branch, p.y, x), plotted(nb->branch, p.y, y));
    f.series.push_back(std::move(s));
    for (const auto& sp : nb->branch.special_points)
      f.labels.push_back({plotted(nb->branch, sp.y, x), plotted(nb->branch, sp.y, y), sp.type});
  }
  return f;
}

}  // namespace

std::vector<fs::path> write_outputs(const RunFile& run, const std::vector<NamedBranch>& branches,
                                    const fs::path& dir, std::vector<std::string>* warnings) {
  fs::create_directories(dir);
  std::vector<fs::path> files;
  for (const auto& nb : branches) {
    const fs::path csv = dir / (nb.name + ".csv");
    write_file_atomically(csv, [&](std::ostream& out) { nb.branch.write_csv(out); });
    files.push_back(csv);
  }
  const fs::path summary = dir / "summary.json";
  write_file_atomically(summary, [&](std::ostream& out) { out << summarize(run, branches).dump(2) << '\n'; });
  files.push_back(summary);

  // The one-parameter branches share a figure; a fold curve gets its own, in
  // its two parameters.
  std::vector<const NamedBranch*> one_parameter;
  for (const auto& nb : branches)
    if (nb.name != "fold_curve" && nb.branch.points.size() > 0) one_parameter.push_back(&nb);
  std::string warning;
  auto add = [&](const Figure& f, const std::string& stem) {
    warning.clear();
    for (auto& p : draw(f, dir, stem, &warning)) files.push_back(p);
    if (!warning.empty() && warnings) warnings->push_back(warning);
  };
  add(figure_of(run.name, run.plot.x, run.plot.y, one_parameter), "branch");
  for (const auto& nb : branches)
    if (nb.name == "fold_curve" && !nb.branch.points.empty())
      add(figure_of(run.name + ": fold curve", run.fold_curve->parameters[0], run.fold_curve->parameters[1], {&nb}),
          "fold_curve");
  return files;
}

}  // namespace saltus::drivers
