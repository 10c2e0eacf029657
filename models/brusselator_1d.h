#pragma once
// The Brusselator reaction-diffusion system on (0, 1),
//
//   x_t = a - (b + 1) x + x^2 y + d1 x_ss,   y_t = b x - x^2 y + d2 y_ss,
//
// with the homogeneous values x = a, y = b/a at both ends, by second-order
// central differences on n interior points, h = 1/(n+1), unknowns
// interleaved (x_1, y_1, x_2, y_2, ...) so that F_x is banded: a large
// sparse system for the shift-invert eigenvalue path.
//
// The homogeneous state x_i = a, y_i = b/a is an equilibrium for every
// parameter. Its perturbations are the discrete sine modes
// sin(k pi s_i), on which the discrete Laplacian is -mu_k,
// mu_k = (4/h^2) sin^2(k pi h / 2), so F_x is similar to the 2 x 2 blocks
//   J_k = [[b - 1 - d1 mu_k, a^2], [-b, -a^2 - d2 mu_k]],   k = 1..n:
// mode k has a Hopf point where tr J_k = 0, b = 1 + a^2 + (d1 + d2) mu_k
// (if det J_k > 0 there), and a Turing point where det J_k = 0,
// b = (1 + d1 mu_k)(a^2 + d2 mu_k) / (d2 mu_k).

#include <Eigen/Dense>
#include <cmath>
#include <string>
#include <vector>

namespace saltus::models {

struct Brusselator1d {
  int n = 500;  // interior points per species

  int state_size() const { return 2 * n; }
  int parameter_size() const { return 4; }
  std::vector<std::string> state_names() const {
    std::vector<std::string> names;
    for (int i = 1; i <= n; ++i)
      names.push_back("x" + std::to_string(i)), names.push_back("y" + std::to_string(i));
    return names;
  }
  std::vector<std::string> parameter_names() const { return {"a", "b", "d1", "d2"}; }
  // The homogeneous equilibrium x_i = a, y_i = b / a (any d1, d2).
  Eigen::VectorXd homogeneous_state(double a, double b) const {
    Eigen::VectorXd x(2 * n);
    for (int i = 0; i < n; ++i) x[2 * i] = a, x[2 * i + 1] = b / a;
    return x;
  }

  template <class T>
  void operator()(const T* u, T* f) const {
    const T &a = u[2 * n], &b = u[2 * n + 1], &d1 = u[2 * n + 2], &d2 = u[2 * n + 3];
    const double inv_h2 = (n + 1.0) * (n + 1.0);
    const T x_end = a, y_end = b / a;
    for (int i = 0; i < n; ++i) {
      const T& x = u[2 * i];
      const T& y = u[2 * i + 1];
      const T xl = i > 0 ? u[2 * i - 2] : x_end, xr = i + 1 < n ? u[2 * i + 2] : x_end;
      const T yl = i > 0 ? u[2 * i - 1] : y_end, yr = i + 1 < n ? u[2 * i + 3] : y_end;
      const T xxy = x * x * y;
      f[2 * i] = a - (b + 1.0) * x + xxy + d1 * inv_h2 * (xl - 2.0 * x + xr);
      f[2 * i + 1] = b * x - xxy + d2 * inv_h2 * (yl - 2.0 * y + yr);
    }
  }

  std::vector<std::vector<int>> sparsity() const {
    std::vector<std::vector<int>> rows(2 * n);
    for (int i = 0; i < n; ++i)
      for (int c = 0; c < 2; ++c) {
        auto& row = rows[2 * i + c];
        for (int j = std::max(0, 2 * i - 2); j <= std::min(2 * n - 1, 2 * i + 3); ++j) row.push_back(j);
        for (int p = 0; p < 4; ++p) row.push_back(2 * n + p);
      }
    return rows;
  }
};

}  // namespace saltus::models
