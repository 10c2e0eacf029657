#include "analyses/two_fold/map.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>

#include "analyses/two_fold/continuation.h"

using namespace saltus;
using models::WheelTurntable;

namespace {

Vector vec(std::initializer_list<double> v) {
  Vector x(static_cast<int>(v.size()));
  int i = 0;
  for (double a : v) x[i++] = a;
  return x;
}

}  // namespace

TEST_CASE("two-fold map (Fig. 4): the paper's point (0.1859, -1.037) is case 1, on any number of threads",
          "[two_fold_map]") {
  TwoFoldMapOptions o;
  // A 3 x 3 grid centred on the paper's point (Sec. V).
  o.r_min = 0.1759, o.r_max = 0.1959, o.r_steps = 3;
  o.omega_min = -1.047, o.omega_max = -1.027, o.omega_steps = 3;
  o.threads = 1;
  const WheelTurntable base;  // Sec. V's constants; kappa, k2 designed per point
  const TwoFoldMap one = two_fold_map(base, o);
  REQUIRE(one.points.size() == 9);
  const TwoFoldMapPoint& p = one.at(1, 1);
  CHECK(p.r == Approx(0.1859).margin(1e-15));
  CHECK(p.omega == Approx(-1.037).margin(1e-15));
  INFO(p.failure << p.invariants.message);
  REQUIRE(p.exists);
  CHECK(p.residual <= 1e-12);
  CHECK(p.case1);
  CHECK(p.invariants.twofold_case == TwoFoldCase::kCase1);
  // Every panel's condition holds there: (b)-(g).
  CHECK(p.k_minus_positive);
  CHECK(p.k_plus_negative);
  CHECK(p.j1_negative);
  CHECK(p.j2_negative);
  CHECK(p.j1j2_above_one);
  CHECK(p.k2_positive);
  CHECK(p.kappa_positive);
  // The same K's as the direct classification of the paper's wheel (two_fold.test.cpp).
  const TwoFoldResult direct = locate_two_fold(WheelTurntable::paper(), vec({0.2, -0.02, -1.05}));
  REQUIRE(direct.located());
  CHECK(p.invariants.K.pp == Approx(direct.classification->K.pp).epsilon(1e-9));
  CHECK(p.invariants.K.mm == Approx(direct.classification->K.mm).epsilon(1e-9));
  CHECK(p.kappa == Approx(WheelTurntable::paper().kappa).epsilon(1e-14));
  CHECK(p.k2 == Approx(WheelTurntable::paper().k2).epsilon(1e-14));
  CHECK(one.case1 == 9);  // the neighbourhood is case 1 too (the region is open)

  // Deterministic output whatever the thread count.
  o.threads = 3;
  const TwoFoldMap three = two_fold_map(base, o);
  CHECK(three.threads == 3);
  std::ostringstream a, b;
  one.write_csv(a);
  three.write_csv(b);
  CHECK(a.str() == b.str());
}

TEST_CASE("two-fold map: no point is case 1 where the design is unphysical or the two-fold not invisible",
          "[two_fold_map]") {
  TwoFoldMapOptions o;
  o.r_steps = 25, o.omega_steps = 25;
  const TwoFoldMap map = two_fold_map(WheelTurntable{}, o);
  int case1 = 0;
  for (const auto& p : map.points) {
    if (!p.case1) continue;
    ++case1;
    INFO(p.r << ", " << p.omega);
    CHECK(p.exists);
    CHECK(p.k2 > 0.0);
    CHECK(p.kappa > 0.0);
    CHECK(p.invariants.K.pp < 0.0);
    CHECK(p.invariants.K.mm > 0.0);
    CHECK(p.invariants.J1 < 0.0);
    CHECK(p.invariants.J2 < 0.0);
    CHECK(p.invariants.J1 * p.invariants.J2 > 1.0);
  }
  CHECK(case1 == map.case1);
  CHECK(case1 > 0);
  CHECK(case1 < static_cast<int>(map.points.size()));  // and not everywhere
  // r* = r0 = 0.1 makes (11) singular: those points are "not designed", with the reason.
  o.r_min = 0.05, o.r_max = 0.15, o.r_steps = 3, o.omega_steps = 2;
  const TwoFoldMap singular = two_fold_map(WheelTurntable{}, o);
  CHECK_FALSE(singular.at(1, 0).designed);
  CHECK_THAT(singular.at(1, 0).failure, Catch::Contains("r* = r0"));
}

