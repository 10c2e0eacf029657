// The multilinear forms up to fifth order and the second Lyapunov
// coefficient l2 of a generalized Hopf point (testfunctions/hopf.h).

#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <random>

#include "continuation/autodiff_system.h"
#include "testfunctions/hopf.h"
#include "testfunctions/multilinear_forms.h"

using namespace saltus;

namespace {

using Complex = std::complex<double>;

// F_i(x) = (c_i . x)^k + x_i (the linear term leaves the forms of order k
// alone): the k-th derivative is the symmetric form
// M_k(v_1, ..., v_k)_i = k! prod_j (c_i . v_j), complex-multilinear.
struct PowerOfLinear {
  Matrix c;
  int k;
  int state_size() const { return static_cast<int>(c.rows()); }
  int parameter_size() const { return 1; }
  template <class T>
  void operator()(const T* u, T* f) const {
    for (int i = 0; i < state_size(); ++i) {
      T s = T(0.0);
      for (int j = 0; j < state_size(); ++j) s = s + c(i, j) * u[j];
      T power = T(1.0);
      for (int m = 0; m < k; ++m) power = power * s;
      f[i] = power + u[i] * u[state_size()];
    }
  }
};

// The Bautin normal form w' = (b + i omega) w + i s w|w|^2 + c2 w|w|^4, w =
// x1 + i x2, seen through the near-identity change of coordinates
// x = xi + phi(xi), phi(xi) = (alpha xi1 xi2 + beta xi2^2, gamma xi1^2 + delta xi1^3):
// xi' = (I + Dphi(xi))^{-1} G(xi + phi(xi)), G the normal form's field.
// The change creates quadratic, cubic, quartic and quintic terms but keeps
// the linear part, so the Lyapunov coefficients in Kuznetsov's
// normalization are those of the normal form: with q = (1, -i) / sqrt(2)
// (A q = i omega q, <q, q> = 1), x = z q + conj(z q) gives w = sqrt(2) z,
// so z' = i omega z + 2 i s z|z|^2 + 4 c2 z|z|^4: c1 = 2 i s (l1 = Re c1 /
// omega = 0, a generalized Hopf point at b = 0) and l2 = Re(4 c2) / omega.
struct BautinInDisguise {
  double omega = 1.3, s = 0.7;
  Complex c2{-0.45, 0.8};
  double alpha = 0.6, beta = -0.4, gamma = 0.5, delta = 0.3;
  int state_size() const { return 2; }
  int parameter_size() const { return 1; }
  template <class T>
  void operator()(const T* u, T* f) const {
    const T &xi1 = u[0], &xi2 = u[1], &b = u[2];
    const T x1 = xi1 + alpha * xi1 * xi2 + beta * xi2 * xi2;
    const T x2 = xi2 + gamma * xi1 * xi1 + delta * xi1 * xi1 * xi1;
    const T r2 = x1 * x1 + x2 * x2, r4 = r2 * r2;
    // G = (b + i omega) w + i s w r2 + c2 w r4 in real and imaginary parts.
    const T g1 = b * x1 - omega * x2 - s * r2 * x2 + (c2.real() * x1 - c2.imag() * x2) * r4;
    const T g2 = omega * x1 + b * x2 + s * r2 * x1 + (c2.imag() * x1 + c2.real() * x2) * r4;
    // (I + Dphi)^{-1} g for Dphi = [alpha xi2, alpha xi1 + 2 beta xi2; 2 gamma xi1 + 3 delta xi1^2, 0].
    const T m11 = 1.0 + alpha * xi2, m12 = alpha * xi1 + 2.0 * beta * xi2;
    const T m21 = 2.0 * gamma * xi1 + 3.0 * delta * xi1 * xi1, m22 = T(1.0);
    const T det = m11 * m22 - m12 * m21;
    f[0] = (m22 * g1 - m12 * g2) / det;
    f[1] = (m11 * g2 - m21 * g1) / det;
  }
};

// A planar system with quadratic, cubic and quartic terms (below), a30 = a.
struct Planar {
  double a;
  int state_size() const { return 2; }
  int parameter_size() const { return 1; }
  template <class T>
  void operator()(const T* u, T* f) const {
    const T &x = u[0], &y = u[1], &mu = u[2];
    f[0] = mu * x - y + 0.5 * x * x + x * y - y * y / 3.0 + a * x * x * x + 0.25 * x * y * y +
           0.2 * y * y * y * y;
    f[1] = x + mu * y - x * x / 3.0 + 2.0 * x * y / 3.0 + 0.5 * y * y + 0.5 * x * x * y - y * y * y / 3.0 +
           x * x * x * x / 7.0;
  }
};

Eigen::VectorXcd random_complex(int n, std::mt19937& rng) {
  std::uniform_real_distribution<double> uniform(-1, 1);
  Eigen::VectorXcd v(n);
  for (int i = 0; i < n; ++i) v[i] = Complex(uniform(rng), uniform(rng));
  return v;
}

}  // namespace

