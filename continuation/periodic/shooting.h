#pragma once
// Periodic orbits of hybrid systems by single shooting. Non-autonomous: the
// orbit through x at time t0 with period T (the forcing period times the
// number of cycles) solves
//
//   F(x, p) = phi(t0 + T; t0, x, p) - x = 0.
//
// Autonomous: the period is unknown, the state is (x, T), and a phase
// condition fixes the point on the orbit (a Poincare plane through a
// reference point x_ref, normal to the field there, moved to each accepted
// point of a branch so that it keeps cutting the orbit at the point followed:
// a fixed plane may cut a doubled orbit twice, and the branch would jump):
//
//   F(x, T, p) = ( phi_T(x, p) - x,  f(x_ref) . (x - x_ref) ) = 0,
//
// whose T-column is the field at the end point.
//
// and ShootingSystem is that F as a System, so the continuation engine
// follows orbits in a parameter and locates their special points with the
// same machinery as for equilibria. The hybrid system carries its q
// parameters as its last q state components (p' = 0, unchanged by resets):
// the saltation-corrected state-transition matrix Phi over one period then
// gives the Jacobian [Phi_xx - I, Phi_xp] exactly (to the integration
// tolerance; no differences). Phi_xx is the monodromy matrix, whose
// eigenvalues are the Floquet multipliers.
//
// The cut moves away from the orbit's events (recut(), called by the
// continuation engine where a step from a point fails, or the start cannot
// be corrected). Where an event of the period (an impact, a switching)
// comes within cut_margin T of the cut, the
// shooting map is not smooth across the branch: x(t0) jumps by the reset
// when the event time passes t0 (an impact oscillator's velocity from v to
// -r v), and an orbit cut on a Filippov switching surface starts in one
// mode and ends in the other. The same orbit is then cut elsewhere, at
// the middle of the longest interval between two successive events
// (cyclically over the period, so at least T / (2 k) from all k events):
//
//   t0' = t0 + s,   x' = phi(t0 + s; t0, x, p),   mode' = the mode at t0 + s,
//
// with s in [0, T) (a forced orbit's t0 + s - T cuts it at the same state:
// the forcing has period T). A forced orbit whose period follows a
// parameter keeps its cut at a fixed phase of the forcing, phase' =
// phase + s / T (mod 1); an autonomous orbit keeps T and p, and its phase
// plane moves to x' (accept()). The branch's tangent maps by the derivative
// of the same flow: dx' = Phi_xx dx + Phi_xp dp (+ (phase' f(t0') -
// Phi_xx phase f(t0)) dT/dp dp when T follows p; the derivation of
// jacobian()), the engine then solves for the tangent at the new cut
// (oriented by the mapped one). Only intervals in the cut's own mode are
// candidates (a cut in a phase of sustained contact makes the shooting map
// degenerate), and a new cut from which the orbit does not close as well as
// from the old one (or ends in another mode) is not taken. The cut at each
// point is t0 (cut()), which branch.csv records; at_cut() rebuilds the
// system a point was computed on.

#include <complex>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "continuation/flow/simulate.h"
#include "continuation/system.h"

