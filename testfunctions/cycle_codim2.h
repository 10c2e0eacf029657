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
//     "LPPD" a multiplier reaches -1 (fold-flip),
//     "CPC"  the fold's normal-form coefficient vanishes (cusp of cycles);
//   on a PD curve (a multiplier at -1):
//     "R2"   a second multiplier reaches -1,
//     "LPPD" a multiplier reaches +1,
//     "GPD"  the flip's normal-form coefficient vanishes (generalized
//            period doubling);
// CPC and GPD in testfunctions/cycle_normal_form.h.
//
// The "second multiplier" tests deflate the eigenvalues: of the monodromy's
// multipliers mu_k the one closest to the critical value c (+1 or -1) is
// left out, and the test is Re prod_{k != crit} (mu_k - c'), c' the target
// (real, since the others come in conjugate pairs). It changes sign where a
// real multiplier passes c' and not where a complex pair passes (|mu - c'|^2
// > 0). Near c' = c the deflated one and the second swap which is nearer,
// but both make the product small there and its sign on either side is the
// one of the second multiplier. An autonomous orbit's trivial multiplier 1
// (the flow direction) is no bifurcation: CycleCurvePoints leaves it out
// first (nontrivial_multipliers, continuation/periodic/shooting.h), else R1
// and LPPD would see it on every autonomous LPC and PD curve.

#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "continuation/pseudo_arclength.h"
#include "continuation/test_function.h"

namespace saltus {

// The monodromy matrix and the multipliers at the points of one curve,
// computed once per point and shared by the curve's tests (each would
// otherwise integrate the variational equations again at the same point).
// Keyed by the system and the point y; the last few points are kept, since
// a located point is followed by its describe() calls and the engine steps
// on from the last accepted point.
class CycleCurvePoints {
 public:
  struct At {
    Matrix monodromy;
    // Largest modulus first; an autonomous orbit's without the trivial one.
    Eigen::VectorXcd multipliers;
  };
  // Throws std::logic_error when the point's system is no cycle or NS curve.
  std::shared_ptr<const At> at(const PointContext& point) const;

 private:
  static constexpr std::size_t kKept = 4;
  struct Entry {
    const System* system;
    Vector y;
    std::shared_ptr<const At> at;
  };
  mutable std::mutex mutex_;
  mutable std::deque<Entry> recent_;
};

// kappa - target on a NeimarkSackerCurveSystem.
class ResonanceTest : public TestFunction {
 public:
  ResonanceTest(std::string type, double kappa, std::shared_ptr<const CycleCurvePoints> points)
      : type_(std::move(type)), kappa_(kappa), points_(std::move(points)) {}
  std::string type() const override { return type_; }
  double value(const PointContext& point) const override;
  // Throws std::logic_error, as value() does, on a curve that is no NS curve.
  bool describe(const PointContext& point, SpecialPoint* special) const override;
  bool reads_eigenvalues() const override { return false; }

 private:
  std::string type_;
  double kappa_;
  std::shared_ptr<const CycleCurvePoints> points_;
};

// Re prod over the deflated multipliers (mu - target) on a CycleCurveSystem.
class SecondMultiplierTest : public TestFunction {
 public:
  SecondMultiplierTest(std::string type, double target, std::shared_ptr<const CycleCurvePoints> points)
      : type_(std::move(type)), target_(target), points_(std::move(points)) {}
  std::string type() const override { return type_; }
  double value(const PointContext& point) const override;
  bool describe(const PointContext& point, SpecialPoint* special) const override;
  bool reads_eigenvalues() const override { return false; }

 private:
  std::string type_;
  double target_;
  std::shared_ptr<const CycleCurvePoints> points_;
};

// The multipliers at the point as [re, im] pairs in special->data["multipliers"].
void add_multipliers(const CycleCurvePoints::At& at, SpecialPoint* special);

// The tests of a curve of kind "NS", "LPC" or "PD" (none for another kind),
// sharing one CycleCurvePoints: on LPC curves also the cusp of cycles (CPC)
// and on PD curves the generalized period doubling (GPD) of
// testfunctions/cycle_normal_form.h. On a grazing curve ("GR") the meeting
// point with the impacting orbit's PD and LPC curves (GR-PD-LPC,
// testfunctions/grazing_codim2.h).
TestFunctions cycle_curve_tests(const std::string& kind);

}  // namespace saltus
