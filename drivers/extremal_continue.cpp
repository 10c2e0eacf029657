#include "drivers/extremal_continue.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "analyses/contact/continuation.h"
#include "drivers/output.h"
#include "drivers/studies.h"
#include "studies/option_tables.h"

namespace saltus::drivers {

namespace fs = std::filesystem;

namespace {

const studies::KeyTable& keys() { return studies::extremal_run_file().keys; }

}  // namespace

const std::string& extremal_continue_help() {
  static const std::string help = studies::run_file_help(studies::extremal_run_file());
  return help;
}

namespace {

const char* const kNames[5] = {"s1", "s2", "x", "y", "phi"};

std::string pose_name(const Json& value, const fs::path& path, const std::string& key) {
  const std::string name = string(value, path, key);
  if (name != "x" && name != "y" && name != "phi")
    fail(path, "'" + key + "' = '" + name + "' is not a pose parameter; use one of x, y, phi");
  return name;
}

struct ContinueSpec {
  std::array<double, 5> start{};
  std::string parameter = "x";
  std::optional<std::array<std::string, 2>> fold_curve;
  bool cusp_curve = false;
  ContactContinuationOptions options;
};

ContinueSpec read_continue(const ExtremalRun& run) {
  const fs::path& path = run.path;
  ContinueSpec spec;
  spec.start = run.point;
  if (run.continue_json.is_null()) fail(path, "'continue' is missing (needed by `extremal continue`)");
  const Json& c = run.continue_json;
  if (!c.is_object())
    fail(path, "'continue' must be an object {\"start\", \"parameter\", \"fold_curve\", ...}");
  only_keys(c, studies::keys_under(keys(), "continue."), path, "continue.");
  if (c.contains("start")) {
    const Json& s = c["start"];
    if (!s.is_object())
      fail(path, "'continue.start' must be an object {\"s1\", \"s2\", \"x\", \"y\", \"phi\"}");
    only_keys(s, {"s1", "s2", "x", "y", "phi"}, path, "continue.start.");
    for (int i = 0; i < 5; ++i)
      if (s.contains(kNames[i]))
        spec.start[i] = number(s[kNames[i]], path, std::string("continue.start.") + kNames[i]);
  }
  if (c.contains("parameter")) spec.parameter = pose_name(c["parameter"], path, "continue.parameter");
  if (c.contains("fold_curve")) {
    const Json& f = c["fold_curve"];
    if (!f.is_array() || f.size() != 2)
      fail(path, "'continue.fold_curve' must be a list of two pose parameters, e.g. [\"x\", \"y\"], got " +
                     f.dump());
    std::array<std::string, 2> names{pose_name(f[0], path, "continue.fold_curve[0]"),
                                     pose_name(f[1], path, "continue.fold_curve[1]")};
    if (names[0] == names[1])
      fail(path, "'continue.fold_curve' names '" + names[0] + "' twice; give two different pose parameters");
    spec.fold_curve = names;
  }
  if (c.contains("cusp_curve")) spec.cusp_curve = boolean(c["cusp_curve"], path, "continue.cusp_curve");
  if (spec.cusp_curve && !spec.fold_curve)
    fail(path,
         "'continue.cusp_curve' needs 'continue.fold_curve' (the cusp curve starts from a cusp of the fold "
         "curve)");
  // The continuation options from the table (studies/options_json.h); the
  // bounds default to the pose +- 0.5, and given ones replace them per name.
  ContinuationOptions o;
  read_option_keys(c, continuation_option_table(), &o, path, "continue.");
  for (int i = 0; i < 5; ++i) o.bounds[kNames[i]] = Bound{run.point[i] - 0.5, run.point[i] + 0.5};
  if (c.contains("bounds")) {
    if (c["bounds"].is_object())
      only_keys(c["bounds"], {"s1", "s2", "x", "y", "phi"}, path, "continue.bounds.");
    read_bounds(c, &o.bounds, path, "continue.");
  }
  if (const std::string why = o.check(); !why.empty()) fail(path, "'continue': " + why);
  spec.options.branch = spec.options.fold_curve = spec.options.cusp_curve = o;
  spec.options.classification = run.options;
  return spec;
}

Json point_json(const std::array<double, 5>& p) {
  Json j;
  for (int i = 0; i < 5; ++i) j[kNames[i]] = p[i];
  return j;
}

Json located_json(const LocatedContactPoint& p) {
  Json j;
  j["type"] = p.type;
  j["point"] = point_json(p.point);
  j["located"] = point_json(p.located);
  j["polished"] = p.polished;
  j["residual"] = p.residual;
  j["det"] = p.scalars[0];
  j["c2_tilde"] = p.scalars[1];
  j["c3_tilde"] = p.scalars[2];
  j["classified"] = p.classified;
  if (p.classified) {
    const ContactClassification& c = p.classification;
    Json k;
    k["codimension"] = c.codimension;
    k["type"] = c.type;
    k["rank"] = c.rank;
    k["versal"] = c.versal;
    k["message"] = c.message;
    Json lyapunov = Json::object();
    for (const auto& [n, v] : c.c)
      if (n <= c.codimension + 1) lyapunov[std::to_string(n)] = v;
    k["c"] = lyapunov;
    Json rows = Json::array();
    for (const auto& row : c.transversality_matrix) rows.push_back(row);
    k["transversality_matrix"] = rows;
    j["classification"] = k;
  } else {
    j["message"] = p.message;
  }
  return j;
}

std::string expected_type(const std::string& type) {
  return type == "LP" ? "fold" : type == "CP" ? "cusp" : "swallowtail";
}

void write_branches(const std::vector<Branch>& branches, const fs::path& dir, const std::string& stem,
                    std::vector<fs::path>* files) {
  for (std::size_t i = 0; i < branches.size(); ++i) {
    const fs::path file = dir / (stem + "_" + std::to_string(i + 1) + ".csv");
    write_file_atomically(file, [&](std::ostream& o) { branches[i].write_csv(o); });
    files->push_back(file);
  }
}

// One series per branch of (component a, component b); labels at the special points of `type`.
Figure branch_figure(const std::vector<Branch>& branches, const std::string& a, const std::string& b,
                     const std::vector<LocatedContactPoint>& points, const std::string& title) {
  Figure figure;
  figure.title = title;
  figure.xlabel = a;
  figure.ylabel = b;
  const char* direction[2] = {"forward", "backward"};
  for (std::size_t i = 0; i < branches.size(); ++i) {
    Figure::Series s;
    s.title = std::string(direction[i % 2]);
    for (const BranchPoint& p : branches[i].points)
      s.points.emplace_back(branches[i].component(p.y, a), branches[i].component(p.y, b));
    figure.series.push_back(std::move(s));
  }
  auto index = [](const std::string& name) {
    for (int i = 0; i < 5; ++i)
      if (name == kNames[i]) return i;
    return 0;
  };
  for (const auto& p : points) {
    const std::string label =
        p.type + (p.classified ? " (codim " + std::to_string(p.classification.codimension) + ")" : "");
    figure.labels.push_back({p.point[index(a)], p.point[index(b)], label});
  }
  figure.labels_title = points.empty() ? "special points" : points.front().type + " points";
  return figure;
}

}  // namespace

int extremal_continue_command(const ExtremalRun& run, const fs::path& dir, bool json, std::ostream& out,
                              std::ostream& err) {
  const ContinueSpec spec = read_continue(run);
  const ContactContinuationResult result = continue_contact_points(
      run.problem, spec.start, spec.parameter, spec.fold_curve, spec.cusp_curve, spec.options);

  fs::create_directories(dir);
  std::vector<fs::path> files;
  write_branches(result.branches, dir, "branch", &files);
  write_branches(result.fold_curves, dir, "fold_curve", &files);
  write_branches(result.cusp_curves, dir, "cusp_curve", &files);

  std::vector<Drawing> drawings{
      {"branch", branch_figure(result.branches, spec.parameter, "s1", result.folds,
                               run.name + ": extremal points against " + spec.parameter + ", folds marked")}};
  if (spec.fold_curve && !result.fold_curves.empty())
    drawings.push_back(
        {"fold_curve", branch_figure(result.fold_curves, (*spec.fold_curve)[0], (*spec.fold_curve)[1],
                                     result.cusps, run.name + ": fold curve, cusps marked")});
  if (spec.cusp_curve && !result.cusp_curves.empty())
    drawings.push_back(
        {"cusp_curve", branch_figure(result.cusp_curves, "x", "y", result.swallowtails,
                                     run.name + ": cusp curve (x, y projection), swallowtails marked")});
  std::vector<std::string> warnings;
  for (auto& p : draw(drawings, dir, &warnings)) files.push_back(p);

  Json summary;
  summary["name"] = run.name;
  summary["run_file"] = run.path.string();
  summary["message"] = result.message;
  summary["start"] = point_json(spec.start);
  summary["parameter"] = spec.parameter;
  if (spec.fold_curve) summary["fold_curve"] = {(*spec.fold_curve)[0], (*spec.fold_curve)[1]};
  summary["cusp_curve"] = spec.cusp_curve;
  for (const auto& [key, list] :
       {std::pair<const char*, const std::vector<LocatedContactPoint>*>{"folds", &result.folds},
        {"cusps", &result.cusps},
        {"swallowtails", &result.swallowtails}}) {
    Json a = Json::array();
    for (const auto& p : *list) a.push_back(located_json(p));
    summary[key] = a;
  }
  Json branches = Json::array();
  for (const auto* list : {&result.branches, &result.fold_curves, &result.cusp_curves})
    for (const Branch& b : *list) branches.push_back(b.summary());
  summary["branches"] = branches;
  const fs::path summary_file = dir / "continue.json";
  write_file_atomically(summary_file, [&](std::ostream& o) { o << summary.dump(2) << '\n'; });
  files.push_back(summary_file);
  for (const auto& w : warnings) err << "saltus extremal continue: warning: " << w << '\n';

  if (json) {
    out << summary.dump(2) << '\n';
  } else {
    out << run.name << ": " << result.message << '\n';
    for (const auto* list : {&result.folds, &result.cusps, &result.swallowtails})
      for (const auto& p : *list) {
        out << "  " << p.type << " at s1 = " << models::format_number(p.point[0])
            << ", s2 = " << models::format_number(p.point[1]) << ", x = " << models::format_number(p.point[2])
            << ", y = " << models::format_number(p.point[3])
            << ", phi = " << models::format_number(p.point[4]);
        if (p.classified)
          out << ": " << p.classification.type << " (codimension " << p.classification.codimension << ")";
        else
          out << ": not classified: " << p.message;
        if (p.classified && p.classification.type != expected_type(p.type)) out << " [unexpected type]";
        out << '\n';
      }
    out << "wrote " << files.size() << " files to " << dir.string() << '\n';
  }
  if (spec.fold_curve && result.folds.empty()) {
    err << "saltus extremal continue: " << run.path.string()
        << ": no fold on the branch, so no fold curve; move 'continue.start' or widen 'continue.bounds'\n";
    return 2;
  }
  return 0;
}

}  // namespace saltus::drivers
