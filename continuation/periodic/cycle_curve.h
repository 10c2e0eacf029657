#pragma once
// Curves of folds (LPC) and period doublings (PD) of periodic orbits in two
// parameters, for smooth and hybrid systems alike, by shooting with the
// saltation-corrected monodromy matrix M.
//
// Defining system (minimally augmented, Govaerts 2000, "Numerical Methods
// for Bifurcations of Dynamical Equilibria", SIAM, Sec. 4.4 and 10.2;
// for cycles Kuznetsov, Govaerts, Doedel & Dhooge 2005, SIAM J. Numer.
// Anal. 43, Sec. 2, and MatCont's LPC/PD continuation of cycles): with
// u = (x, p1, p2) and F(u) = phi_T(x, p) - x the shooting equations of a
// forced orbit,
//
//   F(u) = 0,   g(u) = 0,   [ A   b ] [ v ]   [ 0 ]
//                           [ c^T 0 ] [ g ] = [ 1 ],
//
// A = M - I at a fold of cycles (a multiplier +1; A is the shooting
// Jacobian's x-block, singular there), A = M + I at a period doubling (-1).
// g vanishes exactly where A is singular (Cramer: g = -det A / det B), and
// with b, c near the left and right null vectors B is regular there. A PD
// curve follows the period-1 orbit. The bordering vectors are moved to the
// last point's w and v (MatCont's adaptation), so B stays well conditioned.
//
// The derivative: differentiating B (v, g) = e_{n+1} and multiplying by the
// solution (w, h) of B^T (w, h) = e_{n+1} gives
//
//   g_u = -w^T (A_u v) = -w^T d(M v)/du,
//
// a second derivative of the flow. It is exact: the tangent-lifted system
// (continuation/flow/tangent_lifted.h: state (z, w), field (f, f_z w),
// resets (g, S w) with the simulator's saltation matrix S) started from
// (z0, (v, 0)) has a state-transition matrix whose lower-left block is
// L = d(Phi(z0) (v, 0))/dz0, events and their moving times included. When
// the forcing period follows a parameter (T(p), cut at t0 = phase T(p)),
// the ends move too:
//
//   d(Phi w)/dt1 = f_z(t1) Phi w,   d(Phi w)/dt0 = -L f(t0) - Phi f_z(t0) w,
//
// (from d phi/dt0 = -Phi f(t0) differentiated along w; the flow's second
// derivative is symmetric), both read off the lifted field at the ends.
//
// Autonomous orbits (shooting.h: the state (x, T), the phase condition
// f(x_ref) . (x - x_ref) = 0, its plane moved to each accepted point) have
// u = (x, T, p1, p2) and the trivial multiplier 1 (the flow direction):
//
//   PD: A = M + I as above; the multiplier 1 leaves it regular (M + I has
//       the eigenvalue 2 there). The T-column of d(M v)/du is the end's
//       motion, d(Phi(T) v)/dT = f_z(x(T)) Phi(T) v: the lifted field's
//       second half at the end point, d_t1 above without dT/dp.
//   LPC: M - I is singular everywhere on the branch (M f(x) = f(x)), so the
//       bordered matrix is the whole shooting Jacobian in (x, T),
//
//         A = [ M - I      f(x(T)) ]
//             [ f_ref^T    0       ]   ((n + 1) square),
//
//       singular exactly where a second multiplier reaches +1 (a fold: the
//       Jacobian of the shooting problem in the state drops rank; Kuznetsov,
//       Govaerts, Doedel & Dhooge 2005, Sec. 2, border the BVP's Jacobian
//       likewise, as MatCont's LPC of cycles does). With v = (v_x, v_T),
//       A_u v = ( d(M v_x)/du + v_T d f(x(T))/du, 0 ) (the phase row is
//       constant between accepted points), and d f(x(T), p)/du = f_z(x(T))
//       dz(T)/du with dz(T)/d(x, p) = Phi and dz(T)/dT = f(x(T)): the
//       field's exact Jacobian (Jets) at the end times Phi's columns and f.

#include <memory>
#include <mutex>
#include <string>

#include "continuation/periodic/shooting.h"
#include "continuation/system.h"

namespace saltus::periodic {

enum class CycleBifurcation { kFold, kPeriodDoubling };
std::string to_string(CycleBifurcation kind);  // "LPC", "PD"

// The bordered solutions at a point: g, the right vector v (A v = -g b) and
// the left one w (w^T A = -h c^T).
struct BorderedSingular {
  double g = 0.0;
  Vector v, w;
};

// d(M v)/du (n x (m + 2)) of a shooting problem with two carried
// parameters, u = (x, [T,] p1, p2) (m = shooting.state_size()), exactly,
// through `lifted`, the tangent-lifted system of its hybrid model (the
// derivation above).
Matrix monodromy_derivative(const ShootingSystem& shooting, const flow::HybridSystem& lifted, const Vector& u,
                            const Vector& v);

class CycleCurveSystem : public System {
 public:
  // `shooting` is a shooting problem with two carried parameters; u0 =
  // (x, [T,] p1, p2) a point near the curve, where the borders are the
  // singular vectors of A (an autonomous orbit's phase plane goes through
  // u0). Throws std::invalid_argument for another number of parameters or a
  // u0 of the wrong size, and std::logic_error when the model has no
  // tangent-lifted system.
  CycleCurveSystem(const ShootingSystem& shooting, CycleBifurcation kind, const Vector& u0);

  int state_size() const override { return m_ + 1; }  // (x, [T,] p1)
  int parameter_size() const override { return 1; }
  std::vector<std::string> state_names() const override;
  std::vector<std::string> parameter_names() const override;
  void residual(const double* u, double* f) const override;
  void jacobian(const double* u, Matrix* J) const override;
  // Third derivatives of the flow are not available.
  void second_derivative(const double* u, const double* d, Matrix* H) const override;
  // The borders move to the accepted point's singular vectors (and an
  // autonomous orbit's phase plane to the point).
  void accept(const Vector& u) const override;

  BorderedSingular bordered(const Vector& u) const;
  // d(M v)/du (n x (m + 2)) exactly, through the tangent-lifted system.
  Matrix monodromy_derivative(const Vector& u, const Vector& v) const;
  const ShootingSystem& shooting() const { return *shooting_; }
  CycleBifurcation kind() const { return kind_; }
  // The right border c, moved to each accepted point's v normalized: the
  // critical eigenvector's orientation, continued along the curve (the sign
  // of a fold's normal-form coefficient depends on it).
  // (An autonomous LPC's is (v_x, v_T).)
  Vector right_border() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return c_;
  }

 private:
  std::shared_ptr<ShootingSystem> shooting_;
  std::shared_ptr<const flow::HybridSystem> lifted_;
  // A at u: the shooting Jacobian's state block for an autonomous LPC, else M -+ I.
  Matrix singular_block(const Vector& u) const;

  CycleBifurcation kind_;
  int n_ = 0, m_ = 0;  // the orbit's dimension and the shooting state's (n, or n + 1 with T)
  mutable std::mutex mutex_;
  mutable Vector b_, c_;
};

}  // namespace saltus::periodic
