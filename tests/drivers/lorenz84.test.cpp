#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "models/expression_system.h"
#include "run_cli.h"
#include "testfunctions/hopf.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace saltus;
using namespace saltus::testing;

namespace {

// The extended Lorenz-84 model with (alpha, beta, gamma, delta, G) fixed;
// u = (X, Y, Z, U, F, T).
std::shared_ptr<System> lorenz84() {
  return models::make_expression_system(
      {"X", "Y", "Z", "U"}, {"F", "T", "alpha", "beta", "gamma", "delta", "G"},
      {"-Y^2 - Z^2 - alpha*X + alpha*F - gamma*U^2", "X*Y - beta*X*Z - Y + G", "beta*X*Y + X*Z - Z",
       "-delta*U + gamma*U*X + T"});
}

Vector full(const Vector& z, double G = 0.25) {  // (X, Y, Z, U, F, T) -> u with the fixed parameters
  Vector u(11);
  u << z, 0.25, 1.0, 0.987, 1.04, G;
  return u;
}

// The coefficients c_0 .. c_3 of det(lambda I - A) = lambda^4 + c3 lambda^3 +
// c2 lambda^2 + c1 lambda + c0, by the Faddeev-LeVerrier recurrence (exact
// algebra on A, no eigenvalues): M_k = A M_{k-1} + c_{n-k+1} I,
// c_{n-k} = -tr(A M_k) / k.
Vector characteristic(const Matrix& A) {
  const int n = static_cast<int>(A.rows());
  Vector c = Vector::Zero(n + 1);
  c[n] = 1.0;
  Matrix M = Matrix::Zero(n, n);
  for (int k = 1; k <= n; ++k) {
    M = A * M + c[n - k + 1] * Matrix::Identity(n, n);
    c[n - k] = -(A * M).trace() / k;
  }
  return c;
}

// Newton with a central-difference Jacobian (tests only) on G: R^m -> R^m.
Vector solve(const std::function<Vector(const Vector&)>& G, Vector z) {
  const int m = static_cast<int>(z.size());
  for (int it = 0; it < 50; ++it) {
    const Vector g = G(z);
    if (g.lpNorm<Eigen::Infinity>() < 1e-13) return z;
    Matrix J(m, m);
    for (int j = 0; j < m; ++j) {
      const double h = 1e-7 * (1 + std::abs(z[j]));
      Vector up = z, down = z;
      up[j] += h, down[j] -= h;
      J.col(j) = (G(up) - G(down)) / (2 * h);
    }
    z -= J.fullPivLu().solve(g);
  }
  FAIL("Newton on the defining conditions did not converge");
  return z;
}

// G(z) = (F(x, p), two conditions on A = F_x and u), for solve().
std::function<Vector(const Vector&)> equilibrium_and(
    std::function<std::pair<double, double>(const Matrix& A, const Vector& u)> two, double G = 0.25) {
  const auto system = lorenz84();
  return [system, two, G](const Vector& z) {
    const Vector u = full(z, G);
    Vector g(6);
    g.head(4) = system->residual(u);
    const auto [a, b] = two(system->jacobian(u).leftCols(4), u);
    g[4] = a, g[5] = b;
    return g;
  };
}

// The located point of the given type and branch: (X, Y, Z, U, F, T).
std::vector<Vector> located(const json& summary, const std::string& type, const std::string& branch) {
  std::vector<Vector> out;
  for (const auto& s : summary["special_points"])
    if (s["type"] == type && s["branch"] == branch && s["status"] == "located") {
      Vector z(6);
      z << s["state"]["X"], s["state"]["Y"], s["state"]["Z"], s["state"]["U"], s["parameters"]["F"],
          s["parameters"]["T"];
      out.push_back(z);
    }
  return out;
}

// Each located point against the solution of its defining conditions,
// started a little off the located point (so Newton does the finding).
void check_against(const std::vector<Vector>& points, const std::function<Vector(const Vector&)>& G,
                   double tolerance = 1e-8) {
  REQUIRE(!points.empty());
  for (const Vector& z : points) {
    const Vector reference = solve(G, z + 1e-4 * Vector::Ones(z.size()));
    CAPTURE(z.transpose(), reference.transpose());
    CHECK((z - reference).lpNorm<Eigen::Infinity>() < tolerance);
  }
}

// The HH and GH points of the Hopf curve against their conditions (below).
void check_hh_and_gh(const json& summary) {
  auto c = [](const Matrix& A) { return characteristic(A); };
  check_against(located(summary, "HH", "hopf_curve"), equilibrium_and([&](const Matrix& A, const Vector&) {
                  return std::pair{c(A)[3], c(A)[1]};
                }));
  const auto system = lorenz84();
  check_against(
      located(summary, "GH", "hopf_curve"), equilibrium_and([&](const Matrix& A, const Vector& u) {
        const Vector k = c(A);
        return std::pair{k[1] * k[1] - k[1] * k[2] * k[3] + k[0] * k[3] * k[3], hopf_point(*system, u).l1};
      }));
  // The symmetry (U, T) -> (-U, -T) (an orthogonal change of coordinates, so
  // one that keeps <q, q> = 1) maps each GH onto the other: their l2 agree.
  // (No published value to check it against: MatCont's and BifurcationKit's
  // tutorials print the GH points without l2; saltus gives l2 = 0.2257.)
  std::vector<double> l2;
  for (const auto& s : summary["special_points"])
    if (s["type"] == "GH" && s["status"] == "located") l2.push_back(s["l2"].get<double>());
  REQUIRE(!l2.empty());  // both on the curve from the HB, one on the curve from the BT
  for (const double l : l2) CHECK(std::abs(l - l2[0]) < 1e-9 * std::abs(l2[0]));
}

}  // namespace

