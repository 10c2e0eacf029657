// Classification of degenerate extremal points (Damerau & Low 2016, Sec. 4.2-4.4):
// the five examples of Sec. 4.4 with the paper's numbers (where they are
// right) and what is right where they are not, the paper's procedure against
// two independent reductions, Taylor coefficients of (12) against the
// functor, predicted against directly found solution counts, invariance under
// the free choices in P, the closed forms (26)-(30), exactness and bad input.

#include "analyses/contact/classification.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <random>
#include <string>

#include "analyses/contact/format.h"
#include "models/extremal.h"

using namespace saltus;
using namespace saltus::models;
using contact::Rational;

namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

// The paper's examples. (31), (34), (37), (43) corrected: polynomial data,
// exact through the type-erased problem (their Taylor coefficients are short
// dyadics).
ExtremalProblem example_441() {  // (31): c1 = -(s1, s1^4), c2 = (s2, s2^3)
  return make_extremal_problem(ParametricPolynomial{.x = {0, -1}, .y = {0, 0, 0, 0, -1}, .name = "c1"},
                               ParametricPolynomial{.x = {0, 1}, .y = {0, 0, 0, 1}, .name = "c2"});
}
ExtremalProblem example_442() {  // (34): c1 = -(s1, s1^4), c2 = (s2, s2^4)
  return make_extremal_problem(ParametricPolynomial{.x = {0, -1}, .y = {0, 0, 0, 0, -1}, .name = "c1"},
                               ParametricPolynomial{.x = {0, 1}, .y = {0, 0, 0, 0, 1}, .name = "c2"});
}
ExtremalProblem example_443() {  // (37): c1 = -(s1, s1^3 + 3 s1^4), c2 = (s2, s2^3 + 1.5 s2^4)
  return make_extremal_problem(ParametricPolynomial{.x = {0, -1}, .y = {0, 0, 0, -1, -3}, .name = "c1"},
                               ParametricPolynomial{.x = {0, 1}, .y = {0, 0, 0, 1, 1.5}, .name = "c2"});
}
// (40): c1 = -(sin s1, cos s1) as a run file gives it (expressions: double only).
ExtremalProblem example_444() {
  return make_extremal_problem(AnyShape{ExpressionCurve::make("-sin(s)", "-cos(s)", "c1", 1.0, 2 * M_PI)},
                               AnyShape{PolynomialGraph{.p = {0, 0, 1}, .name = "c2"}});
}
// (43) with the corrected c1 = (-s1, s1^2 + 2 s1^4) (NOTES.md); k = 2 is the printed one.
ExtremalProblem example_445(double k = 1.0) {
  return make_extremal_problem(ParametricPolynomial{.x = {0, -1}, .y = {0, 0, k, 0, 2}, .name = "c1"},
                               PolynomialGraph{.p = {0, 0, 2, 0, 24, 50}, .name = "c2"});
}
constexpr std::array<double, 5> kOrigin{0, 0, 0, 0, 0};
constexpr std::array<double, 5> kPoint444{0, 0, 0, -0.5, 0};
constexpr std::array<double, 5> kPoint445{0, 0, 0, 0.25, 0};

// (40) exactly: the unit circle run clockwise (a round hole, kappa1 = -1)
// through (0, -1) with tangent (-1, 0), as a curvature jet (exact sin/cos
// recurrences), and the parabola's jet on rationals.
ContactClassification classify_444_exact(const ContactClassificationOptions& options = {}) {
  const int order = options.order + 2;
  const auto circle_exact = contact::curve_jet_from_curvature<Rational>(
      {Rational(-1)}, order, {Rational(0), Rational(-1)}, {Rational(-1), Rational(0)}, "c1");
  const auto circle =
      contact::curve_jet_from_curvature<double>({-1.0}, order, {0.0, -1.0}, {-1.0, 0.0}, "c1");
  const PolynomialGraph parabola{.p = {0, 0, 1}, .name = "c2"};
  return contact::classify_jets(circle, contact::curve_jet<double>(parabola, 0.0, order, "c2"), kPoint444,
                                options, circle_exact,
                                contact::curve_jet<Rational>(parabola, Rational(0), order, "c2"));
}

// The linear part (terms of degree 1) of a normal-form coefficient, exact.
std::string linear_part(const NormalFormCoefficient& mu) {
  std::string out;
  for (const auto& t : mu.terms) {
    if (t.ex + t.ey + t.ephi != 1) continue;
    const std::string m = t.ex ? "x" : t.ey ? "y" : "phi";
    out += (out.empty() ? "" : " ") + t.exact + "*" + m;
  }
  return out;
}

const PolynomialTerm* term(const NormalFormCoefficient& mu, int ex, int ey, int ephi) {
  for (const auto& t : mu.terms)
    if (t.ex == ex && t.ey == ey && t.ephi == ephi) return &t;
  return nullptr;
}

std::string exact_term(const NormalFormCoefficient& mu, int ex, int ey, int ephi) {
  const PolynomialTerm* t = term(mu, ex, ey, ephi);
  return t ? t->exact : "0";
}

int direct_count(const ExtremalProblem& problem, const Eigen::Vector3d& pose, double half_width,
                 int grid = 64) {
  ExtremalSearchOptions options;
  options.half_width = half_width;
  options.grid = grid;
  return find_extremal_points(problem, pose, options).count;
}

// Factorial-free Taylor coefficients kappa^(k) / k! from derivatives.
std::vector<Rational> taylor_from_derivatives(const std::vector<Rational>& d) {
  std::vector<Rational> t;
  Rational f(1);
  for (std::size_t k = 0; k < d.size(); ++k) {
    if (k > 0) f = f * Rational(static_cast<int>(k));
    t.push_back(d[k] / f);
  }
  return t;
}

std::vector<double> to_doubles(const std::vector<Rational>& v) {
  std::vector<double> out;
  for (const auto& r : v) out.push_back(static_cast<double>(r));
  return out;
}

}  // namespace

// ---- the number types ----------------------------------------------------------------------

