#include "models/bratu.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "continuation/autodiff_system.h"
#include "continuation/pseudo_arclength.h"
#include "testfunctions/fold.h"

using namespace saltus;

namespace {
double bratu_fold(int n) {
  auto system = make_system(models::Bratu{n});
  ContinuationProblem problem(system, Vector::Zero(1), {"lambda"});
  ContinuationOptions options;
  options.ds = 0.1;
  options.ds_max = 0.5;
  options.bounds["lambda"] = {-1.0, 4.0};
  options.max_points = 200;
  const Branch branch =
      continue_branch(problem, Vector::Zero(n + 1), options, {std::make_shared<FoldTest>()});
  for (const auto& s : branch.special_points)
    if (s.type == "LP") return s.y[n];
  FAIL("no fold found for n = " << n);
  return 0.0;
}
}  // namespace

TEST_CASE("the closed form of the Bratu fold", "[models][bratu]") {
  CHECK(models::bratu_critical_lambda() == Approx(3.51383071912516).epsilon(1e-14));
}

TEST_CASE("Bratu: sparse and dense Jacobians agree", "[models][bratu]") {
  auto system = make_system(models::Bratu{7});
  Vector u = Vector::LinSpaced(8, 0.1, 0.8);
  SparseMatrix S;
  system->sparse_jacobian(u.data(), &S);
  const Matrix D = system->jacobian(u);
  CHECK((Matrix(S) - D).norm() < 1e-15);
  CHECK(S.nonZeros() == 7 * 3 - 2 + 7);
}

TEST_CASE("Bratu: the discrete fold converges to lambda* at second order", "[models][bratu]") {
  const double exact = models::bratu_critical_lambda();
  const double e1 = std::abs(bratu_fold(25) - exact);
  const double e2 = std::abs(bratu_fold(51) - exact);
  const double e3 = std::abs(bratu_fold(103) - exact);
  // h = 1/26, 1/52, 1/104: halving h divides a second-order error by 4.
  const double order12 = std::log2(e1 / e2), order23 = std::log2(e2 / e3);
  INFO("errors " << e1 << " " << e2 << " " << e3 << ", orders " << order12 << " " << order23);
  CHECK(order12 == Approx(2.0).margin(0.05));
  CHECK(order23 == Approx(2.0).margin(0.02));
  CHECK(e3 < 2e-4);
}

TEST_CASE("Bratu with n = 1000 finds the fold", "[models][bratu]") {
  const double lambda = bratu_fold(1000);
  CHECK(std::abs(lambda - models::bratu_critical_lambda()) < 1e-5);
}
