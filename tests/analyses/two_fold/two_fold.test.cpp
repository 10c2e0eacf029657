#include "analyses/two_fold/two_fold.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "models/filippov.h"
#include "models/wheel_turntable.h"

using namespace saltus;
using models::TyreModel;
using models::WheelTurntable;

namespace {

// The two-fold normal form (Jeffrey & Colombo, SIAM J. Appl. Dyn. Syst. 8
// (2009) 624; Colombo & Jeffrey 2011), h = z:
//   F+ = (a, vp, x)  in z > 0,     F- = (vm, b, y)  in z < 0,
// written as f(x, lambda) = (F+ + F-)/2 + lambda (F+ - F-)/(2 mu). Then H+ = x,
// H- = y, grad H+ = e_x, grad H- = e_y, and (22) is exactly
//   K++ = a, K+- = vm, K-+ = vp, K-- = b,
// so J1 = vp / sqrt(-ab), J2 = -vm / sqrt(-ab). The sliding region is x < 0 < y.
// `extra` appends components with w' = 0.3: the two-folds then form the
// (n-3)-dimensional set x = y = z = 0.
struct NormalForm {
  double mu = 1.0;
  double a = -1.0, b = 1.0, vp = -2.0, vm = 1.0;
  double shift = 0.0;     // F- = (vm, b, y - shift) if nonzero: H- = y - shift
  bool parallel = false;  // F- = (vm, b, x - 1): fold lines x = 0 and x = 1 never meet
  int extra = 0;
  int state_size() const { return 3 + extra; }
  template <class T>
  T switching(const T* x) const {
    return x[2];
  }
  template <class T>
  void field(const T* x, const T& lambda, T* f) const {
    const T fp[3] = {T(a), T(vp), x[0]};
    const T fm[3] = {T(vm), T(b), parallel ? x[0] - 1.0 : x[1] - shift};
    for (int i = 0; i < 3; ++i) f[i] = 0.5 * (fp[i] + fm[i]) + lambda * (fp[i] - fm[i]) / (2.0 * mu);
    for (int j = 0; j < extra; ++j) f[3 + j] = T(0.3);
  }
};

// h = x y: the surface is not regular on the z-axis.
struct Singular {
  double mu = 1.0;
  int state_size() const { return 3; }
  template <class T>
  T switching(const T* x) const {
    return x[0] * x[1];
  }
  template <class T>
  void field(const T* x, const T& lambda, T* f) const {
    f[0] = lambda;
    f[1] = T(1.0);
    f[2] = x[0];
  }
};

Vector vec(std::initializer_list<double> v) {
  Vector x(static_cast<int>(v.size()));
  int i = 0;
  for (double c : v) x[i++] = c;
  return x;
}

// The nonzero eigenvalues of the Jacobian of the scaled sliding field (20)
// at x* are -(S / (2 mu)) lambda_i, S = sqrt(-K++ K--), with eigenvectors
// along `directions` (the derivation in two_fold.h): checked with Eigen's
// eigensolver, independently of the (xi, eta) algebra.
template <class M>
void check_scaled_field_eigen(const M& model, const TwoFoldClassification& c) {
  const Matrix DG = filippov::scaled_sliding_jacobian(model, c.x);
  Eigen::EigenSolver<Matrix> es(DG);
  const double S = std::sqrt(-c.K.pp * c.K.mm);
  const double scale = DG.lpNorm<Eigen::Infinity>();
  for (int i = 0; i < 2; ++i) {
    const double sigma = -S / (2.0 * model.mu) * c.eigenvalues[i];
    int best = 0;
    for (int k = 1; k < es.eigenvalues().size(); ++k)
      if (std::abs(es.eigenvalues()[k] - sigma) < std::abs(es.eigenvalues()[best] - sigma)) best = k;
    INFO("eigenvalues of DG: " << es.eigenvalues().transpose() << "; expected " << sigma);
    CHECK(std::abs(es.eigenvalues()[best] - sigma) <= 1e-10 * scale);
    const Eigen::VectorXcd ev = es.eigenvectors().col(best);
    const Vector real = ev.real() / ev.norm();
    CHECK(std::abs(real.dot(c.directions[i])) >= 1.0 - 1e-9);
  }
  // The remaining n - 2 eigenvalues vanish.
  int zeros = 0;
  for (int k = 0; k < es.eigenvalues().size(); ++k) zeros += std::abs(es.eigenvalues()[k]) <= 1e-12 * scale;
  CHECK(zeros == static_cast<int>(c.x.size()) - 2);
}

}  // namespace