TEST_CASE("contact: truncated multivariate series are exact on their monomial set",
          "[testfunctions][contact]") {
  using S = contact::Series<Rational>;
  const auto set = contact::make_monomial_set(2, {{{1, 1}, 6}});
  const S x = S::variable(set, 0, Rational(0)), y = S::variable(set, 1, Rational(0));
  // 1 / (1 - x - y) = sum_k (x + y)^k: the coefficient of x^2 y^3 is binom(5, 2) = 10.
  const S geometric = 1.0 / (1.0 - x - y);
  CHECK(geometric.coefficient({2, 3}) == Rational(10));
  CHECK(geometric.coefficient({0, 6}) == Rational(1));
  CHECK(geometric.coefficient({4, 3}) == Rational(0));  // outside the set
  // sqrt(1 + x)^2 = 1 + x exactly; sin^2 + cos^2 = 1 exactly.
  const S r = sqrt(1.0 + x);
  CHECK(r.coefficient({3, 0}) == Rational(1, 16));  // binom(1/2, 3)
  const S one = r * r - x;
  for (int i = 1; i < one.size(); ++i) CHECK(one[i] == Rational(0));
  const S u = x + 2.0 * y;
  const S pythagoras = sin(u) * sin(u) + cos(u) * cos(u);
  CHECK(pythagoras.constant() == Rational(1));
  for (int i = 1; i < pythagoras.size(); ++i) CHECK(pythagoras[i] == Rational(0));
  // A weighted set: weight 2 for x, and at most one factor y.
  const auto weighted = contact::make_monomial_set(2, {{{2, 1}, 5}, {{0, 1}, 1}});
  CHECK(weighted->contains({2, 1}));
  CHECK(!weighted->contains({3, 0}));
  CHECK(!weighted->contains({0, 2}));
  // Rational: exact where rational, else it says so.
  CHECK(contact::sqrt(Rational(49, 4)).str() == "7/2");
  CHECK_THAT(error_of([] { contact::sqrt(Rational(2)); }), Catch::Contains("sqrt(2) is not rational"));
  CHECK_THAT(error_of([] { contact::exact_dyadic(0.1); }), Catch::Contains("not a short dyadic"));
  CHECK(contact::exact_dyadic(1.5).str() == "3/2");
}

TEST_CASE("contact: Taylor coefficients of (12) agree with eq. (3) evaluated on univariate series",
          "[testfunctions][contact]") {
  // The multivariate coefficients (p = (s1, s2, x, y, phi), total degree <= 8)
  // of the extended system at the degenerate point of (43), against
  // ExtremalEquations evaluated on Taylor<double, 8> along random directions e:
  // f(p* + t e) = sum_k t^k sum_{|alpha| = k} f_alpha e^alpha.
  constexpr int kOrder = 8;
  const ParametricPolynomial c1{.x = {0, -1}, .y = {0, 0, 1, 0, 2}, .name = "c1"};
  const PolynomialGraph c2{.p = {0, 0, 2, 0, 24, 50}, .name = "c2"};
  ContactClassificationOptions options;
  options.order = kOrder;
  options.arclength = false;  // coordinates s1 - s1*, s2 - s2*
  const auto analysis =
      contact::analyse<double>(contact::curve_jet<double>(c1, 0.0, kOrder + 2),
                               contact::curve_jet<double>(c2, 0.0, kOrder + 2), 0.0, 0.25, 0.0, options);
  const auto set = contact::make_monomial_set(5, {{{1, 1, 1, 1, 1}, kOrder}});
  const auto f = contact::extended_system(analysis, set, false);
  const ExtremalEquations<ParametricPolynomial, PolynomialGraph> equations{c1, c2};
  using T = Taylor<double, kOrder>;
  std::mt19937 rng(12);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const double p0[5] = {0, 0, 0, 0.25, 0};
  for (int trial = 0; trial < 5; ++trial) {
    double e[5];
    T u[5], r[2];
    for (int i = 0; i < 5; ++i) {
      e[i] = uniform(rng);
      u[i] = T::variable(0.0, kOrder) * e[i] + p0[i];
    }
    equations(u, r);
    for (int k = 0; k <= kOrder; ++k)
      for (int eq = 0; eq < 2; ++eq) {
        double sum = 0.0;
        for (int i = 0; i < set->size(); ++i) {
          if (set->weight(i) != k) continue;
          double monomial = f[eq][i];
          for (int v = 0; v < 5; ++v) monomial *= std::pow(e[v], set->exponent(i, v));
          sum += monomial;
        }
        INFO("equation " << eq << ", order " << k);
        CHECK(sum == Approx(r[eq][k]).epsilon(1e-11).margin(1e-9 * std::pow(10.0, k / 2.0)));
      }
  }
}

// ---- the five examples of Sec. 4.4 ----------------------------------------------------------

TEST_CASE("contact: example 4.4.1, eq. (31): codimension 1, matrix (32), normal form (33)",
          "[testfunctions][contact]") {
  const ContactClassification r = classify(example_441(), kOrigin);
  REQUIRE(r.status == ClassificationStatus::kClassified);
  REQUIRE(r.exact);
  CHECK(r.kappa1 == 0.0);
  CHECK(r.kappa2 == 0.0);
  CHECK(r.trace == -1.0);  // lambda1 = -1, eq. (13)
  CHECK(r.codimension == 1);
  CHECK(r.type == "fold");
  // c_2 = 3 = (26): (-kappa1' + kappa2') / 2 with kappa1' = 0, kappa2' = 6.
  CHECK(r.c_exact.at(2) == "3");
  // (32) = [1 0 0], full rank.
  REQUIRE(r.transversality_exact.size() == 1);
  CHECK(r.transversality_exact[0] == std::vector<std::string>{"1", "0", "0"});
  CHECK(r.rank == 1);
  CHECK(r.versal);
  // (33): mu_0 ~ 1/3 phi - 4/3 phi x + 4/3 x^3 (rederived in
  // tests/models/extremal.test.cpp: f2 ~ phi + 3 s2^2 + 4 (s2 + x)^3). y does
  // not occur. (33) drops other terms of the same weight: the full mu_0 to
  // degree 3 also has 4/3 phi^2, 289/9 phi^3, -92/3 x phi^2, 16/3 x^2 phi.
  REQUIRE(r.normal_form.size() == 2);
  const auto& mu0 = r.normal_form[0];
  CHECK(exact_term(mu0, 0, 0, 1) == "1/3");
  CHECK(exact_term(mu0, 1, 0, 1) == "-4/3");
  CHECK(exact_term(mu0, 3, 0, 0) == "4/3");
  CHECK(exact_term(mu0, 0, 0, 2) == "4/3");
  CHECK(exact_term(mu0, 2, 0, 1) == "16/3");
  for (const auto& t : mu0.terms) CHECK(t.ey == 0);
  CHECK(polynomial_text(r.normal_form[1], true) == "0");  // the Tschirnhaus shift removes p^1
}

