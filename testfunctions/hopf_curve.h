#pragma once
// The Hopf curve of equilibria in two parameters and its codimension-2
// points.
//
// Defining system, minimally augmented with the trace of the critical pair's
// block:
//
//   F(x, p) = 0,   g(x, p) = lambda_a + lambda_b = tr(W^T A V) = 0,   A = F_x,
//
// V, W (n x 2) right and left bases of the invariant subspace of the pair
// (lambda_a, lambda_b), W^T V = I: the kernels of Q = A^2 - (lambda_a +
// lambda_b) A + lambda_a lambda_b I (a real matrix) and of Q^T, from the SVD
// of Q. The sum of a group of eigenvalues is a smooth (analytic) function of
// A while the group stays apart from the rest of the spectrum, even where
// its members collide, and d(lambda_a + lambda_b) = tr(W^T dA V) (Kato,
// "Perturbation theory for linear operators", Springer 1966, Sec. II.2.2,
// the mean of a lambda-group): so g_u = tr(W^T A_u V) exactly, A_u (the
// derivatives of F_x) from n passes of System::second_derivative. The pair is
// tracked: at each evaluation the conjugate pair or pair of real eigenvalues
// nearest the one at the last accepted point (at the start, the pair whose
// sum is nearest zero). Dense: meant for small and moderate n.
//
// Why not the bialternate product (Govaerts, "Numerical methods for
// bifurcations of dynamical equilibria", SIAM 2000, Sec. 4.4): the bordered
// 2A(.)I (eigenvalues lambda_i + lambda_j, i < j) is singular on every Hopf
// curve, so its minimally augmented g vanishes on both curves that cross at
// a double Hopf point, g ~ sigma_1 sigma_2 / (c_1 b_1 sigma_2 + c_2 b_2
// sigma_1) with sigma_k = 2 Re lambda of either pair: the augmented system
// has a branch point at every HH, and within the residual of the curve
// (|sigma_1| ~ 1e-13) of it the corrected point lies on the other pair's
// curve as much as on its own (Lorenz-84: the tangent turned by 33 degrees
// 1e-15 from the HH, and the HH was only bracketed, 8.6e-5 wide, from one
// side). g = lambda_a + lambda_b of one tracked pair vanishes on that pair's
// curve alone: the defining system stays regular through HH (the two pairs
// are apart, omega_1 != omega_2), through BT (the block's trace is smooth at
// the Jordan block, where lambda_a and lambda_b are not) and through ZH.
//
// The curve holds Hopf points (a pair +-i omega, kappa = omega^2 > 0) and
// neutral saddles (+-sqrt(-kappa)); they meet at Bogdanov-Takens points.
// Along it (Kuznetsov, "Elements of applied bifurcation theory", 3rd ed.,
// 2004, Sec. 10.2.2), with lambda_a, lambda_b the critical pair (the one
// HopfFunction tracks) and the other eigenvalues lambda_j:
//   "BT": kappa = lambda_a lambda_b = 0;
//   "ZH": prod_j lambda_j = 0 (a zero eigenvalue beside the pair);
//   "HH": prod_{i<j} (lambda_i + lambda_j) / (|lambda_i| + |lambda_j|) over the
//         other eigenvalues = 0, reported when both pairs are imaginary;
//   "GH": l1 = 0 (testfunctions/hopf.h), on the Hopf part (kappa > 0), by
//         the test function below.
//
// The GH test and the poles of l1. l1 = Re c1 / omega (hopf.h), with
// c1 = <p, C(q, q, conj q) - 2 B(q, A^{-1} B(q, conj q))
//          + B(conj q, (2 i omega - A)^{-1} B(q, q))> / 2, <p, q> = 1,
// is a smooth function along the Hopf part except where one of its three
// inverses breaks down, and there it changes sign through infinity, not
// through zero; a GH is a zero of l1 with finite l2, never such a pole:
//   - ZH: a real eigenvalue lambda_0 beside the pair passes 0. With r_0, l_0
//     its right and left eigenvectors, A^{-1} = r_0 l_0^T / (lambda_0
//     l_0^T r_0) + (a part regular at lambda_0 = 0), and A^{-1} enters c1
//     once, linearly, so l1 = K / lambda_0 + O(1), K = -Re <p, B(q, r_0)>
//     l_0^T B(q, conj q) / (omega l_0^T r_0), nonzero at a generic ZH:
//     l1 jumps from -sign(K) infinity to +sign(K) infinity.
//   - BT: omega -> 0. On the critical plane A tends to the Jordan block
//     [0 1; -omega^2 0]: q -> (1, i omega) / |.|, p = (-i omega, 1) /
//     conj(2 i omega) grows like 1 / (2 omega), A^{-1} like 1 / omega^2; the
//     leading 1 / omega^3 term of c1 is imaginary, so Re c1 ~ 1 / omega^2
//     and l1 ~ L / omega^3 (L, a product of the BT normal-form coefficients,
//     nonzero at a generic BT; on the Lorenz-84 curve omega^3 l1 stays
//     between 0.065 and 0.067 for omega from 0.16 to 0.05). Beyond the BT the
//     curve goes on as neutral saddles (kappa < 0), where l1 is not defined;
//     a value put there (kappa, before) made a sign change at every BT
//     where L > 0.
//   - (2 i omega - A)^{-1}: singular where 2 i omega is an eigenvalue of A,
//     a double Hopf point in 1:2 resonance (codimension 3; not on a generic
//     Hopf curve).
// So the test is, on the Hopf part,
//
//   g_GH = omega^3 l1 prod_j lambda_j / (|lambda_j| + omega),
//
// the product over the eigenvalues beside the pair. Its zeros are l1's:
// omega^3 > 0, a complex pair of the product gives |lambda_j|^2 /
// (|lambda_j| + omega)^2 > 0 and a real lambda_j its sign, so g_GH = 0 with
// omega > 0 and no lambda_j = 0 only where l1 = 0 (and the sign of g_GH
// changes there as l1's does). The factor lambda_0 / (|lambda_0| + omega) ~
// lambda_0 / omega cancels the simple pole at a ZH (g_GH -> K omega^2
// prod_{j != 0} ..., finite and nonzero: no sign change), and omega^3 the
// pole at a BT (g_GH -> L prod_j sign(lambda_j)). On the neutral-saddle
// part g_GH is NaN (no value): the engine counts a sign change only between
// two values of opposite signs, so none is counted across a BT. Bounded
// and continuous along the Hopf part, g_GH changes sign at GH points, and at
// a ZH only where K = 0 (l1 has no pole there, as when the zero eigenvalue's
// direction is decoupled from the pair's, and the factor lambda_0 alone
// vanishes): describe() drops a zero with an eigenvalue beside the pair
// within 1e-6 omega of zero (the ZH test reports that point), as well as a
// zero off the Hopf part or a jump.

