#include "continuation/continuation_problem.h"

#include <algorithm>
#include <stdexcept>

namespace saltus {

ContinuationProblem::ContinuationProblem(std::shared_ptr<const System> system, Vector parameters,
                                         const std::vector<std::string>& free_parameters,
                                         std::vector<std::shared_ptr<DefiningFunction>> extras)
    : system_(std::move(system)), parameters_(std::move(parameters)), extras_(std::move(extras)) {
  if (!system_) throw std::invalid_argument("ContinuationProblem: no system");
  if (parameters_.size() != system_->parameter_size())
    throw std::invalid_argument("ContinuationProblem: " + std::to_string(parameters_.size()) +
                                " parameter values for a system with " +
                                std::to_string(system_->parameter_size()) + " parameters");
  if (free_parameters.size() != extras_.size() + 1)
    throw std::invalid_argument("ContinuationProblem: " + std::to_string(extras_.size()) +
                                " defining functions need " + std::to_string(extras_.size() + 1) +
                                " free parameters, got " + std::to_string(free_parameters.size()));
  const auto names = system_->parameter_names();
  for (const auto& name : free_parameters) {
    auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) {
      std::string known;
      for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
      throw std::invalid_argument("continuation parameter '" + name +
                                  "' is not a parameter of the system (known: " + known + ")");
    }
    const int index = static_cast<int>(it - names.begin());
    if (std::find(free_.begin(), free_.end(), index) != free_.end())
      throw std::invalid_argument("continuation parameter '" + name + "' is given twice");
    free_.push_back(index);
  }
}

std::vector<std::string> ContinuationProblem::names() const {
  auto names = system_->state_names();
  const auto p = system_->parameter_names();
  for (int i : free_) names.push_back(p[i]);
  return names;
}

Vector ContinuationProblem::u(const Vector& y) const {
  const int n = state_size();
  Vector u(system_->size());
  u.head(n) = y.head(n);
  u.tail(parameters_.size()) = parameters_;
  for (std::size_t k = 0; k < free_.size(); ++k) u[n + free_[k]] = y[n + k];
  return u;
}

Vector ContinuationProblem::y(const Vector& u) const {
  const int n = state_size();
  Vector y(size());
  y.head(n) = u.head(n);
  for (std::size_t k = 0; k < free_.size(); ++k) y[n + k] = u[n + free_[k]];
  return y;
}

Vector ContinuationProblem::embed(const Vector& direction) const {
  const int n = state_size();
  Vector d = Vector::Zero(system_->size());
  d.head(n) = direction.head(n);
  for (std::size_t k = 0; k < free_.size(); ++k) d[n + free_[k]] = direction[n + k];
  return d;
}

namespace {

// G = (F(u), the defining functions at u), F by `residual`.
template <class Residual>
Vector residual_with(const System& system, const std::vector<std::shared_ptr<DefiningFunction>>& extras,
                     const Vector& uu, int equations, Residual residual) {
  const int n = system.state_size();
  Vector G(equations);
  residual(uu.data(), G.data());
  for (std::size_t k = 0; k < extras.size(); ++k) G[n + k] = extras[k]->evaluate(system, uu, nullptr);
  return G;
}

}  // namespace

Vector ContinuationProblem::residual(const Vector& y) const {
  return residual_with(*system_, extras_, u(y), equations(),
                       [this](const double* uu, double* f) { system_->residual(uu, f); });
}

Vector ContinuationProblem::residual_alone(const Vector& y) const {
  return residual_with(*system_, extras_, u(y), equations(),
                       [this](const double* uu, double* f) { system_->residual_alone(uu, f); });
}

Vector ContinuationProblem::jacobian_times(const Vector& y, const Vector& dy) const {
  if (!extras_.empty())
    throw std::logic_error("jacobian_times: a problem with extra equations is not matrix-free");
  return system_->jacobian_times(u(y), embed(dy));
}

Matrix ContinuationProblem::jacobian(const Vector& y) const {
  const int n = state_size();
  const Vector uu = u(y);
  Matrix Ju(n, system_->size());
  system_->jacobian(uu.data(), &Ju);
  Matrix J(equations(), size());
  J.topLeftCorner(n, n) = Ju.leftCols(n);
  for (std::size_t k = 0; k < free_.size(); ++k) J.col(n + k).head(n) = Ju.col(n + free_[k]);
  Vector gradient(system_->size());
  for (std::size_t i = 0; i < extras_.size(); ++i) {
    extras_[i]->evaluate(*system_, uu, &gradient);
    J.row(n + i) = this->y(gradient).transpose();
  }
  return J;
}

SparseMatrix ContinuationProblem::sparse_jacobian(const Vector& y) const {
  const int n = state_size();
  const Vector uu = u(y);
  SparseMatrix Ju;
  system_->sparse_jacobian(uu.data(), &Ju);
  std::vector<int> column_of(system_->size(), -1);  // u-column -> y-column
  for (int j = 0; j < n; ++j) column_of[j] = j;
  for (std::size_t k = 0; k < free_.size(); ++k) column_of[n + free_[k]] = n + k;
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(Ju.nonZeros() + extras_.size() * size());
  for (int j = 0; j < Ju.outerSize(); ++j) {
    if (column_of[j] < 0) continue;
    for (SparseMatrix::InnerIterator it(Ju, j); it; ++it)
      entries.emplace_back(it.row(), column_of[j], it.value());
  }
  Vector gradient(system_->size());
  for (std::size_t i = 0; i < extras_.size(); ++i) {
    extras_[i]->evaluate(*system_, uu, &gradient);
    const Vector row = this->y(gradient);
    for (int j = 0; j < size(); ++j)
      if (row[j] != 0.0) entries.emplace_back(n + i, j, row[j]);
  }
  SparseMatrix J(equations(), size());
  J.setFromTriplets(entries.begin(), entries.end());
  return J;
}

Vector ContinuationProblem::second_derivative(const Vector& y, const Vector& a, const Vector& b) const {
  const Vector uu = u(y), da = embed(a), db = embed(b);
  Matrix H(state_size(), system_->size());
  system_->second_derivative(uu.data(), db.data(), &H);
  return H * da;
}

void ContinuationProblem::accept(const Vector& y) const {
  const Vector uu = u(y);
  system_->accept(uu);
  for (const auto& g : extras_) g->accept(*system_, uu);
}

bool ContinuationProblem::recut(Vector* y, Vector* tangent) const {
  if (!extras_.empty()) return false;
  Vector uu = u(*y), tu = embed(*tangent);
  if (!system_->recut(&uu, &tu)) return false;
  *y = this->y(uu);
  *tangent = this->y(tu);
  return true;
}

ContinuationProblem ContinuationProblem::refined() const {
  ContinuationProblem out = *this;
  if (auto fine = system_->refined()) out.system_ = std::move(fine);
  return out;
}

}  // namespace saltus
