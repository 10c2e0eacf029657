#include "testfunctions/hopf.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "continuation/autodiff_system.h"
#include "continuation/eigenvalues.h"
#include "continuation/pseudo_arclength.h"
#include "models/brusselator_1d.h"
#include "models/expression_system.h"

using namespace saltus;

namespace {

struct Run {
  Branch branch;
  std::vector<SpecialPoint> hopf;  // HB and ZH points
};

// The branch of equilibria of x' = F(x, p) from `start` in `parameter`,
// with eigenvalues monitored and the Hopf test.
Run equilibria(const std::vector<std::string>& unknowns, const std::map<std::string, double>& parameters,
               const std::vector<std::string>& rates, const std::vector<double>& start,
               const std::string& parameter, double until) {
  std::vector<std::string> names;
  Vector p(static_cast<int>(parameters.size()));
  int k = 0;
  for (const auto& [name, value] : parameters) names.push_back(name), p[k++] = value;
  ContinuationProblem problem(models::make_expression_system(unknowns, names, rates), p, {parameter});
  Vector y0(static_cast<int>(start.size()) + 1);
  for (std::size_t i = 0; i < start.size(); ++i) y0[static_cast<int>(i)] = start[i];
  y0[y0.size() - 1] = parameters.at(parameter);
  ContinuationOptions options;
  options.eigenvalues = true;
  options.ds = 0.01;
  options.ds_max = 0.05;
  options.event_tolerance = 1e-12;
  options.bounds[parameter] = Bound{-1e9, until};
  Run run{continue_branch(problem, y0, options, {std::make_shared<HopfTest>()}), {}};
  for (const auto& s : run.branch.special_points)
    if (s.type == "HB" || s.type == "ZH") run.hopf.push_back(s);
  return run;
}

double parameter_at(const Branch& b, const SpecialPoint& s) { return s.y[b.state_size]; }

}  // namespace

// Van der Pol with the parameter in the linear damping only,
// x'' - (mu - x^2) x' + x = 0, as x' = y, y' = -x + (mu - x^2) y. At mu = 0,
// A = [[0, 1], [-1, 0]], omega = 1, q = (1, i)/sqrt(2), p = (1, i)/sqrt(2)
// (A^T p = -i p, <p, q> = 1). B = 0; C's only component is the second,
// C_2(u, v, w) = -2 (u1 v1 w2 + u1 v2 w1 + u2 v1 w1), so C(q, q, conj q) =
// (0, -i/sqrt(2)) and <p, C> = (-i)(-i/sqrt(2))/sqrt(2) = -1/2; hence
// l1 = Re(-1/2) / (2 omega) = -1/4: supercritical. (Check: the normal form
// |z|^2 = -Re(lambda') mu / (l1 omega) = (mu/2)/(1/4) = 2 mu, and
// x = 2 Re(z q_1) has amplitude sqrt(2) |z| = 2 sqrt(mu): the averaging
// amplitude of the van der Pol cycle.)
TEST_CASE("van der Pol, damping parameter: HB at mu = 0 with l1 = -1/4, supercritical", "[hopf]") {
  const Run run = equilibria({"x", "y"}, {{"mu", -1.0}}, {"y", "-x + (mu - x^2)*y"}, {0.0, 0.0}, "mu", 1.0);
  REQUIRE(run.hopf.size() == 1);
  const SpecialPoint& hb = run.hopf[0];
  CHECK(hb.type == "HB");
  CHECK(std::abs(parameter_at(run.branch, hb)) < 1e-10);
  CHECK(hb.data["frequency"].get<double>() == Approx(1.0).epsilon(1e-10));
  CHECK(hb.data["l1"].get<double>() == Approx(-0.25).epsilon(1e-9));
  CHECK(hb.data["criticality"] == "supercritical");
  // Stable before (two eigenvalues with Re = mu/2 < 0), unstable after.
  CHECK(unstable_count(run.branch.points.front().eigenvalues) == 0);
  CHECK(unstable_count(run.branch.points.back().eigenvalues) == 2);
}

// The classical form x'' - mu (1 - x^2) x' + x = 0: at mu = 0 the field is
// linear, so B = C = 0 and l1 = 0. The point is a Hopf point, but l1 does
// not decide its criticality, and saltus says so.
TEST_CASE("van der Pol, classical form: l1 = 0 at the Hopf point is reported as degenerate", "[hopf]") {
  const Run run = equilibria({"x", "y"}, {{"mu", -1.0}}, {"y", "-x + mu*(1 - x^2)*y"}, {0.0, 0.0}, "mu", 1.0);
  REQUIRE(run.hopf.size() == 1);
  CHECK(std::abs(parameter_at(run.branch, run.hopf[0])) < 1e-10);
  CHECK(std::abs(run.hopf[0].data["l1"].get<double>()) < 1e-9);
  CHECK(run.hopf[0].data["criticality"] == "degenerate");
}