TEST_CASE("contact: example 4.4.2, eq. (34): codimension 2, matrix (35) of rank 1, normal form (36)",
          "[testfunctions][contact]") {
  const ContactClassification r = classify(example_442(), kOrigin);
  REQUIRE(r.exact);
  CHECK(r.codimension == 2);
  CHECK(r.type == "cusp");
  CHECK(r.c_exact.at(2) == "0");
  CHECK(r.c_exact.at(3) == "8");  // (26): (kappa1'' + kappa2'') / 6 = (24 + 24) / 6
  // (35) = [1 0 0; 0 0 0], rank 1: not versal.
  REQUIRE(r.transversality_exact.size() == 2);
  CHECK(r.transversality_exact[0] == std::vector<std::string>{"1", "0", "0"});
  CHECK(r.transversality_exact[1] == std::vector<std::string>{"0", "0", "0"});
  CHECK(r.rank == 1);
  CHECK(!r.versal);
  // (36): mu_0 ~ 1/8 phi, mu_1 = 3/4 x^2 - 3/2 x phi + 3/4 phi^2 = 3/4 (x - phi)^2 >= 0
  // (to degree 3 exactly that, no other terms).
  CHECK(linear_part(r.normal_form[0]) == "1/8*phi");
  CHECK(polynomial_text(r.normal_form[1], true) == "3/4*x^2 - 3/2*x*phi + 3/4*phi^2");
  CHECK(polynomial_text(r.normal_form[2], true) == "0");
  // "the number of solutions to (36) is always 1": predicted and found.
  const auto problem = example_442();
  for (const Eigen::Vector3d& pose :
       {Eigen::Vector3d(0.0, 0.0, 0.01), Eigen::Vector3d(0.0, 0.0, -0.01), Eigen::Vector3d(0.02, 0.0, -0.005),
        Eigen::Vector3d(-0.02, 0.01, 0.005)}) {
    INFO("pose " << pose.transpose());
    CHECK(predicted_solution_count(r, pose) == 1);
    CHECK(direct_count(problem, pose, 0.3) == 1);
  }
}

TEST_CASE(
    "contact: example 4.4.3, eq. (37) as printed is a versal cusp, not codimension 3; (38)'s first rows",
    "[testfunctions][contact]") {
  // Printed: codimension 3, c_2 = c_3 = 0 != c_4. Rederived: kappa1 = kappa2 = 0,
  // kappa1' = kappa2' = 6 (the cubic terms), kappa1'' = 72, kappa2'' = 36 (the
  // quartic ones: y'' = 6 s + 36 s^2 resp. 6 s + 18 s^2). (26) gives c_2 =
  // (-kappa1' + kappa2') / 2 = 0 but c_3 = (kappa1'' + kappa2'') / 6 = 18 != 0:
  // a cusp. The general procedure agrees. Its 2x3 matrix (25) is (38)'s first
  // two rows, [1 0 0; 0 -6 -6], of rank 2: the cusp is versally unfolded. (38)'s
  // third row and (39) belong to the codimension-3 reading and cannot be checked.
  const ContactClassification r = classify(example_443(), kOrigin);
  REQUIRE(r.exact);
  CHECK(r.c_exact.at(2) == "0");
  CHECK(r.c_exact.at(3) == "18");
  CHECK(r.codimension == 2);
  CHECK(r.type == "cusp");
  REQUIRE(r.transversality_exact.size() == 2);
  CHECK(r.transversality_exact[0] == std::vector<std::string>{"1", "0", "0"});
  CHECK(r.transversality_exact[1] == std::vector<std::string>{"0", "-6", "-6"});
  CHECK(r.rank == 2);
  CHECK(r.versal);
  // Normal form 0 = mu_0 + mu_1 p + p^3 with mu_0 ~ phi/18, mu_1 ~ (phi - x)/3.
  CHECK(linear_part(r.normal_form[0]) == "1/18*phi");
  CHECK(linear_part(r.normal_form[1]) == "-1/3*x 1/3*phi");
  CHECK_THAT(polynomial_text(r.normal_form[1], true), Catch::StartsWith("-1/3*x + 1/3*phi"));
  // One solution on one side of the cusp, three on the other (x moves mu_1).
  const auto problem = example_443();
  for (const auto& [pose, expected] :
       {std::pair{Eigen::Vector3d(0.003, 0.0, 0.0), 3}, std::pair{Eigen::Vector3d(-0.003, 0.0, 0.0), 1}}) {
    INFO("pose " << pose.transpose());
    CHECK(predicted_solution_count(r, pose) == expected);
    CHECK(direct_count(problem, pose, 0.2) == expected);
  }
}

