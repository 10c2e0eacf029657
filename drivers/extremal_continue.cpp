#include "drivers/extremal_continue.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "drivers/studies.h"
#include "studies/contact_branches.h"
#include "studies/option_tables.h"
#include "studies/output.h"

namespace saltus::drivers {

namespace fs = std::filesystem;

const std::string& extremal_continue_help() {
  static const std::string help = studies::run_file_help(studies::extremal_run_file());
  return help;
}

namespace {

const char* const kNames[5] = {"s1", "s2", "x", "y", "phi"};

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
  const ContactContinueStudy study = continue_contact(run);
  const ContactContinueSpec& spec = study.spec;
  const ContactContinuationResult& result = study.result;
  const Json& summary = study.summary;
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