// The codimension-2 points of the extended Lorenz-84 model in (F, T), each
// against the equilibrium plus its conditions on the characteristic
// polynomial det(lambda I - A) = lambda^4 + c3 lambda^3 + c2 lambda^2 + c1 lambda + c0:
//   BT: a double zero eigenvalue, c0 = c1 = 0;
//   ZH: a zero eigenvalue (c0 = 0) and the cubic factor lambda^3 + c3 lambda^2
//       + c2 lambda + c1 with roots +-i w: c1 = c3 c2 (and c2 > 0);
//   HH: two imaginary pairs, (lambda^2 + w1^2)(lambda^2 + w2^2): c3 = c1 = 0;
//   GH: a Hopf point, p(i w) = 0 for real w: w^2 = c1/c3 and
//       c1^2 - c1 c2 c3 + c0 c3^2 = 0, with l1 = 0;
//   CP: the system is symmetric under (U, T) -> (-U, -T), and on T = 0 the
//       imperfect pitchfork of U (U' = (gamma X - delta) U + T) is a cusp of
//       the fold curve: T = U = 0, X = delta / gamma, the other three
//       equations fixing (Y, Z, F).
TEST_CASE("examples/lorenz84.json: BT, CP, GH, ZH and HH against their defining algebraic conditions",
          "[cli][hopf-curve][lorenz84]") {
  const json summary = continue_json(example("lorenz84.json"), scratch("lorenz84"));
  auto c = [](const Matrix& A) { return characteristic(A); };

  const auto bt = equilibrium_and([&](const Matrix& A, const Vector&) {
    return std::pair{c(A)[0], c(A)[1]};
  });
  check_against(located(summary, "BT", "hopf_curve"), bt);
  check_against(located(summary, "BT", "fold_curve"), bt);
  check_against(located(summary, "ZH", "fold_curve"), equilibrium_and([&](const Matrix& A, const Vector&) {
                  const Vector k = c(A);
                  return std::pair{k[0], k[1] - k[3] * k[2]};
                }));
  check_hh_and_gh(summary);
  const auto system = lorenz84();
  const auto cp = located(summary, "CP", "fold_curve");
  REQUIRE(cp.size() == 1);
  const Vector reference = solve(
      [&](const Vector& z) {
        Vector g(6);
        g.head(3) =
            system->residual(full(z)).head(3);  // the fourth holds for any U once T = 0, X = delta/gamma
        g[3] = z[3], g[4] = z[5], g[5] = z[0] - 1.04 / 0.987;  // U = T = 0, X = delta / gamma
        return g;
      },
      cp[0] + 1e-4 * Vector::Ones(6));
  CHECK((cp[0] - reference).lpNorm<Eigen::Infinity>() < 1e-8);
}

