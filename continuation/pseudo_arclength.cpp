#include "continuation/pseudo_arclength.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "continuation/corrector.h"
#include "continuation/eigenvalues.h"
#include "continuation/locate.h"
#include "continuation/predictor.h"

namespace saltus {

bool tangent_at(const ContinuationProblem& problem, const Vector& y, const Vector& r,
                BorderedJacobian* jacobian, Vector* tangent) {
  if (!factor_bordered(problem, y, r, jacobian)) return false;
  Vector e = Vector::Zero(problem.size());
  e[problem.size() - 1] = 1.0;
  try {
    *tangent = jacobian->solve(e);
  } catch (const std::runtime_error&) {  // matrix-free: GMRES short of its tolerance
    if (!jacobian->matrix_free()) throw;
    return false;
  }
  const double norm = tangent->norm();
  if (!(norm > 0.0) || !std::isfinite(norm)) return false;
  *tangent /= norm;
  return true;
}

namespace {

// Leaving a bounded component ends the branch: min(y_k - lo, hi - y_k) is
// positive inside and changes sign on the way out.
class BoundTest : public TestFunction {
 public:
  BoundTest(int index, std::string component, Bound bound)
      : index_(index), component_(std::move(component)), bound_(bound) {}
  std::string type() const override { return "EP"; }
  std::string name() const override { return "EP(" + component_ + ")"; }
  double value(const PointContext& point) const override {
    const double v = point.y[index_];
    return std::min(v - bound_.min, bound_.max - v);
  }
  bool stops_branch() const override { return true; }
  bool reads_eigenvalues() const override { return false; }
  int index() const { return index_; }
  // The bound that y is past (or nearer to).
  double crossed(const Vector& y) const {
    return y[index_] - bound_.min < bound_.max - y[index_] ? bound_.min : bound_.max;
  }

