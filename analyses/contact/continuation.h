#pragma once
// Folds, cusps and swallowtails of the extremal-point problem located by
// continuation, then classified (Damerau & Low 2016, Sec. 4,
// doi:10.1115/1.4034393).
//
//  1. A branch of extremal points f(s1, s2; x, y, phi) = 0 in one pose
//     parameter: folds "LP" where the parameter component of the tangent
//     changes sign (FoldTest).
//  2. The fold curve in two pose parameters: the extended system
//     f = 0, det = 0 in (s1, s2, p1, p2), with det the arc-length determinant
//     (10); cusps "CP" where c2~ changes sign.
//  3. The cusp curve in (x, y, phi): f = 0, det = 0, c2~ = 0 in (s1, s2, x,
//     y, phi), 4 equations in 5 unknowns; swallowtails "SW" where c3~ changes
//     sign.
// det, c2~, c3~ and their exact gradients are models/extremal_degeneracy.h's
// (Taylor series along (s1, s2) with ceres::Jet coefficients); c2~ and c3~
// vanish exactly where the paper's c_2 and c_3 do (derivation there).
//
// Each located point is polished by Newton on its square system ((f, det) in
// (s1, s2, p) for LP; (f, det, c2~) in (s1, s2, p1, p2) for CP; (f, det, c2~,
// c3~) in all five for SW), then classified with classify()
// (analyses/contact/classification.h): codimension 1, 2, 3.

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyses/contact/classification.h"
#include "continuation/branch.h"
#include "continuation/continuation_problem.h"
#include "continuation/options.h"
#include "continuation/test_function.h"
#include "models/extremal.h"

namespace saltus {

// det (which = 0, name "det") or c2~ (which = 1, name "c2") as an extra
// equation of an augmented system, with its exact gradient.
class ExtremalDegeneracyFunction : public DefiningFunction {
 public:
  ExtremalDegeneracyFunction(std::shared_ptr<const models::ExtremalDegeneracy> degeneracy, int which);
  std::string name() const override { return which_ == 0 ? "det" : "c2"; }
  double evaluate(const System& system, const Vector& u, Vector* gradient) const override;

 private:
  std::shared_ptr<const models::ExtremalDegeneracy> degeneracy_;
  int which_;
};

// c2~ (type "CP") or c3~ (type "SW") as a test function.
class ExtremalDegeneracyTest : public TestFunction {
 public:
  ExtremalDegeneracyTest(std::shared_ptr<const models::ExtremalDegeneracy> degeneracy, int which);
  std::string type() const override { return which_ == 1 ? "CP" : "SW"; }
  double value(const PointContext& point) const override;

 private:
  std::shared_ptr<const models::ExtremalDegeneracy> degeneracy_;
  int which_;
};

struct ContactContinuationOptions {
  // The bounds of each may name any of s1, s2, x, y, phi: each stage keeps
  // those that name components of its branch.
  ContinuationOptions branch;                   // the one-parameter branch (both directions from the start)
  ContinuationOptions fold_curve;               // the fold curve (both directions from the first fold)
  ContinuationOptions cusp_curve;               // the cusp curve (both directions from the first cusp)
  ContactClassificationOptions classification;  // for classify() at each located point
  int polish_iterations = 20;                   // Newton iterations on the square system (0: no polishing)
  double polish_tolerance = 1e-13;              // |step|_inf at which the polishing stops
  double duplicate_tolerance = 1e-6;  // located points of one type closer than this (inf-norm) are one

  std::string check() const;  // empty when valid, else names the first bad field
};

struct LocatedContactPoint {
  std::string type;                  // "LP", "CP", "SW"
  std::array<double, 5> point{};     // s1, s2, x, y, phi (polished when polished)
  std::array<double, 5> located{};   // as the continuation located it
  Eigen::Vector3d scalars{0, 0, 0};  // det, c2~, c3~ at point
  bool polished = false;             // Newton converged (else point = located)
  double residual = 0;               // |square system|_inf at point
  bool classified = false;
  ContactClassification classification;
  std::string message;  // why not classified, when not
};

struct ContactContinuationResult {
  std::vector<Branch> branches;     // the one-parameter branch: forward, backward
  std::vector<Branch> fold_curves;  // forward, backward from the first fold (empty when not asked)
  std::vector<Branch> cusp_curves;  // forward, backward from the first cusp
  std::vector<LocatedContactPoint> folds, cusps, swallowtails;
  std::string message;  // one line: what was found
};

// One branch of extremal points in `parameter` ("x", "y" or "phi") through
// start (s1, s2, x, y, phi), in options.direction, with the fold test.
Branch extremal_branch(const models::ExtremalProblem& problem, const std::array<double, 5>& start,
                       const std::string& parameter, const ContinuationOptions& options);
// The fold curve through a fold point in two pose parameters, with the cusp test.
Branch extremal_fold_curve(const models::ExtremalProblem& problem, const std::array<double, 5>& fold,
                           const std::array<std::string, 2>& parameters, const ContinuationOptions& options);
// The cusp curve through a cusp point in (x, y, phi), with the swallowtail test.
Branch extremal_cusp_curve(const models::ExtremalProblem& problem, const std::array<double, 5>& cusp,
                           const ContinuationOptions& options);

// Polish (Newton on the square system of `type` in (s1, s2, free)) and classify.
LocatedContactPoint refine_contact_point(const models::ExtremalProblem& problem, const std::string& type,
                                         const std::array<double, 5>& point,
                                         const std::vector<std::string>& free,
                                         const ContactContinuationOptions& options);

// The whole chain: branch in `parameter` from start; folds; when
// fold_parameters is given, the fold curve from the first fold and its cusps;
// when cusp_curve, the cusp curve from the first cusp and its swallowtails.
// Throws std::invalid_argument naming a bad parameter name or option.
ContactContinuationResult continue_contact_points(
    const models::ExtremalProblem& problem, const std::array<double, 5>& start, const std::string& parameter,
    const std::optional<std::array<std::string, 2>>& fold_parameters, bool cusp_curve,
    const ContactContinuationOptions& options = {});

}  // namespace saltus
