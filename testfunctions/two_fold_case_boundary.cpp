#include "testfunctions/two_fold_case_boundary.h"

#include <utility>

namespace saltus {

std::string boundary_name(CaseBoundary b) {
  switch (b) {
    case CaseBoundary::kKpp:
      return "K++";
    case CaseBoundary::kKmm:
      return "K--";
    case CaseBoundary::kJ1:
      return "J1";
    case CaseBoundary::kJ2:
      return "J2";
    case CaseBoundary::kJ1J2:
      return "J1J2-1";
  }
  return "?";
}

double boundary_value(CaseBoundary b, const TwoFoldConstants& K) {
  switch (b) {
    case CaseBoundary::kKpp:
      return K.pp;
    case CaseBoundary::kKmm:
      return K.mm;
    case CaseBoundary::kJ1:
      return K.mp;  // J1 = K-+ / sqrt(-K++ K--)
    case CaseBoundary::kJ2:
      return -K.pm;  // J2 = -K+- / sqrt(-K++ K--)
    case CaseBoundary::kJ1J2:
      return K.pp * K.mm - K.mp * K.pm;  // -D
  }
  return 0.0;
}

CaseBoundaryTest::CaseBoundaryTest(CaseBoundary which, Constants constants)
    : which_(which), constants_(std::move(constants)) {}

double CaseBoundaryTest::value(const PointContext& point) const {
  return boundary_value(which_, constants_(point.problem.u(point.y)));
}

}  // namespace saltus