// The Hopf curve started at the fold curve's BT ("from_bt") goes into the
// Hopf side (lambda_a lambda_b > 0 from its second point on), and meets the
// GH and HH that the curve from the HB meets, each against its conditions.
TEST_CASE("examples/lorenz84.json: the Hopf curve from the fold curve's BT", "[cli][hopf-curve][lorenz84]") {
  const fs::path dir = scratch("lorenz84-bt");
  fs::create_directories(dir);
  json run = json::parse(std::ifstream(example("lorenz84.json")));
  run["hopf_curve"].erase("from");
  run["hopf_curve"]["from_bt"] = 1;
  std::ofstream(dir / "run.json") << run.dump();
  const json summary = continue_json(dir / "run.json", dir / "out");
  const auto bt = located(summary, "BT", "fold_curve");
  REQUIRE(!bt.empty());
  // The first point of the Hopf curve is the BT; the second has a complex pair.
  std::ifstream csv(dir / "out" / "hopf_curve.csv");
  std::string header, first, second;
  std::getline(csv, header), std::getline(csv, first), std::getline(csv, second);
  auto field = [&header](const std::string& row, const std::string& name) {
    std::vector<std::string> names, values;
    std::stringstream h(header), r(row);
    for (std::string s; std::getline(h, s, ',');) names.push_back(s);
    for (std::string s; std::getline(r, s, ',');) values.push_back(s);
    return std::stod(values.at(std::find(names.begin(), names.end(), name) - names.begin()));
  };
  CHECK(std::abs(field(first, "F") - bt[0][4]) < 1e-12);
  CHECK(std::abs(field(first, "T") - bt[0][5]) < 1e-12);
  CHECK(field(second, "test_BT") > 0);
  check_hh_and_gh(summary);
  // from_bt without a fold curve in the same parameters is a clear error.
  run.erase("fold_curve");
  std::ofstream(dir / "bad.json") << run.dump();
  const Run r = run_saltus({"continue", (dir / "bad.json").string(), "--out", (dir / "bad").string()});
  CHECK(r.code != 0);
  CHECK_THAT(r.err, Catch::Contains("'hopf_curve.from_bt' starts from a BT of the fold curve"));
  fs::remove_all(dir);
}

namespace {

// examples/lorenz84.json with G and T set, its branch in F from F = 3.5 down
// (X near F) and the Hopf curve from the n-th HB of it, in a direction (no
// fold curve): the summary.
json hopf_curve_run(double G, double T, int from, int direction, const fs::path& dir) {
  json run = json::parse(std::ifstream(example("lorenz84.json")));
  run["parameters"]["G"] = G;
  run["parameters"]["T"] = T;
  run["parameters"]["F"] = 3.5;
  run["start"] = {{"X", 3.4}, {"Y", 0.0}, {"Z", 0.05}, {"U", 0.0}};
  run["continuation"]["bounds"] = {{"F", {-1.5, 3.5}}};
  run["continuation"]["direction"] = -1;
  run.erase("fold_curve");
  run["hopf_curve"]["from"] = from;
  run["hopf_curve"]["direction"] = direction;
  fs::create_directories(dir);
  std::ofstream(dir / "run.json") << run.dump();
  return continue_json(dir / "run.json", dir / "out");
}

// The distinct points among `points` (closer than 1e-6 are one).
std::size_t distinct(const std::vector<Vector>& points) {
  std::vector<Vector> seen;
  for (const Vector& z : points)
    if (std::none_of(seen.begin(), seen.end(), [&](const Vector& s) { return (s - z).norm() < 1e-6; }))
      seen.push_back(z);
  return seen.size();
}

}  // namespace

