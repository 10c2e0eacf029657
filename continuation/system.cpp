#include "continuation/system.h"

#include <stdexcept>

namespace saltus {

namespace {
std::vector<std::string> numbered(const char* prefix, int count) {
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) names.push_back(prefix + std::to_string(i));
  return names;
}
}  // namespace

std::vector<std::string> System::state_names() const { return numbered("x", state_size()); }
std::vector<std::string> System::parameter_names() const { return numbered("p", parameter_size()); }

void System::sparse_jacobian(const double* u, SparseMatrix* J) const {
  Matrix dense(state_size(), size());
  jacobian(u, &dense);
  *J = dense.sparseView();
}

Vector System::jacobian_times(const Vector& u, const Vector& d) const { return jacobian(u) * d; }

void System::derivatives_along(const double*, const double*, int, Matrix*) const {
  throw std::logic_error("this system gives no higher derivatives (derivatives_along)");
}

Vector System::residual(const Vector& u) const {
  Vector f(state_size());
  residual(u.data(), f.data());
  return f;
}

Matrix System::jacobian(const Vector& u) const {
  Matrix J(state_size(), size());
  jacobian(u.data(), &J);
  return J;
}

}  // namespace saltus