TEST_CASE("contact: example 4.4.4, eq. (40): codimension 2, matrix (41), normal form (42)",
          "[testfunctions][contact]") {
  const ContactClassification r = classify_444_exact();
  REQUIRE(r.exact);
  CHECK(r.kappa1 == -1.0);
  CHECK(r.kappa2 == 2.0);
  CHECK(r.d == 0.5);
  CHECK(r.trace == 1.5);  // lambda1 = (kappa1 + kappa2^2) / kappa2, (14)
  CHECK(r.codimension == 2);
  CHECK(r.c_exact.at(2) == "0");
  CHECK(r.c_exact.at(3) == "16/27");
  // (41) = [1 0 0; -4/3 -4/3 0], rank 2: versal.
  REQUIRE(r.transversality_exact.size() == 2);
  CHECK(r.transversality_exact[0] == std::vector<std::string>{"1", "0", "0"});
  CHECK(r.transversality_exact[1] == std::vector<std::string>{"-4/3", "-4/3", "0"});
  CHECK(r.rank == 2);
  CHECK(r.versal);
  CHECK(r.type == "cusp");
  // (42): 0 = -27/16 x + 27/32 phi + 9/4 y p + p^3 (to first order; 27/16 = 1/c_3).
  CHECK(linear_part(r.normal_form[0]) == "-27/16*x 27/32*phi");
  CHECK_THAT(polynomial_text(r.normal_form[0], true), Catch::StartsWith("-27/16*x + 27/32*phi + "));
  CHECK(linear_part(r.normal_form[1]) == "9/4*y");
  CHECK(polynomial_text(r.normal_form[2], true) == "0");
  // The run-file form (expression curves) gives the same numbers in double.
  const ContactClassification d = classify(example_444(), kPoint444);
  CHECK(!d.exact);
  CHECK_THAT(d.exact_note, Catch::Contains("not a short dyadic"));
  CHECK(d.codimension == 2);
  CHECK(d.c.at(3) == Approx(16.0 / 27.0).epsilon(1e-12));
  CHECK(d.transversality_matrix[1][0] == Approx(-4.0 / 3.0).epsilon(1e-12));
  CHECK(d.transversality_matrix[1][1] == Approx(-4.0 / 3.0).epsilon(1e-12));
  CHECK(std::abs(d.transversality_matrix[1][2]) < 1e-12);
  REQUIRE(term(d.normal_form[0], 1, 0, 0));
  CHECK(term(d.normal_form[0], 1, 0, 0)->value == Approx(-27.0 / 16.0).epsilon(1e-12));
  CHECK(term(d.normal_form[1], 0, 1, 0)->value == Approx(9.0 / 4.0).epsilon(1e-12));
}

TEST_CASE("contact: example 4.4.5, eq. (43) corrected: codimension 3, matrix (44), normal form (45)",
          "[testfunctions][contact]") {
  const ContactClassification r = classify(example_445(), kPoint445);
  REQUIRE(r.exact);
  CHECK(r.kappa1 == -2.0);
  CHECK(r.kappa2 == 4.0);
  CHECK(r.d == 0.25);
  CHECK(r.det == 0.0);
  CHECK(r.trace == 3.5);
  CHECK(r.codimension == 3);
  CHECK(r.type == "swallowtail");
  CHECK(r.c_exact.at(2) == "0");
  CHECK(r.c_exact.at(3) == "0");
  CHECK(r.c_exact.at(4) == "16000/2401");
  // (44), exactly.
  REQUIRE(r.transversality_exact.size() == 3);
  CHECK(r.transversality_exact[0] == std::vector<std::string>{"1", "0", "0"});
  CHECK(r.transversality_exact[1] == std::vector<std::string>{"-16/7", "-16/7", "0"});
  CHECK(r.transversality_exact[2] == std::vector<std::string>{"-320/343", "192/49", "192/49"});
  CHECK(r.rank == 3);
  CHECK(r.versal);
  // (45): mu_0 = -2401/16000 x + 2401/64000 phi, mu_1 = 343/1000 y,
  // mu_2 = 91/125 x - 77/100 phi (first order; 2401/16000 = 1/c_4).
  CHECK(linear_part(r.normal_form[0]) == "-2401/16000*x 2401/64000*phi");
  CHECK(linear_part(r.normal_form[1]) == "343/1000*y");
  CHECK(linear_part(r.normal_form[2]) == "91/125*x -77/100*phi");
  CHECK(polynomial_text(r.normal_form[3], true) == "0");
  // (43) as printed (c1 = (-s1, 2 s1^2 + 2 s1^4)) is not degenerate at y = 1/4:
  // kappa1 = -4, (10): det J = 4 + -4... = -kappa1 - kappa2 - kappa1 kappa2 d = 4 - 4 + 4 = 4.
  CHECK_THAT(error_of([] { classify(example_445(2.0), kPoint445); }),
             Catch::Contains("is not degenerate: det J = 4 (eq. (10)"));
}

// ---- independent routes ----------------------------------------------------------------

