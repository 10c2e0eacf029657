#pragma once
// Curves of crossing-sliding (CS) and switching-sliding (SS) points of
// periodic orbits of a Filippov system in two parameters, continued the way
// grazing curves are (continuation/periodic/grazing_orbit.h): the shooting
// equations plus the bifurcation's defining condition as one more equation,
//
//   F(x, p) = phi_T(x, p) - x = 0,
//   phi_CS(x, p) = H(x_c, +b) = h_x F+(x_c) + h_t = 0   (an arrival from F-; mirrored from F+),
//
// (S1) of analyses/sliding/sliding_bifurcation.h: the arrival point x_c of
// the orbit at Sigma lies on the boundary of the sliding region, where the
// field beyond is tangent to Sigma (di Bernardo, Kowalczyk & Nordmark,
// Physica D 170, 2002; Kowalczyk & Piiroinen, Physica D 237, 2008, for such
// curves of the dry-friction oscillator). With u = (x, [T,] p1, p2) its
// state is (x, [T,] p1) and its parameter p2: the engine continues it by
// pseudo-arclength.
//
// The orbit is C^1 in u through the zero of phi_CS: at x_c on the boundary
// F_s = F+ (lambda_eq = +b = mu), so the saltation of the crossing,
// I + (F+ - F-) h_x^T / (h_x F-), is that of the start of the slide, and the
// slide of length zero ends where it started with the identity saltation
// (b = mu: models/filippov_hybrid.h). Newton on this system therefore works
// on either side, whichever the simulation takes at the rounding-level zero.
//
// The gradient of phi_CS, exact (first derivatives of the flow only). With
// z = (x, p) the hybrid state, z(t; u) the orbit from the cut t0 and
// D = dz(t_c; u)/du at the fixed time t_c (the saltation-corrected
// state-transition matrix Phi(t_c, t0) on (x, p), plus -Phi f(t0) dt0/dp
// when the cut moves with the forcing period T(p)), the arrival time moves
// as dt_c/du = -h_z D / (h_z f_in + h_t) (implicit function theorem on
// h(t_c, z(t_c)) = 0, f_in the field the orbit arrives in), and
//
//   d phi_CS / du = H_z D + (H_z f_in + H_t) dt_c/du,
//
// H_z, H_t the exact gradient of the sliding mode's exit guard H(x, +b)
// (ceres::Jet through Taylor<Jet, 1>, models/filippov.h). Phi comes from the
// variational equations of the flow from the cut to t_c with the arrival's
// own guard held off near t_c (ContactSuppressed), so that the integration
// ends on the arriving side.
//
// Which arrival: the one nearest the boundary at the start (the located CS
// or SS), then, along the curve, the arrival from the same side nearest in
// time (modulo the period) to the one of the last accepted point.
//
// Codimension two: along the curve the drift (S2), delta = (F_s . grad) H
// at x_c, tells CS (delta > 0, a visible fold) from SS (delta < 0, an
// invisible one). It changes sign where the fold at x_c turns from visible
// to invisible (a cusp of F+ on Sigma): there the CS curve turns into the SS
// curve and the adding-sliding (AS) curve ends on it (the AS condition is a
// cusp at the end of a slide, (S4)). CrossingSlidingDriftTest locates it,
// labelled "CS-SS-AS".

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "analyses/sliding/sliding_bifurcation.h"
#include "continuation/periodic/shooting.h"
#include "continuation/system.h"
#include "continuation/test_function.h"

namespace saltus::sliding {

// The arrival at the boundary tracked along a curve, and phi_CS's gradient.
struct BoundaryArrival {
  Arrival arrival;       // time, state, modes, margin phi_CS, drift delta
  Vector gradient;       // d phi_CS / du (when asked)
  std::string sequence;  // the orbit's mode sequence
};

// The CS/SS system above. `shooting` carries at least two parameters (u =
// (x, [T,] p1, ..., pq)); u is a point of it near a CS or SS (the arrival
// nearest the boundary there is the one followed). Throws
// std::invalid_argument when the shooting carries fewer than two parameters
// or the orbit at u has no arrival at Sigma.
class CrossingSlidingSystem : public System {
 public:
  CrossingSlidingSystem(const periodic::ShootingSystem& shooting, const Vector& u);

  int state_size() const override { return shooting_->state_size() + 1; }
  int parameter_size() const override { return shooting_->parameter_size() - 1; }
  std::vector<std::string> state_names() const override;
  std::vector<std::string> parameter_names() const override;
  void residual(const double* u, double* f) const override;
  void jacobian(const double* u, Matrix* J) const override;
  // Second derivatives of the flow are not available (as for ShootingSystem).
  void second_derivative(const double* u, const double* d, Matrix* H) const override;
  // The shooting plane (autonomous) moves, and the tracked arrival is the
  // point's.
  void accept(const Vector& u) const override;
  // The cut moves as the shooting's does (ShootingSystem::recut): u is the
  // shooting's point.
  bool recut(Vector* u, Vector* tangent) const override { return shooting_->recut(u, tangent); }
  double cut(const Vector& u) const override { return shooting_->cut(u); }
  std::string cut_name() const override { return shooting_->cut_name(); }

  // The tracked arrival of the orbit at u; throws std::runtime_error when
  // the orbit cannot be simulated or has no arrival.
  BoundaryArrival arrival(const Vector& u, bool gradient) const;
  const periodic::ShootingSystem& shooting() const { return *shooting_; }

 private:
  std::shared_ptr<periodic::ShootingSystem> shooting_;
  mutable std::atomic<double> tracked_;    // the time of the arrival followed
  mutable std::atomic<int> tracked_from_;  // and the side it comes from (-1: none yet)
};

// The check of studies' stepped_over (an orbit of the shooting that steps
// over an event inside one integration step) for an orbit on the curve:
// the period simulated with every guard searched inside its steps must have
// the shooting's event sequence, once each segment shorter than
// `negligible` T is taken out (its two events merged into one). On the
// curve the arrival is on the boundary to rounding: one simulation may slide
// there for a time of the order of the rounding (or, at an SS, cross into a
// vanishing excursion) where the other crosses (or slides directly), the
// same orbit; near the CS-SS-AS point that excursion is short but not of
// the order of the rounding (its length goes like the fold's curvature), so
// the default takes out segments up to 1e-3 T (a stick the shooting steps
// over, what the check is for, is longer: 0.045 T in
// tests/studies/dry_friction_closed_form.test.cpp). Empty when they agree,
// else what differs.
std::string stepped_over_on_curve(const periodic::ShootingSystem& shooting, const Vector& u,
                                  double negligible = 1e-3);

// On a curve of CrossingSlidingSystem: the drift delta of the tracked
// arrival; its zero is the CS-SS-AS point (above), described with the
// arrival's time, state, margin and the orbit's mode sequence.
class CrossingSlidingDriftTest : public TestFunction {
 public:
  std::string type() const override { return "CS-SS-AS"; }
  double value(const PointContext& point) const override;
  bool describe(const PointContext& point, SpecialPoint* special) const override;
  bool reads_eigenvalues() const override { return false; }
};

}  // namespace saltus::sliding
