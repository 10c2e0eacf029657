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
// Only forced (non-autonomous) orbits so far.

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

// d(M v)/du (n x (n + 2)) of a forced orbit's shooting problem with two
// carried parameters, u = (x, p1, p2), exactly, through `lifted`, the
// tangent-lifted system of its hybrid model (the derivation above).
Matrix monodromy_derivative(const ShootingSystem& shooting, const flow::HybridSystem& lifted, const Vector& u,
                            const Vector& v);

class CycleCurveSystem : public System {
 public:
  // `shooting` is a forced orbit's shooting problem with two carried
  // parameters; u0 = (x, p1, p2) a point near the curve, where the borders
  // are the singular vectors of A. Throws std::invalid_argument for an
  // autonomous orbit, another number of parameters, or a u0 of the wrong
  // size, and std::logic_error when the model has no tangent-lifted system.
  CycleCurveSystem(const ShootingSystem& shooting, CycleBifurcation kind, const Vector& u0);

  int state_size() const override { return n_ + 1; }
  int parameter_size() const override { return 1; }
  std::vector<std::string> state_names() const override;
  std::vector<std::string> parameter_names() const override;
  void residual(const double* u, double* f) const override;
  void jacobian(const double* u, Matrix* J) const override;
  // Third derivatives of the flow are not available.
  void second_derivative(const double* u, const double* d, Matrix* H) const override;
  // The borders move to the accepted point's singular vectors.
  void accept(const Vector& u) const override;

  BorderedSingular bordered(const Vector& u) const;
  // d(M v)/du (n x (n + 2)) exactly, through the tangent-lifted system.
  Matrix monodromy_derivative(const Vector& u, const Vector& v) const;
  const ShootingSystem& shooting() const { return *shooting_; }
  CycleBifurcation kind() const { return kind_; }
  // The right border c, moved to each accepted point's v normalized: the
  // critical eigenvector's orientation, continued along the curve (the sign
  // of a fold's normal-form coefficient depends on it).
  Vector right_border() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return c_;
  }

 private:
  std::shared_ptr<ShootingSystem> shooting_;
  std::shared_ptr<const flow::HybridSystem> lifted_;
  CycleBifurcation kind_;
  int n_ = 0;
  mutable std::mutex mutex_;
  mutable Vector b_, c_;
};

}  // namespace saltus::periodic
