// The sparse eigenvalues along a branch (shift-invert Arnoldi, warm-started
// from the last point) against the dense EigenSolver at every point.
#include "continuation/eigenvalues.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <vector>

#include "continuation/autodiff_system.h"
#include "continuation/pseudo_arclength.h"
#include "models/brusselator_1d.h"

using namespace saltus;

namespace {

// The k eigenvalues of smallest modulus, by modulus.
std::vector<std::complex<double>> smallest(const Eigen::VectorXcd& lambda, int k) {
  std::vector<std::complex<double>> v(lambda.begin(), lambda.end());
  std::sort(v.begin(), v.end(), [](auto a, auto b) { return std::abs(a) < std::abs(b); });
  v.resize(std::min<std::size_t>(k, v.size()));
  return v;
}

// The 1-D Brusselator (30 points per species; a = 2, d1 = 0.008, d2 =
// 0.004) continued in b from 4.5 to 9 with `count` monitored eigenvalues.
struct BrusselatorBranch {
  models::Brusselator1d model;
  ContinuationProblem problem;
  Branch branch;
};

BrusselatorBranch brusselator_branch(int count) {
  models::Brusselator1d model;
  model.n = 30;
  Vector p(4);
  p << 2.0, 4.5, 0.008, 0.004;
  ContinuationProblem problem(make_system(model), p, {"b"});
  Vector y0(2 * model.n + 1);
  y0 << model.homogeneous_state(2.0, 4.5), 4.5;
  ContinuationOptions options;
  options.ds = 0.1;
  options.ds_max = 0.25;
  options.bounds["b"] = Bound{4.5, 9.0};
  options.eigenvalues = true;
  options.eigenvalue_count = count;
  Branch branch = continue_branch(problem, y0, options, {});
  return {model, std::move(problem), std::move(branch)};
}

}  // namespace

TEST_CASE("sparse eigenvalues along a branch: the dense ones of smallest modulus at every point",
          "[eigenvalues][sparse]") {
  // The 1-D Brusselator, 30 points per species, from b = 4.5 through the
  // Hopf points of its first two modes (b about 5.4 and 8.3) to b = 9.
  const auto [model, problem, branch] = brusselator_branch(8);
  REQUIRE(problem.is_sparse());
  REQUIRE(branch.stop_reason == StopReason::kBound);
  REQUIRE(branch.points.size() > 15);  // the warm start is used, and the tenth call starts afresh
  for (const auto& point : branch.points) {
    const auto sparse = smallest(point.eigenvalues, 8);
    const auto dense = smallest(equilibrium_eigenvalues(problem, point.y), 8);
    REQUIRE(sparse.size() == 8);
    for (int i = 0; i < 8; ++i) {
      INFO("b = " << point.y[2 * model.n] << ", eigenvalue " << i);
      // Conjugates may come in either order: match by value.
      const double miss = std::abs(*std::min_element(sparse.begin(), sparse.end(), [&](auto a, auto b) {
        return std::abs(a - dense[i]) < std::abs(b - dense[i]);
      }) - dense[i]);
      CHECK(miss < 1e-8 * (1 + std::abs(dense[i])));
    }
  }
}

namespace {

// -u'' - c u' = lambda exp(u) on (0, 1), u = 0 at both ends, central
// differences on n points, as rates u_t = u'' + c u' + lambda exp(u): the
// advection c makes F_x non-symmetric, and the solution's shape changes
// with lambda, so the invariant subspaces the sparse eigensolver tracks
// from point to point turn along the branch (unlike the Brusselator's
// homogeneous state, whose sine modes are the same at every b).
struct AdvectedBratu {
  int n = 40;
  double c = 6.0;
  int state_size() const { return n; }
  int parameter_size() const { return 1; }
  template <class T>
  void operator()(const T* u, T* f) const {
    using std::exp;
    const double h = 1.0 / (n + 1);
    for (int i = 0; i < n; ++i) {
      const T left = i > 0 ? u[i - 1] : T(0.0), right = i + 1 < n ? u[i + 1] : T(0.0);
      f[i] = (left - 2.0 * u[i] + right) / (h * h) + c * (right - left) / (2 * h) + u[n] * exp(u[i]);
    }
  }
  std::vector<std::vector<int>> sparsity() const {
    std::vector<std::vector<int>> rows(n);
    for (int i = 0; i < n; ++i) {
      for (int j = std::max(0, i - 1); j <= std::min(n - 1, i + 1); ++j) rows[i].push_back(j);
      rows[i].push_back(n);
    }
    return rows;
  }
};

}  // namespace