TEST_CASE("two-fold map: bad options are errors naming the field", "[two_fold_map][errors]") {
  TwoFoldMapOptions o;
  o.r_min = 0.3, o.r_max = 0.2;
  CHECK_THROWS_WITH(two_fold_map(WheelTurntable{}, o), Catch::Contains("r_min < r_max"));
  o = {};
  o.omega_steps = 1;
  CHECK_THROWS_WITH(two_fold_map(WheelTurntable{}, o), Catch::Contains("at least 2 x 2"));
  o = {};
  o.threads = -2;
  CHECK_THROWS_WITH(two_fold_map(WheelTurntable{}, o), Catch::Contains("threads = -2"));
  WheelTurntable bad;
  bad.mu = -1.0;
  CHECK_THROWS_WITH(two_fold_map(bad, TwoFoldMapOptions{}), Catch::Contains("mu = -1"));
}

TEST_CASE(
    "two-fold continuation in k2: the case boundary agrees with the map's, and the case changes across it",
    "[two_fold_continuation]") {
  // kappa fixes r* ((10)), so continuing in k2 moves the two-fold along
  // r* = 0.1859: the map's column there is the same family of two-folds.
  const WheelTurntable wheel = WheelTurntable::paper();
  TwoFoldContinuationOptions options;
  options.continuation.ds = 0.01;
  options.continuation.ds_max = 0.05;
  options.continuation.max_points = 60;
  const TwoFoldContinuation c = continue_two_fold(wheel, vec({0.2, -0.02, -1.05}), options);
  INFO(c.message);
  REQUIRE(c.ok);
  for (const auto& p : c.branch.points) CHECK(p.y[0] == Approx(0.1859).margin(1e-9));  // r* stays
  const CaseBoundaryPoint* kpp = nullptr;
  for (const auto& b : c.boundaries)
    if (b.name == "K++") kpp = &b;
  REQUIRE(kpp != nullptr);
  CHECK(kpp->status == EventStatus::kLocated);
  CHECK(kpp->before == "case 1");
  CHECK(kpp->after != "case 1");
  // At the located point K++ = 0 (relative to the other K's) and (19) holds.
  WheelTurntable at = wheel;
  at.k2 = kpp->parameter;
  TwoFoldOptions loose;
  loose.point_tolerance = 1e-7;
  const TwoFoldClassification cl = classify_two_fold(at, kpp->x, loose);
  CHECK(std::abs(cl.K.pp) <= 1e-7 * std::max(std::abs(cl.K.mm), std::abs(cl.K.pm)));
  // The design of (11) at (r*, omega_b) gives back the continued k2.
  CHECK(wheel.design_two_fold(0.1859, kpp->x[2]).k2 == Approx(kpp->parameter).epsilon(1e-7));

  // The map's column at r* = 0.1859, omega* in [-1.4, -1.02] every 0.01.
  TwoFoldMapOptions o;
  o.r_min = 0.1759, o.r_max = 0.1959, o.r_steps = 3;
  o.omega_min = -1.4, o.omega_max = -1.02, o.omega_steps = 39;
  const TwoFoldMap map = two_fold_map(WheelTurntable{}, o);
  int flips = 0;
  for (int j = 0; j + 1 < o.omega_steps; ++j) {
    const auto& lo = map.at(1, j);
    const auto& hi = map.at(1, j + 1);
    if (lo.case1 == hi.case1) continue;
    ++flips;
    INFO("map boundary between omega* = " << lo.omega << " and " << hi.omega
                                          << "; continuation: " << kpp->x[2]);
    // The located boundary lies in the grid cell where the map flips.
    CHECK(kpp->x[2] >= lo.omega - 1e-12);
    CHECK(kpp->x[2] <= hi.omega + 1e-12);
    CHECK(lo.invariants.K.pp >= 0.0);  // below: F+ visible
    CHECK(hi.invariants.K.pp < 0.0);   // above: invisible, case 1
  }
  CHECK(flips == 1);
}

