#pragma once
// Curves of Neimark-Sacker points (NS) of periodic orbits in two
// parameters, by shooting with the saltation-corrected monodromy matrix M,
// beside the LPC and PD curves of cycle_curve.h.
//
// A pair of multipliers exp(+-i theta) on the unit circle makes
//
//   B(kappa) = M^2 - 2 kappa M + I = (M - e^{i theta})(M - e^{-i theta}),   kappa = cos theta,
//
// singular of rank n - 2. The defining system borders B with two vectors on
// each side, the bordered method for a corank-2 matrix (Govaerts 2000,
// "Numerical Methods for Bifurcations of Dynamical Equilibria", SIAM, its
// chapters on bordered matrices and on Hopf points by a 2x2 Schur block;
// for fixed points of maps the NS curves of MatContM, Govaerts, Khoshsiar
// Ghaziani, Kuznetsov & Meijer 2007, SIAM J. Sci. Comput. 29, which border
// A^2 - 2 kappa A + I the same way; the shooting form of the cycle's
// defining system as in Kuznetsov, Govaerts, Doedel & Dhooge 2005, SIAM J.
// Numer. Anal. 43): with u = (x, p1, kappa, p2) and F the shooting
// equations phi_T(x, p) - x,
//
//   F(u) = 0,   G_a(u) = G_b(u) = 0,   [ B    W_b ] [ V ]   [ 0  ]
//                                      [ U_b^T 0  ] [ G ] = [ I2 ],
//
// U_b, W_b (n x 2) near the right and left null spaces of B, V (n x 2) and G
// (2 x 2). G = 0 exactly where B has rank n - 2 (the Schur complement of a
// regular bordered matrix), so two of its four entries, G_a and G_b, with F
// make n + 2 equations in n + 3 unknowns. Which two: the pair whose
// gradients with F's make the best conditioned Jacobian (largest smallest
// singular value), chosen again at every accepted point, when the borders
// move to the accepted point's V and W (orthonormalized). On the unit
// circle |kappa| <= 1; the same curve goes on through kappa = +-1 into
// neutral saddles (real multipliers mu, 1/mu, kappa = (mu + 1/mu) / 2).
//
// The derivative: differentiating B V + W_b G = 0, U_b^T V = I and
// multiplying by the left solution W (B^T W + U_b H = 0, W_b^T W = I) gives
// dG = -W^T dB V, and with dB = dM M + M dM - 2 kappa dM - 2 dkappa M,
//
//   dG_ij = -w_i^T ( dM[(M - 2 kappa) v_j] + M dM[v_j] ) + 2 dkappa w_i^T M v_j,
//
// where dM[a] = d(M a)/du is a second derivative of the flow along a fixed
// vector: exact from the tangent-lifted system (monodromy_derivative of
// cycle_curve.h; four lifted periods per Jacobian: a = v_j and
// (M - 2 kappa) v_j).
//
// Autonomous orbits: u = (x, T, p1, kappa, p2) and F the shooting equations
// with the phase condition (shooting.h). The trivial multiplier 1 gives B
// the eigenvalue 2 (1 - kappa), nonzero off kappa = 1 (the 1:1 resonance),
// so B is bordered as above; dM[a]'s T-column is f_z(x(T)) M a, the end
// moving (cycle_curve.h). The start's pair is sought among the multipliers
// without the trivial one (nontrivial_multipliers, shooting.h).

#include <array>
#include <memory>
#include <mutex>
#include <string>

#include "continuation/periodic/shooting.h"
#include "continuation/system.h"

namespace saltus::periodic {

class NeimarkSackerCurveSystem : public System {
 public:
  // `shooting` is a shooting problem with two carried parameters; x0 =
  // (x, [T,] p1, p2) an orbit with a pair of multipliers mu_i,
  // mu_j whose product is within max_distance of 1 (an NS point or a
  // neutral saddle); kappa starts at Re(mu_i + mu_j) / 2 and the borders at
  // the singular vectors of B's two smallest singular values (an autonomous
  // orbit's phase plane goes through x0). Throws std::invalid_argument for
  // another number of parameters, a wrong size or no such pair, and
  // std::logic_error when the model has no tangent-lifted system.
  NeimarkSackerCurveSystem(const ShootingSystem& shooting, const Vector& x0, double max_distance = 1e-4);

  int state_size() const override { return m_ + 2; }  // (x, [T,] p1, kappa)
  int parameter_size() const override { return 1; }   // p2
  std::vector<std::string> state_names() const override;
  std::vector<std::string> parameter_names() const override;
  void residual(const double* u, double* f) const override;
  void jacobian(const double* u, Matrix* J) const override;
  // Third derivatives of the flow are not available.
  void second_derivative(const double* u, const double* d, Matrix* H) const override;
  // The borders move to the accepted point's V and W; the pair of entries is
  // chosen again (and an autonomous orbit's phase plane moves to the point).
  void accept(const Vector& u) const override;

  Vector start() const { return start_; }  // (x, [T,] p1, kappa0, p2)
  int kappa_index() const { return m_ + 1; }
  const ShootingSystem& shooting() const { return *shooting_; }
  Vector shooting_point(const Vector& u) const;  // (x, [T,] p1, p2)

  // The bordered solution at u: G (2 x 2), V and W (n x 2).
  struct Bordered {
    Matrix G, V, W, M;
  };
  Bordered bordered(const Vector& u) const;

 private:
  // The gradients of the four entries of G (rows k = i + 2 j for G_ij) and
  // F's Jacobian, in u's order; cached for accept().
  void gradients(const Vector& u, Matrix* entries, Matrix* Jf, Bordered* at) const;
  // The pair of entries with the best conditioned Jacobian.
  static std::array<int, 2> best_pair(const Matrix& entries, const Matrix& Jf);

  std::shared_ptr<ShootingSystem> shooting_;
  std::shared_ptr<const flow::HybridSystem> lifted_;
  int n_ = 0, m_ = 0;  // the orbit's dimension and the shooting state's (n, or n + 1 with T)
  Vector start_;
  mutable std::mutex mutex_;
  mutable Matrix Ub_, Wb_;
  mutable std::array<int, 2> pair_ = {0, 1};
  mutable Vector cached_u_;
  mutable Matrix cached_entries_, cached_Jf_;
  mutable Bordered cached_;
};

}  // namespace saltus::periodic