TEST_CASE("two-fold: the wheel's Teixeira singularity at (r*, omega*) = (0.1859, -1.037) is case 1",
          "[two_fold][wheel]") {
  for (auto tyre : {TyreModel::kStretchedString, TyreModel::kSticking}) {
    WheelTurntable wheel = WheelTurntable::paper();  // d = m = 1, c1 = c2 = 1e-3, beta = 1/20, r0 = 0.1,
    wheel.tyre = tyre;  // omega0 = -1, mu = 1, gamma = -3 pi/4; kappa, k2 (10)-(11)
    const auto design = wheel.design_two_fold(0.1859, -1.037);
    const TwoFoldResult result = locate_two_fold(wheel, vec({0.2, -0.02, -1.05}));
    INFO(result.message);
    REQUIRE(result.located());
    const Vector& x = result.x;
    // h(x*) = 0 and (19), evaluated afresh.
    Vector f0, fl;
    filippov::split_field(wheel, x, &f0, &fl);
    const Vector h_x = filippov::gradient(wheel, x);
    CHECK(std::abs(wheel.switching(x.data())) <= 1e-12);
    CHECK(std::abs(h_x.dot(f0)) <= 1e-12);
    CHECK(std::abs(h_x.dot(fl)) <= 1e-12);
    CHECK(filippov::classify(wheel, x).region == filippov::Region::kTwoFold);
    // It is the designed point (r*, v*(9), omega*).
    CHECK(x[0] == Approx(design.r).margin(1e-12));
    CHECK(x[1] == Approx(design.v).margin(1e-12));
    CHECK(x[2] == Approx(design.omega).margin(1e-12));

    REQUIRE(result.classification);
    const TwoFoldClassification& c = *result.classification;
    INFO(c.message);
    CHECK(c.type == TwoFoldType::kInvisibleInvisible);  // (27): K++ < 0 < K--
    CHECK(c.K.pp < 0.0);
    CHECK(c.K.mm > 0.0);
    CHECK(c.J1 < 0.0);
    CHECK(c.J2 < 0.0);
    CHECK(c.J1 * c.J2 > 1.0);
    CHECK(c.twofold_case == TwoFoldCase::kCase1);
    CHECK(c.nondeterministic);
    // J1, J2 from the K's, and the eigenvalues of (30): both negative, the
    // sliding one (v1) the weak one.
    const double S = std::sqrt(-c.K.pp * c.K.mm);
    CHECK(c.J1 == Approx(c.K.mp / S).epsilon(1e-15));
    CHECK(c.J2 == Approx(-c.K.pm / S).epsilon(1e-15));
    CHECK(c.eigenvalues[1] < c.eigenvalues[0]);
    CHECK(c.eigenvalues[0] < 0.0);
    CHECK(c.eigenvalues[0] * c.eigenvalues[1] == Approx(c.J1 * c.J2 - 1.0).epsilon(1e-13));  // det (30)
    CHECK(c.eigenvalues[0] + c.eigenvalues[1] == Approx(c.J1 + c.J2).epsilon(1e-13));        // trace (30)
    CHECK(c.eigenvectors[0][0] > 0.0);  // v1 = (lambda1 - J2, 1) in the first quadrant: the sliding sector
    CHECK(c.sliding_quadrant == +1);
    CHECK(c.independence > 0.1);
    check_scaled_field_eigen(wheel, c);
  }
}

