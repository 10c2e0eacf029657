#include "models/filippov.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "models/wheel_turntable.h"

using namespace saltus;

namespace {

// The dry-friction (stick-slip) oscillator on a belt moving at vb, a textbook
// Filippov system (di Bernardo et al., "Piecewise-smooth Dynamical Systems",
// Springer 2008): x' = v, v' = -x - lambda, lambda = mu sign(v - vb). On
// h = v - vb = 0: H+- = h_x . F+- = -x -+ mu, so sticking (sliding) is |x| < mu,
// the block slips up through the belt speed (crossing, direction +1) for
// x < -mu and down for x > mu; lambda_eq = -x, F_s = (vb, 0): the block moves
// with the belt.
struct StickSlip {
  double mu = 0.5;
  double vb = 0.2;
  int state_size() const { return 2; }
  template <class T>
  T switching(const T* x) const {
    return x[1] - vb;
  }
  template <class T>
  void field(const T* x, const T& lambda, T* f) const {
    f[0] = x[1];
    f[1] = -x[0] - lambda;
  }
};

// The same with the force reversed: H+- = -x +- mu, escaping for |x| < mu.
struct AntiFriction {
  double mu = 0.5;
  double vb = 0.2;
  int state_size() const { return 2; }
  template <class T>
  T switching(const T* x) const {
    return x[1] - vb;
  }
  template <class T>
  void field(const T* x, const T& lambda, T* f) const {
    f[0] = x[1];
    f[1] = -x[0] + lambda;
  }
};

// A curved surface (a circle of radius 1) with a nonlinear field: exercises
// the second derivatives of h and the lambda-dependence of the Jacobians.
struct Curved {
  double mu = 0.7;
  int state_size() const { return 3; }
  template <class T>
  T switching(const T* x) const {
    using std::sin;
    return x[0] * x[0] + x[1] * x[1] - 1.0 + 0.3 * sin(x[2]);
  }
  template <class T>
  void field(const T* x, const T& lambda, T* f) const {
    using std::cos;
    f[0] = -x[1] + lambda * (1.0 + 0.2 * x[2] * x[2]);
    f[1] = x[0] * x[2] + lambda * cos(x[0]);
    f[2] = 0.5 - x[0] * x[1] + lambda * x[1];
  }
};

// h with a vanishing gradient at the origin: two crossing lines.
struct Cross {
  double mu = 1.0;
  int state_size() const { return 2; }
  template <class T>
  T switching(const T* x) const {
    return x[0] * x[1];
  }
  template <class T>
  void field(const T* x, const T& lambda, T* f) const {
    f[0] = T(1.0);
    f[1] = lambda;
  }
};

// Not affine in lambda.
struct Quadratic {
  double mu = 1.0;
  int state_size() const { return 2; }
  template <class T>
  T switching(const T* x) const {
    return x[1];
  }
  template <class T>
  void field(const T* x, const T& lambda, T* f) const {
    f[0] = T(1.0);
    f[1] = lambda * lambda - 0.5;
  }
};

// lambda acts along the surface only: h_x . f_lambda = 0.
struct Parallel {
  double mu = 1.0;
  int state_size() const { return 2; }
  template <class T>
  T switching(const T* x) const {
    return x[1];
  }
  template <class T>
  void field(const T* x, const T& lambda, T* f) const {
    f[0] = lambda;
    f[1] = -x[0];
  }
};

// Central differences of a vector function, for the Jacobian checks only.
template <class Fn>
Matrix finite_difference(const Vector& x, int rows, Fn fn, double step = 1e-6) {
  Matrix J(rows, x.size());
  for (int j = 0; j < x.size(); ++j) {
    Vector a = x, b = x;
    a[j] += step;
    b[j] -= step;
    J.col(j) = (fn(a) - fn(b)) / (2.0 * step);
  }
  return J;
}

Vector vec(std::initializer_list<double> v) {
  Vector x(static_cast<int>(v.size()));
  int i = 0;
  for (double c : v) x[i++] = c;
  return x;
}

}  // namespace

static_assert(filippov::Model<StickSlip>);
static_assert(filippov::Model<models::WheelTurntable>);

