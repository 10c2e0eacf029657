// The pseudo-arclength predictor (continuation/predictor.h) on the unit
// circle y(s) = (cos s, sin s), where y''' = -y' and every error is known:
// with the curvature the prediction misses by (ds^3 / 6 + ds^2 ds_last / 4)
// to leading order, along the tangent alone by ds^2 / 2.

#include "continuation/predictor.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace saltus;

namespace {

Vector on_circle(double s) { return (Vector(2) << std::cos(s), std::sin(s)).finished(); }
Vector tangent_at(double s) { return (Vector(2) << -std::sin(s), std::cos(s)).finished(); }

// |y(s + ds) - predict| for a last step ds_last onto s.
double miss(double s, double ds_last, double ds) {
  return (on_circle(s + ds) - predict(on_circle(s), tangent_at(s), tangent_at(s - ds_last), ds_last, ds))
      .norm();
}

}  // namespace

TEST_CASE("predictor: third order along the circle, the leading error as derived",
          "[continuation][predictor]") {
  // The O(ds^4) remainder is ds / 4 relative to the leading term at most:
  // 1% at ds = 0.01 and 0.04.
  for (const double s : {0.3, 2.0}) {
    for (const auto [ds_last, ds] : {std::pair{0.01, 0.01}, std::pair{0.02, 0.01}, std::pair{0.01, 0.04}}) {
      const double leading = ds * ds * ds / 6 + ds * ds * ds_last / 4;
      CHECK(miss(s, ds_last, ds) == Approx(leading).epsilon(0.01 + ds));
    }
  }
  // The tangent alone (no step before): ds^2 / 2, the order the curvature saves.
  const Vector alone = predict(on_circle(1.0), tangent_at(1.0), Vector(), 0.0, 0.01);
  CHECK((on_circle(1.01) - alone).norm() == Approx(0.5e-4).epsilon(0.01));
}

TEST_CASE("predictor: a tangent that turned by more than a curvature is ignored",
          "[continuation][predictor]") {
  // At a branch point the tangent turns by 90 degrees in one step: the
  // curvature term would be ds / sqrt(2) > ds / 2, so the tangent alone.
  const Vector y = Vector::Zero(2), t = (Vector(2) << 1.0, 0.0).finished();
  const Vector t_before = (Vector(2) << 0.0, 1.0).finished();
  const Vector p = predict(y, t, t_before, 0.1, 0.1);
  CHECK(p[0] == 0.1);
  CHECK(p[1] == 0.0);
}