TEST_CASE("two-fold: the wheel's K (22) against differences along F+-, and both tyre models agree",
          "[two_fold][wheel]") {
  WheelTurntable sticking = WheelTurntable::paper();
  sticking.tyre = TyreModel::kSticking;
  const WheelTurntable string = WheelTurntable::paper();
  const auto d = sticking.design_two_fold(0.1859, -1.037);
  const Vector xs = vec({d.r, d.v, d.omega});
  const TwoFoldClassification a = classify_two_fold(sticking, xs);
  const TwoFoldClassification b = classify_two_fold(string, xs);
  // The stretched-string tyre's psi(|h|/|g|) moves F+- only along h_x, which
  // (22) does not see: the K's agree to rounding.
  const double kmax = std::max({std::abs(a.K.pp), std::abs(a.K.pm), std::abs(a.K.mp), std::abs(a.K.mm)});
  CHECK(std::abs(a.K.pp - b.K.pp) <= 1e-12 * kmax);
  CHECK(std::abs(a.K.pm - b.K.pm) <= 1e-12 * kmax);
  CHECK(std::abs(a.K.mp - b.K.mp) <= 1e-12 * kmax);
  CHECK(std::abs(a.K.mm - b.K.mm) <= 1e-12 * kmax);
  // K^{st} = d/dt H_s(x* + t F_t) at t = 0, by central differences (t = 1e-4:
  // truncation ~ t^2 |F|^3 |H'''| ~ 1e-12, rounding ~ 1e-17 / 1e-4).
  const double t = 1e-4;
  const auto H = [&](double lambda, const Vector& z) {
    return filippov::gradient(sticking, z).dot(filippov::field(sticking, z, lambda));
  };
  const double mu = sticking.mu;
  const Vector Fp = filippov::field(sticking, xs, mu), Fm = filippov::field(sticking, xs, -mu);
  const auto fd = [&](double lambda, const Vector& F) {
    return (H(lambda, xs + t * F) - H(lambda, xs - t * F)) / (2.0 * t);
  };
  CHECK(fd(mu, Fp) == Approx(a.K.pp).epsilon(1e-7));
  CHECK(fd(mu, Fm) == Approx(a.K.pm).epsilon(1e-7));
  CHECK(fd(-mu, Fp) == Approx(a.K.mp).epsilon(1e-7));
  CHECK(fd(-mu, Fm) == Approx(a.K.mm).epsilon(1e-7));
  // For the wheel lambda does not move r and h_x . f_lambda depends on r
  // only, so grad(h_x . f_lambda) . f_lambda = (K++ - K+- - K-+ + K--)/(4 mu^2) = 0:
  // f_lambda is the crossing eigen-direction v2.
  CHECK(std::abs(a.K.pp - a.K.pm - a.K.mp + a.K.mm) <= 1e-12 * kmax);
  CHECK(std::abs(a.directions[1].dot(a.f_lambda.normalized())) >= 1.0 - 1e-12);
}

TEST_CASE("two-fold: J1, J2, (30) and the case do not depend on the time scaling of (1)-(3)",
          "[two_fold][wheel]") {
  const WheelTurntable scaled = WheelTurntable::paper();
  WheelTurntable physical = scaled;
  physical.rescaled_time = false;  // f / (m (beta^2 + r^2)): K -> K / s^2 at x* (H+- = 0 there)
  const auto d = scaled.design_two_fold(0.1859, -1.037);
  const Vector xs = vec({d.r, d.v, d.omega});
  const auto a = classify_two_fold(scaled, xs);
  const auto b = classify_two_fold(physical, xs);
  const double s = scaled.m * (scaled.beta * scaled.beta + d.r * d.r);
  CHECK(b.K.pp * s * s == Approx(a.K.pp).epsilon(1e-12));
  CHECK(b.K.mm * s * s == Approx(a.K.mm).epsilon(1e-12));
  CHECK(b.J1 == Approx(a.J1).epsilon(1e-12));
  CHECK(b.J2 == Approx(a.J2).epsilon(1e-12));
  CHECK(b.eigenvalues[0] == Approx(a.eigenvalues[0]).epsilon(1e-12));
  CHECK(b.eigenvalues[1] == Approx(a.eigenvalues[1]).epsilon(1e-12));
  CHECK(b.twofold_case == TwoFoldCase::kCase1);
}

