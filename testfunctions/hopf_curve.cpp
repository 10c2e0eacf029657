#include "testfunctions/hopf_curve.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "continuation/branch.h"
#include "continuation/corrector.h"
#include "continuation/pseudo_arclength.h"
#include "testfunctions/hopf.h"

namespace saltus {

Matrix bialternate(const Matrix& A) {
  const int n = static_cast<int>(A.rows());
  std::vector<std::pair<int, int>> pairs;
  for (int p = 1; p < n; ++p)
    for (int q = 0; q < p; ++q) pairs.emplace_back(p, q);
  const int m = static_cast<int>(pairs.size());
  Matrix B = Matrix::Zero(m, m);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      const auto [p, q] = pairs[i];
      const auto [r, s] = pairs[j];
      if (r == p && s == q)
        B(i, j) = A(p, p) + A(q, q);
      else if (r == p)
        B(i, j) = A(q, s);
      else if (s == q)
        B(i, j) = A(p, r);
      else if (r == q)
        B(i, j) = -A(p, s);
      else if (s == p)
        B(i, j) = -A(q, r);
    }
  return B;
}

namespace {

// Can (i, j) be the critical pair: a complex conjugate pair, or two real
// eigenvalues?
bool is_pair(const ComplexVector& lambda, Eigen::Index i, Eigen::Index j) {
  if (is_real(lambda[i]) && is_real(lambda[j])) return true;
  return !is_real(lambda[i]) && std::abs(lambda[i] - std::conj(lambda[j])) <= 1e-8 * std::abs(lambda[i]);
}

}  // namespace

HopfFunction::HopfFunction(const System& system, const Vector& u, double max_sigma) {
  const int n = system.state_size();
  if (n < 2) throw std::invalid_argument("a Hopf curve needs at least two unknowns");
  const Matrix A = system.jacobian(u).leftCols(n);
  const Matrix B = bialternate(A);
  Eigen::JacobiSVD<Matrix> svd(B);
  const auto& sigma = svd.singularValues();
  const Eigen::Index m = B.rows();
  if (sigma[m - 1] > max_sigma * std::max(1.0, sigma[0])) {
    std::ostringstream msg;
    msg << "Hopf curve: 2A(.)I is not singular at the start point (smallest singular value " << sigma[m - 1]
        << ", largest " << sigma[0] << "); start from a located HB";
    throw std::invalid_argument(msg.str());
  }
  const ComplexVector lambda = Eigen::EigenSolver<Matrix>(A, false).eigenvalues();
  const auto [a, b] = critical_pair(lambda);
  pair_ = {lambda[a], lambda[b]};
}

std::pair<Eigen::Index, Eigen::Index> HopfFunction::tracked_pair(const ComplexVector& lambda) const {
  Eigen::Index best_i = -1, best_j = -1;
  double best = std::numeric_limits<double>::infinity();
  for (Eigen::Index i = 0; i < lambda.size(); ++i)
    for (Eigen::Index j = i + 1; j < lambda.size(); ++j) {
      if (!is_pair(lambda, i, j)) continue;
      const double d = std::min(std::abs(lambda[i] - pair_[0]) + std::abs(lambda[j] - pair_[1]),
                                std::abs(lambda[i] - pair_[1]) + std::abs(lambda[j] - pair_[0]));
      if (d < best) best = d, best_i = i, best_j = j;
    }
  if (best_i < 0) throw std::runtime_error("Hopf curve: F_x has no complex pair and no two real eigenvalues");
  return {best_i, best_j};
}

