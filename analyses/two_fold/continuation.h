#pragma once
// Continuation of a two-fold singularity of the wheel on a turntable in one
// of its constants, with the case boundaries of Sec. IV as test functions
// (Szalai & Jeffrey, Phys. Rev. E 90, 022914 (2014), doi:10.1103/PhysRevE.90.022914).
//
// The two-fold is a zero of (19) with h = 0,
//
//   G(x, p) = ( h(x), h_x . f(x, 0), h_x . f_lambda(x, 0) ) = 0,   x = (r, v, omega),
//
// three equations in the state; with one constant p free it is a curve that
// the pseudo-arclength engine follows (continue_branch). G is the
// scalar-templated functor WheelTwoFoldEquations, so its Jacobian (in x and
// in all ten constants) is exact (ceres::Jet in AutoDiffSystem) and so is
// the second derivative (Boost.Math autodiff) that fold detection needs.
// G uses the tyre's values on the surface (F = lambda, M = sign(g) kappa
// lambda): both tyre models of models/wheel_turntable.h agree with them on
// h = 0, so they have the same zero set, the same two-folds.
//
// Which curve: kappa alone fixes r* ((10): h_x . f_lambda = -(beta^2
// sin^2(gamma) + r^2) - sign(g) kappa r cos(gamma) depends on r only), so
// continuing in k2 with kappa fixed moves the two-fold along the line r* =
// const of the (r*, omega*) plane of Fig. 4, with k2 = k2(r*, omega*) of (11)
// along it: the map's column at that r* is the same family, which is how the
// tests compare the two.
//
// Test functions: the case boundaries of Sec. IV (type "CB": K++, K--, J1, J2,
// J1J2-1; testfunctions/two_fold_case_boundary.h), evaluated on the two-fold
// classified at each corrected point. The classification on both sides of
// each located point is reported.

#include <memory>
#include <string>
#include <vector>

#include "analyses/two_fold/two_fold.h"
#include "continuation/autodiff_system.h"
#include "continuation/branch.h"
#include "continuation/options.h"
#include "continuation/pseudo_arclength.h"
#include "continuation/test_function.h"
#include "models/filippov.h"
#include "models/filippov_expression.h"
#include "models/wheel_turntable.h"
#include "testfunctions/two_fold_case_boundary.h"

namespace saltus {

// The wheel's constants in the order of WheelTwoFoldEquations' parameters.
const std::vector<std::string>& wheel_parameter_names();  // d m c1 c2 beta r0 omega0 gamma kappa k2
// The value of a constant by name; set_wheel_parameter changes it. Both
// throw std::invalid_argument on an unknown name, listing the known ones.
double wheel_parameter(const models::WheelTurntable& wheel, const std::string& name);
void set_wheel_parameter(models::WheelTurntable* wheel, const std::string& name, double value);
// All ten, in wheel_parameter_names() order.
Vector wheel_parameters(const models::WheelTurntable& wheel);
models::WheelTurntable wheel_with_parameters(const models::WheelTurntable& base, const Vector& p);

namespace detail {

// The wheel with the surface values of the tyre as a filippov::Model over
// constants of scalar type P: F = lambda, M = g_sign kappa lambda.
template <class P>
struct StickingWheel {
  const models::WheelTurntableEquations<P>* equations;
  double mu = 1.0;
  double g_sign = 1.0;
  int state_size() const { return 3; }
  template <class S>
  S switching(const S* x) const {
    return equations->switching(x);
  }
  template <class S>
  void field(const S* x, const S& lambda, S* f) const {
    equations->field(x, lambda, lambda * S(equations->kappa) * g_sign, f);
  }
};

}  // namespace detail

// G(x, p) of (19) with h = 0, u = (r, v, omega, d, m, c1, c2, beta, r0,
// omega0, gamma, kappa, k2). base supplies mu and the time scaling.
struct WheelTwoFoldEquations {
  models::WheelTurntable base;

  int state_size() const { return 3; }
  int parameter_size() const { return 10; }
  std::vector<std::string> state_names() const { return {"r", "v", "omega"}; }
  std::vector<std::string> parameter_names() const { return wheel_parameter_names(); }

  template <class T>
  void operator()(const T* u, T* g) const {
    const T* p = u + 3;
    const models::WheelTurntableEquations<T> equations{
        p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], base.rescaled_time};
    const double rolling = series::value_of(equations.rolling(u));
    // sign(g) is locally constant near a two-fold with g* != 0 (the design
    // requires it); at g = 0 take +1 (the text's form of (10)).
    const detail::StickingWheel<T> model{&equations, base.mu, rolling < 0.0 ? -1.0 : 1.0};
    g[0] = equations.switching(u);
    filippov::split_lie_derivatives(model, u, &g[1], &g[2]);
  }
};

