#pragma once
// Studies you compose: a branch continued from a system's start, then any
// follow-up continued from one of its special points, each a result that
// keeps what it was computed from. BifurcationKit.jl's
// `continuation(br, ind, ...)` idea, in our terms:
//
//   auto run = studies::load("examples/lorenz.json");
//   studies::BranchResult orbits = studies::continue_run(run);
//   studies::BranchResult doubled = studies::continue_from(orbits, "PD1");
//   studies::BranchResult curve = studies::continue_from(orbits, "PD1", {.to = "curve",
//                                                        .parameters = {"rho", "sigma"}});
//
// What follows a special point (continue_from):
//   LP  of solutions or equilibria: the fold curve in two parameters;
//   BP  of solutions or equilibria: the crossing branch;
//   HB  of equilibria: the cycles born there ("cycles", default), or the
//       Hopf curve ("curve");
//   BT  of a fold curve: the Hopf curve, into its Hopf side;
//   PD  of orbits: the period-doubled branch ("doubled", default), or the PD
//       curve ("curve");
//   LPC, NS of orbits: their curves in two parameters;
//   GR  of hybrid orbits: the grazing curve (studies/hybrid_study.h).
// A point of another type, or a follow-up the branch cannot give, throws
// StudyError saying what can follow it.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyses/grazing/through_grazing.h"
#include "continuation/branch.h"
#include "continuation/continuation_problem.h"
#include "continuation/periodic/shooting.h"
#include "continuation/pseudo_arclength.h"
#include "studies/run_file.h"

