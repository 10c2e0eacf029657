#pragma once
// Where a period-doubling and a fold curve of the impacting orbit meet a
// grazing curve ("GR-PD-LPC"): a codimension-2 point on the grazing curve of
// continuation/periodic/grazing_orbit.h, located as the sign change of
//
//   c(u) = -sgn h_x^T M_g q / (|h_x| |q|),   q = f(x_g) - G_x f(x_g) - G_t,
//
// with x_g the grazing point (the contact, at time t*), M_g = Phi(t* + T, t*)
// the monodromy of the grazing orbit based there (the virtual flow, the
// contact switched off), h_x the guard's gradient, G the reset (G_x, G_t its
// Jacobians at x_g, where G(x_g) = x_g), and sgn = +1 when the events come
// from h > 0 (grazing_orbit.h guard_side).
//
// Why (Nordmark 1991; di Bernardo, Budd, Champneys & Kowalczyk 2008,
// "Piecewise-smooth Dynamical Systems", Sec. 2.5 and Ch. 4): the impacting
// orbit near the grazing has the monodromy M = Phi_2 S Phi_1, Phi_1 from the
// cut to the impact and Phi_2 from the impact to the cut, S the saltation
// matrix (continuation/flow/hybrid_system.h)
//
//   S = G_x + (f+ - G_x f- - G_t) h_x^T / (h_x . f- + h_t).
//
// As the normal speed v = -sgn (h_x . f- + h_t) of the impact goes to zero,
// f+ - G_x f- - G_t -> q, so S = -sgn q h_x^T / v + O(1) and
//
//   trace M = -sgn trace(Phi_2 q h_x^T Phi_1) / v + O(1)
//           = -sgn h_x^T (Phi_1 Phi_2) q / v + O(1) = c |h_x| |q| / v + O(1),
//
// Phi_1 Phi_2 -> M_g; det M stays bounded (for an impact law det S = det
// G_x (h_x . f+ + h_t) / (h_x . f- + h_t), r^2 for the oscillator below,
// tests/drivers/impact_oscillator_closed_form.h). So where c < 0 a
// multiplier of the impacting orbit goes to -infinity at the grazing (a
// period doubling lies beside the grazing curve, on its impacting side), where
// c > 0 to +infinity (a fold beside it: the impacting orbit born at the
// grazing is then unstable, on the side where the impactless orbit lives, and
// turns back in a fold). Where c changes sign the multiplier stays bounded,
// and the PD curve (on the side c < 0) and the LPC curve (c > 0) reach the
// grazing curve there, quadratically tangent: the impacting orbit's speed is
// v ~ mu / c at the distance mu from the grazing curve, so the multiplier -1
// or +1 sits at mu ~ c^2. This is the resonant grazing of Simpson & Ghosh
// 2026 ("Resonant grazing bifurcations revisited", arXiv:2602.22797: the
// square-root term of the grazing map vanishes, and saddle-node and
// period-doubling curves of single-impact orbits emanate from the point,
// quadratically tangent to the grazing curve; Ghosh & Simpson 2025,
// arXiv:2510.16218, continue them in the impact oscillator). For the impact
// oscillator x'' + 2 zeta x' + x = F cos(w t), h = d - x, v+ = -r v-:
// q = (0, (1 + r) a), a = x'' < 0 at the stop, h_x = (-1, 0), so c =
// -(M_g)_12 = -e^(-zeta T) sin(wd T) / wd (wd = sqrt(1 - zeta^2), M_g = e^(AT)
// of tests/drivers/impact_oscillator_closed_form.h): PD beside the grazing
// where sin(wd T) > 0, a fold where it is < 0, and the point at w = 2 wd / k
// (T = 2 pi / w, k = 1, 2, ...: the forcing in resonance with the damped
// natural frequency). The impacting orbit's PD and LPC curves cannot be
// continued into the point (at v = 0 the impact disappears: Nordmark's
// square-root singularity).
//
// All of it is exact: M_g and the contact come from the variational
// equations of the grazing system's virtual flow, h_x, f, G_x and G_t from
// the model. c is normalized by |h_x| |q| (invariant under scaling h and the
// reset's strength); where q = 0 (a grazing at which the reset does nothing
// to first order) the value is 0.

#include "continuation/test_function.h"

namespace saltus {

// c(u) of the header at a point of a grazing curve (a periodic::GrazingSystem).
struct GrazingCodim2Value {
  double value = 0.0;         // c above
  double trace_factor = 0.0;  // -sgn h_x^T M_g q: trace M ~ trace_factor / v near the grazing
  Matrix monodromy;           // M_g, n x n, based at the contact
  Vector q;                   // f - G_x f - G_t at the contact
};

// Throws std::logic_error when the point's system is no grazing system;
// std::runtime_error when the orbit cannot be simulated.
GrazingCodim2Value grazing_codim2_value(const PointContext& point);

class GrazingCodim2Test : public TestFunction {
 public:
  std::string type() const override { return "GR-PD-LPC"; }
  double value(const PointContext& point) const override;
  // Adds the contact's time, the trace factor and the grazing orbit's multipliers.
  bool describe(const PointContext& point, SpecialPoint* special) const override;
  bool reads_eigenvalues() const override { return false; }
};

}  // namespace saltus