double HopfFunction::evaluate(const System& system, const Vector& u, Vector* gradient) const {
  const int n = system.state_size();
  const Matrix A = system.jacobian(u).leftCols(n);
  const ComplexVector lambda = Eigen::EigenSolver<Matrix>(A, false).eigenvalues();
  const auto [a, b] = tracked_pair(lambda);
  // The pair's invariant subspace: the kernel of (A - lambda_a)(A - lambda_b),
  // a real matrix; its left one the kernel of the transpose, W^T V = I.
  const double sum = (lambda[a] + lambda[b]).real(), product = (lambda[a] * lambda[b]).real();
  const Matrix Q = A * A - sum * A + product * Matrix::Identity(n, n);
  Eigen::JacobiSVD<Matrix> svd(Q, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const Matrix V = svd.matrixV().rightCols(2), W0 = svd.matrixU().rightCols(2);
  const Matrix W = W0 * (V.transpose() * W0).inverse();
  if (gradient) {
    // dA/du_j from H_k = d/du (F_u e_k): (dA/du_j)(i, k) = H_k(i, j).
    const int size = system.size();
    std::vector<Matrix> H(n);
    for (int k = 0; k < n; ++k) {
      Vector e = Vector::Zero(size);
      e[k] = 1.0;
      H[k].resize(n, size);
      system.second_derivative(u.data(), e.data(), &H[k]);
    }
    gradient->resize(size);
    Matrix Aj(n, n);
    for (int j = 0; j < size; ++j) {
      for (int k = 0; k < n; ++k) Aj.col(k) = H[k].col(j);
      (*gradient)[j] = (W.transpose() * Aj * V).trace();  // d tr(W^T A V) = tr(W^T dA V)
    }
  }
  return (W.transpose() * A * V).trace();
}

void HopfFunction::accept(const System& system, const Vector& u) {
  const int n = system.state_size();
  const ComplexVector lambda =
      Eigen::EigenSolver<Matrix>(system.jacobian(u).leftCols(n), false).eigenvalues();
  const auto [a, b] = tracked_pair(lambda);
  pair_ = {lambda[a], lambda[b]};
}

namespace {
// The critical pair at a point of a curve: the one its HopfFunction tracks,
// else the pair whose sum is nearest zero.
std::pair<Eigen::Index, Eigen::Index> pair_at(const PointContext& point) {
  for (const auto& extra : point.problem.extras())
    if (const auto* hopf = dynamic_cast<const HopfFunction*>(extra.get()))
      return hopf->tracked_pair(point.eigenvalues);
  return critical_pair(point.eigenvalues);
}

// A zero eigenvalue beside the pair at a located zero of the GH test: |lambda_j|
// below this times omega (as hopf_point's zero-Hopf check).
constexpr double kZeroBesideGH = 1e-6;
}  // namespace

double HopfCurveTest::value(const PointContext& point) const {
  const ComplexVector& lambda = point.eigenvalues;
  if (lambda.size() == 0)
    throw std::logic_error("the Hopf-curve tests need the eigenvalues: set eigenvalues");
  const auto [a, b] = pair_at(point);
  const double kappa = (lambda[a] * lambda[b]).real();
  if (type_ == "BT") return kappa;
  if (type_ == "ZH") {
    std::complex<double> product = 1.0;
    for (Eigen::Index j = 0; j < lambda.size(); ++j)
      if (j != a && j != b) product *= lambda[j];
    return product.real();
  }
  if (type_ == "HH") {
    std::complex<double> product = 1.0;
    for (Eigen::Index i = 0; i < lambda.size(); ++i)
      for (Eigen::Index j = i + 1; j < lambda.size(); ++j)
        if (i != a && i != b && j != a && j != b)
          product *= (lambda[i] + lambda[j]) / (std::abs(lambda[i]) + std::abs(lambda[j]));
    return product.real();
  }
  // GH: omega^3 l1 prod_j lambda_j / (|lambda_j| + omega) on the Hopf part,
  // without the poles of l1 at ZH and BT; no value (NaN) on the
  // neutral-saddle part, where l1 is not defined (hopf_curve.h).
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (!(kappa > 0)) return nan;
  HopfPoint h;
  try {
    h = hopf_point(point.problem.system(), point.problem.u(point.y), std::abs(lambda[a].imag()),
                   ZeroBeside::kCompute);
  } catch (const std::invalid_argument&) {
    return nan;  // no complex pair: not on the Hopf part
  }
  std::complex<double> beside = 1.0;
  for (Eigen::Index j = 0; j < lambda.size(); ++j)
    if (j != a && j != b) beside *= lambda[j] / (std::abs(lambda[j]) + h.omega);
  return std::pow(h.omega, 3) * h.l1 * beside.real();
}

bool HopfCurveTest::describe(const PointContext& point, SpecialPoint* special) const {
  const ComplexVector& lambda = point.eigenvalues;
  const auto [a, b] = pair_at(point);
  const double kappa = (lambda[a] * lambda[b]).real();
  // The GH test has no value on the neutral-saddle part and no sign change
  // at a pole of l1 (hopf_curve.h); a jump is still no zero of l1, and a
  // zero at a ZH is the factor lambda_0's (l1 without a pole there), the ZH
  // test's point.
  if (type_ == "GH") {
    if (!(kappa > 0) || special->status == EventStatus::kJump) return false;
    for (Eigen::Index j = 0; j < lambda.size(); ++j)
      if (j != a && j != b && std::abs(lambda[j]) <= kZeroBesideGH * std::sqrt(kappa)) return false;
  }
  if (type_ == "HH") {    // both pairs imaginary, else a Hopf point beside a neutral saddle
    Eigen::Index c = -1;  // one of the second pair
    double smallest = std::numeric_limits<double>::infinity();
    for (Eigen::Index i = 0; i < lambda.size(); ++i)
      for (Eigen::Index j = i + 1; j < lambda.size(); ++j)
        if (i != a && i != b && j != a && j != b) {
          const double f = std::abs(lambda[i] + lambda[j]) / (std::abs(lambda[i]) + std::abs(lambda[j]));
          if (f < smallest) smallest = f, c = i;
        }
    if (c < 0 || is_real(lambda[c]) || kappa <= 0) return false;
    special->data["frequencies"] = {std::abs(lambda[a].imag()), std::abs(lambda[c].imag())};
  }
  if (type_ == "ZH" || type_ == "GH") special->data["frequency"] = std::sqrt(std::max(kappa, 0.0));
  if (type_ == "GH") {  // l2 decides the side of the fold of cycles that the GH emits (testfunctions/hopf.h)
    const Vector u = point.problem.u(point.y);
    const HopfPoint h = hopf_point(point.problem.system(), u, std::abs(lambda[a].imag()));
    special->data["l2"] = second_lyapunov_coefficient(point.problem.system(), u, h);
  }
  return true;
}

namespace {
// The eigenvalue nearest zero.
Eigen::Index nearest_zero(const ComplexVector& lambda) {
  Eigen::Index k = 0;
  lambda.cwiseAbs().minCoeff(&k);
  return k;
}
}  // namespace

double FoldCurveTest::value(const PointContext& point) const {
  const ComplexVector& lambda = point.eigenvalues;
  if (lambda.size() == 0)
    throw std::logic_error("the fold-curve tests need the eigenvalues: set eigenvalues");
  const Eigen::Index z = nearest_zero(lambda);
  std::complex<double> product = 1.0;
  if (type_ == "BT") {
    for (Eigen::Index j = 0; j < lambda.size(); ++j)
      if (j != z) product *= lambda[j];
    return product.real();
  }
  for (Eigen::Index i = 0; i < lambda.size(); ++i)
    for (Eigen::Index j = i + 1; j < lambda.size(); ++j)
      if (i != z && j != z) product *= (lambda[i] + lambda[j]) / (std::abs(lambda[i]) + std::abs(lambda[j]));
  return product.real();
}

bool FoldCurveTest::describe(const PointContext& point, SpecialPoint* special) const {
  if (type_ != "ZH") return true;
  const ComplexVector& lambda = point.eigenvalues;
  const Eigen::Index z = nearest_zero(lambda);
  ComplexVector others(lambda.size() - 1);
  for (Eigen::Index j = 0, k = 0; j < lambda.size(); ++j)
    if (j != z) others[k++] = lambda[j];
  if (others.size() < 2) return false;
  const auto [a, b] = critical_pair(others);
  if (is_real(others[a])) return false;  // a neutral saddle beside the zero eigenvalue
  special->data["frequency"] = std::abs(others[a].imag());
  return true;
}

HopfCurve hopf_curve(std::shared_ptr<const System> system, const Vector& u,
                     const std::vector<std::string>& free) {
  if (free.size() != 2)
    throw std::invalid_argument("a Hopf curve needs two free parameters, got " + std::to_string(free.size()));
  HopfCurve curve;
  auto hopf = std::make_shared<HopfFunction>(*system, u);
  const Vector p = u.tail(system->parameter_size());
  curve.problem = std::make_shared<ContinuationProblem>(system, p, free,
                                                        std::vector<std::shared_ptr<DefiningFunction>>{hopf});
  curve.start = curve.problem->y(u);
  for (const char* type : {"BT", "ZH", "HH", "GH"})
    curve.tests.push_back(std::make_shared<HopfCurveTest>(type));
  return curve;
}

}  // namespace saltus