TEST_CASE("two-fold continuation: bad options and a start that is not a two-fold",
          "[two_fold_continuation][errors]") {
  TwoFoldContinuationOptions options;
  options.parameter = "spring";
  CHECK_THROWS_WITH(continue_two_fold(WheelTurntable::paper(), vec({0.2, -0.02, -1.05}), options),
                    Catch::Contains("'spring'"));
  options.parameter = "k2";
  WheelTurntable perpendicular = WheelTurntable::paper();
  perpendicular.gamma = 0.5 * M_PI;  // Sec. VI.2: no two-folds
  const TwoFoldContinuation c = continue_two_fold(perpendicular, vec({0.2, -0.02, -1.05}), options);
  CHECK_FALSE(c.ok);
  CHECK_THAT(c.message, Catch::Contains("two-fold Newton"));
  CHECK_THROWS_WITH(wheel_parameter(WheelTurntable{}, "mass"), Catch::Contains("known: d, m"));
}

TEST_CASE(
    "two-fold continuation in kappa: case 1 meets case 3 at J1 J2 = 1, the line v* = 0 (r* = d tan gamma)",
    "[two_fold_continuation]") {
  // Closed form: where v* = 0, r' = m (beta^2 + r^2) v = 0 for every lambda,
  // so f(x*, 0) and f_lambda(x*, 0) both lie in the line {dr = 0} of the
  // tangent plane: parallel, so D = K-+ K+- - K++ K-- = 0, i.e. J1 J2 = 1.
  // By (9) (omega* != omega0) v* = 0 is r* = d tan(gamma) = 1 here.
  const WheelTurntable wheel = WheelTurntable::paper();
  TwoFoldContinuationOptions options;
  options.parameter = "kappa";
  options.continuation.ds = 0.01;
  options.continuation.ds_max = 0.05;
  options.continuation.max_points = 150;
  options.both_directions = false;
  const TwoFoldContinuation c = continue_two_fold(wheel, vec({0.2, -0.02, -1.05}), options);
  INFO(c.message);
  REQUIRE(c.ok);
  const CaseBoundaryPoint* j = nullptr;
  for (const auto& b : c.boundaries)
    if (b.name == "J1J2-1") j = &b;
  REQUIRE(j != nullptr);
  CHECK(j->before == "case 1");
  CHECK(j->after == "case 3");
  const double r_closed = wheel.d * std::tan(wheel.gamma);
  CHECK(j->x[0] == Approx(r_closed).margin(1e-7));
  CHECK(std::abs(j->x[1]) <= 1e-7);

  // The map across it: a row at the located omega*, r* every 0.01 around 1.
  TwoFoldMapOptions o;
  o.r_min = 0.955, o.r_max = 1.045, o.r_steps = 10;
  o.omega_min = j->x[2] - 0.01, o.omega_max = j->x[2] + 0.01, o.omega_steps = 3;
  const TwoFoldMap map = two_fold_map(WheelTurntable{}, o);
  int flips = 0;
  for (int i = 0; i + 1 < o.r_steps; ++i) {
    const auto& a = map.at(i, 1);
    const auto& b = map.at(i + 1, 1);
    INFO(a.r << ": " << a.invariants.message << "\n" << b.r << ": " << b.invariants.message);
    REQUIRE(a.exists);
    if (a.invariants.twofold_case == b.invariants.twofold_case) continue;
    ++flips;
    CHECK(a.invariants.twofold_case == TwoFoldCase::kCase1);
    CHECK(b.invariants.twofold_case == TwoFoldCase::kCase3);
    CHECK(a.r < j->x[0]);
    CHECK(j->x[0] < b.r);
  }
  CHECK(flips == 1);
}