namespace saltus::studies {

struct HybridRun;  // studies/hybrid_run_file.h

// A study asked for something its branch cannot give (a point it does not
// have, a follow-up of the wrong kind): the message says what to ask instead.
class StudyError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// What a branch's points are; it decides what can follow its special points.
enum class BranchKind {
  kSolutions,   // F(x, p) = 0
  kEquilibria,  // F(x, p) = 0 as the rates of x' = F: with eigenvalues
  kOrbits,      // periodic orbits by shooting: (x, [T,] p)
  kFoldCurve,   // LP in two parameters
  kHopfCurve,   // HB in two parameters
  kCycleCurve,  // LPC, PD or NS of orbits in two parameters
};
std::string to_string(BranchKind kind);  // "solutions", "equilibria", ...

// Called after every point of every branch with the branch's name; return
// false to stop that branch (its points so far are kept, stop reason
// "callback").
using Progress = std::function<bool(const std::string& name, const Branch& branch)>;

struct BranchResult {
  std::string name;  // "branch", "fold_curve", "cycles", "doubled1", "pd_curve", ...
  BranchKind kind = BranchKind::kSolutions;
  Branch branch;
  std::shared_ptr<const RunFile> run;                  // the system's description and options
  std::shared_ptr<const ContinuationProblem> problem;  // whose points the branch holds: u = problem->u(y)
  std::shared_ptr<periodic::ShootingSystem> shooting;  // orbits: the shooting problem (null otherwise)
  std::shared_ptr<const flow::HybridSystem> ode;       // orbits: the flow, no parameter in its state
  TestFunctions tests;                                 // what the branch monitored
  std::vector<std::string> parameters;                 // curves: the two parameters
  std::string started_from;                            // "PD1 of branch", empty for a first branch
  // Hybrid orbits (studies/hybrid_study.h): the run in place of `run`, each
  // point's event sequence ("impact;impact", "none"), the grazings located
  // or crossed, and what the study found beside its points (the guess).
  std::shared_ptr<const HybridRun> hybrid;
  std::vector<std::string> sequences;
  std::vector<grazing::GrazingCrossing> grazings;
  Json info = Json::object();
};

// The system and study of a run file (studies/run_file.h), or of the same
// keys given as an object in memory (`where` names it in errors). Throws
// RunFileError naming the key.
std::shared_ptr<const RunFile> load(const std::filesystem::path& path);
std::shared_ptr<const RunFile> load_description(const Json& description,
                                                const std::string& where = "description");

// The run's first branch: from its start, in its first continuation
// parameter, with its options and detected points (orbits: the orbit found
// first, from the guess or by simulation). A start that does not converge is
// a branch with stop reason start_not_converged and the reason in its message.
BranchResult continue_run(std::shared_ptr<const RunFile> run, const Progress& progress = {});
// The same, not yet followed: its problem and tests, no points (a restart
// puts a saved point into it).
BranchResult prepare_run(std::shared_ptr<const RunFile> run);

// The follow-ups the run file's keys ask for after its first branch
// (branches->front(), from continue_run or, for a hybrid run, from
// continue_orbits), appended as each is computed: with "periodic", the
// doubled branches of periodic.period_doubling, each from the first PD of
// the one before; else fold_curve (from its LP), hopf_curve (from an HB, or
// from a BT of the fold curve), hopf_cycles and switch_branch; for a hybrid
// run, each curve of "periodic.curve" from the first located point of its
// kind. A key whose point the branch lacks, or whose follow-up
// cannot start, throws RunFileError naming the key; the branches before it
// stay in *branches.
void continue_run_follow_ups(std::vector<BranchResult>* branches, const Progress& progress = {});

// What follows a special point, and how.
struct FromOptions {
  std::string to;                              // "" the point's default; HB: "cycles" | "curve";
                                               // PD: "doubled" | "curve"
  std::vector<std::string> parameters;         // curves: the two free parameters (default: the
                                               // branch's parameter and the run's next one)
  std::optional<ContinuationOptions> options;  // default: the branch's own (bounds kept)
  double amplitude = 0.01;                     // HB cycles: the first cycle's largest excursion
  std::string name;                            // default: "fold_curve", "hopf_curve", "cycles", ...
};

BranchResult continue_from(const BranchResult& from, const SpecialPoint& point, const FromOptions& options = {},
                           const Progress& progress = {});
// The point by its label: "PD1" is the first PD of the branch (jumps
// skipped), "HB2" the second HB.
BranchResult continue_from(const BranchResult& from, const std::string& label, const FromOptions& options = {},
                           const Progress& progress = {});
const SpecialPoint& special_point(const BranchResult& from, const std::string& label);

// The n-th (1-based) point of `type` (jumps skipped), or null.
const SpecialPoint* nth_point(const Branch& branch, const std::string& type, int n);
// A curve's kind in words: "grazing (GR)", "fold of cycles (LPC)",
// "Neimark-Sacker point (NS)", "period doubling (PD)" (any other type as it is).
std::string curve_kind_text(const std::string& kind);

// Everything known about a special point beyond its branch's columns: its
// test function's data (an HB's frequency and l1, ...) and, on a branch of
// orbits, the period and the Floquet multipliers ([re, im] pairs, largest
// modulus first; an autonomous orbit's trivial one apart as
// "trivial_multiplier"; a large system's leading ones, and when some were
// left in a cluster "unresolved_multipliers_within", the modulus they lie
// within), at the full accuracy of the shooting problem.
Json point_data(const BranchResult& result, const SpecialPoint& point);

// The Floquet multipliers of the orbit at y (a point of result's branch),
// largest modulus first, an autonomous orbit's trivial one left out (into
// *trivial). A large (matrix-free) system's are the leading ones resolved
// (periodic::ShootingSystem::leading_multipliers), and *unresolved_bound the
// modulus within which those left in a cluster lie (0: none left). Throws
// when the orbit cannot be simulated.
Eigen::VectorXcd multipliers(const BranchResult& result, const Vector& y, std::complex<double>* trivial = nullptr,
                             double* unresolved_bound = nullptr);

// The shooting problem of `result` cut where its point y was computed (the
// cut moves along a branch of orbits: ShootingSystem::recut; branch.csv's
// t0): the one to simulate, differentiate or continue that orbit on. Null
// for a result without orbits.
std::shared_ptr<const periodic::ShootingSystem> shooting_at(const BranchResult& result, const Vector& y);

// Stability at a point: an equilibrium with no eigenvalue right of the axis,
// an orbit with every nontrivial multiplier inside the unit circle; empty
// when the branch carries no stability (or the orbit cannot be simulated).
std::optional<bool> stable_at(const BranchResult& result, const BranchPoint& point);

// The summary of one result: its branch's summary with name, kind, file,
// and every special point's point_data.
Json summary(const BranchResult& result);

// The defining system of the curve of cycles of `type` ("LPC", "PD", "NS";
// continuation/periodic/cycle_curve.h, ns_curve.h) over a shooting problem
// with two carried parameters, near u = (x, [T,] p1, p2); an NS curve's
// start (with its kappa) replaces *u. Throws std::invalid_argument when u is
// not near such a point, std::logic_error when the model has no
// tangent-lifted system.
std::shared_ptr<System> cycle_curve_system(const periodic::ShootingSystem& shooting, const std::string& type,
                                           Vector* u);

// (x, p) of a point y of a branch: the free parameters from y, the others fixed.
Vector u_of(const Branch& branch, const Vector& y);

}  // namespace saltus::studies
