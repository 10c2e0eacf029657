// Step 4 of the contact classification (analyses/contact/classification.h):
// the closed forms (26)-(30) as printed, and the corrected (29), (30).

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "analyses/contact/classification.h"

namespace saltus {

// ---- step 4: closed forms --------------------------------------------------------------------
//
// Derivation of the corrected (29) (case 2, concentric osculating circles).
// Parametrize both curves by the angle theta of the common tangent direction
// t(theta) = (cos theta, sin theta), n(theta) = (sin theta, -cos theta): curve
// 1's point with tangent t (dsigma1/dtheta = 1/kappa1 = rho1) and curve 2's
// with tangent -t (dsigma2/dtheta = 1/kappa2 = rho2). Their normal lines are
// parallel; they coincide (an extremal point) iff H(theta) = (c2 - c1) . t = 0,
// which is f1 on the curve f2 = 0. With h_i = c_i . t, q_i = c_i . n:
//   h1' = rho1 - q1, q1' = h1  =>  h1'' + h1 = rho1'(theta),
//   h2' = -rho2 - q2, q2' = h2 =>  h2'' + h2 = -rho2'(theta),
// so H'' + H = -R'(theta), R = rho1 + rho2, H(0) = 0, H'(0) = -(rho1 + rho2 +
// d) = det / (kappa1 kappa2) = 0 at the degenerate point. If d^i kappa_j /
// dsigma^i = 0 for i = 1..N-2, then R^(i)(theta) = 0 for i = 1..N-2 and
//   H = -R^(N-1)(0) theta^N / N! + ...,  R^(N-1)(0) = -(kappa1^(N-1)/kappa1^(N+1) +
//   kappa2^(N-1)/kappa2^(N+1))
// (d/dtheta = rho d/dsigma, d^(N-1) rho/dsigma^(N-1) = -kappa^(N-1)/kappa^2 at leading order).
// The leading coefficient of the reduced equation does not depend on the
// Lyapunov-Schmidt splitting (given the kernel and cokernel normalizations):
// with v2 = (kappa2, kappa1)/lambda1, theta = kappa1 sigma1 = (kappa1 kappa2 /
// lambda1) p^2, and the cokernel row of P^-1 is (1, 1/kappa2), whose first
// entry multiplies f1 = H. Hence
//   c_N = (kappa2^(N+1) kappa1^(N-1) + kappa1^(N+1) kappa2^(N-1)) / (N! kappa1 kappa2 lambda1^N),
// lambda1 = (kappa1 + kappa2^2)/kappa2: the printed (29) has (kappa1 + kappa2)^N
// where (kappa1 + kappa2^2)^N belongs (they agree only when kappa2 = 1). For
// (40): kappa1 = -1, kappa2 = 2, kappa2'' = -24: c_3 = 16/27 (and 1/c_3 =
// 27/16 is the coefficient of x in (42)); the printed (29) gives 16.

namespace {
double factorial(int n) {
  double f = 1.0;
  for (int i = 2; i <= n; ++i) f *= i;
  return f;
}
double at(const std::vector<double>& v, int i, const char* name) {
  if (i < 0 || i >= static_cast<int>(v.size()))
    throw std::invalid_argument(std::string("closed form: ") + name + " needs derivative " +
                                std::to_string(i) + ", has " + std::to_string(v.size()));
  return v[i];
}
void check_n(int n) {
  if (n < 2) throw std::invalid_argument("closed form: n = " + std::to_string(n) + " must be >= 2");
}
}  // namespace

double closed_form_26(const std::vector<double>& k1, const std::vector<double>& k2, int n) {
  check_n(n);
  const double sign = (n - 1) % 2 == 0 ? 1.0 : -1.0;
  return (sign * at(k1, n - 1, "kappa1") + at(k2, n - 1, "kappa2")) / factorial(n);
}

double closed_form_27(const std::vector<double>& k1, const std::vector<double>& k2, int n,
                      double dc2_dphi_dot_t1) {
  if (n < 1) throw std::invalid_argument("closed form: n = " + std::to_string(n) + " must be >= 1");
  const double sign = (n - 1) % 2 == 0 ? 1.0 : -1.0;
  return (sign * at(k1, n, "kappa1") + (dc2_dphi_dot_t1 - 1.0) * at(k2, n, "kappa2")) / factorial(n);
}

double closed_form_28(const std::vector<double>& k2, int n) {
  if (n < 1) throw std::invalid_argument("closed form: n = " + std::to_string(n) + " must be >= 1");
  return -at(k2, n, "kappa2") / factorial(n);
}

double closed_form_29(const std::vector<double>& k1, const std::vector<double>& k2, int n) {
  check_n(n);
  const double a = at(k1, 0, "kappa1"), b = at(k2, 0, "kappa2");
  return std::pow(b, n - 1) / (factorial(n) * a * std::pow(a + b, n)) *
         (std::pow(b, n + 1) * at(k1, n - 1, "kappa1") + std::pow(a, n + 1) * at(k2, n - 1, "kappa2"));
}

double closed_form_30(const std::vector<double>& k1, const std::vector<double>& k2, int n) {
  if (n < 1) throw std::invalid_argument("closed form: n = " + std::to_string(n) + " must be >= 1");
  const double a = at(k1, 0, "kappa1"), b = at(k2, 0, "kappa2");
  return std::pow(b, 2 * n) / (factorial(n) * a * a * std::pow(a + b, n)) * at(k1, n, "kappa1");
}

double closed_form_29_corrected(const std::vector<double>& k1, const std::vector<double>& k2, int n) {
  check_n(n);
  const double a = at(k1, 0, "kappa1"), b = at(k2, 0, "kappa2");
  const double lambda1 = (a + b * b) / b;
  return (std::pow(b, n + 1) * at(k1, n - 1, "kappa1") + std::pow(a, n + 1) * at(k2, n - 1, "kappa2")) /
         (factorial(n) * a * b * std::pow(lambda1, n));
}

double closed_form_30_corrected(const std::vector<double>& k1, const std::vector<double>& k2, int n) {
  if (n < 1) throw std::invalid_argument("closed form: n = " + std::to_string(n) + " must be >= 1");
  const double a = at(k1, 0, "kappa1"), b = at(k2, 0, "kappa2");
  const double lambda1 = (a + b * b) / b;
  return -std::pow(b / lambda1, n) * at(k1, n, "kappa1") / (factorial(n) * a * a);
}

}  // namespace saltus