// The Hopf curves of Lorenz-84 at the example's G = 0.25 and at G = 0.2, from
// the HB of the branch at T = 0.0001265 both ways and from an HB at T = 0.06
// back down: the curve of the pair of frequency ~1.1 runs through its ZH (G =
// 0.25) and its HH from both sides, the curve of the other pair through its
// GH, HH and its two BT (on either side of its neutral saddles). Every
// codimension-2 point is located (arclength bracket <= 1e-10) and satisfies
// its defining conditions (the previous test's, at this G) to 1e-10 (they
// agree to 9e-14); a GH has a finite l2. Before: the same HH 'bracketed'
// from one side (precision 8.6e-5, the bialternate system singular there),
// an HH located as a jump 2e-4 off at G = 0.2 (the step's far end misplaced
// in the bracket), and GH 'bracketed' with l2 ~ 1e13 next to each ZH (a
// pole of l1).
TEST_CASE("Lorenz-84: Hopf curves through ZH, HH and GH and into BT, either way, at G = 0.25 and 0.2",
          "[cli][hopf-curve][lorenz84]") {
  struct Case {
    double T;
    int from, direction;
  };
  struct Expected {
    double G;
    std::vector<Case> cases;
    std::size_t bt, zh, hh, gh;  // distinct points over the runs
  };
  const std::vector<Expected> sets = {
      {0.25, {{0.0001265, 1, 1}, {0.0001265, 1, -1}, {0.0001265, 2, -1}, {0.06, 1, -1}}, 2, 2, 2, 2},
      {0.2, {{0.0001265, 1, 1}, {0.0001265, 1, -1}, {0.0001265, 2, -1}, {0.06, 3, -1}}, 2, 0, 2, 4}};
  const fs::path dir = scratch("lorenz84-either-way");
  auto c = [](const Matrix& A) { return characteristic(A); };
  const auto system = lorenz84();
  for (const auto& set : sets) {
    std::map<std::string, std::vector<Vector>> found;
    int run = 0;
    for (const auto& k : set.cases) {
      INFO("G = " << set.G << ", T = " << k.T << ", from HB" << k.from << ", direction " << k.direction);
      const json summary = hopf_curve_run(set.G, k.T, k.from, k.direction, dir / std::to_string(run++));
      for (const auto& s : summary["special_points"]) {
        if (s["branch"] != "hopf_curve" || s["type"] == "EP") continue;
        INFO(s.dump());
        CHECK(s["status"] == "located");
        CHECK(s["precision"].get<double>() <= 1e-10);
        if (s["type"] == "GH") {
          CHECK(std::isfinite(s["l2"].get<double>()));
          CHECK(std::abs(s["l2"].get<double>()) < 10);
        }
        Vector z(6);
        z << s["state"]["X"], s["state"]["Y"], s["state"]["Z"], s["state"]["U"], s["parameters"]["F"],
            s["parameters"]["T"];
        found[s["type"].get<std::string>()].push_back(z);
      }
    }
    INFO("G = " << set.G);
    CHECK(distinct(found["BT"]) == set.bt);
    CHECK(distinct(found["ZH"]) == set.zh);
    CHECK(distinct(found["HH"]) == set.hh);
    CHECK(distinct(found["GH"]) == set.gh);
    CHECK(found["HH"].size() == 3 * set.hh);  // on one curve both ways, and on the other pair's
    const double G = set.G;
    if (set.bt)
      check_against(found["BT"],
                    equilibrium_and(
                        [&](const Matrix& A, const Vector&) {
                          return std::pair{c(A)[0], c(A)[1]};
                        },
                        G),
                    1e-10);
    if (set.zh)
      check_against(found["ZH"],
                    equilibrium_and(
                        [&](const Matrix& A, const Vector&) {
                          const Vector k = c(A);
                          return std::pair{k[0], k[1] - k[3] * k[2]};
                        },
                        G),
                    1e-10);
    check_against(found["HH"],
                  equilibrium_and(
                      [&](const Matrix& A, const Vector&) {
                        return std::pair{c(A)[3], c(A)[1]};
                      },
                      G),
                  1e-10);
    check_against(found["GH"],
                  equilibrium_and(
                      [&](const Matrix& A, const Vector& u) {
                        const Vector k = c(A);
                        return std::pair{k[1] * k[1] - k[1] * k[2] * k[3] + k[0] * k[3] * k[3],
                                         hopf_point(*system, u).l1};
                      },
                      G),
                  1e-10);
  }
  fs::remove_all(dir);
}