TEST_CASE(
    "two-fold: near x*, v1 points into sliding, -v1 into escaping, v2 into crossing; the sliding flow "
    "runs into x* along v1 (case 1)",
    "[two_fold][wheel]") {
  const WheelTurntable wheel = WheelTurntable::paper();
  const auto d = wheel.design_two_fold(0.1859, -1.037);
  const auto c = classify_two_fold(wheel, vec({d.r, d.v, d.omega}));
  REQUIRE(c.sliding_quadrant == +1);
  const double eps = 1e-6;  // the quadratic terms are O(eps^2), the region margins O(eps)
  const auto at = [&](const Vector& direction, double sign) {
    return filippov::project_onto_surface(wheel, c.x + sign * eps * direction);
  };
  REQUIRE(c.sliding_eigenvector == 0);
  CHECK((c.sliding_direction - c.directions[0]).norm() <= 1e-15);  // v1, as oriented
  CHECK(filippov::classify(wheel, at(c.directions[0], +1)).region == filippov::Region::kSliding);
  CHECK(filippov::classify(wheel, at(c.directions[0], -1)).region == filippov::Region::kEscaping);
  CHECK(filippov::classify(wheel, at(c.directions[1], +1)).region == filippov::Region::kCrossing);
  CHECK(filippov::classify(wheel, at(c.directions[1], -1)).region == filippov::Region::kCrossing);
  // In the sliding sector the sliding field points back at x* along v1 (it is
  // homogeneous of degree 0 near x*: the approach takes finite time); in the
  // escaping sector it points away along v1.
  const Vector in = at(c.directions[0], +1), out = at(c.directions[0], -1);
  const Vector fs_in = filippov::sliding_field(wheel, in), fs_out = filippov::sliding_field(wheel, out);
  CHECK(fs_in.normalized().dot(c.directions[0]) <= -1.0 + 1e-5);
  CHECK(fs_out.normalized().dot(c.directions[0]) <= -1.0 + 1e-5);
  CHECK(fs_in.norm() > 1e-3);  // O(1) speed at distance 1e-6: finite time to x*
}