struct TwoFoldContinuationOptions {
  std::string parameter = "k2";      // the free constant (the wheel's: one of wheel_parameter_names())
  ContinuationOptions continuation;  // ds, max_points, bounds (by name: r, v, omega, or the parameter), ...
  bool both_directions = true;       // follow the curve both ways from the start, joined into one branch
  TwoFoldOptions two_fold;           // the start's Newton and the classification along the curve
  // Empty when valid, else a message naming the first bad field.
  std::string check() const;
};

// A located case boundary with the classification on its two sides.
struct CaseBoundaryPoint {
  std::string name;        // "K++", ... (the test function)
  Vector x;                // the two-fold there (r, v, omega)
  double parameter = 0.0;  // the free constant's value
  EventStatus status = EventStatus::kBracketed;
  double precision = 0.0;     // the arclength bracket's width
  std::string before, after;  // case_name (or the type when not (27)) at the neighbouring points
};

struct TwoFoldContinuation {
  bool ok = false;
  std::string message;  // one line: what happened
  std::string parameter;
  TwoFoldResult start;  // the located start (from the guess)
  Branch branch;        // y = (x*, parameter) (the wheel: r, v, omega); both directions joined, in order
  std::vector<CaseBoundaryPoint> boundaries;
  // Along the branch (same order as branch.points): the classification's
  // case and type names, J1, J2 (NaN where undefined).
  std::vector<std::string> cases;
};

// Locates the two-fold from guess with the constants of wheel, then follows
// it in options.parameter. Throws std::invalid_argument on bad options or an
// unknown parameter; a failed start is ok = false with a message.
TwoFoldContinuation continue_two_fold(const models::WheelTurntable& wheel, const Vector& guess,
                                      const TwoFoldContinuationOptions& options);

// G(x, p) of (19) with h = 0 for a run file's Filippov system
// (models/filippov_expression.h), u = (x, p) with all its parameters: the
// expressions run on the engine's scalars (ceres::Jet for the Jacobian,
// Boost.Math autodiff for second derivatives) through the Taylor<T, 1> Lie
// derivatives of models/filippov.h, so G_u is exact. The parameters of a
// stick bound, which the flow decides on as numbers, are carried here like
// the others (the stick bound does not enter (19)).
struct ExpressionTwoFoldEquations {
  std::shared_ptr<const models::FilippovSpec> spec;  // with no parameter decided
  double mu = 1.0;

  explicit ExpressionTwoFoldEquations(const models::ExpressionFilippov& model);
  int state_size() const { return static_cast<int>(spec->states.size()); }
  int parameter_size() const { return static_cast<int>(spec->parameters.size()); }
  std::vector<std::string> state_names() const { return spec->states; }
  std::vector<std::string> parameter_names() const { return spec->parameters; }

  template <class T>
  void operator()(const T* u, T* g) const {
    const int n = state_size();
    models::ExpressionFilippovT<T> model{spec, {}, std::vector<double>(parameter_size(), 0.0), mu};
    model.p.assign(u + n, u + n + parameter_size());
    g[0] = model.switching(u);
    filippov::split_lie_derivatives(model, u, &g[1], &g[2]);
  }
};

// The run file's system at its parameters (all of them, the decided ones too).
models::ExpressionFilippov with_parameters(const models::ExpressionFilippov& base, const Vector& p);

// As above for a run file's Filippov system with three states, in any of its
// parameters. Throws std::invalid_argument on bad options, an unknown
// parameter or a state size other than 3 (two-folds of n states form an
// (n-3)-dimensional set: a curve in one parameter only for n = 3).
TwoFoldContinuation continue_two_fold(const models::ExpressionFilippov& model, const Vector& guess,
                                      const TwoFoldContinuationOptions& options);

namespace detail {

// What the continuation of a two-fold needs from a model with three states
// (the wheel's constants, a run file's parameters): G(x, p) of (19) as a
// System with exact derivatives, the parameters' values, and the
// classification at a point u = (x, p). The optional `singular` marks where
// the model's own curve of (19) is not smooth (the wheel's g = 0): the branch
// stops there (a "UZ" point named singular_name), a sign change of a case
// boundary there is not reported, and a branch ending there says
// singular_note.
struct TwoFoldCurve {
  std::shared_ptr<const System> system;  // u = (x, p) -> (h, h_x.f(x,0), h_x.f_lambda(x,0))
  Vector parameters;                     // p at the start, in the system's parameter order
  std::function<TwoFoldResult(const Vector& guess, const TwoFoldOptions&)> locate;  // at the start's p
  std::function<TwoFoldClassification(const Vector& u, const TwoFoldOptions&)> classify;
  std::function<double(const Vector& u)> singular;  // may be empty
  std::string singular_name, singular_note;
};

// Locates the two-fold from guess (Newton on G at the start's parameters)
// and follows it in options.parameter (one of the system's parameters).
// Throws std::invalid_argument on bad options or an unknown parameter.
TwoFoldContinuation continue_two_fold_curve(const TwoFoldCurve& curve, const Vector& guess,
                                            const TwoFoldContinuationOptions& options);

}  // namespace detail

}  // namespace saltus