namespace saltus::periodic {

// How shooting's linear systems are solved: kDense forms the Jacobian from
// the variational equations (n directions through every step of the
// period); kMatrixFree solves them by GMRES on products J d, one direction
// through one period each (continuation/periodic/monodromy_operator.h,
// newton_krylov.h); kAuto chooses by size (ShootingOptions::
// matrix_free_from, OrbitSearchOptions::matrix_free_from). kMatrixFree on
// a system without a tangent lift throws std::invalid_argument.
enum class ShootingLinearSolver { kAuto, kDense, kMatrixFree };

struct ShootingOptions {
  bool autonomous = false;  // the period is an unknown (state component "T")
  double t0 = 0.0;          // the time (phase) at which the orbit is cut
  double period = 1.0;      // T when not autonomous
  // A forced orbit whose period depends on the parameters (T = 2 pi / w with
  // w continued): T(p) and, when asked, dT/dp over the carried parameters.
  // When set it replaces `period` and `t0`: the orbit is cut at the same
  // phase of the forcing at every p, t0(p) = phase T(p), so that a change
  // of p does not move the cut along the orbit.
  std::function<double(const Vector& p, Vector* dT_dp)> period_of;
  double phase = 0.0;  // in [0, 1), with period_of
  int mode = 0;        // the hybrid mode at t0
  flow::SimulationOptions simulation;
  // > 0: the absolute and relative integration tolerance of the steps along
  // a branch, looser than simulation's, which then serve the special points
  // only (System::refined: the engine locates them on a copy at simulation's
  // tolerances, and their multipliers come from it). Between special points
  // a branch needs only the accuracy that keeps the corrector on it and the
  // test functions' signs right; the located points keep the accuracy asked.
  // The corrector's tolerances between special points are no finer than it
  // either (System::accuracy). 0 (the default): one tolerance throughout.
  double stepping_tolerance = 0.0;
  // The cut moves (recut(), above) when an event of the period lies within
  // cut_margin T of it (a fraction of the period, in [0, 0.25]; 0: the
  // cut never moves).
  double cut_margin = 0.05;
  // The continuation's linear systems (System::matrix_free): kAuto goes
  // matrix-free from matrix_free_from states (x[, T]) when the hybrid
  // system has a tangent-lifted form (flow::tangent_liftable_v). Later than
  // find_orbit's 64: a branch also pays the tangent's GMRES solve and the
  // leading multipliers by Arnoldi (about 77 products where they cluster).
  // On the impact chain a point with the LPC, PD and NS tests took 943,
  // 1921 and 3833 ms matrix-free at 128, 256 and 512 states, dense 621,
  // 2545 and 11576 (docs/performance.md). Then the
  // corrector and the tangent are GMRES solves of the bordered system
  // [J; t^T] (continuation/linear_solver.h), J d one lifted period each,
  // and the PD and NS tests read the `multipliers` Floquet multipliers of
  // largest modulus by Arnoldi (leading_multipliers()) instead of the
  // dense monodromy.
  ShootingLinearSolver linear_solver = ShootingLinearSolver::kAuto;
  int matrix_free_from = 256;
  // Matrix-free: the multipliers computed at a point (largest modulus), and
  // Arnoldi's subspace for them (0: automatic, ArnoldiOptions::subspace).
  // Those that cluster inside |mu| < 0.9 may be bounded there instead of
  // resolved (ArnoldiOptions::resolve_above), and leading_multipliers()
  // then gives fewer.
  int multipliers = 8;
  int arnoldi_subspace = 0;
  std::string check() const;  // empty when valid, else names the bad field
};

class ShootingSystem : public System {
 public:
  // `system` has dimension n + parameters; throws std::invalid_argument on
  // bad options or sizes. For autonomous orbits, `reference` is a point
  // (x, p) on (or near) the first orbit: the phase condition's plane goes
  // through it, normal to the field.
  ShootingSystem(std::shared_ptr<const flow::HybridSystem> system, int parameters, ShootingOptions options,
                 const Vector& reference = {});

  int state_size() const override { return options_.autonomous ? n_ + 1 : n_; }
  int parameter_size() const override { return q_; }
  std::vector<std::string> state_names() const override;
  std::vector<std::string> parameter_names() const override;

  // Simulation failures (grazing, Zeno, a failed step) throw std::runtime_error
  // with the simulator's message: the engine ends the branch there.
  void residual(const double* u, double* f) const override;
  // The state alone over one period, no variational equations (a Jacobian
  // costs (n + q + 1) times the integration): the corrector's chord steps.
  void residual_alone(const double* u, double* f) const override;
  bool prefers_chord() const override { return true; }
  void jacobian(const double* u, Matrix* J) const override;
  // Matrix-free (ShootingOptions::linear_solver, decided at construction):
  // J d by one tangent-lifted period from (x, p) in the direction d (the
  // saltations of the events included), never forming J.
  bool matrix_free() const override { return matrix_free_; }
  Vector jacobian_times(const Vector& u, const Vector& d) const override;
  // The options.multipliers Floquet multipliers of largest modulus at u, by
  // Arnoldi on the monodromy operator (matrix-free), largest first, a
  // complex pair never split; cached by u (the PD and NS tests of a point
  // share one run). Matrix-free, the resolved ones only: fewer when the
  // rest cluster inside |mu| < 0.9 (ArnoldiOptions::resolve_above), and
  // *unresolved_bound (when given) is the modulus they lie within (0 when
  // every one is resolved, and for dense systems). Dense systems: the
  // eigenvalues of monodromy(u), as many. Throws std::runtime_error when the
  // period cannot be simulated or Arnoldi leaves a multiplier at or beyond
  // 0.9 unresolved.
  Eigen::VectorXcd leading_multipliers(const Vector& u, double* unresolved_bound = nullptr) const;
  // Second derivatives of the flow are not available: fold curves and branch
  // switching of periodic orbits throw std::logic_error.
  void second_derivative(const double* u, const double* d, Matrix* H) const override;