TEST_CASE("two-fold: the normal form's K, J and cases are exact", "[two_fold]") {
  struct Case {
    double a, b, vp, vm;
    TwoFoldType type;
    TwoFoldCase which;
  };
  const Case cases[] = {
      {-1.0, 1.0, -2.0, 1.0, TwoFoldType::kInvisibleInvisible, TwoFoldCase::kCase1},   // J1 = -2, J2 = -1
      {-1.0, 1.0, 2.0, -1.0, TwoFoldType::kInvisibleInvisible, TwoFoldCase::kCase2},   // J1 = 2, J2 = 1
      {-1.0, 1.0, 0.5, 0.5, TwoFoldType::kInvisibleInvisible, TwoFoldCase::kCase3},    // J1 = 0.5, J2 = -0.5
      {-1.0, 1.0, -3.0, -0.2, TwoFoldType::kInvisibleInvisible, TwoFoldCase::kCase3},  // J1 J2 = -0.6
      // J1 J2 = 1 (J1 = -2, J2 = -1/2): D = 0, and here F+ is parallel to F- (D = -det(F+, F-)
      // in this normal form), so the (xi, eta) frame collapses: degenerate, on the case boundary.
      {-1.0, 1.0, -2.0, 0.5, TwoFoldType::kDegenerate, TwoFoldCase::kBoundary},
      {-4.0, 0.25, -2.0, 1.5, TwoFoldType::kInvisibleInvisible,
       TwoFoldCase::kCase1},  // S = 1: J1 = -2, J2 = -1.5
      {1.0, -1.0, -2.0, 1.0, TwoFoldType::kVisibleVisible, TwoFoldCase::kNone},
      {1.0, 1.0, -2.0, 1.0, TwoFoldType::kVisibleInvisible, TwoFoldCase::kNone},
      {-1.0, -1.0, -2.0, 1.0, TwoFoldType::kInvisibleVisible, TwoFoldCase::kNone},
  };
  for (const auto& k : cases) {
    NormalForm model;
    model.a = k.a;
    model.b = k.b;
    model.vp = k.vp;
    model.vm = k.vm;
    const TwoFoldResult r = locate_two_fold(model, vec({0.3, -0.2, 0.1}));
    INFO(r.message);
    REQUIRE(r.located());
    CHECK(r.x.lpNorm<Eigen::Infinity>() <= 1e-15);  // the two-fold is the origin
    const TwoFoldClassification& c = *r.classification;
    INFO(c.message);
    CHECK(c.K.pp == Approx(k.a).epsilon(1e-15));
    CHECK(c.K.pm == Approx(k.vm).epsilon(1e-15));
    CHECK(c.K.mp == Approx(k.vp).epsilon(1e-15));
    CHECK(c.K.mm == Approx(k.b).epsilon(1e-15));
    CHECK(c.D == Approx(k.vp * k.vm - k.a * k.b).epsilon(1e-15));
    CHECK(c.type == k.type);
    CHECK(c.twofold_case == k.which);
    CHECK(c.nondeterministic == (k.which == TwoFoldCase::kCase1));
    CHECK(c.j_defined == (k.a * k.b < 0.0));
    if (!c.j_defined) {
      CHECK(std::isnan(c.J1));
      continue;
    }
    const double S = std::sqrt(-k.a * k.b), J1 = k.vp / S, J2 = -k.vm / S;
    CHECK(c.J1 == Approx(J1).epsilon(1e-15));
    CHECK(c.J2 == Approx(J2).epsilon(1e-15));
    const double root = std::sqrt((J1 - J2) * (J1 - J2) + 4.0);
    CHECK(c.eigenvalues[0] == Approx(0.5 * (J1 + J2 + root)).epsilon(1e-14));
    CHECK(c.eigenvalues[1] == Approx(0.5 * (J1 + J2 - root)).epsilon(1e-14));
    for (int i = 0; i < 2; ++i) {
      // (30): [J1 s; s J2] (lambda_i - J2, s) = lambda_i (lambda_i - J2, s), s = sign(K--).
      const double sgn = k.b > 0 ? 1.0 : -1.0;
      CHECK(c.off_diagonal == sgn);
      Eigen::Matrix2d M;
      M << J1, sgn, sgn, J2;
      CHECK((M * c.eigenvectors[i] - c.eigenvalues[i] * c.eigenvectors[i]).norm() <= 1e-14);
    }
    if (k.which == TwoFoldCase::kBoundary) continue;
    check_scaled_field_eigen(model, c);
    // The eigenvector in the sliding / escaping sectors (v1 for (27), v2 for
    // visible-visible), oriented into sliding (x < 0 < y), minus it into
    // escaping (y < 0 < x); the other one in the crossing sector (x y > 0).
    CHECK(c.sliding_eigenvector == (k.type == TwoFoldType::kVisibleVisible ? 1 : 0));
    const Vector d1 = c.sliding_direction, d2 = c.directions[1 - c.sliding_eigenvector];
    CHECK(filippov::classify(model, 1e-3 * d1).region == filippov::Region::kSliding);
    CHECK(filippov::classify(model, -1e-3 * d1).region == filippov::Region::kEscaping);
    CHECK(filippov::classify(model, 1e-3 * d2).region == filippov::Region::kCrossing);
    // The sliding field on that ray is along the ray: towards x* when its
    // eigenvalue is negative (case 1), away when positive.
    const Vector fs = filippov::sliding_field(model, 1e-3 * d1);
    const double along = fs.normalized().dot(d1);
    CHECK(std::abs(along) >= 1.0 - 1e-12);
    CHECK((along < 0.0) == (c.eigenvalues[c.sliding_eigenvector] < 0.0));
  }
}

TEST_CASE("two-fold: n > 3, the minimum-norm Newton step lands on the two-fold set", "[two_fold]") {
  NormalForm model;
  model.extra = 2;  // two-folds: x = y = z = 0, any (w1, w2)
  const Vector guess = vec({0.3, -0.2, 0.1, 0.7, -0.4});
  const TwoFoldResult r = locate_two_fold(model, guess);
  INFO(r.message);
  REQUIRE(r.located());
  CHECK(r.x.head(3).lpNorm<Eigen::Infinity>() <= 1e-15);
  CHECK(r.x[3] == Approx(0.7).margin(1e-15));  // the minimum-norm step does not move along the set
  CHECK(r.x[4] == Approx(-0.4).margin(1e-15));
  CHECK(r.classification->twofold_case == TwoFoldCase::kCase1);
  check_scaled_field_eigen(model, *r.classification);
}