TEST_CASE(
    "contact: the multinomial / Diophantine procedure equals the centre manifold solved as a series, exactly",
    "[testfunctions][contact]") {
  // All c_n (n <= 10), c_nm (n <= 9), k_n, k_nm of the paper's procedure
  // (Sec. 4.2.1-4.2.4) against the invariance equation (20) solved by a
  // fixed point on multivariate series, on the five examples, exactly.
  // Lyapunov-Schmidt (p^1 from the first equation of (16)) has the same zero
  // set, hence the same codimension and leading c_{z+1}, and the same c_0m, c_1m.
  ContactClassificationOptions options;
  auto jets_of = [&](const ExtremalProblem& p, const std::array<double, 5>& point) {
    const auto t1 = p.curve1->taylor(point[0], options.order + 2),
               t2 = p.curve2->taylor(point[1], options.order + 2);
    contact::CurveJet<Rational> j1, j2;
    for (std::size_t k = 0; k < t1.x.size(); ++k) {
      j1.x.push_back(t1.x[k]);
      j1.y.push_back(t1.y[k]);
      j2.x.push_back(t2.x[k]);
      j2.y.push_back(t2.y[k]);
    }
    return std::pair{j1, j2};
  };
  const int order = options.order + 2;
  std::vector<
      std::tuple<std::string, contact::CurveJet<Rational>, contact::CurveJet<Rational>, Rational, int>>
      cases;
  for (const auto& [name, problem, point, z] :
       {std::tuple{"4.4.1", example_441(), kOrigin, 1}, std::tuple{"4.4.2", example_442(), kOrigin, 2},
        std::tuple{"4.4.3", example_443(), kOrigin, 2}, std::tuple{"4.4.5", example_445(), kPoint445, 3}}) {
    auto [j1, j2] = jets_of(problem, point);
    cases.emplace_back(name, j1, j2, Rational(point[3]), z);
  }
  cases.emplace_back("4.4.4",
                     contact::curve_jet_from_curvature<Rational>(
                         {Rational(-1)}, order, {Rational(0), Rational(-1)}, {Rational(-1), Rational(0)}),
                     contact::curve_jet<Rational>(PolynomialGraph{.p = {0, 0, 1}}, Rational(0), order),
                     Rational(-1, 2), 2);
  for (const auto& [name, j1, j2, y0, z] : cases) {
    INFO("example " << name);
    const auto analysis = contact::analyse<Rational>(j1, j2, Rational(0), y0, 0.0, options);
    const auto paper = contact::reduced_coefficients(analysis, options.order, contact::Route::kPaper);
    const auto cm = contact::reduced_coefficients(analysis, options.order, contact::Route::kCentreManifold);
    const auto ls = contact::reduced_coefficients(analysis, options.order, contact::Route::kLyapunovSchmidt);
    REQUIRE(paper.c.size() == 9);
    REQUIRE(paper.cm.size() == 30);
    for (const auto& [n, v] : paper.c) {
      INFO("c_" << n);
      CHECK(v.str() == cm.c.at(n).str());
    }
    for (const auto& [k, v] : paper.cm) {
      INFO("c_" << k);
      CHECK(v.str() == cm.cm.at(k).str());
    }
    for (const auto& [n, v] : paper.k)
      if (n <= options.order - 1) CHECK(v.str() == cm.k.at(n).str());
    for (const auto& [k, v] : paper.km) CHECK(v.str() == cm.km.at(k).str());
    // Lyapunov-Schmidt.
    for (int n = 2; n <= z + 1; ++n) CHECK(ls.c.at(n).str() == paper.c.at(n).str());
    for (int m = 3; m <= 5; ++m)
      for (int n = 0; n <= 1; ++n)
        CHECK(ls.cm.at(std::to_string(n) + "," + std::to_string(m)).str() ==
              paper.cm.at(std::to_string(n) + "," + std::to_string(m)).str());
  }
}

// ---- solution counts --------------------------------------------------------------------

TEST_CASE(
    "contact: predicted solution counts agree with find_extremal_points (fold 0/2, cusp 1/3, swallowtail "
    "0/2/4)",
    "[testfunctions][contact]") {
  // Fold, (33): 0 = phi/3 + ... + p^2: two solutions for phi < 0, none for phi > 0.
  const auto fold = example_441();
  const ContactClassification f = classify(fold, kOrigin);
  for (const auto& [pose, expected] :
       {std::pair{Eigen::Vector3d(0.0, 0.0, -0.01), 2}, std::pair{Eigen::Vector3d(0.0, 0.0, 0.01), 0},
        std::pair{Eigen::Vector3d(0.01, 0.03, -0.004), 2},
        std::pair{Eigen::Vector3d(-0.01, 0.03, 0.004), 0}}) {
    INFO("fold, pose " << pose.transpose());
    CHECK(predicted_solution_count(f, pose) == expected);
    CHECK(direct_count(fold, pose, 0.3) == expected);
  }
  // Cusp, (42): 0 = -27/16 x + 27/32 phi + 9/4 (y + 1/2) p + p^3: one solution
  // above y = -1/2, three below (inside the cusp).
  const auto cusp = example_444();
  const ContactClassification c = classify(cusp, kPoint444);
  for (const auto& [pose, expected] :
       {std::pair{Eigen::Vector3d(0.0, -0.45, 0.0), 1}, std::pair{Eigen::Vector3d(0.0, -0.55, 0.0), 3},
        std::pair{Eigen::Vector3d(0.002, -0.53, 0.001), 3},
        std::pair{Eigen::Vector3d(0.02, -0.53, 0.0), 1}}) {
    INFO("cusp, pose " << pose.transpose());
    CHECK(predicted_solution_count(c, pose) == expected);
    CHECK(direct_count(cusp, pose, 0.5) == expected);
  }
  // Swallowtail, (45): with y = 1/4 (mu_1 ~ 0), choose mu_2 = -a < 0 and mu_0
  // = a^2 / 8 (four real roots of p^4 - a p^2 + a^2/8), -a^2/8 (two), a^2/2
  // (none), solving the linear parts of (45) for (x, phi).
  const auto tail = example_445();
  const ContactClassification s = classify(tail, kPoint445);
  const double A0 = -2401.0 / 16000, B0 = 2401.0 / 64000, A2 = 91.0 / 125, B2 = -77.0 / 100;
  for (double a : {0.01, 0.005}) {
    for (const auto& [fraction, expected] : {std::pair{0.125, 4}, std::pair{-0.125, 2}, std::pair{0.5, 0}}) {
      const double mu2 = -a, mu0 = fraction * a * a, det = A0 * B2 - B0 * A2;
      const Eigen::Vector3d pose((mu0 * B2 - B0 * mu2) / det, 0.25, (A0 * mu2 - mu0 * A2) / det);
      INFO("swallowtail, a = " << a << ", mu0 = " << mu0 << ", pose " << pose.transpose());
      CHECK(predicted_solution_count(s, pose) == expected);
      CHECK(direct_count(tail, pose, 0.3) == expected);
    }
  }
}

// ---- invariance under the free choices in P --------------------------------------------------

