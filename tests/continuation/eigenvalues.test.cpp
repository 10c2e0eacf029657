// The sparse eigenvalues along a branch (shift-invert Arnoldi, warm-started
// from the last point) against the dense EigenSolver at every point.
#include "continuation/eigenvalues.h"

#include <algorithm>
#include <catch2/catch.hpp>
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

}  // namespace

TEST_CASE("sparse eigenvalues along a branch: the dense ones of smallest modulus at every point",
          "[eigenvalues][sparse]") {
  // The 1-D Brusselator, 30 points per species, from b = 4.5 through the
  // Hopf points of its first two modes (b about 5.4 and 8.3) to b = 9.
  models::Brusselator1d model;
  model.n = 30;
  Vector p(4);
  p << 2.0, 4.5, 0.008, 0.004;
  const ContinuationProblem problem(make_system(model), p, {"b"});
  REQUIRE(problem.is_sparse());
  Vector y0(2 * model.n + 1);
  y0 << model.homogeneous_state(2.0, 4.5), 4.5;
  ContinuationOptions options;
  options.ds = 0.1;
  options.ds_max = 0.25;
  options.bounds["b"] = Bound{4.5, 9.0};
  options.eigenvalues = true;
  options.eigenvalue_count = 8;
  const Branch branch = continue_branch(problem, y0, options, {});
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
