#pragma once
// The cusp of cycles (CPC) on LPC curves and the generalized period
// doubling (GPD) on PD curves: the points where the normal-form coefficient
// of the fold or the flip of the period map vanishes.
//
// At a fixed point x0 of the period map P with multiplier mu = +1 (fold) or
// -1 (flip), q a unit right eigenvector (M q = mu q), p the left one with
// <p, q> = 1 (M^T p = mu p), and B, C the map's second and third
// derivatives (continuation/periodic/period_map_forms.h), the map restricted
// to its center manifold x = x0 + eta q + h2 eta^2 / 2 + ... is
// (Kuznetsov, "Elements of Applied Bifurcation Theory", 3rd ed. 2004, Sec.
// 5.4 (center manifolds of maps) and Sec. 9.2-9.5 (cycles by their period
// maps); Kuznetsov & Meijer 2005, SIAM J. Sci. Comput. 26, the normal forms
// of the codimension-2 points of maps that MatContM computes):
//
//   fold:  eta -> eta + b eta^2 + c eta^3,   b = <p, B(q, q)> / 2,
//          and where b = 0 (CPC) c = <p, C(q, q, q) + 3 B(q, h2)> / 6 with
//          (I - M) h2 = B(q, q) - 2 b q, <q, h2> = 0 (the bordered solve);
//   flip:  eta -> -eta + c eta^3,   c = <p, C(q, q, q) + 3 B(q, (I - M)^-1 B(q, q))> / 6
//          (I - M is regular: its eigenvalue at q is 2).
//
// The homological equations behind them, order 2: (I - M) h2 = B(q, q) -
// 2 b q for the fold; for the flip the eta^2 term is resonance-free and h2 =
// (I - M)^-1 B(q, q); order 3 gives c. A scalar check: P(x) = -x + a x^2 +
// d x^3 has c = a^2 + d (B = 2a, C = 6d, (I - M)^-1 = 1/2), Kuznetsov's
// c(0) = f_xx^2 / 4 + f_xxx / 6 of the flip (Sec. 4.4). c > 0: the second
// iterate x -> x - 2 c x^3 + ... attracts in the center direction, the
// doubled orbit is born stable (supercritical).
//
// At R1 on an LPC curve and R2 on a PD curve <left, q> passes zero and the
// coefficient, a multiple of 1 / <left, q>, passes a pole: a sign change
// that is no CPC or GPD. describe() rejects a located point whose cosine
// is below kJordanCosine (there the cosine is of the order of the distance
// to the double multiplier, i.e. of the location's tolerance; at a genuine
// CPC or GPD it is of order one).
//
// The test values: b on LPC curves (its sign follows q's orientation, which
// is carried along the curve by the curve system's right border, so that b
// changes sign at a CPC and nowhere else), c on PD curves (q -> -q, p -> -p
// leaves it alone). q has unit length, so both are the coefficients in
// arclength along q. On an autonomous orbit's curve the map is the
// Poincare map on the section through the point normal to the field
// (continuation/periodic/period_map_forms.h: M, B, C with the return time's
// variation), q and p the critical vectors of its Jacobian Pi M; the
// trivial multiplier is 0 there, out of the way of +1 and -1. Its b and c
// differ from another section's by nonzero factors, positive for c: the
// zeros (the CPC and the GPD) and the sign of c do not depend on the
// section. The periodic normal forms of Kuznetsov, Govaerts, Doedel &
// Dhooge 2005 (MatCont: dxi/dt = b xi^2 on LPC, c xi^3 on PD) have the same
// zeros, but their flip coefficient has the opposite sign convention (c < 0
// supercritical there, the time-T flow of xi' = c xi^3 after the flip being
// xi -> -xi - T c xi^3; here c > 0 is supercritical).

#include <memory>
#include <mutex>

#include "continuation/periodic/cycle_curve.h"
#include "continuation/periodic/period_map_forms.h"
#include "testfunctions/cycle_codim2.h"

namespace saltus {

// q (unit, q . orient >= 0 when orient is not empty) and p (<p, q> = 1):
// the right and left singular vectors of M - mu I of its smallest singular
// value. *cosine (when asked): |<left, q>| of the unit vectors, which
// vanishes where mu becomes a double multiplier with a Jordan block (R1 on
// an LPC curve, R2 on a PD curve), where p cannot be normalized.
void critical_vectors(const Matrix& M, double mu, const Vector& orient, Vector* q, Vector* p,
                      double* cosine = nullptr);

struct FoldNormalForm {
  double b = 0.0;
  double c = 0.0;  // meaningful where b = 0 (at a CPC)
};
FoldNormalForm fold_normal_form(const periodic::PeriodMapForms& forms, const Vector& q, const Vector& p);
double flip_normal_form(const periodic::PeriodMapForms& forms, const Vector& q, const Vector& p);

// "CPC" (b) on an LPC curve, "GPD" (c) on a PD curve; describe() adds
// fold_coefficient and cusp_coefficient, or flip_coefficient, and the
// multipliers.
class CycleNormalFormTest : public TestFunction {
 public:
  CycleNormalFormTest(periodic::CycleBifurcation kind, std::shared_ptr<const CycleCurvePoints> points)
      : kind_(kind), points_(std::move(points)) {}
  std::string type() const override { return kind_ == periodic::CycleBifurcation::kFold ? "CPC" : "GPD"; }
  double value(const PointContext& point) const override;
  bool describe(const PointContext& point, SpecialPoint* special) const override;
  bool reads_eigenvalues() const override { return false; }
  static constexpr double kJordanCosine = 1e-5;

 private:
  struct Coefficients {
    double value = 0.0;  // b (fold) or c (flip)
    double cusp = 0.0;   // the fold's c
    double cosine = 1.0;
  };
  Coefficients at(const PointContext& point) const;
  std::shared_ptr<const flow::HybridSystem> twice_lifted(const periodic::ShootingSystem& shooting) const;

  periodic::CycleBifurcation kind_;
  std::shared_ptr<const CycleCurvePoints> points_;
  mutable std::mutex mutex_;
  mutable const flow::HybridSystem* lifted_from_ = nullptr;
  mutable std::shared_ptr<const flow::HybridSystem> twice_lifted_;
};

}  // namespace saltus