TEST_CASE(
    "contact: codimension, rank, bifurcation set and solution counts do not depend on the free choices in P",
    "[testfunctions][contact]") {
  std::vector<JordanChoice> choices;
  choices.push_back({});
  choices.push_back(JordanChoice::closed_forms_case1());
  JordanChoice a;
  a.v1_scale = -3.0;
  a.v2_scale = 0.5;
  a.v3_plus_v2 = 1.25;
  a.v3_plus_v4 = -0.75;
  a.v3_plus_v5 = 2.0;
  a.kernel_mix = {2.0, 1.0, -1.0, 0.5};
  a.v4_plus_v2 = 0.25;
  a.v5_plus_v2 = -1.5;
  choices.push_back(a);
  JordanChoice b;
  b.v2_scale = -2.0;
  b.kernel_mix = {0.0, 1.0, 1.0, 0.0};  // v4 and v5 swapped
  b.v3_plus_v5 = 0.5;
  choices.push_back(b);
  struct Case {
    std::string name;
    ExtremalProblem problem;
    std::array<double, 5> point;
    std::vector<std::pair<Eigen::Vector3d, int>> poses;  // (pose, direct count)
    double half_width;
  };
  const std::vector<Case> cases = {
      {"4.4.1 (fold)", example_441(), kOrigin, {{{0.0, 0.0, -0.01}, 2}, {{0.0, 0.0, 0.01}, 0}}, 0.3},
      {"4.4.3 (cusp)", example_443(), kOrigin, {{{0.003, 0.0, 0.0}, 3}, {{-0.003, 0.0, 0.0}, 1}}, 0.2},
      {"4.4.4 (cusp)", example_444(), kPoint444, {{{0.0, -0.45, 0.0}, 1}, {{0.0, -0.55, 0.0}, 3}}, 0.5},
      {"4.4.5 (swallowtail)",
       example_445(),
       kPoint445,
       {{{0.00414262, 0.25, 0.0169037}, 4},
        {{0.00436078, 0.25, 0.0171099}, 2},
        {{0.00381537, 0.25, 0.0165943}, 0}},
       0.3}};
  for (const Case& cs : cases) {
    const ContactClassification base = classify(cs.problem, cs.point);
    for (std::size_t i = 0; i < choices.size() + 1; ++i) {
      ContactClassificationOptions options;
      if (i < choices.size()) {
        options.jordan = choices[i];
      } else {
        options.arclength = false;  // another free choice: the curve parameters themselves
      }
      INFO(cs.name << ", choice " << i);
      const ContactClassification r = classify(cs.problem, cs.point, options);
      CHECK(r.codimension == base.codimension);
      CHECK(r.rank == base.rank);
      CHECK(r.versal == base.versal);
      CHECK(r.type == base.type);
      // c_{z+1} scales with v2_scale^z (p^2 -> v2_scale p^2), nothing else.
      const int z = base.codimension;
      if (options.arclength)
        CHECK(r.c.at(z + 1) ==
              Approx(std::pow(options.jordan.v2_scale, z) * base.c.at(z + 1)).epsilon(1e-12));
      for (const auto& [pose, count] : cs.poses) {
        INFO("pose " << pose.transpose());
        CHECK(predicted_solution_count(r, pose) == count);
      }
    }
    for (const auto& [pose, count] : cs.poses) CHECK(direct_count(cs.problem, pose, cs.half_width) == count);
  }
  // The bifurcation set: the fold of the cusp (40) at y = -0.52 (phi = 0) lies
  // at x = 0.04 s - 2 s^3, s = sqrt(0.04/6) (tests/models/extremal.test.cpp: x
  // = -s (1 + 2y) - 2 s^3 and dx/ds = 0); each normal form puts it there (its
  // discriminant changes sign), to the accuracy of the 3-jet.
  const double s_fold = std::sqrt(0.04 / 6.0), x_fold = 0.04 * s_fold - 2 * std::pow(s_fold, 3);
  for (std::size_t i = 0; i < choices.size(); ++i) {
    ContactClassificationOptions options;
    options.jordan = choices[i];
    const ContactClassification r = classify(example_444(), kPoint444, options);
    auto count = [&](double x) { return predicted_solution_count(r, Eigen::Vector3d(x, -0.52, 0.0)); };
    double lo = 0.0, hi = 2 * x_fold;  // 3 solutions at lo, 1 at hi
    REQUIRE(count(lo) == 3);
    REQUIRE(count(hi) == 1);
    for (int it = 0; it < 50; ++it) (count(0.5 * (lo + hi)) == 3 ? lo : hi) = 0.5 * (lo + hi);
    INFO("choice " << i);
    CHECK(lo == Approx(x_fold).epsilon(0.03));
  }
}

// ---- closed forms (26)-(30) ---------------------------------------------------------------