#include <Eigen/Dense>
#include <array>
#include <complex>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "continuation/continuation_problem.h"
#include "continuation/options.h"
#include "continuation/test_function.h"

namespace saltus {

// 2A(.)I: rows and columns indexed by the pairs (p, q), p > q, in the order
// (1,0), (2,0), (2,1), (3,0), ...
Matrix bialternate(const Matrix& A);

class HopfFunction : public DefiningFunction {
 public:
  // The pair tracked from the critical pair of F_x at u (an HB or a BT, or
  // close to one). Throws std::invalid_argument if 2A(.)I is far from
  // singular there, or if n < 2.
  HopfFunction(const System& system, const Vector& u, double max_sigma = 1e-3);
  std::string name() const override { return "hopf"; }
  // g = lambda_a + lambda_b of the tracked pair, and its gradient.
  double evaluate(const System& system, const Vector& u, Vector* gradient) const override;
  // The tracked pair moves to the accepted point's.
  void accept(const System& system, const Vector& u) override;
  // Among the eigenvalues lambda of F_x, the indices (i < j) of the pair
  // nearest the tracked one (a conjugate pair or two real eigenvalues).
  // Throws std::runtime_error when there is none.
  std::pair<Eigen::Index, Eigen::Index> tracked_pair(const Eigen::VectorXcd& lambda) const;

 private:
  std::array<std::complex<double>, 2> pair_;  // at the last accepted point
};

// The codimension-2 test functions on a Hopf curve (they read the monitored
// eigenvalues): type "BT", "ZH", "HH" or "GH".
class HopfCurveTest : public TestFunction {
 public:
  explicit HopfCurveTest(std::string type) : type_(std::move(type)) {}
  std::string type() const override { return type_; }
  double value(const PointContext& point) const override;
  bool describe(const PointContext& point, SpecialPoint* special) const override;

 private:
  std::string type_;
};

// On a fold curve of equilibria (testfunctions/fold.h), with lambda_0 the
// eigenvalue nearest zero and lambda_j the others (Kuznetsov 2004, Sec. 10.2.2):
//   "BT": prod_j lambda_j = 0 (a second zero eigenvalue);
//   "ZH": prod_{i<j} (lambda_i + lambda_j) / (|lambda_i| + |lambda_j|) = 0,
//         reported when that pair is imaginary (else a neutral saddle).
class FoldCurveTest : public TestFunction {
 public:
  explicit FoldCurveTest(std::string type) : type_(std::move(type)) {}
  std::string type() const override { return type_; }
  double value(const PointContext& point) const override;
  bool describe(const PointContext& point, SpecialPoint* special) const override;

 private:
  std::string type_;
};

struct HopfCurve {
  std::shared_ptr<ContinuationProblem> problem;
  Vector start;
  std::vector<std::shared_ptr<const TestFunction>> tests;  // BT, ZH, HH, GH
};

// The Hopf curve through the Hopf point u (x, p) in the two parameters
// `free` (the first being the one of the branch where it was found).
HopfCurve hopf_curve(std::shared_ptr<const System> system, const Vector& u,
                     const std::vector<std::string>& free);

// The curve of hopf_curve() is one smooth curve through a Bogdanov-Takens
// point: Hopf points (kappa = lambda_a lambda_b > 0) on one side, neutral
// saddles (kappa < 0) on the other (Kuznetsov 2004, Sec. 8.4: in the normal
// form the Hopf half-line beta_1 = 0, beta_2 < 0 meets the fold curve
// tangentially). Started at a BT, the unit tangent into the Hopf side: one
// corrected step of options.ds each way, kept where kappa > 0. Throws
// std::runtime_error when neither side has Hopf points (not a BT, or ds too
// large for the curve).
Vector hopf_side_tangent(const HopfCurve& curve, const ContinuationOptions& options);

}  // namespace saltus