TEST_CASE("multilinear forms of orders 1 to 5 on complex arguments against k! prod (c . v_j)",
          "[hopf][generalized-hopf]") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> uniform(-1, 1);
  const int n = 3;
  Matrix c(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) c(i, j) = uniform(rng);
  Vector u(n + 1);
  u << 0.0, 0.0, 0.0, 0.0;  // at x = 0 only the order-k term contributes to M_k
  for (int k = 2; k <= 5; ++k) {
    const auto system = make_system(PowerOfLinear{c, k});
    const MultilinearForms M(*system, u);
    const Eigen::VectorXcd z = random_complex(n, rng);
    std::vector<Eigen::VectorXcd> distinct, repeated;
    for (int j = 0; j < k; ++j) distinct.push_back(random_complex(n, rng));
    for (int j = 0; j < k; ++j)
      repeated.push_back(j % 2 ? Eigen::VectorXcd(z.conjugate()) : z);  // z, conj z, ..
    double factorial = 1;
    for (int j = 2; j <= k; ++j) factorial *= j;
    for (const auto& args : {distinct, repeated}) {
      Eigen::VectorXcd expected(n);
      for (int i = 0; i < n; ++i) {
        Complex product = factorial;
        for (const auto& v : args) product *= (c.row(i).cast<Complex>() * v)(0);
        expected[i] = product;
      }
      CAPTURE(k);
      CHECK((M(args) - expected).norm() <= 1e-12 * expected.norm());
    }
  }
}

TEST_CASE("l2 of the Bautin normal form under a nonlinear change of coordinates: Re(4 c2) / omega",
          "[hopf][generalized-hopf]") {
  const BautinInDisguise model;
  const auto system = make_system(model);
  const Vector u = Vector::Zero(3);  // the equilibrium xi = 0 at b = 0
  const HopfPoint h = hopf_point(*system, u);
  CHECK(h.omega == Approx(model.omega).epsilon(1e-13));
  CHECK(std::abs(h.l1) < 1e-12);
  const double l2 = second_lyapunov_coefficient(*system, u, h);
  CHECK(std::abs(l2 - 4 * model.c2.real() / model.omega) < 1e-10);
}

// The planar system x' = mu x - y + P(x, y), y' = x + mu y + Q(x, y) with
//   P = x^2/2 + x y - y^2/3 + a x^3 + x y^2/4 + y^4/5,
//   Q = -x^2/3 + 2 x y/3 + y^2/2 + x^2 y/2 - y^3/3 + x^4/7
// at mu = 0, by an independent method: the Lyapunov function
// V = (x^2 + y^2)/2 + V_3 + ... + V_6 (V_k homogeneous of degree k) whose
// derivative along the flow is V' = L1 r^4 + L2 r^6 + O(r^7), r^2 = x^2 + y^2
// (odd degrees: L0 V_k = -R_k, L0 = -y d/dx + x d/dy invertible there; even
// degrees: R_k's projection on r^k is the constant). sympy, exact rationals
// (gauge of the kernel r^k of L0 fixed two ways, the same L2 when L1 = 0):
//   L1 = 3a/8 - 7/288, so L1 = 0 at a = 7/108, where L2 = 14551/1088640.
// In Kuznetsov's normalization (w = x + i y = sqrt(2) z, as above) the radius
// |z| obeys |z|' = l1 |z|^3 + l2 |z|^5, so r' = l1 r^3/2 + l2 r^5/4 and
//   l1 = 2 L1 = 3a/4 - 7/144,   l2 = 4 L2 = 14551/272160 at a = 7/108.
TEST_CASE("l1 and l2 of a planar system against its Lyapunov constants (sympy)", "[hopf][generalized-hopf]") {
  const Vector u = Vector::Zero(3);
  SECTION("a = 0: l1 = -7/144") {
    const auto system = make_system(Planar{0.0});
    CHECK(std::abs(hopf_point(*system, u).l1 - (-7.0 / 144)) < 1e-12);
  }
  SECTION("a = 7/108: l1 = 0, l2 = 14551/272160") {
    const auto system = make_system(Planar{7.0 / 108});
    const HopfPoint h = hopf_point(*system, u);
    CHECK(std::abs(h.l1) < 1e-12);
    CHECK(std::abs(second_lyapunov_coefficient(*system, u, h) - 14551.0 / 272160) < 1e-11);
  }
}
