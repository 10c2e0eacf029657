#pragma once
// Special points of branches of periodic orbits, from the monodromy matrix
// M = Phi_xx (for a shooting problem F = phi_T(x) - x, M = F_x + I):
//
//   fold of cycles ("LPC"): the branch turns back in the parameter (the same
//     tangent test as for equilibria: FoldTest with type "LPC"); a multiplier
//     passes +1;
//   period doubling ("PD"): det(M + I) = 0, a multiplier passes -1;
//   Neimark-Sacker ("NS"): prod_{i<j} (mu_i mu_j - 1) = 0, a complex pair
//     crosses the unit circle (Kuznetsov, "Elements of applied bifurcation
//     theory", Sec. 10.3, the bialternate-product test; it also vanishes at
//     a pair mu, 1/mu of real multipliers, a neutral saddle). For an
//     autonomous ShootingSystem the trivial multiplier 1 is left out of the
//     product, else every LPC would also vanish it.

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
};

}  // namespace saltus
