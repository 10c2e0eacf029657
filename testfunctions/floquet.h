#pragma once
// Special points of branches of periodic orbits, from the monodromy matrix
// M = Phi_xx (for a shooting problem F = phi_T(x) - x, M = F_x + I):
//
//   fold of cycles ("LPC"): the branch turns back in the parameter (the same
//     tangent test as for equilibria: FoldTest with type "LPC"); a multiplier
//     passes +1;
//   period doubling ("PD"): det(M + I) = 0, a multiplier passes -1;
//   Neimark-Sacker ("NS"): psi = prod_{i<j} (mu_i mu_j - 1) = 0, a complex
//     pair crosses the unit circle (Kuznetsov, "Elements of applied
//     bifurcation theory", 3rd ed., 2004, Sec. 10.3.2, the bialternate-product
//     test: the eigenvalues of the bialternate square M (.) M are the
//     products mu_i mu_j, i < j). For an autonomous ShootingSystem the
//     trivial multiplier 1 is left out of the product, else every LPC would
//     also vanish it.
//
//     Neutral saddles. A factor mu_i mu_j - 1 vanishes wherever a product of
//     two multipliers passes 1, and psi changes sign there whenever that
//     factor is real and simple. For a complex conjugate pair, mu_j =
//     conj(mu_i), the factor is |mu_i|^2 - 1: it vanishes exactly when the pair
//     is on the unit circle, mu = exp(+-i theta), which is the NS (a torus is
//     born, Kuznetsov 2004, Sec. 4.6). For two real multipliers the factor
//     is mu_i mu_j - 1 as well, and it vanishes at a real pair (mu, 1/mu),
//     mu != +-1: a neutral saddle of the cycle (the saddle's multipliers
//     cross the hyperbola mu_i mu_j = 1, as a neutral saddle of an
//     equilibrium has eigenvalues +-kappa, lambda_i + lambda_j = 0). There
//     no multiplier is on the unit circle: the cycle stays hyperbolic, the
//     number of multipliers inside the circle does not change, and nothing
//     bifurcates (the orbit's stability and its neighbourhood's topology are
//     the same on both sides). Such a sign change of psi is not an NS, and
//     describe() drops it: at the located zero the critical pair (the i < j
//     whose |mu_i mu_j - 1| is smallest) must be a complex conjugate pair,
//     mu_j = conj(mu_i) and Im mu_i != 0 (is_real of testfunctions/hopf.h),
//     so that |mu_i| = 1 there; a real pair is a neutral saddle and is not
//     reported (as HopfTest drops the neutral saddles of equilibria).

//
// Large shooting problems (periodic::ShootingSystem::matrix_free(): the
// monodromy matrix is never formed) read the few multipliers of largest
// modulus instead, by Arnoldi (ShootingSystem::leading_multipliers), those
// in a cluster inside the disc |mu| < 0.9 bounded there rather than
// resolved (periodic::ArnoldiOptions::resolve_above). PD is then
// prod (1 + mu_i) and NS the product over their pairs, over the resolved
// multipliers alone. The ones left out are inside the unit circle: those
// of the cluster inside 0.9, those beyond the count inside the circle of
// the smallest one kept (while that is inside the unit circle). The
// factors they would add have a fixed sign there (1 + mu > 0 for a real mu
// in (-1, 1), |1 + mu|^2 > 0 for a pair), so PD's zeros are the dense
// test's. NS's factors among multipliers inside the circle do not: with r
// real ones and c complex pairs, all inside, the product has the sign
// (-1)^(r (r - 1) / 2 + c) (a real pair's mu_i mu_j - 1 < 0, a pair's
// |mu|^2 - 1 < 0, the rest come in conjugates), which changes when a
// multiplier enters or leaves the set. So the matrix-free NS divides that
// sign out: positive while every resolved multiplier is inside, and it
// changes sign where a factor passes 0. (Two real multipliers that meet and
// turn complex change r by 2 and c by 1: the sign stays, as the product is
// continuous there; whether a nearly real pair counts as real or complex
// does not change it either. Over all multipliers, in the dense test, the
// sign is one constant along a branch, so it is left as it is.) It can
// still jump where the set changes beside multipliers outside the circle:
// a real mu entering beside a real one of the same sign beyond 1 / |mu|,
// or a pair entering when the smallest one kept is outside. describe()
// then finds no factor near zero at the located point and drops it.

#include "continuation/test_function.h"

namespace saltus {

// det(F_x + 2I) = det(M + I).
class PeriodDoublingTest : public TestFunction {
 public:
  std::string type() const override { return "PD"; }
  double value(const PointContext& point) const override;
};

class NeimarkSackerTest : public TestFunction {
 public:
  std::string type() const override { return "NS"; }
  double value(const PointContext& point) const override;
  // False at a neutral saddle (the critical pair real, mu and 1/mu): see above.
  bool describe(const PointContext& point, SpecialPoint* special) const override;
};

}  // namespace saltus