 private:
  int index_;
  std::string component_;
  Bound bound_;
};

struct Evaluated {
  Vector y, tangent;
  double value = 0.0;
  Matrix G_y;  // at y, for a dense chord corrector's Broyden start (else empty)
};

// The eigenvalues of F_x at y when the branch monitors them, else none.
// `factored`: the bordered Jacobian factored at y, or null.
// `warm`: the branch's warm start for the sparse eigensolver.
Eigen::VectorXcd monitored_eigenvalues(const ContinuationProblem& problem, const Vector& y,
                                       const ContinuationOptions& options, const BorderedJacobian* factored,
                                       EigenvalueWarmStart* warm = nullptr) {
  if (!options.eigenvalues) return {};
  return equilibrium_eigenvalues(problem, y, options.eigenvalue_count, factored, warm);
}

// The zero of one test function between y0 (s = 0) and the next point (s = s1),
// on corrected points y(s) with t0.(y - y0) = s.
// `known1`: G_y at y1, when the branch keeps it (a dense chord problem).
SpecialPoint locate(const ContinuationProblem& problem, const TestFunction& test, const Vector& y0,
                    const Vector& t0, double s1, double tau0, double tau1, const ContinuationOptions& options,
                    const Vector& y1, const Vector& t1, const KnownJacobian* known1,
                    EigenvalueWarmStart* warm) {
  std::map<double, Evaluated> seen;
  seen[0.0] = {y0, t0, tau0, {}};
  seen[s1] = {y1, t1, tau1, known1 ? known1->G_y : Matrix()};
  const bool broyden = known1 != nullptr;  // the branch keeps G_y: so do the bracket's points
  BorderedJacobian jacobian;
  auto phi = [&](double s) {
    // Predict from the nearest point already on the branch, along its
    // tangent, onto the hyperplane t0.(y - y0) = s: as the bracket closes on
    // a branch point this stays on the followed branch where the straight
    // chord from y0 would drift towards the crossing one.
    auto near = seen.lower_bound(s);
    if (near == seen.end() || (near != seen.begin() && s - std::prev(near)->first < near->first - s)) --near;
    const Evaluated& e = near->second;
    const double alpha = (s - t0.dot(e.y - y0)) / t0.dot(e.tangent);
    // From the nearest point's Jacobian by Broyden's update, as a branch step
    // starts (corrector.h): no Jacobian at the predicted point.
    const KnownJacobian near_known{e.y, e.G_y};
    Correction c = correct(problem, e.y + alpha * e.tangent, t0, options, &jacobian,
                           e.G_y.size() > 0 ? &near_known : nullptr);
    if (!c.converged) throw std::runtime_error(c.message);
    Vector t;
    // At a singular point (the branch point itself) keep t0: the determinant
    // there is zero, which is what the bracket is after.
    const bool factored = tangent_at(problem, c.y, t0, &jacobian, &t);
    if (!factored) t = t0;
    Matrix G_y;
    if (factored && broyden) G_y = jacobian.dense_matrix().topRows(problem.equations());
    // Near a branch point the hyperplane t0.(y - y0) = s also cuts the
    // crossing branch, and Newton may land there: its tangent turns away
    // from t0 by far more than the followed branch does between y0 and y1.
    if (t.dot(t0) < std::min(t1.dot(t0), 1.0) - 0.05)
      throw std::runtime_error("the corrector left the branch");
    Eigen::VectorXcd lambda;  // only for a test that reads them
    if (test.reads_eigenvalues())
      lambda = monitored_eigenvalues(problem, c.y, options, factored ? &jacobian : nullptr, warm);
    const double v = test.value(PointContext{problem, c.y, t, jacobian, lambda});
    seen[s] = {c.y, t, v, std::move(G_y)};
    return v;
  };
  SpecialPoint sp;
  sp.type = test.type();
  sp.name = test.name();
  double a = 0.0, b = s1;
  try {
    const Location where = locate_sign_change(phi, 0.0, s1, tau0, tau1,
                                              {options.event_tolerance, false, options.max_event_iterations});
    a = where.lo;
    b = where.hi;
    sp.status = where.status;
  } catch (const std::exception&) {
    // The corrector failed inside the bracket: report the bracket we have.
    sp.status = EventStatus::kBracketed;
    // Narrowest known bracket: the last evaluated points on either side.
    a = 0.0, b = s1;
    for (const auto& [s, e] : seen) {
      if ((e.value > 0) == (tau0 > 0))
        a = std::max(a, s);
      else
        b = std::min(b, s);
    }
  }
  const Evaluated& ea = seen.at(a);
  const Evaluated& eb = seen.at(b);
  // A zero of a continuous test function leaves values of order
  // slope x event_tolerance at the bracket's ends (a square-root zero, at
  // most ~sqrt(event_tolerance / s1) of the step's values); a jump keeps
  // both ends of order one.
  if (sp.status == EventStatus::kLocated &&
      std::min(std::abs(ea.value), std::abs(eb.value)) > 1e-2 * std::max(std::abs(tau0), std::abs(tau1)))
    sp.status = EventStatus::kJump;
  const Evaluated& best = std::abs(ea.value) <= std::abs(eb.value) ? ea : eb;
  sp.y = best.y;
  sp.tangent = best.tangent;
  sp.test_value = best.value;
  sp.precision = std::abs(b - a);
  return sp;
}

// A bound is reached where its component equals it: one corrector solve
// with the component fixed (the border e_k), from the chord between y0 and
// y1 (the test is linear in y: its zero needs no bracketing). Nothing when
// the corrector fails there (the branch turning in that component) or throws
// std::runtime_error (a trial point the problem cannot evaluate): the caller
// brackets then. `known1`: as for locate().
std::optional<SpecialPoint> reach_bound(const ContinuationProblem& problem, const BoundTest& test,
                                        const Vector& y0, const Vector& t0, const Vector& y1,
                                        const ContinuationOptions& options, const KnownJacobian* known1) {
  const int k = test.index();
  const double target = test.crossed(y1);
  if (!(y1[k] != y0[k])) return std::nullopt;
  Vector y_pred = y0 + (target - y0[k]) / (y1[k] - y0[k]) * (y1 - y0);
  y_pred[k] = target;
  Vector e = Vector::Zero(y0.size());
  e[k] = 1.0;
  BorderedJacobian jacobian;
  // A trial point the problem cannot evaluate (an orbit's period driven
  // negative by a wild iterate) fails this solve, not the branch (as a
  // corrector failure cuts a step).
  Correction c;
  try {
    c = correct(problem, y_pred, e, options, &jacobian, known1);
  } catch (const std::runtime_error&) {
    return std::nullopt;
  }
  if (!c.converged) return std::nullopt;
  SpecialPoint sp;
  sp.type = test.type();
  sp.name = test.name();
  sp.status = EventStatus::kLocated;
  sp.y = c.y;
  sp.tangent = t0;
  const Eigen::VectorXcd none;  // the test reads y alone
  sp.test_value = test.value(PointContext{problem, c.y, t0, jacobian, none});
  sp.precision = 0.0;  // solved for, not bracketed
  return sp;
}

Vector initial_tangent(const ContinuationProblem& problem, const Vector& y, int direction) {
  const int n = problem.state_size();
  Vector t;
  if (problem.is_sparse() || problem.matrix_free()) {
    // [G_y; e_p^T] t = e_last: fine unless the start is a fold in p.
    BorderedJacobian jacobian;
    Vector e = Vector::Zero(problem.size());
    e[n] = 1.0;
    if (!tangent_at(problem, y, e, &jacobian, &t)) return {};
  } else {
    // The null vector of G_y (m x (m+1)) is the last column of Q in G_y^T = QR.
    const Matrix J = problem.jacobian(y);
    Eigen::HouseholderQR<Matrix> qr(J.transpose());
    const Matrix Q = qr.householderQ() * Matrix::Identity(problem.size(), problem.size());
    t = Q.col(problem.size() - 1);
  }
  int k = n;
  if (std::abs(t[k]) < 1e-12) t.cwiseAbs().maxCoeff(&k);
  if (t[k] * direction < 0) t = -t;
  return t;
}

std::string format_y(const ContinuationProblem& problem, const Vector& y) {
  std::ostringstream out;
  const auto names = problem.names();
  for (int i = 0; i < y.size() && i < 6; ++i) out << (i ? ", " : "") << names[i] << " = " << y[i];
  if (y.size() > 6) out << ", ...";
  return out.str();
}

}  // namespace

Branch empty_branch(const ContinuationProblem& problem) {
  Branch branch;
  branch.names = problem.names();
  branch.state_size = problem.state_size();
  branch.parameter_names = problem.system().parameter_names();
  branch.parameters = problem.parameters();
  branch.free_parameters = problem.free_parameters();
  branch.cut_name = problem.system().cut_name();
  return branch;
}

Branch continue_branch(const ContinuationProblem& problem, const Vector& y_start,
                       const ContinuationOptions& options, const TestFunctions& user_tests,
                       const Vector* start_tangent) {
  if (const std::string why = options.check(); !why.empty())
    throw std::invalid_argument("continuation options: " + why);
  if (y_start.size() != problem.size())
    throw std::invalid_argument("start point has " + std::to_string(y_start.size()) +
                                " components, the problem has " + std::to_string(problem.size()));
  if (!y_start.allFinite())
    throw std::invalid_argument("start point is not finite: " + format_y(problem, y_start));

  Branch branch = empty_branch(problem);
  branch.options = options;

  TestFunctions tests = user_tests;
  for (const auto& [name, bound] : options.bounds) {
    auto it = std::find(branch.names.begin(), branch.names.end(), name);
    if (it == branch.names.end())
      throw std::invalid_argument("bounds name '" + name + "', which is not a component of the branch");
    tests.push_back(std::make_shared<BoundTest>(static_cast<int>(it - branch.names.begin()), name, bound));
  }
  for (const auto& t : tests) {
    if (std::find(branch.test_names.begin(), branch.test_names.end(), t->name()) != branch.test_names.end())
      throw std::invalid_argument("two test functions are named '" + t->name() +
                                  "'; give each a unique name");
    branch.test_names.push_back(t->name());
  }

  // The start point.
  const int n = problem.state_size();
  Vector y = y_start, t;
  int start_iterations = 0;
  if (!start_tangent) {
    Vector fix = Vector::Zero(problem.size());
    fix[n] = 1.0;
    const auto start_at = [&](const Vector& from) {
      Correction c = correct(problem, from, fix, options);
      if (!c.converged && !problem.is_sparse() && !problem.matrix_free())
        c = correct_damped(problem, from, fix, options);
      return c;
    };
    // A start that cannot be corrected where the system cuts it (an orbit
    // cut at one of its events: System::recut) is cut elsewhere and
    // corrected there; when nothing moves, the first failure stands.
    Correction c;
    std::exception_ptr failure;
    try {
      c = start_at(y_start);
    } catch (const std::runtime_error&) {
      failure = std::current_exception();
    }
    if (failure || !c.converged) {
      Vector moved = y_start, along = Vector::Zero(problem.size());
      bool recut = false;
      try {
        recut = problem.recut(&moved, &along);
      } catch (const std::runtime_error&) {
      }
      if (recut) {
        problem.accept(moved);  // an autonomous orbit's phase plane: through the new cut
        c = start_at(moved);
      } else if (failure)
        std::rethrow_exception(failure);
    }
    if (!c.converged) {
      branch.stop_reason = StopReason::kStartNotConverged;
      std::ostringstream msg;
      msg << "the start point (" << format_y(problem, y_start) << ") is not near a solution: " << c.message
          << "; residual |G| = " << c.residual_norm << ". Give a start point closer to a solution.";
      branch.message = msg.str();
      return branch;
    }
    y = c.y;
    start_iterations = c.iterations;
    t = initial_tangent(problem, y, options.direction);
  } else {
    if (start_tangent->size() != problem.size())
      throw std::invalid_argument("start tangent has the wrong size");
    t = start_tangent->normalized();
  }
  BorderedJacobian jacobian;
  Vector t_checked;
  const bool regular = t.size() > 0 && tangent_at(problem, y, t, &jacobian, &t_checked);
  if (!regular && !start_tangent) {
    branch.stop_reason = StopReason::kSingularJacobian;
    branch.message = "the Jacobian at the start point (" + format_y(problem, y) +
                     ") has no one-dimensional kernel: the start is singular (a branch point?)";
    return branch;
  }
  if (!start_tangent) t = t_checked;

  // A point of the branch with its test values (and eigenvalues, when monitored).
  EigenvalueWarmStart warm;
  auto point_at = [&](const ContinuationProblem& on, const Vector& yy, const Vector& tt, double ds,
                      int iterations, const BorderedJacobian& jac, std::string label) {
    BranchPoint p{
        yy, tt, ds, iterations, {}, std::move(label), monitored_eigenvalues(on, yy, options, &jac, &warm)};
    p.cut = on.cut(yy);
    for (const auto& f : tests) p.tests.push_back(f->value(PointContext{on, yy, tt, jac, p.eigenvalues}));
    return p;
  };
  // Where a step fails, the system may move its cut at the last point
  // (System::recut: a periodic orbit whose event nears its cut t0, where
  // x(t0) jumps as the event passes it, is cut elsewhere: the same orbit in
  // other coordinates), once per point, and the step is tried again from
  // there at the same ds; a branch that steps on never moves its cut. The
  // point is stored as the new cut sees it: corrected there (the mapped
  // point is exact to the integration tolerance only), its tangent solved
  // afresh (oriented by the mapped one) and its test values taken there, so
  // that the next step compares values of one cut. False when nothing moved.
  const auto recut = [&](BranchPoint* p) {
    Vector yc = p->y, tc = p->tangent;
    if (!problem.recut(&yc, &tc)) return false;
    problem.accept(yc);  // an autonomous orbit's phase plane: through the new cut
    BorderedJacobian jac;
    Correction c;
    try {
      c = correct(problem, yc, tc, options, &jac);
    } catch (const std::runtime_error& e) {
      c.converged = false;
      c.message = e.what();
    }
    Vector tn;
    if (!c.converged || !tangent_at(problem, c.y, tc, &jac, &tn))
      throw std::runtime_error("the orbit cut again at " + problem.system().cut_name() + " = " +
                               std::to_string(problem.cut(yc)) + " is not a solution there" +
                               (c.converged ? std::string() : ": " + c.message));
    *p = point_at(problem, c.y, tn, p->ds, p->newton_iterations, jac, p->label);
    problem.accept(p->y);
    return true;
  };
  // At a singular start (a branch point) the bordered Jacobian is not
  // factored; the values of tests that need it are meaningless there, and
  // only the stopping ones (bounds, user stops, which read y alone) are
  // watched on the first step.
  BranchPoint start = point_at(problem, y, t, 0.0, start_iterations, jacobian, "");
  branch.points.push_back(start);
  problem.accept(y);
  for (std::size_t k = 0; k < tests.size(); ++k)
    if (tests[k]->type() == "EP" && start.tests[k] < 0) {
      branch.stop_reason = StopReason::kBound;
      branch.message = "the start point is outside " + tests[k]->name();
      return branch;
    }

  double ds = options.ds;
  // Leaving a singular start (a branch point, given its tangent). The first
  // point lies ds off the branch point, where the bordered Jacobian's
  // smallest singular value is O(ds): the corrector places it only to
  // (tolerance / ds) along the other branch, and its tangent's components
  // there are noise (a Lorenz PD at stepping tolerance 1e-7, ds = 0.001: rho
  // off by 8e-4 where the doubled branch moves by 2e-5, the LPC test of
  // either sign over three points). So the first two steps are corrected on
  // the refined problem (System::refined, the simulation's own tolerance)
  // by Newton (a chord corrector's fixed Jacobian does not contract where
  // the smallest singular value changes by O(1) relative to itself between
  // iterates), and the tests other than the stopping ones are compared from
  // the second point on.
  int leaving_steps = start_tangent != nullptr ? 2 : 0;
  ContinuationOptions newton_options = options;
  newton_options.chord = false;
  // Dense chord problems (shooting): the Jacobian at the last point, from
  // which the next corrector starts by a Broyden update (corrector.h).
  const bool broyden =
      options.chord && problem.prefers_chord() && !problem.is_sparse() && !problem.matrix_free();
  std::optional<KnownJacobian> known;
  Matrix G_before;        // G_y at the regular point before known's (none yet)
  Vector tangent_before;  // at the regular point before the last (none yet)
  int regular_points = 1;
  bool recut_tried = false;  // at the last point (recut above)
  // Everything the problem throws from here on ends the branch with what it
  // has (the points so far stay valid), rather than losing them.
  try {
    while (true) {
      if (regular_points >= options.max_points) {
        branch.stop_reason = StopReason::kMaxPoints;
        branch.message = "reached max_points = " + std::to_string(options.max_points);
        break;
      }
      const BranchPoint last = branch.points.back();  // a copy: events append to points
      const bool from_known = known && known->y == last.y;
      const Vector y_pred = predict(last.y, last.tangent, tangent_before, last.ds, ds);
      // The corrector's first Jacobian: the last point's, extrapolated along
      // the branch by the drift since the point before (G_y(s + ds) = G_y(s)
      // + ds (G_y(s) - G_y(s - ds_last)) / ds_last + O(ds^2), where the last
      // point's alone is O(ds) off), then Broyden's update to the prediction.
      // Not where the drift term exceeds a tenth of G_y: a Jacobian that
      // turns that fast in one step (a hybrid orbit near grazing, where it
      // grows like 1 / sqrt) does not drift linearly (on the Lorenz cascade
      // the term stays below 0.04).
      std::optional<KnownJacobian> start;
      if (from_known) {
        start = *known;
        if (G_before.size() == known->G_y.size() && last.ds > 0) {
          const Matrix drift = (ds / last.ds) * (known->G_y - G_before);
          if (drift.norm() <= 0.1 * known->G_y.norm()) start->G_y += drift;
        }
      }
      // Special points, and the steps leaving a singular start, at the full
      // accuracy (ContinuationProblem::refined).
      const ContinuationProblem fine = problem.refined();
      const bool leaving = leaving_steps > 0;
      const ContinuationProblem& on = leaving ? fine : problem;
      // A trial point the problem cannot evaluate (an orbit's period driven
      // negative by a wild iterate) fails this step, not the branch: a
      // shorter one is tried, as after any corrector failure.
      Correction c;
      try {
        c = correct(on, y_pred, last.tangent, leaving ? newton_options : options, &jacobian,
                    start ? &*start : nullptr);
      } catch (const std::runtime_error& e) {
        c.converged = false;
        c.message = e.what();
      }
      Vector t_new;
      bool accepted = c.converged && tangent_at(on, c.y, last.tangent, &jacobian, &t_new) &&
                      t_new.dot(last.tangent) >= options.min_tangent_cosine;
      if (accepted && broyden) {
        G_before = from_known ? std::move(known->G_y) : Matrix();
        known = KnownJacobian{c.y, jacobian.dense_matrix().topRows(problem.equations())};
      }
      if (!accepted) {
        if (!recut_tried && !leaving) {
          recut_tried = true;
          if (recut(&branch.points.back())) {
            // The Jacobians and the tangent before belong to the old cut's coordinates.
            known.reset();
            G_before = Matrix();
            tangent_before = Vector();
            continue;
          }
        }
        if (ds * options.step_cut < options.ds_min) {
          branch.stop_reason = StopReason::kStepTooSmall;
          std::ostringstream msg;
          msg << "the corrector failed at ds = " << ds << " near " << format_y(problem, last.y)
              << (c.converged ? " (the tangent turned too much)" : ": " + c.message);
          branch.message = msg.str();
          break;
        }
        ds *= options.step_cut;
        continue;
      }
      BranchPoint next = point_at(on, c.y, t_new, ds, c.iterations, jacobian, "");

      // Events between last and next, in order of arclength. A sign change
      // counts, and so does a value that reaches exactly zero at next; a zero at
      // last was reported with last (or is the start), except that a stopping
      // test starting on its zero and going negative stops at once.
      struct Found {
        double s;
        std::size_t test;
        SpecialPoint point;
      };
      std::vector<Found> events;
      // Where next lies on the bracket's axis: the corrector held it on
      // last.tangent.(y - y_pred) = 0, and the predictor's curvature term
      // (predictor.h) puts y_pred beyond ds along last.tangent, so next is at
      // s1 = ds + last.tangent.bend >= ds, not at ds. A bracket [0, ds] with
      // next's value at ds would miss a zero between ds and s1: the corrected
      // points near ds are on its near side, next on its far side, and the
      // sign change closed on ds as a jump.
      const double s1 = last.tangent.dot(next.y - last.y);
      for (std::size_t k = 0; k < tests.size(); ++k) {
        if (leaving && !tests[k]->stops_branch()) continue;
        const double a = last.tests[k], b = next.tests[k];
        const bool crossed =
            (a > 0 && b <= 0) || (a < 0 && b >= 0) || (tests[k]->stops_branch() && a == 0 && b < 0);
        if (!crossed) continue;
        const KnownJacobian* known_next = known ? &*known : nullptr;
        std::optional<SpecialPoint> reached;
        if (const auto* bound = dynamic_cast<const BoundTest*>(tests[k].get()))
          reached = reach_bound(fine, *bound, last.y, last.tangent, next.y, options, known_next);
        SpecialPoint sp = reached ? std::move(*reached)
                                  : locate(fine, *tests[k], last.y, last.tangent, s1, a, b, options, next.y,
                                           next.tangent, known_next, &warm);
        events.push_back({last.tangent.dot(sp.y - last.y), k, std::move(sp)});
      }
      if (leaving) --leaving_steps;
      std::sort(events.begin(), events.end(), [](const Found& p, const Found& q) { return p.s < q.s; });
      bool stop = false;
      for (auto& [s, k, sp] : events) {
        BorderedJacobian jac;
        tangent_at(fine, sp.y, last.tangent, &jac, &sp.tangent);
        BranchPoint at = point_at(fine, sp.y, sp.tangent, s, 0, jac, sp.type);
        if (!tests[k]->describe(PointContext{fine, at.y, at.tangent, jac, at.eigenvalues}, &sp)) continue;
        sp.index = static_cast<int>(branch.points.size());
        branch.points.push_back(std::move(at));
        branch.special_points.push_back(sp);
        if (tests[k]->stops_branch()) {
          stop = true;
          branch.stop_reason = sp.type == "EP" ? StopReason::kBound : StopReason::kUserStop;
          branch.message = "reached " + sp.name + " at " + format_y(problem, sp.y);
          break;
        }
      }
      if (stop) break;
      tangent_before = last.tangent;
      branch.points.push_back(std::move(next));
      ++regular_points;
      problem.accept(branch.points.back().y);
      recut_tried = false;
      if (options.callback && !options.callback(branch)) {
        branch.stop_reason = StopReason::kCallback;
        branch.message = "stopped by the callback";
        break;
      }
      // A chord corrector converges linearly: from the same predictor error
      // it takes about two iterations more than Newton.
      const int easy = options.easy_iterations +
                       (options.chord && problem.prefers_chord() && !problem.matrix_free() ? 2 : 0);
      if (c.iterations <= easy) ds = std::min(ds * options.step_growth, options.ds_max);
    }
  } catch (const std::exception& e) {
    branch.stop_reason = StopReason::kEvaluationError;
    branch.message =
        std::string("the problem failed near ") + format_y(problem, branch.points.back().y) + ": " + e.what();
  }
  return branch;
}

}  // namespace saltus
