#include "testfunctions/multilinear_forms.h"

#include <cmath>
#include <complex>
#include <stdexcept>
#include <string>

namespace saltus {

namespace {
using Complex = std::complex<double>;

double binomial(int k, int j) {
  double b = 1;
  for (int i = 1; i <= j; ++i) b = b * (k - j + i) / i;
  return b;
}
}  // namespace

MultilinearForms::MultilinearForms(const System& system, const Vector& u)
    : system_(system), u_(u), n_(system.state_size()) {}

Vector MultilinearForms::power(const Vector& v, int k) const {
  Vector d = Vector::Zero(u_.size());
  d.head(n_) = v;
  Matrix D;
  system_.derivatives_along(u_.data(), d.data(), k, &D);
  return D.col(k - 1);
}

Eigen::MatrixXcd MultilinearForms::powers(const Eigen::VectorXcd& z, int k) const {
  Eigen::MatrixXcd m(n_, k + 1);
  const Vector a = z.real(), b = z.imag();
  if (b.squaredNorm() == 0) {  // z real: every m_j is D_k(a)
    const Eigen::VectorXcd Da = power(a, k).cast<Complex>();
    for (int j = 0; j <= k; ++j) m.col(j) = Da;
    return m;
  }
  m.setZero();
  for (int s = 0; s <= k; ++s) {
    const double theta = M_PI * s / (k + 1);
    const Eigen::VectorXcd sample =
        power(a * std::cos(theta) + b * std::sin(theta), k).cast<Complex>() * std::polar(1.0, theta * k);
    for (int j = 0; j <= k; ++j) m.col(j) += sample * std::polar(1.0, -2 * M_PI * s * j / (k + 1));
  }
  for (int j = 0; j <= k; ++j) m.col(j) *= std::pow(2.0, k) / ((k + 1) * binomial(k, j));
  return m;
}

Eigen::VectorXcd MultilinearForms::operator()(const std::vector<Eigen::VectorXcd>& args) const {
  const int k = static_cast<int>(args.size());
  if (k < 1 || k > 5)
    throw std::invalid_argument("MultilinearForms: " + std::to_string(k) + " arguments, not 1..5");
  for (const auto& v : args)
    if (v.size() != n_)
      throw std::invalid_argument("MultilinearForms: an argument's size is not the state's");
  // All arguments z or conj z: step 1 alone.
  const Eigen::VectorXcd z = args[0], zbar = z.conjugate();
  int conjugates = 0;
  bool one_vector = true;
  for (const auto& v : args) {
    if (v == z) continue;
    if (v == zbar)
      ++conjugates;
    else
      one_vector = false;
  }
  if (one_vector) return powers(z, k).col(conjugates);
  // Polarization over unit-norm arguments.
  std::vector<Eigen::VectorXcd> w(args.size());
  double scale = 1;
  for (int i = 0; i < k; ++i) {
    const double norm = args[i].norm();
    if (norm == 0) return Eigen::VectorXcd::Zero(n_);
    w[i] = args[i] / norm;
    scale *= norm;
  }
  Eigen::VectorXcd sum = Eigen::VectorXcd::Zero(n_);
  for (int signs = 0; signs < (1 << (k - 1)); ++signs) {
    Eigen::VectorXcd x = w[0];
    double product = 1;
    for (int i = 1; i < k; ++i) {
      const double eps = (signs >> (i - 1)) & 1 ? -1.0 : 1.0;
      x += eps * w[i];
      product *= eps;
    }
    const Eigen::VectorXcd Dx = x.imag().squaredNorm() == 0
                                    ? Eigen::VectorXcd(power(x.real(), k).cast<Complex>())
                                    : powers(x, k).col(0);
    sum += product * Dx;
  }
  double factorial = 1;
  for (int i = 2; i <= k; ++i) factorial *= i;
  return sum * (scale / (std::pow(2.0, k - 1) * factorial));
}

}  // namespace saltus