TEST_CASE("sparse eigenvalues where the eigenvectors turn along the branch: the dense ones, and the counts",
          "[eigenvalues][sparse]") {
  // From lambda = 0 up the lower branch, through the fold (where the
  // smallest eigenvalue, real, passes 0) and back down the upper branch:
  // every point's 6 eigenvalues of smallest modulus against the dense ones,
  // and the count of unstable ones among them.
  const AdvectedBratu model;
  const ContinuationProblem problem(make_system(model), Vector::Zero(1), {"p0"});
  REQUIRE(problem.is_sparse());
  ContinuationOptions options;
  options.ds = 0.2;
  options.ds_max = 0.5;
  options.bounds["p0"] = Bound{-1.0, 12.0};
  options.eigenvalues = true;
  options.eigenvalue_count = 6;
  const Branch branch = continue_branch(problem, Vector::Zero(model.n + 1), options, {});
  REQUIRE(branch.points.size() > 20);
  for (const auto& point : branch.points) {
    const auto dense = smallest(equilibrium_eigenvalues(problem, point.y), 6);
    const auto sparse = smallest(point.eigenvalues, 6);
    INFO("lambda = " << point.y[model.n]);
    REQUIRE(sparse.size() == 6);
    for (int i = 0; i < 6; ++i) {
      const double miss = std::abs(*std::min_element(sparse.begin(), sparse.end(), [&](auto a, auto b) {
        return std::abs(a - dense[i]) < std::abs(b - dense[i]);
      }) - dense[i]);
      CHECK(miss < 1e-8 * (1 + std::abs(dense[i])));
    }
    // The count the sparse path promises: among the k of smallest modulus.
    // (Past the fold the unstable eigenvalue of the upper branch leaves the
    // six of smallest modulus: counting all needs enough of them, or the
    // dense path.)
    CHECK(unstable_count(point.eigenvalues) ==
          unstable_count(Eigen::Map<const Eigen::VectorXcd>(dense.data(), 6)));
  }
}

TEST_CASE("sparse eigenvalues on the Brusselator: the unstable counts are the dense counts at every point",
          "[eigenvalues][sparse]") {
  // The 1-D Brusselator (n = 30) through the Hopf points of its first two
  // modes: the monitored count of eigenvalues with Re > 0 equals the count
  // among all eigenvalues of the same F_x (dense), 0, then 2, 4, ... as
  // mode k's pair crosses at b = 1 + a^2 + (d1 + d2) mu_k (5.12, 5.47, 6.07,
  // 6.89, 7.96 for k = 1..5).
  const auto [model, problem, branch] = brusselator_branch(10);
  REQUIRE(branch.stop_reason == StopReason::kBound);
  std::set<int> counts;
  for (const auto& point : branch.points) {
    const int dense = unstable_count(equilibrium_eigenvalues(problem, point.y));
    INFO("b = " << point.y[2 * model.n]);
    CHECK(unstable_count(point.eigenvalues) == dense);
    counts.insert(dense);
  }
  for (const int expected : {0, 2, 4, 6, 8}) CHECK(counts.count(expected) == 1);
}

namespace {

// x' = A(p) x with A = diag(-1, ..., -(n - 2)) and the 2 x 2 block
// [[alpha, 1], [-1, alpha]], alpha = 41 p - 40, at the end: eigenvalues
// -1, ..., -(n - 2) and alpha +- i, whose modulus sqrt(alpha^2 + 1) falls
// from 40 (p = 0) through 4 (p = 0.8806) to 1 (p = 40/41, a Hopf point).
// The eigenvectors never move, so tracking certifies every point exactly,
// and only the audit can see the pair enter the four smallest moduli.
struct Intruder {
  int n = 40;
  int state_size() const { return n; }
  int parameter_size() const { return 1; }
  template <class T>
  void operator()(const T* u, T* f) const {
    for (int i = 0; i < n - 2; ++i) f[i] = -(i + 1.0) * u[i];
    const T alpha = 41.0 * u[n] - 40.0;
    f[n - 2] = alpha * u[n - 2] + u[n - 1];
    f[n - 1] = -u[n - 2] + alpha * u[n - 1];
  }
  std::vector<std::vector<int>> sparsity() const {
    std::vector<std::vector<int>> rows(n);
    for (int i = 0; i < n - 2; ++i) rows[i] = {i, n};
    rows[n - 2] = rows[n - 1] = {n - 2, n - 1, n};
    return rows;
  }
};

}  // namespace