namespace {

// The classical Lorenz-84 model (Lorenz 1984; Shil'nikov, Nicolis & Nicolis,
// Int. J. Bifurcation Chaos 5 (1995) 1701), a = 0.25, b = 4, in (F, G):
// X' = -Y^2 - Z^2 - a X + a F, Y' = X Y - b X Z - Y + G, Z' = b X Y + X Z - Z.
// Its equilibria are Y = -G (X - 1) / D, Z = G b X / D, F = X + G^2 / (a D),
// D = (X - 1)^2 + b^2 X^2: the branch in F starts at X = 0 exactly.
json lorenz84_3d_run(double G, int direction, const fs::path& dir) {
  const double a = 0.25, b = 4.0, D = 1.0;  // X = 0
  json run = {{"unknowns", {"X", "Y", "Z"}},
              {"parameters", {{"F", G * G / (a * D)}, {"G", G}, {"a", a}, {"b", b}}},
              {"equations", {"-Y^2 - Z^2 - a*X + a*F", "X*Y - b*X*Z - Y + G", "b*X*Y + X*Z - Z"}},
              {"start", {{"X", 0.0}, {"Y", G / D}, {"Z", 0.0}}},
              {"equilibria", true},
              {"continuation",
               {{"parameter", "F"},
                {"direction", 1},
                {"ds", 0.005},
                {"ds_max", 0.02},
                {"max_points", 3000},
                {"event_tolerance", 1e-12},
                {"bounds", {{"F", {-1, 40}}, {"X", {-0.5, 5}}}}}},
              {"hopf_curve",
               {{"from", 1},
                {"parameters", {"F", "G"}},
                {"direction", direction},
                {"ds", 0.005},
                {"ds_max", 0.05},
                {"max_points", 3000},
                {"bounds", {{"F", {-1, 20}}, {"G", {0.5, 3}}}}}}};
  fs::create_directories(dir);
  std::ofstream(dir / "run.json") << run.dump();
  return continue_json(dir / "run.json", dir / "out");
}

}  // namespace

// The Hopf curve of the three-dimensional Lorenz-84 through its zero-Hopf
// point, upwards in G from the HB at G = 1 and downwards from the HB at G =
// 2.5: the ZH (eigenvalues 0 and +-i omega: det A = 0 and tr A = 0, the
// characteristic polynomial lambda^3 + omega^2 lambda) located both ways,
// and no GH there (before: 'GH bracketed', l2 ~ 1e14 to 9e14, next to it).
TEST_CASE("Lorenz-84 in three dimensions: its ZH either way along the Hopf curve, and no GH at it",
          "[cli][hopf-curve][lorenz84]") {
  const auto system =
      models::make_expression_system({"X", "Y", "Z"}, {"F", "G", "a", "b"},
                                     {"-Y^2 - Z^2 - a*X + a*F", "X*Y - b*X*Z - Y + G", "b*X*Y + X*Z - Z"});
  const fs::path dir = scratch("lorenz84-3d");
  std::vector<Vector> zh;
  for (const auto& [G, direction] : std::vector<std::pair<double, int>>{{1.0, 1}, {2.5, -1}}) {
    INFO("from the HB at G = " << G << ", direction " << direction);
    const json summary = lorenz84_3d_run(G, direction, dir / std::to_string(direction));
    std::vector<std::string> types;
    for (const auto& s : summary["special_points"]) {
      if (s["branch"] != "hopf_curve" || s["type"] == "EP") continue;
      INFO(s.dump());
      types.push_back(s["type"]);
      CHECK(s["status"] == "located");
      CHECK(s["precision"].get<double>() <= 1e-10);
      Vector z(5);
      z << s["state"]["X"], s["state"]["Y"], s["state"]["Z"], s["parameters"]["F"], s["parameters"]["G"];
      zh.push_back(z);
    }
    CHECK(types == std::vector<std::string>{"ZH"});
  }
  REQUIRE(zh.size() == 2);
  CHECK((zh[0] - zh[1]).lpNorm<Eigen::Infinity>() < 1e-10);  // the same point from either side
  check_against(
      zh,
      [&](const Vector& z) {
        Vector u(7);
        u << z, 0.25, 4.0;
        Vector g(5);
        g.head(3) = system->residual(u);
        const Matrix A = system->jacobian(u).leftCols(3);
        g[3] = A.determinant(), g[4] = A.trace();
        return g;
      },
      1e-10);
  fs::remove_all(dir);
}