  // Autonomous: the phase condition's plane moves to u (see above).
  void accept(const Vector& u) const override;
  // The cut moves away from the events (above): u and tangent mapped to
  // the new cut, true; false when no event is within cut_margin T of the
  // cut (or none is further from the events). Throws std::runtime_error
  // when the orbit cannot be simulated. Not concurrent with evaluations.
  bool recut(Vector* u, Vector* tangent) const override;
  double cut(const Vector& u) const override { return start_time(u); }
  std::string cut_name() const override { return "t0"; }
  // A copy of this system cut at t0 (a point's cut(): branch.csv's t0),
  // in the mode this system had there, for the point u (an autonomous
  // orbit's phase plane goes through u).
  std::shared_ptr<const ShootingSystem> at_cut(double t0, const Vector& u) const;
  std::shared_ptr<const System> refined() const override { return refined_shooting(); }
  double accuracy() const override { return options_.stepping_tolerance; }  // 0 on the refined copy
  // The copy at simulation's tolerances, with this one's phase plane; null
  // without a stepping_tolerance or when this is that copy.
  std::shared_ptr<const ShootingSystem> refined_shooting() const;

  // The phase condition's plane normal (autonomous).
  Vector phase_normal() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return f_ref_;
  }
  const std::shared_ptr<const flow::HybridSystem>& hybrid() const { return system_; }
  // The hybrid system's state (x, p) and the period from u.
  Vector hybrid_state(const Vector& u) const;
  double period(const Vector& u) const;
  double start_time(const Vector& u) const;  // t0, or phase T(p) with period_of

  Matrix monodromy(const Vector& u) const;  // Phi_xx over one period (n x n)
  // The simulated period (cached; shared so that a caller keeps it while
  // another thread moves the cache on).
  // One period from u, with the variational equations unless told not
  // (those are cached for jacobian() at the same u).
  std::shared_ptr<const flow::Trajectory> trajectory(const Vector& u, bool variational = true) const;
  const ShootingOptions& options() const { return options_; }

 private:
  struct Refined {};
  // The copy at simulation's tolerances (refined_shooting; the caller holds coarse's mutex).
  ShootingSystem(const ShootingSystem& coarse, Refined);
  // The key of a cut in cuts_: t0, or the phase when T follows p.
  double cut_key(double t0, const Vector& u) const;
  // f = (x(T) - x, the phase condition) from the period tr simulated from u.
  void residual_from(const Vector& u, const flow::Trajectory& tr, double* f) const;

  std::shared_ptr<const flow::HybridSystem> system_;
  int n_, q_;
  mutable Vector x_ref_, f_ref_;  // the phase condition (autonomous)
  // t0 (or phase) and mode move in recut(), between the engine's steps.
  mutable ShootingOptions options_;
  // The cuts taken so far: (t0, or the phase when T follows p; the mode there).
  mutable std::vector<std::pair<double, int>> cuts_;
  mutable std::mutex mutex_;
  mutable Vector cached_u_;
  mutable std::shared_ptr<const flow::Trajectory> cached_;
  // The monodromies of the last periods simulated with the variational
  // equations, by u, oldest out first (at most 4096, and 8 MB): a branch's
  // stability read after the continuation (the drivers' figures, a point
  // at a time) is then found, not integrated again. One memory serves a
  // system and all its refined copies, so that a special point's
  // multipliers, asked on a fresh copy, are those its location computed.
  // Each takes only the entries integrated at its own tolerance (`fine`:
  // the simulation's): the same numbers it would integrate, bit for bit.
  struct Monodromies {
    struct Entry {
      Vector u;
      Matrix M;
      bool fine;
    };
    std::mutex mutex;
    std::deque<Entry> entries;
  };
  std::shared_ptr<Monodromies> monodromies_ = std::make_shared<Monodromies>();
  bool matrix_free_ = false;
  // leading_multipliers(), the last few by u (shared with the refined copies).
  struct Leading {
    std::mutex mutex;
    struct Entry {
      Vector u;
      Eigen::VectorXcd mu;
      double unresolved_bound = 0.0;
    };
    std::deque<Entry> entries;
  };
  std::shared_ptr<Leading> leading_ = std::make_shared<Leading>();
};

// Eigenvalues of the monodromy matrix, largest modulus first.
Eigen::VectorXcd floquet_multipliers(const Matrix& monodromy);

// An autonomous orbit's multipliers with the trivial one (closest to 1,
// along the flow) taken out and returned apart.
Eigen::VectorXcd nontrivial_multipliers(const Matrix& monodromy, std::complex<double>* trivial = nullptr);
// The same on multipliers already computed (the leading ones of a
// matrix-free system): all but the one closest to 1, which goes to trivial.
Eigen::VectorXcd without_trivial(const Eigen::VectorXcd& mu, std::complex<double>* trivial = nullptr);

}  // namespace saltus::periodic