TEST_CASE("filippov: stick-slip regions (17)-(18) and the sliding field (16)", "[filippov]") {
  const StickSlip model;
  struct Expect {
    double x;
    filippov::Region region;
    int direction;
  };
  // |x| < mu sticks, x < -mu slips upward through h = 0, x > mu downward;
  // x = -mu is where F+ is tangent (H+ = -x - mu = 0), x = mu where F- is.
  const Expect cases[] = {{-1.2, filippov::Region::kCrossing, +1},  {-0.49, filippov::Region::kSliding, 0},
                          {0.0, filippov::Region::kSliding, 0},     {0.3, filippov::Region::kSliding, 0},
                          {0.8, filippov::Region::kCrossing, -1},   {-0.5, filippov::Region::kTangentPlus, 0},
                          {0.5, filippov::Region::kTangentMinus, 0}};
  for (const auto& c : cases) {
    const Vector x = vec({c.x, model.vb});
    const filippov::SurfacePoint p = filippov::classify(model, x);
    INFO("x = " << c.x << ": " << filippov::region_name(p.region));
    CHECK(p.region == c.region);
    CHECK(p.direction == c.direction);
    CHECK(p.lie_plus == Approx(-c.x - model.mu).margin(1e-15));
    CHECK(p.lie_minus == Approx(-c.x + model.mu).margin(1e-15));
    REQUIRE(p.lambda_eq.has_value());
    CHECK(*p.lambda_eq == Approx(-c.x).margin(1e-15));  // (15)
  }
  // F_s = (vb, 0): the block moves with the belt.
  const Vector fs = filippov::sliding_field(model, vec({0.3, model.vb}));
  CHECK(fs[0] == Approx(model.vb).margin(1e-15));
  CHECK(std::abs(fs[1]) <= 1e-15);
  CHECK(filippov::equivalent_control(model, vec({0.3, model.vb})) == Approx(-0.3).margin(1e-15));
}

TEST_CASE("filippov: the reversed force gives an escaping region", "[filippov]") {
  const AntiFriction model;
  CHECK(filippov::classify(model, vec({0.2, model.vb})).region == filippov::Region::kEscaping);
  CHECK(filippov::classify(model, vec({-0.49, model.vb})).region == filippov::Region::kEscaping);
  const auto up = filippov::classify(model, vec({-0.9, model.vb}));
  CHECK(up.region == filippov::Region::kCrossing);
  CHECK(up.direction == +1);
  // The sliding field is defined (and tangent) in the escaping region too.
  const Vector fs = filippov::sliding_field(model, vec({0.2, model.vb}));
  CHECK(std::abs(fs[1]) <= 1e-15);
}

TEST_CASE("filippov: regions agree with lambda_eq in (-mu, mu) on a curved surface", "[filippov]") {
  const Curved model;
  int counts[6] = {0, 0, 0, 0, 0, 0};
  for (int i = 0; i < 40; ++i) {
    for (int k = 0; k < 9; ++k) {
      const double theta = 2.0 * M_PI * i / 40.0, z = -2.0 + 0.5 * k;
      const double radius = std::sqrt(1.0 - 0.3 * std::sin(z));
      const Vector x = vec({radius * std::cos(theta), radius * std::sin(theta), z});
      const auto p = filippov::classify(model, x);
      ++counts[static_cast<int>(p.region)];
      REQUIRE(p.lambda_eq.has_value());
      const bool inside = std::abs(*p.lambda_eq) < model.mu;
      CHECK(inside == (p.region == filippov::Region::kSliding || p.region == filippov::Region::kEscaping));
      if (p.region == filippov::Region::kSliding || p.region == filippov::Region::kEscaping) {
        // Tangency of (16), and (16) is Filippov's convex combination of F+-.
        const Vector fs = filippov::sliding_field(model, x);
        CHECK(std::abs(p.gradient.dot(fs)) <= 1e-14);
        const Vector fp = filippov::plus_field(model, x), fm = filippov::minus_field(model, x);
        const Vector convex = (p.lie_minus * fp - p.lie_plus * fm) / (p.lie_minus - p.lie_plus);
        CHECK((fs - convex).lpNorm<Eigen::Infinity>() <= 1e-14 * (1.0 + fs.lpNorm<Eigen::Infinity>()));
      }
    }
  }
  // The sample meets all three kinds of region.
  CHECK(counts[static_cast<int>(filippov::Region::kCrossing)] > 0);
  CHECK(counts[static_cast<int>(filippov::Region::kSliding)] > 0);
  CHECK(counts[static_cast<int>(filippov::Region::kEscaping)] > 0);
}

TEST_CASE("filippov: the sliding field of the wheel is tangent to h = 0", "[filippov][wheel]") {
  for (auto tyre : {models::TyreModel::kStretchedString, models::TyreModel::kSticking}) {
    auto wheel = models::WheelTurntable::paper();
    wheel.tyre = tyre;
    int sliding = 0, escaping = 0;
    for (int i = 0; i < 25; ++i) {
      for (int k = 0; k < 25; ++k) {
        const double r = 0.05 + 0.3 * i / 24.0, omega = -1.2 + 0.35 * k / 24.0;
        // On h = 0: v = (omega - omega0)(d - r cot(gamma)), as (9).
        const double v = (omega - wheel.omega0) * (wheel.d - r / std::tan(wheel.gamma));
        const Vector x = vec({r, v, omega});
        const auto p = filippov::classify(wheel, x);
        if (p.region != filippov::Region::kSliding && p.region != filippov::Region::kEscaping) continue;
        (p.region == filippov::Region::kSliding ? sliding : escaping)++;
        const Vector fs = filippov::sliding_field(wheel, x);
        INFO("x = " << x.transpose() << ", h_x . F_s = " << p.gradient.dot(fs));
        CHECK(std::abs(p.gradient.dot(fs)) <= 1e-14);
      }
    }
    CHECK(sliding > 0);
    CHECK(escaping > 0);
  }
}

