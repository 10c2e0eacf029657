#include "analyses/two_fold/futures.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "models/wheel_turntable.h"

using namespace saltus;
using models::WheelTurntable;

namespace {

Vector paper_two_fold(const WheelTurntable& wheel) {
  Vector guess(3);
  guess << 0.2, -0.02, -1.05;
  const TwoFoldResult r = locate_two_fold(wheel, guess);
  REQUIRE(r.located());
  return r.x;
}

}  // namespace

TEST_CASE(
    "futures: sliding orbits reach the case-1 two-fold in finite time, along the weak "
    "eigenvector",
    "[two_fold_futures]") {
  const WheelTurntable wheel = WheelTurntable::paper();
  const Vector x_star = paper_two_fold(wheel);
  FuturesOptions options;
  options.samples = 2;
  const FuturesResult r = sample_futures(wheel, x_star, options);
  INFO(r.message);
  REQUIRE(r.ok);
  const TwoFoldClassification& c = r.two_fold;
  REQUIRE(c.twofold_case == TwoFoldCase::kCase1);
  // The limit of F_s (16) at x* along the sliding eigendirection s (the
  // field is homogeneous of degree 0 there): G_x s / (grad(h_x . f_lambda) . s),
  // G the scaled field (20), grad(h_x . f_lambda) = (grad H+ - grad H-) / (2 mu).
  const Vector& s = c.sliding_direction;
  const Vector grad_lambda = (c.grad_plus - c.grad_minus) / (2.0 * wheel.mu);
  const Vector limit = filippov::scaled_sliding_jacobian(wheel, x_star) * s / grad_lambda.dot(s);
  CHECK(limit.dot(s) < 0.0);  // pointing into x*: the sliding flow arrives
  REQUIRE(r.approaches.size() == 5);
  for (const Approach& a : r.approaches) {
    INFO(a.message);
    CHECK(a.start_region == "sliding");
    CHECK((a.start - x_star).norm() == Approx(options.approach_radius).epsilon(1e-6));
    REQUIRE(a.arrived);
    CHECK(a.final_distance <= 1e-6 * (1.0 + 1e-9));
    CHECK(a.arrival_time > 0.0);
    CHECK(a.arrival_time < options.approach_time);
    // Each sample stayed in the sliding region (17) on the way.
    for (const Vector& x : a.path.x) {
      const double hp = filippov::lie_derivative(wheel, x.data(), wheel.mu);
      const double hm = filippov::lie_derivative(wheel, x.data(), -wheel.mu);
      CHECK(hp < 0.0);
      CHECK(hm > 0.0);
    }
    // The arrival is along the weak eigenvector, at the limit speed: the
    // remaining 1e-6 takes 1e-6 / |limit|, finite.
    Vector v;
    v = filippov::sliding_field(wheel, a.path.x.back());
    CHECK(v.normalized().dot(-s) > 1.0 - 1e-4);
    CHECK(v.norm() == Approx(limit.norm()).epsilon(1e-3));
    CHECK(a.remaining_time == Approx(1e-6 / limit.norm()).epsilon(1e-3));
  }
  // Independent of the integrator's tolerances: a tighter run agrees to 1e-6 in time.
  FuturesOptions tight = options;
  tight.absolute_tolerance = 1e-13, tight.relative_tolerance = 1e-12, tight.max_step = 0.01;
  const FuturesResult r2 = sample_futures(wheel, x_star, tight);
  for (std::size_t k = 0; k < r.approaches.size(); ++k)
    CHECK(r2.approaches[k].arrival_time == Approx(r.approaches[k].arrival_time).margin(1e-6));
}

