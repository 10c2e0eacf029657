#pragma once
// Hopf points ("HB") of equilibria of x' = F(x, p), and their first Lyapunov
// coefficient.
//
// Test function. On a branch that monitors the eigenvalues lambda_i of
// F_x, the bialternate product
//
//   psi = prod_{i<j} (lambda_i + lambda_j) / (|lambda_i| + |lambda_j|)
//
// (det(2 F_x (.) I), Kuznetsov, "Elements of applied bifurcation theory",
// 3rd ed., Springer 2004, Sec. 10.2.2, each factor scaled to [-1, 1] so that
// large systems neither overflow nor underflow) changes sign where a complex
// pair crosses the imaginary axis. It also vanishes at a neutral saddle, a
// real pair +-kappa: the located zero is checked, and a zero whose critical
// pair is real is not reported.
//
// First Lyapunov coefficient (Kuznetsov 2004, Sec. 3.5, eq. (3.20)): with
// A = F_x, A q = i omega q, A^T p = -i omega p, normalized <q, q> = 1 and
// <p, q> = 1 (<p, q> = conj(p)^T q; MatCont's normalization), and the
// multilinear forms B(x, y) = F_xx[x, y], C(x, y, z) = F_xxx[x, y, z],
//
//   l1 = Re( <p, C(q, q, conj q)> - 2 <p, B(q, A^{-1} B(q, conj q))>
//            + <p, B(conj q, (2 i omega I - A)^{-1} B(q, q))> ) / (2 omega).
//
// l1 < 0: supercritical (stable cycles born on the side where the
// equilibrium is unstable); l1 > 0: subcritical. B and C come exactly from
// one Taylor pass per direction (System::derivatives_along), by polarization:
// with q = a + i b,
//   B(x, y) = (D2(x + y) - D2(x - y)) / 4,   D2(v) = F_xx[v, v],
//   Re C(q, q, conj q) = C(a, a, a) + C(a, b, b),   Im = C(a, a, b) + C(b, b, b),
//   C(a, b, b) = (D3(a + b) + D3(a - b) - 2 D3(a)) / 6,
//   C(a, a, b) = (D3(a + b) - D3(a - b) - 2 D3(b)) / 6,   D3(v) = F_xxx[v, v, v].

#include <Eigen/Dense>
#include <complex>
#include <string>
#include <utility>

#include "continuation/system.h"
#include "continuation/test_function.h"

