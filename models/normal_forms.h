#pragma once
// Small smooth benchmarks with known answers.

#include <string>
#include <vector>

namespace saltus::models {

// f = mu + lambda x - x^3: folds at mu = -+2 (lambda/3)^(3/2), a cusp at (0, 0).
struct Cusp {
  int state_size() const { return 1; }
  int parameter_size() const { return 2; }
  std::vector<std::string> state_names() const { return {"x"}; }
  std::vector<std::string> parameter_names() const { return {"mu", "lambda"}; }
  template <class T>
  void operator()(const T* u, T* f) const {
    f[0] = u[1] + u[2] * u[0] - u[0] * u[0] * u[0];
  }
};

// f = lambda x - x^3: the trivial branch x = 0 and the parabola x^2 = lambda
// cross at a pitchfork, a simple branch point at (0, 0).
struct Pitchfork {
  int state_size() const { return 1; }
  int parameter_size() const { return 1; }
  std::vector<std::string> state_names() const { return {"x"}; }
  std::vector<std::string> parameter_names() const { return {"lambda"}; }
  template <class T>
  void operator()(const T* u, T* f) const {
    f[0] = u[1] * u[0] - u[0] * u[0] * u[0];
  }
};

}  // namespace saltus::models
