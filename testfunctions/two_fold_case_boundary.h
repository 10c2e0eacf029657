#pragma once
// The case boundaries of a two-fold singularity as test functions (Szalai &
// Jeffrey, Phys. Rev. E 90, 022914 (2014), Sec. IV and Fig. 4,
// doi:10.1103/PhysRevE.90.022914). The two-fold itself, its
// constants and its classification are in analyses/two_fold/two_fold.h; its
// continuation, which uses these test functions, in
// analyses/two_fold/continuation.h.
//
// Test functions (type "CB", case boundary). Each is continuous along a curve
// of two-folds and changes sign exactly where one of the conditions of Fig. 4
// does:
//   K++          K^{++} of (22)           (c): F+ invisible iff K++ < 0
//   K--          K^{--}                   (b): F- invisible iff K-- > 0
//   J1           K^{-+}                   (d): sign J1 = sign K^{-+} where J1 is defined
//   J2           -K^{+-}                  (e): sign J2 = sign(-K^{+-})
//   J1J2-1       K++ K-- - K-+ K+- = -D   (f): J1 J2 - 1 = D / (K++ K--), so where
//                                              (27) holds (K++ K-- < 0) its sign is that of -D
// (J1, J2 themselves are undefined outside (27) and would hand the root
// finder a NaN; these stand-ins have the same zeros where the cases are
// defined, and are smooth everywhere.)

#include <functional>
#include <string>

#include "continuation/test_function.h"

namespace saltus {

// K^{++}, K^{+-}, K^{-+}, K^{--} of (22).
struct TwoFoldConstants {
  double pp = 0.0, pm = 0.0, mp = 0.0, mm = 0.0;
};

// What a case-boundary test function measures (see the header comment).
enum class CaseBoundary { kKpp, kKmm, kJ1, kJ2, kJ1J2 };
std::string boundary_name(CaseBoundary b);  // "K++", "K--", "J1", "J2", "J1J2-1"
// The test value from the K's (continuous; zero at the boundary).
double boundary_value(CaseBoundary b, const TwoFoldConstants& K);

// A test function of the engine: boundary_value of the constants at the
// corrected point u = (x, p), which `constants` computes (e.g. by classifying
// the two-fold there, analyses/two_fold/continuation.cpp).
class CaseBoundaryTest : public TestFunction {
 public:
  using Constants = std::function<TwoFoldConstants(const Vector& u)>;
  CaseBoundaryTest(CaseBoundary which, Constants constants);
  std::string type() const override { return "CB"; }
  std::string name() const override { return boundary_name(which_); }
  double value(const PointContext& point) const override;

 private:
  CaseBoundary which_;
  Constants constants_;
};

}  // namespace saltus