namespace saltus {

using ComplexVector = Eigen::VectorXcd;

struct HopfPoint {
  double omega = 0.0;  // the frequency: the critical eigenvalues are +-i omega
  ComplexVector q, p;  // A q = i omega q, A^T p = -i omega p, <q, q> = <p, q> = 1
  double l1 = 0.0;     // the first Lyapunov coefficient
};

// What hopf_point() does where F_x has a zero eigenvalue beside the pair
// (|lambda| <= 1e-6 omega, a zero-Hopf point): throw (l1 is not defined
// there), or compute l1 anyway from the LU of the nearly singular F_x (l1 is
// then near its pole, of order 1 / lambda: for a caller that multiplies the
// pole away, as the GH test of testfunctions/hopf_curve.h does).
enum class ZeroBeside { kThrow, kCompute };

// The Hopf data at u = (x, p) of `system`, from the eigenvalue of F_x with
// positive imaginary part nearest the imaginary axis (nearest i omega when
// omega > 0 is given). Throws
// std::invalid_argument when F_x has no complex eigenvalue, or when it is
// singular (a zero eigenvalue beside the pair: zero-Hopf, where l1 is not
// defined; unless `zero` is kCompute). On a sparse system, omega > 0 (the
// frequency from monitored eigenvalues) takes the sparse path: q and p by
// inverse iteration with one sparse complex LU of F_x - i omega I, the
// solves of l1 by sparse LUs, no dense eigensolver (the zero-Hopf check is
// then the caller's).
HopfPoint hopf_point(const System& system, const Vector& u, double omega = 0.0,
                     ZeroBeside zero = ZeroBeside::kThrow);

// The second Lyapunov coefficient at a generalized Hopf (Bautin) point,
// where l1 = 0 (Kuznetsov 2004, Sec. 8.7.2, eq. (8.23); Kuznetsov, "Numerical
// normalization techniques for all codim 2 bifurcations of equilibria in
// ODE's", SIAM J. Numer. Anal. 36 (1999) 1104-1124; MatCont's nf_GH). With the
// normal form z' = i omega z + c1 z|z|^2 + c2 z|z|^4 on the center manifold
// x = z q + conj(z q) + sum h_jk z^j conj(z)^k / (j! k!), the homological
// equation A h_jk + [terms of F] = coefficients of H_z z' + H_zbar zbar' gives,
// with B..E the multilinear forms (testfunctions/multilinear_forms.h):
//   h20 = (2 i omega - A)^{-1} B(q, q),   h11 = -A^{-1} B(q, conj q),
//   c1  = <p, C(q, q, conj q) + B(conj q, h20) + 2 B(q, h11)> / 2,
//   h30 = (3 i omega - A)^{-1} (C(q, q, q) + 3 B(q, h20)),
//   h21 = (i omega - A)^{INV} (C(q, q, conj q) + B(conj q, h20) + 2 B(q, h11) - 2 c1 q), <p, h21> = 0
//         (a bordered solve),
//   h31 = (2 i omega - A)^{-1} (D(q, q, q, conj q) + 3 C(q, q, h11) + 3 C(q, conj q, h20)
//         + 3 B(h20, h11) + B(conj q, h30) + 3 B(q, h21) - 6 c1 h20),
//   h22 = -A^{-1} (D(q, q, conj q, conj q) + 4 C(q, conj q, h11) + C(conj q, conj q, h20)
//         + C(q, q, conj h20) + 2 B(h11, h11) + 2 B(q, conj h21) + 2 B(conj q, h21)
//         + B(conj h20, h20) - 4 (c1 + conj c1) h11),
//   c2  = <p, E(q, q, q, conj q, conj q) + D(q, q, q, conj h20) + 3 D(q, conj q, conj q, h20)
//         + 6 D(q, q, conj q, h11) + C(conj q, conj q, h30) + 3 C(q, q, conj h21)
//         + 6 C(q, conj q, h21) + 3 C(q, conj h20, h20) + 6 C(q, h11, h11)
//         + 6 C(conj q, h20, h11) + 2 B(conj q, h31) + 3 B(q, h22) + B(conj h20, h30)
//         + 3 B(conj h21, h20) + 6 B(h11, h21)> / 12,
//   l2  = Re(c2) / omega
// in the normalization of l1 (<q, q> = 1, <p, q> = 1). The terms in c1 of h31
// and h22 come from z' = i omega z + c1 z|z|^2 in H_z z'; at a GH Re c1 = 0 and
// the h22 term vanishes, kept so that l2 near a located GH is the limit's.
// l2 < 0: the cycles near the GH are born stable where l1 crosses zero
// (Kuznetsov 2004, Sec. 8.3). Dense (the Hopf curve is). Throws as hopf_point.
double second_lyapunov_coefficient(const System& system, const Vector& u, const HopfPoint& hopf);

// mu' = d Re(lambda) / d p_k along the branch of equilibria through the
// Hopf point u, k the index of the parameter: with A(p) = F_x(x(p), p),
// x' = -F_x^{-1} F_p, lambda' = <p, A' q> = <p, F_uu[(x', e_k), (q, 0)]>
// (<p, q> = 1). Nonzero: the pair crosses the axis transversally.
double hopf_transversality(const System& system, const Vector& u, const HopfPoint& hopf, int parameter);

// The critical pair of eigenvalues: the (i, j), i < j, whose factor
// |lambda_i + lambda_j| / (|lambda_i| + |lambda_j|) of the Hopf test is smallest.
std::pair<Eigen::Index, Eigen::Index> critical_pair(const ComplexVector& lambda);

// Is lambda real (its imaginary part below 1e-6 of its modulus)?
bool is_real(std::complex<double> lambda);

// "HB": the bialternate product of the monitored eigenvalues. describe()
// drops neutral saddles, and gives the frequency, l1 and the criticality
// ("supercritical", "subcritical", or "degenerate" when |l1| is below
// l1_zero, where the cubic terms do not decide); a Hopf point with a zero
// eigenvalue beside the pair is reported as "ZH".
class HopfTest : public TestFunction {
 public:
  explicit HopfTest(double l1_zero = 1e-8) : l1_zero_(l1_zero) {}
  std::string type() const override { return "HB"; }
  double value(const PointContext& point) const override;
  bool describe(const PointContext& point, SpecialPoint* special) const override;

 private:
  double l1_zero_;
};

}  // namespace saltus
