#include "continuation/autodiff_system.h"

#include <catch2/catch.hpp>

#include "continuation/coloring.h"
#include "models/bratu.h"
#include "models/expression_system.h"
#include "models/normal_forms.h"

using namespace saltus;

namespace {

// Central differences of the residual: the independent check of the exact Jacobian.
Matrix fd_jacobian(const System& s, const Vector& u, double h = 1e-6) {
  Matrix J(s.state_size(), s.size());
  for (int j = 0; j < s.size(); ++j) {
    Vector up = u, um = u;
    up[j] += h;
    um[j] -= h;
    J.col(j) = (s.residual(up) - s.residual(um)) / (2 * h);
  }
  return J;
}

// Central differences of J d: the check of the second derivative contraction.
Matrix fd_second(const System& s, const Vector& u, const Vector& d, double h = 1e-5) {
  Matrix H(s.state_size(), s.size());
  for (int j = 0; j < s.size(); ++j) {
    Vector up = u, um = u;
    up[j] += h;
    um[j] -= h;
    H.col(j) = (s.jacobian(up) * d - s.jacobian(um) * d) / (2 * h);
  }
  return H;
}

void check_derivatives(const System& s, const Vector& u, double tol) {
  const Matrix J = s.jacobian(u);
  CHECK((J - fd_jacobian(s, u)).cwiseAbs().maxCoeff() < tol);
  Vector d = Vector::LinSpaced(s.size(), -1.0, 2.0);
  Matrix H(s.state_size(), s.size());
  s.second_derivative(u.data(), d.data(), &H);
  CHECK((H - fd_second(s, u, d)).cwiseAbs().maxCoeff() < tol);
}

}  // namespace

TEST_CASE("exact Jacobians and second derivatives agree with finite differences", "[autodiff]") {
  SECTION("cusp functor") {
    Vector u(3);
    u << 0.7, -0.2, 1.3;
    check_derivatives(*make_system(models::Cusp{}), u, 1e-8);
  }
  SECTION("Bratu, sparse path, n = 9") {
    auto s = make_system(models::Bratu{9});
    Vector u = Vector::LinSpaced(10, 0.3, 1.2);
    check_derivatives(*s, u, 1e-7);
  }
  SECTION("expression system, dense and sparse") {
    const std::vector<std::string> eqs = {"exp(-x)*sin(2*pi*mu) + lambda*y^2", "x*y - mu^3 + atan2(y, x)"};
    for (int sparse_from : {50, 1}) {
      auto s = models::make_expression_system({"x", "y"}, {"mu", "lambda"}, eqs, sparse_from);
      CHECK(s->is_sparse() == (sparse_from == 1));
      Vector u(4);
      u << 0.4, -0.8, 0.3, 1.7;
      check_derivatives(*s, u, 1e-7);
    }
  }
}

TEST_CASE("column colouring: a tridiagonal Jacobian needs three colours", "[autodiff]") {
  std::vector<std::vector<int>> rows;
  const int n = 50;
  for (int i = 0; i < n; ++i) {
    rows.push_back({i});
    if (i > 0) rows.back().push_back(i - 1);
    if (i + 1 < n) rows.back().push_back(i + 1);
  }
  const ColumnColoring c = color_columns(rows, n);
  CHECK(c.colors == 3);
  for (const auto& r : rows)
    for (int a : r)
      for (int b : r)
        if (a != b) CHECK(c.color[a] != c.color[b]);
  CHECK_THROWS_WITH(color_columns({{0, 7}}, 3), Catch::Contains("column 7"));
}

TEST_CASE("sparse and dense Jacobians of a sparse functor agree for large n", "[autodiff]") {
  auto s = make_system(models::Bratu{200});
  Vector u = Vector::Random(201);
  SparseMatrix S;
  s->sparse_jacobian(u.data(), &S);
  CHECK((Matrix(S) - s->jacobian(u)).cwiseAbs().maxCoeff() == 0.0);
}