// The Brusselator x' = a - (b + 1) x + x^2 y, y' = b x - x^2 y. Its
// equilibrium (a, b/a) has
//   A = [[b - 1, a^2], [-b, -a^2]],  tr A = b - 1 - a^2,  det A = a^2,
// so the Hopf point is b = 1 + a^2 with omega = sqrt(det A) = a. There
// A = [[a^2, a^2], [-(1 + a^2), -a^2]], q ~ (a^2, -a^2 + i a) and p from
// A^T, normalized <q, q> = <p, q> = 1; the nonlinear terms are +-x^2 y, so
// B(u, v) = +-(2 y0 u1 v1 + x0 (u1 v2 + u2 v1)) and C(u, v, w) =
// +-2 (u1 v1 w2 + u1 v2 w1 + u2 v1 w1) in the first/second component, with
// (x0, y0) = (a, (1 + a^2)/a). Kuznetsov's formula (3.20), evaluated
// symbolically (sympy: hopf at b = 1 + a^2, the three terms simplified),
// gives
//   l1 = -(a^2 + 2) / (2 a (2 a^2 + 1)),
// so -1/2 at a = 1 and -1/6 at a = 2: supercritical for every a > 0.
TEST_CASE("Brusselator: HB at b = 1 + a^2, frequency a, l1 = -(a^2 + 2)/(2a(2a^2 + 1))", "[hopf]") {
  for (const double a : {1.0, 2.0, 0.7}) {
    CAPTURE(a);
    const Run run = equilibria({"x", "y"}, {{"a", a}, {"b", 0.5}}, {"a - (b + 1)*x + x^2*y", "b*x - x^2*y"},
                               {a, 0.5 / a}, "b", 2 + a * a);
    REQUIRE(run.hopf.size() == 1);
    const SpecialPoint& hb = run.hopf[0];
    CHECK(std::abs(parameter_at(run.branch, hb) - (1 + a * a)) < 1e-10);
    CHECK(std::abs(hb.data["frequency"].get<double>() - a) < 1e-9);
    CHECK(std::abs(hb.data["l1"].get<double>() + (a * a + 2) / (2 * a * (2 * a * a + 1))) < 1e-8);
    CHECK(hb.data["criticality"] == "supercritical");
  }
}

// A neutral saddle crossing is not a Hopf point. The first block
// x' = mu x + y, y' = x has real eigenvalues of opposite signs whose sum mu
// changes sign at mu = 0 (the Hopf test vanishes there too); the second,
// the Hopf normal form u' = (mu - 1/2) u - v - u (u^2 + v^2),
// v' = u + (mu - 1/2) v - v (u^2 + v^2), i.e. z' = (mu - 1/2 + i) z - z |z|^2,
// has its Hopf point at mu = 1/2. With q = (1, -i)/sqrt(2) (so <q, q> = 1) and
// z = sqrt(2) w, w' = i w - 2 w |w|^2 on the centre manifold: l1 = -2 / omega = -2.
TEST_CASE("a neutral saddle is not reported as a Hopf point; the Hopf normal form has l1 = -2", "[hopf]") {
  const Run run =
      equilibria({"x", "y", "u", "v"}, {{"mu", -0.5}},
                 {"mu*x + y", "x", "(mu - 0.5)*u - v - u*(u^2 + v^2)", "u + (mu - 0.5)*v - v*(u^2 + v^2)"},
                 {0, 0, 0, 0}, "mu", 1.0);
  int sign_changes = 0;
  const auto& points = run.branch.points;
  for (std::size_t i = 1; i < points.size(); ++i)
    sign_changes += (points[i - 1].tests[0] > 0) != (points[i].tests[0] > 0);
  CHECK(sign_changes >= 2);  // the test vanished at the neutral saddle too
  REQUIRE(run.hopf.size() == 1);
  CHECK(std::abs(parameter_at(run.branch, run.hopf[0]) - 0.5) < 1e-10);
  CHECK(run.hopf[0].data["l1"].get<double>() == Approx(-2.0).epsilon(1e-9));
}

// A Hopf pair crossing beside an eigenvalue that is zero at the same point:
// z' = (mu + i) z - z |z|^2 with w' = mu w + w^3... along the branch of the
// origin both the pair and the real eigenvalue mu cross at mu = 0: a
// zero-Hopf point, where l1 is undefined; reported as "ZH", not as an HB.
TEST_CASE("a Hopf pair beside a zero eigenvalue is reported as ZH", "[hopf]") {
  const Run run = equilibria({"x", "y", "w"}, {{"mu", -0.5}},
                             {"mu*x - y - x*(x^2 + y^2)", "x + mu*y - y*(x^2 + y^2)", "-mu*w + w^3"},
                             {0, 0, 0}, "mu", 0.5);
  REQUIRE(run.hopf.size() == 1);
  CHECK(run.hopf[0].type == "ZH");
  CHECK(std::abs(parameter_at(run.branch, run.hopf[0])) < 1e-10);
  CHECK(!run.hopf[0].data.contains("l1"));
}