TEST_CASE("contact: closed forms (26)-(28), vanishing curvature, against the general procedure",
          "[testfunctions][contact]") {
  // Curves given by their curvature jets (exact): kappa_j = 0, derivatives
  // 1..N-2 zero (the stated condition), the rest pseudo-random integers.
  ContactClassificationOptions options;
  options.order = 8;
  std::mt19937 rng(26);
  std::uniform_int_distribution<int> pick(-5, 5);
  for (int n = 2; n <= 6; ++n) {
    for (double d : {0.0, 3.0}) {
      std::vector<Rational> k1(options.order + 1, Rational(0)), k2(options.order + 1, Rational(0));
      for (int i = std::max(n - 1, 1); i <= options.order; ++i) {
        k1[i] = Rational(pick(rng));
        k2[i] = Rational(pick(rng));
      }
      const int order = options.order + 2;
      const auto j1 = contact::curve_jet_from_curvature<Rational>(
          taylor_from_derivatives(k1), order, {Rational(0), Rational(0)}, {Rational(-1), Rational(0)});
      const auto j2 = contact::curve_jet_from_curvature<Rational>(
          taylor_from_derivatives(k2), order, {Rational(0), Rational(0)}, {Rational(1), Rational(0)});
      const std::vector<double> d1 = to_doubles(k1), d2 = to_doubles(k2);
      INFO("N = " << n << ", d = " << d << ", kappa1 " << Catch::Detail::stringify(d1) << ", kappa2 "
                  << Catch::Detail::stringify(d2));
      const auto base = contact::reduced_coefficients(
          contact::analyse<Rational>(j1, j2, Rational(0), Rational(d), 0.0, options), options.order,
          contact::Route::kPaper);
      // (26) in the default basis (and in any basis with p^2 = sigma2 to first order).
      CHECK(static_cast<double>(base.c.at(n)) ==
            Approx(closed_form_26(d1, d2, n)).epsilon(1e-14).margin(1e-15));
      // (27), (28) hold as printed (N >= 3) in the mirror basis.
      ContactClassificationOptions mirror = options;
      mirror.jordan = JordanChoice::closed_forms_case1();
      const auto m = contact::reduced_coefficients(
          contact::analyse<Rational>(j1, j2, Rational(0), Rational(d), 0.0, mirror), options.order,
          contact::Route::kPaper);
      const std::string key3 = std::to_string(n) + ",3", key4 = std::to_string(n) + ",4",
                        key5 = std::to_string(n) + ",5";
      CHECK(static_cast<double>(m.c.at(n)) == Approx(closed_form_26(d1, d2, n)).epsilon(1e-14).margin(1e-15));
      if (n >= 3) {
        CHECK(static_cast<double>(m.cm.at(key3)) ==
              Approx(closed_form_27(d1, d2, n)).epsilon(1e-14).margin(1e-15));
        CHECK(static_cast<double>(m.cm.at(key4)) ==
              Approx(closed_form_28(d2, n)).epsilon(1e-14).margin(1e-15));
        CHECK(m.cm.at(key4) == m.cm.at(key5));
      }
      CHECK(base.cm.at(key4) == base.cm.at(key5));  // y does not enter at this order
    }
  }
  // The default basis under the stricter condition (derivatives 1..N-1 zero,
  // so c_2 .. c_N = 0): c_N3 = 0 and c_N4 = c_N5 = (-1)^N kappa1^(N) / N!
  // (the mirror image of (28): body 2's contact point is held instead of body 1's).
  for (int n = 2; n <= 6; ++n) {
    std::vector<Rational> k1(options.order + 1, Rational(0)), k2(options.order + 1, Rational(0));
    for (int i = n; i <= options.order; ++i) {
      k1[i] = Rational(pick(rng) + 7);
      k2[i] = Rational(pick(rng));
    }
    const int order = options.order + 2;
    const auto r = contact::reduced_coefficients(
        contact::analyse<Rational>(
            contact::curve_jet_from_curvature<Rational>(
                taylor_from_derivatives(k1), order, {Rational(0), Rational(0)}, {Rational(-1), Rational(0)}),
            contact::curve_jet_from_curvature<Rational>(
                taylor_from_derivatives(k2), order, {Rational(0), Rational(0)}, {Rational(1), Rational(0)}),
            Rational(0), Rational(0), 0.0, options),
        options.order, contact::Route::kPaper);
    Rational factorial(1);
    for (int i = 2; i <= n; ++i) factorial = factorial * Rational(i);
    INFO("N = " << n);
    CHECK(r.cm.at(std::to_string(n) + ",3") == Rational(0));
    CHECK(r.cm.at(std::to_string(n) + ",4") == (n % 2 == 0 ? k1[n] : -k1[n]) / factorial);
  }
}

TEST_CASE("contact: closed forms (29), (30), concentric osculating circles: printed vs corrected",
          "[testfunctions][contact]") {
  // kappa1 = -1 (concave), kappa2 = 2, d = -(kappa1 + kappa2) / (kappa1 kappa2)
  // = 1/2; derivatives 1..N-2 zero (the stated condition), the rest random.
  ContactClassificationOptions options;
  options.order = 8;
  std::mt19937 rng(29);
  std::uniform_int_distribution<int> pick(-5, 5);
  for (int n = 3; n <= 6; ++n) {
    std::vector<Rational> k1(options.order + 1, Rational(0)), k2(options.order + 1, Rational(0));
    k1[0] = Rational(-1);
    k2[0] = Rational(2);
    for (int i = n - 1; i <= options.order; ++i) {
      k1[i] = Rational(pick(rng));
      k2[i] = Rational(pick(rng));
    }
    if (k1[n].is_zero()) k1[n] = Rational(3);
    const int order = options.order + 2;
    const auto j1 = contact::curve_jet_from_curvature<Rational>(
        taylor_from_derivatives(k1), order, {Rational(0), Rational(0)}, {Rational(-1), Rational(0)});
    const auto j2 = contact::curve_jet_from_curvature<Rational>(
        taylor_from_derivatives(k2), order, {Rational(0), Rational(0)}, {Rational(1), Rational(0)});
    const auto r = contact::reduced_coefficients(
        contact::analyse<Rational>(j1, j2, Rational(0), Rational(1, 2), 0.0, options), options.order,
        contact::Route::kPaper);
    const std::vector<double> d1 = to_doubles(k1), d2 = to_doubles(k2);
    INFO("N = " << n << ", kappa1 " << Catch::Detail::stringify(d1) << ", kappa2 "
                << Catch::Detail::stringify(d2));
    const double cn = static_cast<double>(r.c.at(n)),
                 cn5 = static_cast<double>(r.cm.at(std::to_string(n) + ",5"));
    CHECK(cn == Approx(closed_form_29_corrected(d1, d2, n)).epsilon(1e-13));
    CHECK(cn5 == Approx(closed_form_30_corrected(d1, d2, n)).epsilon(1e-13));
    // The printed forms differ: (kappa1 + kappa2)^N = 1 instead of (kappa1 + kappa2^2)^N = 3^N (and the sign
    // in (30)).
    if (cn != 0.0) CHECK(closed_form_29(d1, d2, n) == Approx(cn * std::pow(3.0, n)).epsilon(1e-12));
    CHECK(closed_form_30(d1, d2, n) == Approx(-cn5 * std::pow(3.0, n)).epsilon(1e-12));
  }
  // On the examples: (29') gives c_3 = 16/27 for (40) (kappa2'' = -24; the
  // printed (29) gives 16), (30') gives c_25 = 192/49 of (44) (kappa1'' = -24
  // for (43); the printed (30) gives -192).
  const ContactClassification r444 = classify_444_exact();
  CHECK(closed_form_29_corrected({-1, 0, 0}, {2, 0, -24}, 3) == Approx(16.0 / 27.0).epsilon(1e-14));
  CHECK(closed_form_29({-1, 0, 0}, {2, 0, -24}, 3) == Approx(16.0).epsilon(1e-14));
  CHECK(r444.c.at(3) == Approx(16.0 / 27.0).epsilon(1e-15));
  const auto k445 = example_445().curve1->curvature_derivatives(0.0, 3);
  CHECK(k445[2] == Approx(-24.0).epsilon(1e-12));
  CHECK(closed_form_30_corrected(k445, {4, 0, 0}, 2) == Approx(192.0 / 49.0).epsilon(1e-12));
  CHECK(closed_form_30(k445, {4, 0, 0}, 2) == Approx(-192.0).epsilon(1e-12));
}