namespace saltus {

Vector hopf_side_tangent(const HopfCurve& curve, const ContinuationOptions& options) {
  const ContinuationProblem& problem = *curve.problem;
  const int n = problem.state_size();
  // The kernel of the augmented Jacobian at the start, from a generic border.
  Vector r = Vector::Ones(problem.size()).normalized();
  BorderedJacobian jacobian;
  Vector t;
  if (!tangent_at(problem, curve.start, r, &jacobian, &t))
    throw std::runtime_error("the Hopf curve has no tangent at the Bogdanov-Takens point (singular there)");
  std::ostringstream kappas;
  for (const double sign : {1.0, -1.0}) {
    const Vector side = sign * t;
    const Correction c = correct(problem, curve.start + options.ds * side, side, options);
    if (!c.converged) continue;
    const Matrix A = problem.system().jacobian(problem.u(c.y)).leftCols(n);
    const ComplexVector lambda = Eigen::EigenSolver<Matrix>(A, false).eigenvalues();
    const auto [a, b] = critical_pair(lambda);
    const double kappa = (lambda[a] * lambda[b]).real();
    if (kappa > 0) return side;
    kappas << (kappas.tellp() > 0 ? ", " : "") << kappa;
  }
  throw std::runtime_error(
      "no Hopf points on either side of the start (lambda_a lambda_b = " + kappas.str() +
      " a step of ds away): the start is not a Bogdanov-Takens point, or ds is too large");
}

}  // namespace saltus
