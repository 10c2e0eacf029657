// The two-fold case boundaries as test functions
// (testfunctions/two_fold_case_boundary.h): each value is zero exactly where
// its condition of Fig. 4 (Szalai & Jeffrey 2014) changes.

#include "testfunctions/two_fold_case_boundary.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace saltus;

TEST_CASE("two-fold case boundaries: names and values from the K of (22)", "[testfunctions][two_fold]") {
  // K++ = -2, K+- = 3, K-+ = -5, K-- = 7: invisible-invisible (27).
  const TwoFoldConstants K{-2.0, 3.0, -5.0, 7.0};
  CHECK(boundary_name(CaseBoundary::kKpp) == "K++");
  CHECK(boundary_name(CaseBoundary::kKmm) == "K--");
  CHECK(boundary_name(CaseBoundary::kJ1) == "J1");
  CHECK(boundary_name(CaseBoundary::kJ2) == "J2");
  CHECK(boundary_name(CaseBoundary::kJ1J2) == "J1J2-1");
  CHECK(boundary_value(CaseBoundary::kKpp, K) == -2.0);
  CHECK(boundary_value(CaseBoundary::kKmm, K) == 7.0);
  CHECK(boundary_value(CaseBoundary::kJ1, K) == -5.0);  // sign of J1 = K-+ / sqrt(-K++ K--)
  CHECK(boundary_value(CaseBoundary::kJ2, K) == -3.0);  // sign of J2 = -K+- / sqrt(-K++ K--)
  // -D = K++ K-- - K-+ K+- = -14 + 15 = 1; J1 J2 - 1 = D / (K++ K--) has its sign here.
  CHECK(boundary_value(CaseBoundary::kJ1J2, K) == 1.0);
  const double s = std::sqrt(14.0), J1 = -5.0 / s, J2 = -3.0 / s;
  CHECK(J1 * J2 - 1.0 == Approx(1.0 / 14.0));
}