// l1 from exact multilinear forms against the same formula with B and C by
// central differences of the Jacobian (an independent check of the
// polarization), on a system with quadratic and cubic terms in every
// component: x' = mu x - y + x y - x^3 + y^2 z, y' = x + mu y + x^2 - x y z,
// z' = -z + x^2 + y^2.
TEST_CASE("l1 from Taylor passes agrees with finite differences of the Jacobian", "[hopf]") {
  const auto system = models::make_expression_system(
      {"x", "y", "z"}, {"mu"}, {"mu*x - y + x*y - x^3 + y^2*z", "x + mu*y + x^2 - x*y*z", "-z + x^2 + y^2"});
  Vector u(4);
  u << 0, 0, 0, 0;
  const HopfPoint h = hopf_point(*system, u);
  CHECK(h.omega == Approx(1.0).epsilon(1e-12));
  CHECK(std::abs(h.q.norm() - 1) < 1e-12);
  CHECK(std::abs(h.p.dot(h.q) - std::complex<double>(1.0)) < 1e-12);

  // B(x, y) and C(x, y, z) by differences of F_x along directions (h = 1e-4;
  // F is polynomial of degree 3, so the central difference of F_x is exact up
  // to O(h^2) terms of C's derivative, which vanish).
  const int n = 3;
  using C = std::complex<double>;
  auto Fx = [&](const Vector& x) {
    Vector v(4);
    v << x, 0.0;
    return Matrix(system->jacobian(v).leftCols(n));
  };
  auto B = [&](const Eigen::VectorXcd& a, const Eigen::VectorXcd& b) {
    const double e = 1e-4;
    Eigen::VectorXcd out = Eigen::VectorXcd::Zero(n);
    for (int part = 0; part < 2; ++part) {
      const Vector dir = part ? Vector(a.imag()) : Vector(a.real());
      const Matrix d = (Fx(e * dir) - Fx(-e * dir)) / (2 * e);
      out += (part ? C(0, 1) : C(1)) * (d.cast<C>() * b);
    }
    return out;
  };
  auto Cf = [&](const Eigen::VectorXcd& a, const Eigen::VectorXcd& b, const Eigen::VectorXcd& c) {
    const double e = 1e-3;
    Eigen::VectorXcd out = Eigen::VectorXcd::Zero(n);
    for (int pa = 0; pa < 2; ++pa)
      for (int pb = 0; pb < 2; ++pb) {
        const Vector da = pa ? Vector(a.imag()) : Vector(a.real());
        const Vector db = pb ? Vector(b.imag()) : Vector(b.real());
        const Matrix d2 =
            (Fx(e * (da + db)) - Fx(e * (da - db)) - Fx(e * (db - da)) + Fx(-e * (da + db))) / (4 * e * e);
        out += (pa ? C(0, 1) : C(1)) * (pb ? C(0, 1) : C(1)) * (d2.cast<C>() * c);
      }
    return out;
  };
  const Matrix A = Fx(Vector::Zero(n));
  const Eigen::MatrixXcd Ac = A.cast<C>();
  const Eigen::VectorXcd q = h.q, qb = q.conjugate();
  const Eigen::VectorXcd h11 = Ac.partialPivLu().solve(B(q, qb));
  const Eigen::VectorXcd h20 =
      (C(0, 2 * h.omega) * Eigen::MatrixXcd::Identity(n, n) - Ac).partialPivLu().solve(B(q, q));
  const C sum = h.p.dot(Cf(q, q, qb)) - 2.0 * h.p.dot(B(q, h11)) + h.p.dot(B(qb, h20));
  CHECK(h.l1 == Approx(sum.real() / (2 * h.omega)).epsilon(1e-6));
}

// The sparse path of hopf_point (inverse iteration with one sparse complex
// LU, sparse solves for l1) against the dense one (EigenSolver, dense LUs)
// on the 1-D Brusselator with 30 points per species at its first Hopf point.
TEST_CASE("hopf_point: the sparse path agrees with the dense one", "[hopf][sparse]") {
  models::Brusselator1d model;
  model.n = 30;
  const auto system = make_system(model);
  REQUIRE(system->is_sparse());
  const double a = 2, d1 = 0.008, d2 = 0.004, s = std::sin(M_PI / (2 * 31.0)), mu = 4 * 31.0 * 31.0 * s * s;
  const double b = 1 + a * a + (d1 + d2) * mu;
  Vector u(64);
  for (int i = 0; i < 30; ++i) u[2 * i] = a, u[2 * i + 1] = b / a;
  u.tail(4) << a, b, d1, d2;
  const HopfPoint dense = hopf_point(*system, u);
  // The engine passes the monitored eigenvalue's frequency (accurate to the
  // eigensolver's tolerance); three inverse iterations then converge.
  const HopfPoint sparse = hopf_point(*system, u, dense.omega * (1 + 1e-10));
  CHECK(sparse.omega == Approx(dense.omega).epsilon(1e-12));
  CHECK(sparse.l1 == Approx(dense.l1).epsilon(1e-9));
  CHECK(std::abs(sparse.p.dot(sparse.q) - std::complex<double>(1.0)) < 1e-12);
  // A frequency far from the pair's finds an eigenvalue off the axis: a clear error, not a wrong l1.
  CHECK_THROWS_WITH(hopf_point(*system, u, 40.0),
                    Catch::Contains("not on the imaginary axis") || Catch::Contains("did not converge"));
}
