#include "drivers/extremal_commands.h"

#include <cmath>
#include <exception>
#include <sstream>
#include <stdexcept>

#include "analyses/contact/format.h"
#include "drivers/studies.h"
#include "models/expression.h"
#include "studies/contact_study.h"

namespace saltus::drivers {

namespace fs = std::filesystem;

namespace {

std::string fmt(double v) { return models::format_number(v); }

// "0 = mu_0 + mu_1 p + ... + p^(z+1)".
std::string normal_form_equation(int z) {
  std::string s = "0 = mu_0";
  for (int i = 1; i < z; ++i) s += " + mu_" + std::to_string(i) + (i == 1 ? " p" : " p^" + std::to_string(i));
  return s + " + p^" + std::to_string(z + 1);
}

void classification_text(const ExtremalRun& run, const ContactClassification& r, std::ostream& out) {
  out << run.name << " (" << run.path.string() << ")\n";
  if (!run.description.empty()) out << run.description << '\n';
  if (!run.note.empty()) out << "note: " << run.note << '\n';
  const auto& p = r.degenerate_point;
  out << "degenerate point: s1 = " << fmt(p[0]) << ", s2 = " << fmt(p[1]) << ", x = " << fmt(p[2])
      << ", y = " << fmt(p[3]) << ", phi = " << fmt(p[4]) << '\n';
  out << "kappa1 = " << fmt(r.kappa1) << ", kappa2 = " << fmt(r.kappa2) << ", d = " << fmt(r.d)
      << ", det = " << fmt(r.det) << ", trace = " << fmt(r.trace) << " (" << r.degeneracy_case << ")\n";
  out << "status: " << status_name(r.status) << ": " << r.message << '\n';
  auto with_exact = [&](double v, const std::string& e) {
    return (r.exact && !e.empty() && e != fmt(v)) ? fmt(v) + " (" + e + ")" : fmt(v);
  };
  out << "Lyapunov coefficients (N = " << r.order << "), three a line:";
  int shown = 0;
  for (const auto& [n, v] : r.c) {
    const auto it = r.c_exact.find(n);
    out << (shown++ % 3 ? "   " : "\n  ") << "c_" << n << " = "
        << with_exact(v, it == r.c_exact.end() ? "" : it->second);
  }
  shown = 0;
  for (const auto& [nm, v] : r.cm) {  // "n,3", "n,4", "n,5": one row n a line
    const auto it = r.cm_exact.find(nm);
    out << (shown++ % 3 ? "   " : "\n  ") << "c_" << nm << " = "
        << with_exact(v, it == r.cm_exact.end() ? "" : it->second);
  }
  out << '\n';
  if (r.status != ClassificationStatus::kClassified) return;
  out << "codimension " << r.codimension << " (" << r.type << ")\n";
  out << "transversality matrix (25), rank " << r.rank << (r.versal ? ", versal" : ", not versal") << ":\n";
  for (std::size_t i = 0; i < r.transversality_matrix.size(); ++i) {
    out << "  [";
    for (std::size_t k = 0; k < r.transversality_matrix[i].size(); ++k)
      out << (k ? " " : "") << (r.exact ? r.transversality_exact[i][k] : fmt(r.transversality_matrix[i][k]));
    out << "]\n";
  }
  out << "normal form " << normal_form_equation(r.codimension) << " (to degree " << r.truncation_order
      << " in x, y, phi: the deviations from the degenerate pose):\n";
  for (const auto& mu : r.normal_form) {
    if (mu.power >= r.codimension) continue;  // mu_z = 0 after the Tschirnhaus shift
    out << "  mu_" << mu.power << " = " << polynomial_text(mu, r.exact) << '\n';
  }
  if (!r.exact) out << "(doubles: " << r.exact_note << ")\n";
}

// Classifies, reporting a failure on err.
bool classify_run(const ExtremalRun& run, const char* command, ContactClassification* result,
                  std::ostream& err) {
  try {
    *result = studies::classify(run);
    return true;
  } catch (const StudyError& e) {
    err << "saltus extremal " << command << ": " << e.what() << '\n';
    return false;
  }
}

}  // namespace

int extremal_classify_command(const ExtremalRun& run, bool json, std::ostream& out, std::ostream& err) {
  ContactClassification r;
  if (!classify_run(run, "classify", &r, err)) return 1;
  if (json)
    out << classification_json(run, r).dump(2) << '\n';
  else
    classification_text(run, r, out);
  if (r.status != ClassificationStatus::kClassified) {
    err << "saltus extremal classify: " << run.path.string() << ": " << r.message << '\n';
    return 2;
  }
  return 0;
}

namespace {

using SolutionsReport = studies::ExtremalPointsAtPose;

void print_solutions(const ExtremalRun& run, const SolutionsReport& s, std::ostream& out) {
  out << run.name << ": pose x = " << fmt(s.pose[0]) << ", y = " << fmt(s.pose[1])
      << ", phi = " << fmt(s.pose[2]) << "; box |s_i - s_i*| <= " << fmt(s.box) << " around (s1*, s2*) = ("
      << fmt(run.point[0]) << ", " << fmt(run.point[1]) << ")\n";
  out << "count: " << s.found.count << " extremal points (" << s.found.opposing_count << " opposing)\n";
  for (const auto& p : s.found.solutions)
    out << "  s1 = " << fmt(p.s1) << ", s2 = " << fmt(p.s2) << ", d = " << fmt(p.geometry.d)
        << ", det J = " << fmt(p.geometry.det_arclength) << (p.degenerate ? " (degenerate)" : "") << '\n';
  if (s.decided) {
    const ContactClassification& r = s.classification;
    out << "normal form (" << r.type << ", " << normal_form_equation(r.codimension) << "): mu =";
    for (double m : s.mu) out << ' ' << fmt(m);
    out << "\npredicted count: " << s.predicted
        << (s.predicted == s.found.count ? " (agrees)" : " (DISAGREES)") << '\n';
  }
}

}  // namespace

int extremal_solutions_command(const ExtremalRun& run, double x, double y, double phi, double box, bool json,
                               std::ostream& out, std::ostream& err) {
  SolutionsReport s;
  try {
    s = studies::extremal_points(run, Eigen::Vector3d(x, y, phi), box);
  } catch (const StudyError& e) {
    err << "saltus extremal solutions: " << e.what() << '\n';
    return 1;
  }
  if (json)
    out << extremal_points_json(run, s).dump(2) << '\n';
  else
    print_solutions(run, s, out);
  if (!s.decided) {
    err << "saltus extremal solutions: " << run.path.string() << ": " << s.classification.message
        << "; no predicted count\n";
    return 2;
  }
  return 0;
}

}  // namespace saltus::drivers