TEST_CASE("filippov: f(x,0) and f_lambda are exact, and the models are affine in lambda", "[filippov]") {
  const auto wheel = models::WheelTurntable::paper();
  const Vector x = vec({0.21, 0.05, -0.9});  // off the surface, stretched-string tyre
  Vector f0, fl;
  filippov::split_field(wheel, x, &f0, &fl);
  const Vector fp = filippov::plus_field(wheel, x), fm = filippov::minus_field(wheel, x);
  CHECK((f0 + wheel.mu * fl - fp).lpNorm<Eigen::Infinity>() <= 1e-15 * (1.0 + fp.lpNorm<Eigen::Infinity>()));
  CHECK((f0 - wheel.mu * fl - fm).lpNorm<Eigen::Infinity>() <= 1e-15 * (1.0 + fm.lpNorm<Eigen::Infinity>()));
  CHECK(filippov::affine_defect(wheel, x) <= 1e-15);
  CHECK(filippov::affine_defect(Curved{}, vec({0.3, 0.9, 0.1})) <= 1e-15);
  // A field quadratic in lambda is told: f(x, +-1) = (1, 0.5) but f0 +- f_lambda = (1, -0.5),
  // a defect 1 / (1 + |f|_inf) = 1/2.
  CHECK(filippov::affine_defect(Quadratic{}, vec({0.0, 0.0})) == Approx(0.5));
}

TEST_CASE("filippov: Jacobians against finite differences", "[filippov]") {
  // Central differences with step 1e-6: truncation ~1e-12 |f'''|, rounding
  // ~1e-16 |f| / 1e-6 = 1e-10 |f|; 1e-7 (1 + |J|) is far above both.
  const auto check_close = [](const Matrix& exact, const Matrix& fd) {
    INFO("exact\n" << exact << "\nfinite differences\n" << fd);
    CHECK((exact - fd).lpNorm<Eigen::Infinity>() <= 1e-7 * (1.0 + exact.lpNorm<Eigen::Infinity>()));
  };
  const Curved curved;
  const Vector xc = vec({0.4, 0.8, 0.3});
  const double lambda = 0.37;
  check_close(filippov::field_jacobian(curved, xc, lambda),
              finite_difference(xc, 3, [&](const Vector& z) { return filippov::field(curved, z, lambda); }));
  check_close(
      filippov::lie_gradient(curved, xc, lambda).transpose(), finite_difference(xc, 1, [&](const Vector& z) {
        return Vector::Constant(1, filippov::gradient(curved, z).dot(filippov::field(curved, z, lambda)));
      }));
  check_close(filippov::sliding_jacobian(curved, xc),
              finite_difference(xc, 3, [&](const Vector& z) { return filippov::sliding_field(curved, z); }));
  check_close(filippov::scaled_sliding_jacobian(curved, xc), finite_difference(xc, 3, [&](const Vector& z) {
                return filippov::scaled_sliding_field(curved, z);
              }));
  // The gradient of h (Taylor<double,1> passes) against differences of h.
  check_close(filippov::gradient(curved, xc).transpose(), finite_difference(xc, 1, [&](const Vector& z) {
                return Vector::Constant(1, filippov::switching(curved, z));
              }));

  // The wheel with the stretched-string tyre, at a point off the surface
  // (where (6)-(7) are smooth) and on it (the sliding field).
  const auto wheel = models::WheelTurntable::paper();
  const Vector xw = vec({0.17, 0.02, -0.98});
  check_close(filippov::field_jacobian(wheel, xw, 1.0),
              finite_difference(xw, 3, [&](const Vector& z) { return filippov::field(wheel, z, 1.0); }));
  auto sticking = wheel;
  sticking.tyre = models::TyreModel::kSticking;
  const double r = 0.16, omega = -1.05;
  const Vector xs = vec({r, (omega - wheel.omega0) * (wheel.d - r / std::tan(wheel.gamma)), omega});
  check_close(filippov::sliding_jacobian(sticking, xs), finite_difference(xs, 3, [&](const Vector& z) {
                return filippov::sliding_field(sticking, z);
              }));
}

