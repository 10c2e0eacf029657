#pragma once
// The one-dimensional Bratu problem
//
//   u'' + lambda exp(u) = 0 on (0, 1),   u(0) = u(1) = 0,
//
// by second-order central differences on n interior points, h = 1/(n+1),
// each equation multiplied by h^2 so that the residual is O(1):
//
//   u_{i-1} - 2 u_i + u_{i+1} + h^2 lambda exp(u_i) = 0,   i = 1..n.
//
// The continuous problem has a fold at lambda* = 3.51383071912516 (see
// bratu_critical_lambda); the discrete fold approaches it as O(h^2). The Jacobian is tridiagonal plus
// the lambda column, so the engine takes the sparse path.

#include <cmath>
#include <string>
#include <vector>

namespace saltus::models {

struct Bratu {
  int n = 100;  // interior grid points

  int state_size() const { return n; }
  int parameter_size() const { return 1; }
  std::vector<std::string> state_names() const {
    std::vector<std::string> names;
    for (int i = 1; i <= n; ++i) names.push_back("u" + std::to_string(i));
    return names;
  }
  std::vector<std::string> parameter_names() const { return {"lambda"}; }

  template <class T>
  void operator()(const T* u, T* f) const {
    using std::exp;
    const double h2 = 1.0 / ((n + 1.0) * (n + 1.0));
    const T& lambda = u[n];
    for (int i = 0; i < n; ++i) {
      const T left = i > 0 ? u[i - 1] : T(0.0);
      const T right = i + 1 < n ? u[i + 1] : T(0.0);
      f[i] = left - 2.0 * u[i] + right + h2 * lambda * exp(u[i]);
    }
  }

  std::vector<std::vector<int>> sparsity() const {
    std::vector<std::vector<int>> rows(n);
    for (int i = 0; i < n; ++i) {
      if (i > 0) rows[i].push_back(i - 1);
      rows[i].push_back(i);
      if (i + 1 < n) rows[i].push_back(i + 1);
      rows[i].push_back(n);
    }
    return rows;
  }
};

// lambda* of the continuous problem. The solutions are
// u = -2 log(cosh(2 z (x - 1/2)) / cosh(z)) with lambda = 8 z^2 / cosh(z)^2;
// lambda is largest where z tanh(z) = 1, and there lambda* = 8 / sinh(z)^2.
double bratu_critical_lambda();

}  // namespace saltus::models