// ---- exactness and bad input --------------------------------------------------------------

TEST_CASE("contact: exact rationals through the same templated code, and when the data are not exact",
          "[testfunctions][contact]") {
  // The shape overload on polynomial shapes: exact.
  const ContactClassification r = classify(ParametricPolynomial{.x = {0, -1}, .y = {0, 0, 1, 0, 2}},
                                           PolynomialGraph{.p = {0, 0, 2, 0, 24, 50}}, kPoint445);
  REQUIRE(r.exact);
  CHECK(r.transversality_exact[1][0] == "-16/7");
  CHECK(r.transversality_exact[2][1] == "192/49");
  CHECK(r.transversality_matrix[2][1] == Approx(192.0 / 49.0).epsilon(1e-15));
  CHECK(r.cm_exact.at("1,4") == "-16/7");
  // Coefficients that are not short dyadics (0.1): doubles only, and it says why.
  const auto rounded = make_extremal_problem(ParametricPolynomial{.x = {0, -1}, .y = {0, 0, 0, -0.1, -1}},
                                             ParametricPolynomial{.x = {0, 1}, .y = {0, 0, 0, 0.1}});
  const ContactClassification d = classify(rounded, kOrigin);
  CHECK(!d.exact);
  CHECK_THAT(d.exact_note, Catch::Contains("not a short dyadic"));
  CHECK(d.codimension == 2);  // (26): c_2 = (-kappa1' + kappa2')/2 = (-0.6 + 0.6)/2 = 0, c_3 = (24 + 0)/6 = 4
  CHECK(d.c.at(3) == Approx(4.0).epsilon(1e-12));
  // A circle's jet on rationals passes through continuation/taylor.h's cos
  // recurrence, which divides by k after the product (exact on rationals).
  // (Body 1: the unit hole through (1, 0); body 2: the parabola x = -s^2
  // through its tip at x = 1/2, d = 1/2.)
  const ContactClassification c =
      classify(Circle{.radius = 1.0, .orientation = -1}, ParametricPolynomial{.x = {0, 0, -1}, .y = {0, 1}},
               {0, 0, 0.5, 0, 0});
  CHECK(c.codimension == 2);
  CHECK(c.c.at(3) == Approx(16.0 / 27.0).epsilon(1e-12));
  CHECK(c.exact);
  CHECK(c.c_exact.at(3) == "16/27");
  // options.exact = false: doubles only.
  ContactClassificationOptions no_exact;
  no_exact.exact = false;
  const ContactClassification e = classify(example_445(), kPoint445, no_exact);
  CHECK(!e.exact);
  CHECK(e.c.at(4) == Approx(16000.0 / 2401.0).epsilon(1e-12));
}

TEST_CASE("contact: bad input: non-degenerate point, order too low, bad options, not an extremal point",
          "[testfunctions][contact]") {
  // A non-degenerate point says so, with det (10).
  const std::string nondegenerate = error_of([] { classify(example_445(), {0, 0, 0, 0.5, 0}); });
  CHECK_THAT(nondegenerate, Catch::Contains("is not degenerate: det J = 2 (eq. (10)"));
  CHECK_THAT(nondegenerate, Catch::Contains("kappa1 = -2, kappa2 = 4, d = 0.5"));
  // Not an extremal point at all.
  CHECK_THAT(error_of([] {
               classify(example_441(), {0, 0, 0.1, 0, 0});
             }),
             Catch::Contains("not an extremal point: |f|_inf = 0.1"));
  // An order too low to decide: a status with "codimension > N-1".
  ContactClassificationOptions low;
  low.order = 3;
  const ContactClassification u = classify(example_445(), kPoint445, low);
  CHECK(u.status == ClassificationStatus::kCodimensionUndecided);
  CHECK(u.codimension == 0);
  CHECK_THAT(u.message, Catch::StartsWith("codimension > 2: c_2 .. c_3 all vanish"));
  CHECK_THAT(error_of([&] { predicted_solution_count(u, {0, 0.25, 0}); }), Catch::Contains("undecided"));
  // Two congruent flat arcs (c1(-s) = c2(s)): all c_n vanish.
  const auto flat = make_extremal_problem(ParametricPolynomial{.x = {0, -1}, .y = {0, 0, 0, -1, 1.5}},
                                          ParametricPolynomial{.x = {0, 1}, .y = {0, 0, 0, 1, 1.5}});
  CHECK_THAT(classify(flat, kOrigin).message, Catch::StartsWith("codimension > 9"));
  // Bad options name the field.
  ContactClassificationOptions bad;
  bad.order = 1;
  CHECK_THAT(error_of([&] { classify(example_441(), kOrigin, bad); }),
             Catch::Contains("order = 1 must be in 2..40"));
  bad = {};
  bad.truncation_order = 0;
  CHECK(bad.check() == "ContactClassificationOptions: truncation_order = 0 must be in 1..12");
  bad = {};
  bad.zero_tolerance = -1;
  CHECK_THAT(bad.check(), Catch::Contains("zero_tolerance = -1 must be finite and >= 0"));
  bad = {};
  bad.jordan.v2_scale = 0;
  CHECK(bad.check() == "ContactClassificationOptions: jordan: v2_scale = 0 must be nonzero");
  bad = {};
  bad.jordan.kernel_mix = {1, 2, 2, 4};
  CHECK_THAT(bad.check(), Catch::Contains("kernel_mix has determinant 0"));
  // A non-regular curve point.
  const auto cusp = make_extremal_problem(
      ParametricPolynomial{.x = {0.25, -1, 1}, .y = {-0.125, 0.75, -1.5, 1}, .name = "cusp"}, Circle{});
  CHECK_THAT(error_of([&] {
               classify(cusp, {0.5, 0, 2, 0, 0});
             }),
             Catch::Contains("curve 'cusp' is not regular at the point"));
}