TEST_CASE("futures: the sampled futures start in the escaping region (18) and leave Sigma",
          "[two_fold_futures]") {
  const WheelTurntable wheel = WheelTurntable::paper();
  const Vector x_star = paper_two_fold(wheel);
  FuturesOptions options;
  options.samples = 12;
  options.simulate_time = 3.0;
  const FuturesResult r = sample_futures(wheel, x_star, options, {},
                                         [&wheel](const Vector& x) { return wheel.rolling(x.data()); });
  INFO(r.message);
  REQUIRE(r.ok);
  REQUIRE(r.futures.size() == 12);
  int up = 0, down = 0;
  for (const Future& f : r.futures) {
    INFO("future from " << f.start.transpose() << ": " << f.end);
    // It starts on Sigma in the escaping region, by (18) itself: -h_x.f_lambda < h_x.f(x,0)/mu <
    // h_x.f_lambda.
    CHECK(f.start_region == "escaping");
    CHECK(std::abs(wheel.switching(f.start.data())) <= 1e-12);
    Vector f0, fl;
    filippov::split_field(wheel, f.start, &f0, &fl);
    const Vector h_x = filippov::gradient(wheel, f.start);
    CHECK(-h_x.dot(fl) < h_x.dot(f0) / wheel.mu);
    CHECK(h_x.dot(f0) / wheel.mu < h_x.dot(fl));
    REQUIRE(f.segments.size() >= 2);
    CHECK(f.segments[0].kind == SegmentKind::kEscaping);
    // Along the escaping segment it stays on Sigma and in (18).
    for (const Vector& x : f.segments[0].x) {
      CHECK(std::abs(wheel.switching(x.data())) <= 1e-9);
      CHECK(filippov::lie_derivative(wheel, x.data(), wheel.mu) >= -1e-12);
      CHECK(filippov::lie_derivative(wheel, x.data(), -wheel.mu) <= 1e-12);
    }
    // Then it leaves Sigma to the sampled side and moves away from it: h has
    // that sign along the first slip and grows well past the lift-off offset.
    REQUIRE(f.left_side != 0);
    CHECK(f.left_side == f.side);
    const FlowSegment& slip = f.segments[1];
    CHECK(slip.kind == (f.left_side > 0 ? SegmentKind::kSlipPlus : SegmentKind::kSlipMinus));
    // At the lift-off point the field of that side points away from Sigma
    // (H+ > 0 for F+, H- < 0 for F-: the escaping region), h keeps the sign
    // of the side along the slip and grows past the lift-off offset. (Not by
    // much near x*: both folds are invisible, K++ < 0 < K--, so an orbit
    // leaving with H = h_x . F small turns back after |h| ~ H^2 / (2 |K|).)
    const Vector& lift = slip.x.front();
    const double H = filippov::lie_derivative(wheel, lift.data(), f.left_side * wheel.mu);
    CHECK(f.left_side * H > 0.0);
    for (std::size_t i = 0; i + 1 < slip.x.size(); ++i)
      CHECK(f.left_side * wheel.switching(slip.x[i].data()) > 0.0);
    CHECK(f.max_abs_h > 10.0 * options.lift_offset * h_x.norm());
    (f.left_side > 0 ? up : down)++;
  }
  CHECK(up > 0);
  CHECK(down > 0);
}

TEST_CASE("futures: not at a case-1 two-fold, bad options", "[two_fold_futures][errors]") {
  // The design at omega* > omega0 gives a case-3 two-fold (Fig. 4): its futures are not sampled.
  // (kappa < 0 there: the tyre's surface values, TyreModel::kSticking.)
  WheelTurntable wheel = WheelTurntable{}.with_two_fold_at(0.3, -0.8);
  wheel.tyre = models::TyreModel::kSticking;
  const auto d = wheel.design_two_fold(0.3, -0.8);
  Vector x(3);
  x << d.r, d.v, d.omega;
  const FuturesResult r = sample_futures(wheel, x);
  CHECK_FALSE(r.ok);
  CHECK_THAT(r.message, Catch::Contains("case 3, not a case-1 two-fold"));
  FuturesOptions bad;
  bad.arrival_distance = 0.0;
  CHECK_THROWS_WITH(sample_futures(WheelTurntable::paper(), x, bad), Catch::Contains("arrival_distance = 0"));
  bad = {};
  bad.samples = 0;
  CHECK_THROWS_WITH(sample_futures(WheelTurntable::paper(), x, bad), Catch::Contains("samples = 0"));
}