TEST_CASE("filippov: a switching surface with a vanishing gradient is a clear error", "[filippov]") {
  const Cross model;  // h = x y: h_x = (y, x) vanishes at the origin, where the two lines cross
  const Vector origin = vec({0.0, 0.0});
  const auto check_message = [](const std::invalid_argument& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(what.find("not regular") != std::string::npos);
    CHECK(what.find("x = (0, 0)") != std::string::npos);
    CHECK(what.find("|h_x| = 0") != std::string::npos);
  };
  for (int which = 0; which < 4; ++which) {
    try {
      if (which == 0) filippov::classify(model, origin);
      if (which == 1) filippov::sliding_field(model, origin);
      if (which == 2) filippov::equivalent_control(model, origin);
      if (which == 3) filippov::sliding_jacobian(model, origin);
      FAIL("no exception");
    } catch (const std::invalid_argument& e) {
      check_message(e);
    }
  }
  // Away from the origin the lines are regular.
  CHECK(filippov::classify(model, vec({0.0, 2.0})).region == filippov::Region::kCrossing);
}

namespace {

// h = sqrt(x^2 + y^2) - 1e-300: its gradient (x, y) / r is 0/0 = NaN at the origin.
struct Cone {
  double mu = 1.0;
  int state_size() const { return 2; }
  template <class T>
  T switching(const T* x) const {
    using std::sqrt;
    return sqrt(x[0] * x[0] + x[1] * x[1]);
  }
  template <class T>
  void field(const T* x, const T& lambda, T* f) const {
    f[0] = T(1.0);
    f[1] = lambda;
  }
};

// h = x^2 + 1 never vanishes.
struct Unreachable {
  double mu = 1.0;
  int state_size() const { return 2; }
  template <class T>
  T switching(const T* x) const {
    return x[0] * x[0] + 1.0;
  }
  template <class T>
  void field(const T* x, const T& lambda, T* f) const {
    f[0] = T(1.0);
    f[1] = lambda;
  }
};

}  // namespace

TEST_CASE("filippov: messages in the user's terms, no C++ names, no NaN, no 0.000000 tolerance",
          "[filippov][errors]") {
  // Issue 34, item 10(e): "filippov::project_onto_surface: no point with |h| <=
  // 0.000000", "|h_x| = -nan" and "use TyreModel::kSticking" reached users.
  const auto clean = [](const std::string& what) {
    INFO(what);
    CHECK(what.find("::") == std::string::npos);
    CHECK(what.find("nan") == std::string::npos);
    CHECK(what.find("0.000000") == std::string::npos);
  };
  try {
    filippov::project_onto_surface(Unreachable{}, vec({0.5, 0.0}));
    FAIL("no exception");
  } catch (const std::runtime_error& e) {
    clean(e.what());
    CHECK_THAT(e.what(), Catch::Contains("|h| <= 1e-14") && Catch::Contains("switching surface"));
  }
  try {
    filippov::classify(Cone{}, vec({0.0, 0.0}));
    FAIL("no exception");
  } catch (const std::invalid_argument& e) {
    clean(e.what());
    CHECK_THAT(e.what(), Catch::Contains("gradient h_x of the switching function is not finite"));
  }
  for (const auto& x : {vec({0.0, 0.2, 1.0}), vec({NAN, 0.2})}) try {
      filippov::classify(StickSlip{}, x);
      FAIL("no exception");
    } catch (const std::invalid_argument& e) {
      CHECK(std::string(e.what()).find("::") == std::string::npos);
    }
  auto wheel = models::WheelTurntable::paper();
  wheel.kappa = -1.0;
  try {
    wheel.check();
    FAIL("no exception");
  } catch (const std::invalid_argument& e) {
    clean(e.what());
    CHECK_THAT(e.what(), Catch::Contains("\"tyre\": \"sticking\""));
  }
}

TEST_CASE("filippov: bad input", "[filippov]") {
  const StickSlip model;
  CHECK_THROWS_WITH(filippov::classify(model, vec({0.0, 1.0})),
                    Catch::Contains("not on the switching surface"));
  CHECK_THROWS_WITH(filippov::classify(model, vec({0.0, 0.2, 1.0})), Catch::Contains("3 components"));
  CHECK_THROWS_WITH(filippov::classify(model, vec({NAN, 0.2})), Catch::Contains("not finite"));
  // The equivalent control is undefined where lambda does not act across h = 0.
  CHECK_THROWS_AS(filippov::sliding_field(Parallel{}, vec({0.1, 0.0})), std::domain_error);
  filippov::Options options;
  options.tangency_tolerance = 2.0;
  CHECK_THROWS_WITH(filippov::classify(model, vec({0.0, 0.2}), options),
                    Catch::Contains("tangency_tolerance"));
  // project_onto_surface reaches h = 0 on the curved surface.
  const Curved curved;
  const Vector p = filippov::project_onto_surface(curved, vec({0.5, 0.5, 0.2}));
  CHECK(std::abs(filippov::switching(curved, p)) <= 1e-14);
}