TEST_CASE(
    "sparse eigenvalues: a pair that enters the smallest moduli from outside is found by the next audit",
    "[eigenvalues][sparse]") {
  // From p = 0.8 to 1 in steps of 0.004 with the 4 eigenvalues of smallest
  // modulus: the pair enters them at p = 0.8806 (point 21). Tracking alone
  // keeps -1, ..., -4 (its subspace lacks the pair); the audit of every
  // tenth call (point 30) finds an untracked eigenvalue below the fourth
  // modulus and starts afresh. So the sparse eigenvalues differ from the
  // dense four for fewer than ten points in a row, and from then on agree,
  // through the Hopf point (p = 0.9756) to the two unstable ones at p = 1.
  const Intruder model;
  const ContinuationProblem problem(make_system(model), Vector::Constant(1, 0.8), {"p0"});
  REQUIRE(problem.is_sparse());
  ContinuationOptions options;
  options.ds = options.ds_max = 0.004;
  options.bounds["p0"] = Bound{0.8, 1.0};
  options.eigenvalues = true;
  options.eigenvalue_count = 4;
  Vector y0 = Vector::Zero(model.n + 1);
  y0[model.n] = 0.8;
  const Branch branch = continue_branch(problem, y0, options, {});
  REQUIRE(branch.stop_reason == StopReason::kBound);
  REQUIRE(branch.points.size() > 40);
  int run = 0, longest = 0, missed = 0;
  for (const auto& point : branch.points) {
    const Eigen::VectorXcd all = equilibrium_eigenvalues(problem, point.y);
    const auto dense = smallest(all, 4);
    const auto sparse = smallest(point.eigenvalues, 4);
    bool agree = sparse.size() == 4;
    for (int i = 0; i < 4 && agree; ++i)
      agree = std::abs(std::abs(sparse[i]) - std::abs(dense[i])) < 1e-8 * (1 + std::abs(dense[i]));
    run = agree ? 0 : run + 1;
    missed += agree ? 0 : 1;
    longest = std::max(longest, run);
    if (point.y[model.n] > 0.95) {
      INFO("p = " << point.y[model.n]);
      CHECK(agree);
      CHECK(unstable_count(point.eigenvalues) == unstable_count(all));
    }
  }
  CHECK(missed > 0);  // tracking alone misses the pair: the audit is what finds it
  CHECK(longest < 10);
  CHECK(unstable_count(branch.points.back().eigenvalues) == 2);
}

TEST_CASE(
    "sparse eigenvalues: the plain tracking step certifies where the subspace does not turn, and only there",
    "[eigenvalues][sparse]") {
  // The same eigenvalues from a warm start carried along a branch's points
  // by hand. On the Brusselator's homogeneous state the eight eigenvalues
  // of smallest modulus belong to four sine modes whose invariant subspaces
  // (each mode's two species components) do not depend on b: the plain
  // Rayleigh-Ritz step (no solve) certifies every call after the first but
  // the audits. Along the advected Bratu branch the subspaces turn: the
  // plain step fails there, and the inverse steps and Arnoldi still give
  // the dense eigenvalues (the test case above).
  const auto [model, problem, branch] = brusselator_branch(8);
  EigenvalueWarmStart warm;
  for (const auto& point : branch.points) {
    const auto sparse = smallest(equilibrium_eigenvalues(problem, point.y, 8, nullptr, &warm), 8);
    const auto dense = smallest(equilibrium_eigenvalues(problem, point.y), 8);
    REQUIRE(sparse.size() == 8);
    for (int i = 0; i < 8; ++i)
      CHECK(std::abs(std::abs(sparse[i]) - std::abs(dense[i])) < 1e-8 * std::abs(dense[i]));
  }
  const long calls = static_cast<long>(branch.points.size());
  CHECK(warm.plain_tracked >= calls - 1 - calls / 10);
  CHECK(warm.arnoldi_runs <= 1 + calls / 10);

  const AdvectedBratu bratu;
  const ContinuationProblem turning(make_system(bratu), Vector::Zero(1), {"p0"});
  ContinuationOptions options;
  options.ds = 0.2;
  options.ds_max = 0.5;
  options.bounds["p0"] = Bound{-1.0, 12.0};
  const Branch lower = continue_branch(turning, Vector::Zero(bratu.n + 1), options, {});
  EigenvalueWarmStart bratu_warm;
  for (const auto& point : lower.points) equilibrium_eigenvalues(turning, point.y, 6, nullptr, &bratu_warm);
  CHECK(bratu_warm.plain_tracked < static_cast<long>(lower.points.size()) / 4);
}
