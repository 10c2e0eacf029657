#pragma once
// Contact geometry as a study (Damerau & Low 2016; analyses/contact/): a
// contact run file (`saltus extremal`, its keys in studies/option_tables_extremal.cpp)
// read into the two curves and the degenerate point, its classification
// (Lyapunov coefficients c_n, c_nm, codimension, transversality matrix,
// Tschirnhaus normal form) and the extremal points at a pose, as data.

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "analyses/contact/classification.h"
#include "models/extremal.h"
#include "models/planar_curve.h"
#include "studies/json_input.h"
#include "studies/study.h"  // StudyError

namespace saltus::studies {

struct ExtremalRun {
  std::filesystem::path path;
  std::string name;  // default: the file's stem
  std::string description;
  std::string note;
  models::AnyShape curve1, curve2;
  Json curve1_json, curve2_json;    // as given (echoed in the output)
  models::ExtremalProblem problem;  // built from curve1, curve2 (shapes checked)
  std::array<double, 5> point{};    // s1, s2, x, y, phi
  ContactClassificationOptions options;
  double box = 0.3;    // default half-width of the solutions search, in s1 and s2
  int grid = 64;       // Newton starts per side in the solutions search
  Json continue_json;  // the optional "continue" object as given (studies/contact_branches.h reads it)
  Json track_json;     // the optional "track" object as given
};

// Reads and checks a contact run file, or the same keys as an object in
// memory (`where` names it); throws RunFileError naming the file and the key.
ExtremalRun read_extremal_run(const std::filesystem::path& path);
ExtremalRun parse_extremal_run(const Json& description, const std::filesystem::path& where);

// The classification of the run's degenerate point (analyses/contact/
// classification.h). Throws StudyError when the point is not a degenerate
// extremal point (the message gives det J) or the options are invalid.
ContactClassification classify(const ExtremalRun& run);

// The classification as data: name, run_file, description, note, status,
// message, degenerate_point {s1, s2, x, y, phi}, kappa1, kappa2, d, epsilon,
// det, trace, degeneracy_case, order, lyapunov {c: {"n": value}, cm:
// {"n,m": value}, c_exact, cm_exact}, codimension, transversality_matrix
// (rows), transversality_matrix_exact (rows of strings), rank, versal, type,
// normal_form [{power, polynomial, exact, terms}], truncation_order, exact,
// exact_note.
Json classification_json(const ExtremalRun& run, const ContactClassification& r);
Json point_json(const std::array<double, 5>& p);  // {s1, s2, x, y, phi}
const char* status_name(ClassificationStatus s);  // "classified", "undecided"

// The extremal points near the degenerate point at one pose, and what the
// normal form predicts there.
struct ExtremalPointsAtPose {
  Eigen::Vector3d pose;
  double box = 0.0;
  models::ExtremalPoints found;
  ContactClassification classification;
  bool decided = false;  // classified: the prediction exists
  int predicted = -1;
  std::vector<double> mu;  // the normal form's coefficients at the pose
};
// box <= 0: the run's "search.box". Throws StudyError for a pose that is not
// finite or a point that cannot be classified.
ExtremalPointsAtPose extremal_points(const ExtremalRun& run, const Eigen::Vector3d& pose, double box = 0.0);
// As data: name, run_file, pose, degenerate_point, box, grid, count,
// opposing_count, solutions [{s1, s2, residual, det, d, opposing,
// degenerate}], status, type, codimension, predicted_count (null when
// undecided, with message), normal_form_coefficients, agrees, search.
Json extremal_points_json(const ExtremalRun& run, const ExtremalPointsAtPose& s);

}  // namespace saltus::studies
