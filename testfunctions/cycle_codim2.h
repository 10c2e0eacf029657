#pragma once
// Codimension-2 points on curves of periodic orbits in two parameters
// (continuation/periodic/cycle_curve.h, ns_curve.h), as scalars whose sign
// change the engine locates (the codim-2 bifurcations of fixed points of
// maps, Kuznetsov, "Elements of Applied Bifurcation Theory", 3rd ed. 2004,
// Ch. 9: strong resonances 1:1 to 1:4 and fold-flip; the test functions
// follow the spirit of MatCont's for cycles and MatContM's for maps,
// Govaerts, Khoshsiar Ghaziani, Kuznetsov & Meijer 2007):
//
//   on an NS curve (kappa = cos theta a state of the curve):
//     "R1" kappa - 1 (1:1 resonance: the pair meets at +1),
//     "R2" kappa + 1 (1:2, at -1), "R3" kappa + 1/2 (1:3), "R4" kappa (1:4);
//   on an LPC curve (a multiplier at +1):
//     "R1"   a second multiplier reaches +1,
//     "LPPD" a multiplier reaches -1 (fold-flip);
//   on a PD curve (a multiplier at -1):
//     "R2"   a second multiplier reaches -1,
//     "LPPD" a multiplier reaches +1.
//
// The "second multiplier" tests deflate the eigenvalues: of the monodromy's
// multipliers mu_k the one closest to the critical value c (+1 or -1) is
// left out, and the test is Re prod_{k != crit} (mu_k - c'), c' the target
// (real, since the others come in conjugate pairs). It changes sign where a
// real multiplier passes c' and not where a complex pair passes (|mu - c'|^2
// > 0). Near c' = c the deflated one and the second swap which is nearer,
// but both make the product small there and its sign on either side is the
// one of the second multiplier.

#include <memory>
#include <string>

#include "continuation/pseudo_arclength.h"
#include "continuation/test_function.h"

namespace saltus {

// kappa - target on a NeimarkSackerCurveSystem.
class ResonanceTest : public TestFunction {
 public:
  ResonanceTest(std::string type, double kappa) : type_(std::move(type)), kappa_(kappa) {}
  std::string type() const override { return type_; }
  double value(const PointContext& point) const override;
  bool describe(const PointContext& point, SpecialPoint* special) const override;

 private:
  std::string type_;
  double kappa_;
};

// Re prod over the deflated multipliers (mu - target) on a CycleCurveSystem.
class SecondMultiplierTest : public TestFunction {
 public:
  SecondMultiplierTest(std::string type, double target) : type_(std::move(type)), target_(target) {}
  std::string type() const override { return type_; }
  double value(const PointContext& point) const override;
  bool describe(const PointContext& point, SpecialPoint* special) const override;

 private:
  std::string type_;
  double target_;
};

// The tests of a curve of kind "NS", "LPC" or "PD" (none for another kind).
TestFunctions cycle_curve_tests(const std::string& kind);

}  // namespace saltus