TEST_CASE("two-fold: a vanishing switching gradient and a search that fails are clear errors", "[two_fold]") {
  // h = x y is not a surface on the z-axis.
  const Singular singular;
  for (int which = 0; which < 2; ++which) {
    try {
      if (which == 0) locate_two_fold(singular, vec({0.0, 0.0, 0.5}));
      if (which == 1) classify_two_fold(singular, vec({0.0, 0.0, 0.5}));
      FAIL("no exception");
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      INFO(what);
      CHECK(what.find("not regular") != std::string::npos);
      CHECK(what.find("(0, 0, 0.5)") != std::string::npos);
      CHECK(what.find("|h_x| = 0") != std::string::npos);
    }
  }
  // gamma = pi/2: h_x . f_lambda = -(beta^2 + r^2) never vanishes (Sec. VI.2);
  // Newton cannot converge, from anywhere.
  WheelTurntable wheel = WheelTurntable::paper();
  wheel.gamma = 0.5 * M_PI;
  for (const Vector& guess : {vec({0.19, -0.03, -1.04}), vec({0.0, 0.0, 0.0}), vec({-0.5, 1.0, -2.0})}) {
    const TwoFoldResult r = locate_two_fold(wheel, guess);
    INFO(status_name(r.status) << ": " << r.message);
    CHECK_FALSE(r.located());
    CHECK_FALSE(r.classification.has_value());
    CHECK(r.residual >= 0.9 * wheel.beta * wheel.beta);  // |h_x . f_lambda| >= beta^2
    CHECK(r.message.find("two-fold Newton") != std::string::npos);
    CHECK(r.message.find(detail::format(guess)) != std::string::npos);
  }
  // Too few iterations: "not converged", with the residual and the point.
  TwoFoldOptions options;
  options.max_iterations = 1;
  const TwoFoldResult few = locate_two_fold(WheelTurntable::paper(), vec({0.3, 0.2, -0.5}), options);
  CHECK(few.status == TwoFoldStatus::kNotConverged);
  CHECK(few.message.find("not converged in 1 iterations") != std::string::npos);
  // Parallel fold lines: G_x is singular, no transversal two-fold.
  NormalForm parallel;
  parallel.parallel = true;
  const TwoFoldResult sing = locate_two_fold(parallel, vec({0.3, -0.2, 0.1}));
  CHECK(sing.status == TwoFoldStatus::kSingularJacobian);
  CHECK(sing.message.find("rank 2 < 3") != std::string::npos);
  // Not a two-fold; bad options.
  CHECK_THROWS_WITH(classify_two_fold(NormalForm{}, vec({0.1, 0.0, 0.0})),
                    Catch::Contains("is not a two-fold"));
  TwoFoldOptions bad;
  bad.residual_tolerance = 0.0;
  CHECK_THROWS_WITH(locate_two_fold(NormalForm{}, vec({0.1, 0.0, 0.0}), bad),
                    Catch::Contains("residual_tolerance = 0"));
  bad = {};
  bad.zero_tolerance = 2.0;
  CHECK_THROWS_WITH(classify_two_fold(NormalForm{}, vec({0.0, 0.0, 0.0}), bad),
                    Catch::Contains("zero_tolerance"));
  WheelTurntable unset;  // kappa, k2 not set
  CHECK_THROWS_WITH(locate_two_fold(unset, vec({0.19, -0.03, -1.04})), Catch::Contains("kappa is not set"));
}

TEST_CASE("two-fold: gamma = 0 (Sec. VI.1) is located where F+ = F-, a degenerate two-fold",
          "[two_fold][wheel]") {
  WheelTurntable wheel = WheelTurntable::paper();
  wheel.gamma = 0.0;
  const auto points = wheel.gamma_zero_two_folds();
  REQUIRE(points.size() == 1);
  const Vector expected = points[0];
  const TwoFoldResult r = locate_two_fold(wheel, expected + vec({0.01, -0.02, 0.01}));
  INFO(r.message);
  REQUIRE(r.located());
  CHECK((r.x - expected).lpNorm<Eigen::Infinity>() <= 1e-12);
  const auto& c = *r.classification;
  CHECK(c.f_lambda.lpNorm<Eigen::Infinity>() <= 1e-14);
  CHECK((c.f_plus - c.f_minus).lpNorm<Eigen::Infinity>() <= 1e-14);
  CHECK(c.type == TwoFoldType::kDegenerate);
  CHECK(c.twofold_case == TwoFoldCase::kNone);
  CHECK_FALSE(c.nondeterministic);
  CHECK(c.message.find("F+ = F-") != std::string::npos);
}

TEST_CASE("two-fold: scans of the switching surface", "[two_fold]") {
  // The wheel with Sec. V's parameters: the designed case-1 point is found, and
  // every point found is a two-fold, once.
  const WheelTurntable wheel = WheelTurntable::paper();
  TwoFoldScanOptions options;
  options.lower = vec({-1.0, -2.0, -3.0});
  options.upper = vec({1.0, 2.0, 1.0});
  options.grid = 6;
  const TwoFoldScan scan = scan_two_folds(wheel, options);
  INFO(scan.message);
  REQUIRE(!scan.two_folds.empty());
  CHECK(scan.starts == 216);
  const auto d = wheel.design_two_fold(0.1859, -1.037);
  int designed = 0;
  for (std::size_t i = 0; i < scan.two_folds.size(); ++i) {
    const auto& t = scan.two_folds[i];
    CHECK(t.located());
    CHECK(t.residual <= 1e-12);
    CHECK(detail::in_box(t.x, options.lower, options.upper));
    for (std::size_t j = 0; j < i; ++j) CHECK((t.x - scan.two_folds[j].x).lpNorm<Eigen::Infinity>() > 1e-6);
    if ((t.x - vec({d.r, d.v, d.omega})).lpNorm<Eigen::Infinity>() <= 1e-10) {
      ++designed;
      CHECK(t.classification->twofold_case == TwoFoldCase::kCase1);
    }
  }
  CHECK(designed == 1);
  CHECK(scan.two_folds.size() <= 4);  // "at most four singularities on Sigma" (Sec. III)

  // gamma = pi/2: none.
  WheelTurntable perpendicular = wheel;
  perpendicular.gamma = 0.5 * M_PI;
  const TwoFoldScan none = scan_two_folds(perpendicular, options);
  CHECK(none.two_folds.empty());
  CHECK(none.located == 0);
  CHECK(none.message.find("0 two-fold(s)") == 0);

  // The normal form: the origin, once.
  TwoFoldScanOptions box;
  box.lower = vec({-1.0, -1.0, -1.0});
  box.upper = vec({1.0, 1.0, 1.0});
  box.grid = 3;
  const TwoFoldScan one = scan_two_folds(NormalForm{}, box);
  REQUIRE(one.two_folds.size() == 1);
  CHECK(one.two_folds[0].x.lpNorm<Eigen::Infinity>() <= 1e-15);
  CHECK(one.located == 27);

  // Bad boxes name the field.
  TwoFoldScanOptions bad = box;
  bad.upper = vec({1.0, 1.0});
  CHECK_THROWS_WITH(scan_two_folds(NormalForm{}, bad), Catch::Contains("lower and upper"));
  bad = box;
  bad.upper[1] = -2.0;
  CHECK_THROWS_WITH(scan_two_folds(NormalForm{}, bad), Catch::Contains("component 1"));
  bad = box;
  bad.grid = 0;
  CHECK_THROWS_WITH(scan_two_folds(NormalForm{}, bad), Catch::Contains("grid = 0"));
}

TEST_CASE("two-fold: invariants from given K's, degenerate cases", "[two_fold]") {
  TwoFoldConstants K;
  K.pp = 0.0;
  K.pm = 1.0;
  K.mp = -1.0;
  K.mm = 1.0;
  auto inv = two_fold_invariants(K);
  CHECK(inv.plus == FoldVisibility::kDegenerate);
  CHECK(inv.type == TwoFoldType::kDegenerate);
  CHECK_FALSE(inv.j_defined);
  CHECK(inv.twofold_case == TwoFoldCase::kNone);
  inv = two_fold_invariants(TwoFoldConstants{});
  CHECK(inv.type == TwoFoldType::kDegenerate);
  CHECK(inv.message.find("all K vanish") != std::string::npos);
  // Mixed visibility with D = 0: the boundary lines are tangent.
  K = {1.0, 1.0, 1.0, 1.0};
  inv = two_fold_invariants(K);
  CHECK(inv.D == 0.0);
  CHECK(inv.type == TwoFoldType::kDegenerate);
  CHECK_THROWS_WITH(two_fold_invariants(K, -1.0), Catch::Contains("zero_tolerance"));
}
