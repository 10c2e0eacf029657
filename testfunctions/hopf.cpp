#include "testfunctions/hopf.h"

#include <Eigen/Sparse>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>

#include "continuation/branch.h"
#include "testfunctions/multilinear_forms.h"

namespace saltus {

namespace {

using Complex = std::complex<double>;
using ComplexMatrix = Eigen::MatrixXcd;

// A zero eigenvalue "beside" the pair +-i omega: |lambda| below this times omega.
constexpr double kZeroBeside = 1e-6;

// The multilinear forms of F at u, restricted to the state, from
// derivatives along directions (System::derivatives_along).
class Forms {
 public:
  Forms(const System& system, const Vector& u) : system_(system), u_(u), n_(system.state_size()) {}

  // D2(v) = F_xx[v, v] and D3(v) = F_xxx[v, v, v].
  Vector D2(const Vector& v) const { return along(state(v)).col(1); }
  Vector D3(const Vector& v) const { return along(state(v)).col(2); }

  Vector B(const Vector& x, const Vector& y) const { return (D2(x + y) - D2(x - y)) / 4.0; }
  // F_uu[d, (v, 0)] for a direction d of the whole u = (x, p).
  Vector mixed(const Vector& d, const Vector& v) const {
    return (along(d + state(v)).col(1) - along(d - state(v)).col(1)) / 4.0;
  }
  ComplexVector B(const ComplexVector& x, const ComplexVector& y) const {
    const Vector xr = x.real(), xi = x.imag(), yr = y.real(), yi = y.imag();
    return (B(xr, yr) - B(xi, yi)).cast<Complex>() + Complex(0, 1) * (B(xr, yi) + B(xi, yr)).cast<Complex>();
  }
  // C(q, q, conj q) by polarization (the header's formulas).
  ComplexVector C_qqq_bar(const ComplexVector& q) const {
    const Vector a = q.real(), b = q.imag();
    const Vector Da = D3(a), Db = D3(b), Dp = D3(a + b), Dm = D3(a - b);
    const Vector abb = (Dp + Dm - 2.0 * Da) / 6.0, aab = (Dp - Dm - 2.0 * Db) / 6.0;
    return (Da + abb).cast<Complex>() + Complex(0, 1) * (aab + Db).cast<Complex>();
  }

 private:
  Vector state(const Vector& v) const {
    Vector d = Vector::Zero(u_.size());
    d.head(n_) = v;
    return d;
  }
  Matrix along(const Vector& d) const {
    Matrix D;
    system_.derivatives_along(u_.data(), d.data(), 3, &D);
    return D;
  }
  const System& system_;
  const Vector& u_;
  int n_;
};

// The index of the eigenvalue with positive imaginary part nearest the
// imaginary axis, or -1.
Eigen::Index nearest_axis(const ComplexVector& lambda) {
  Eigen::Index best = -1;
  for (Eigen::Index k = 0; k < lambda.size(); ++k)
    if (lambda[k].imag() > 0 && (best < 0 || std::abs(lambda[k].real()) < std::abs(lambda[best].real())))
      best = k;
  return best;
}

// The eigenvector of M for the eigenvalue nearest mu.
ComplexVector eigenvector_near(const Matrix& M, Complex mu) {
  Eigen::EigenSolver<Matrix> solver(M);
  if (solver.info() != Eigen::Success) throw std::runtime_error("the eigenvectors of F_x did not converge");
  Eigen::Index k = 0;
  (solver.eigenvalues().array() - mu).abs().minCoeff(&k);
  return solver.eigenvectors().col(k);
}

using ComplexSparse = Eigen::SparseMatrix<Complex>;
using ComplexLU = Eigen::SparseLU<ComplexSparse, Eigen::COLAMDOrdering<int>>;

// Sparse, for large systems: q and p by inverse iteration with the shift
// i omega (one sparse complex LU of A - i omega I: q from it, p from its
// adjoint, since A^T p = -i omega p is (A - i omega I)^H p = 0), omega then
// refined by the Rayleigh quotient. Stops when the eigen-residual
// |M v - (v^H M v) v| (M = A or A^T) is below 1e-13 of A's size; throws when it
// is not after 20 iterations (a frequency guess far from the pair's).
ComplexVector inverse_iteration(ComplexLU& lu, const SparseMatrix& A, bool adjoint) {
  const Eigen::Index n = A.rows();
  const ComplexSparse M =
      adjoint ? ComplexSparse(A.transpose().cast<Complex>()) : ComplexSparse(A.cast<Complex>());
  const double scale = A.cwiseAbs().sum() / std::max<Eigen::Index>(n, 1) + 1.0;  // a size of A
  ComplexVector v = ComplexVector::Ones(n) / std::sqrt(double(n));
  for (int it = 0; it < 20; ++it) {
    v = adjoint ? ComplexVector(lu.adjoint().solve(v)) : ComplexVector(lu.solve(v));
    v /= v.norm();
    const ComplexVector Mv = M * v;
    if ((Mv - v.dot(Mv) * v).norm() <= 1e-13 * scale) return v;
  }
  throw std::runtime_error(
      "inverse iteration for the Hopf eigenvectors did not converge: the frequency guess is "
      "far from the critical pair's");
}

// The LU of A - shift I. `lu` analyzed for one shift is refactored for
// another without a new ordering (the pattern is A's with its diagonal).
void factor(const SparseMatrix& A, Complex shift, ComplexLU* lu, bool analyzed = false) {
  ComplexSparse M = A.cast<Complex>();
  for (Eigen::Index i = 0; i < A.rows(); ++i) M.coeffRef(i, i) -= shift;
  M.makeCompressed();
  if (!analyzed) lu->analyzePattern(M);
  lu->factorize(M);
  if (lu->info() != Eigen::Success) throw std::runtime_error("the sparse LU of F_x - shift I failed");
}

double l1_from(const Forms& forms, const HopfPoint& h,
               const std::function<ComplexVector(Complex, const ComplexVector&)>& solve) {
  const ComplexVector q = h.q, qb = q.conjugate();
  const ComplexVector h11 = solve(0.0, forms.B(q, qb));                      // A^{-1} B(q, conj q)
  const ComplexVector h20 = -solve(Complex(0, 2 * h.omega), forms.B(q, q));  // (2 i omega I - A)^{-1} B(q, q)
  const Complex sum =
      h.p.dot(forms.C_qqq_bar(q)) - 2.0 * h.p.dot(forms.B(q, h11)) + h.p.dot(forms.B(qb, h20));
  return sum.real() / (2 * h.omega);
}

}  // namespace

HopfPoint hopf_point(const System& system, const Vector& u, double omega, ZeroBeside zero) {
  const int n = system.state_size();
  const Forms forms(system, u);
  HopfPoint h;
  if (omega > 0 && system.is_sparse()) {
    SparseMatrix J;
    system.sparse_jacobian(u.data(), &J);
    const SparseMatrix A = J.leftCols(n);
    ComplexLU lu;
    factor(A, Complex(0, omega), &lu);
    h.q = inverse_iteration(lu, A, false);
    h.p = inverse_iteration(lu, A, true);
    const Complex lambda = h.q.dot(A.cast<Complex>() * h.q);  // the Rayleigh quotient
    if (std::abs(lambda.real()) > 1e-6 * std::abs(lambda))
      throw std::invalid_argument(
          "the eigenvalue of F_x nearest i omega is not on the imaginary axis: not a Hopf point");
    h.omega = lambda.imag();
    h.p /= std::conj(h.p.dot(h.q));
    // The shifts of l1_from: 0, with a real LU of A for the real and
    // imaginary parts of b (a real LU costs about a quarter of a complex
    // one), and 2 i omega, on the ordering of lu (q and p are done with it).
    h.l1 = l1_from(forms, h, [&](Complex shift, const ComplexVector& b) {
      if (shift == 0.0) {
        const Eigen::SparseLU<SparseMatrix, Eigen::COLAMDOrdering<int>> real(A);
        if (real.info() != Eigen::Success) throw std::runtime_error("the sparse LU of F_x failed");
        Matrix parts(n, 2);
        parts << b.real(), b.imag();
        const Matrix x = real.solve(parts);
        return ComplexVector(x.col(0).cast<Complex>() + Complex(0, 1) * x.col(1).cast<Complex>());
      }
      factor(A, shift, &lu, /*analyzed=*/true);
      return ComplexVector(lu.solve(b));
    });
    return h;
  }
  const Matrix A = system.jacobian(u).leftCols(n);
  Eigen::EigenSolver<Matrix> solver(A, /*computeEigenvectors=*/false);
  const ComplexVector lambda = solver.eigenvalues();
  // The pair of frequency omega when it is given (where two pairs are near
  // the axis, as at a double Hopf point, the caller's), else the one nearest
  // the axis.
  Eigen::Index k = nearest_axis(lambda);
  if (omega > 0)
    for (Eigen::Index j = 0; j < lambda.size(); ++j)
      if (lambda[j].imag() > 0 &&
          std::abs(lambda[j] - Complex(0, omega)) < std::abs(lambda[k] - Complex(0, omega)))
        k = j;
  if (k < 0) throw std::invalid_argument("F_x has no complex eigenvalue: this is not a Hopf point");
  h.omega = lambda[k].imag();
  for (Eigen::Index j = 0; j < lambda.size() && zero == ZeroBeside::kThrow; ++j)
    if (std::abs(lambda[j]) <= kZeroBeside * h.omega)
      throw std::invalid_argument(
          "F_x has a zero eigenvalue beside the pair +-i omega (zero-Hopf): l1 is not defined");
  h.q = eigenvector_near(A, lambda[k]);
  h.q /= h.q.norm();
  // A^T v = lambda v gives A^T conj(v) = conj(lambda) conj(v): p = conj(v).
  h.p = eigenvector_near(A.transpose(), lambda[k]).conjugate();
  h.p /= std::conj(h.p.dot(h.q));                                        // <p, q> = 1
  h.l1 = l1_from(forms, h, [&](Complex shift, const ComplexVector& b) {  // (A - shift I)^{-1} b
    return ComplexVector((A.cast<Complex>() - shift * ComplexMatrix::Identity(n, n)).partialPivLu().solve(b));
  });
  return h;
}

double second_lyapunov_coefficient(const System& system, const Vector& u, const HopfPoint& hopf) {
  const int n = system.state_size();
  const MultilinearForms M(system, u);
  const ComplexMatrix A = system.jacobian(u).leftCols(n).cast<Complex>();
  const ComplexMatrix I = ComplexMatrix::Identity(n, n);
  const double w = hopf.omega;
  const Complex i(0, 1);
  // (s I - A)^{-1} b.
  auto solve = [&](Complex s, const ComplexVector& b) {
    return ComplexVector((s * I - A).partialPivLu().solve(b));
  };
  const ComplexVector q = hopf.q, qb = q.conjugate(), &p = hopf.p;
  const ComplexVector h20 = solve(2.0 * i * w, M({q, q})), h11 = solve(0.0, M({q, qb})),
                      h20b = h20.conjugate();
  const ComplexVector r21 = M({q, q, qb}) + M({qb, h20}) + 2.0 * M({q, h11});
  const Complex c1 = p.dot(r21) / 2.0;
  const ComplexVector h30 = solve(3.0 * i * w, M({q, q, q}) + 3.0 * M({q, h20}));
  // h21: the bordered system [i w I - A, q; p^H, 0] (h21, s) = (r21 - 2 c1 q, 0).
  ComplexMatrix bordered(n + 1, n + 1);
  bordered << i * w * I - A, q, p.adjoint(), Complex(0);
  ComplexVector rhs(n + 1);
  rhs << r21 - 2.0 * c1 * q, Complex(0);
  const ComplexVector h21 = bordered.partialPivLu().solve(rhs).head(n), h21b = h21.conjugate();
  const ComplexVector h31 =
      solve(2.0 * i * w, M({q, q, q, qb}) + 3.0 * M({q, q, h11}) + 3.0 * M({q, qb, h20}) +
                             3.0 * M({h20, h11}) + M({qb, h30}) + 3.0 * M({q, h21}) - 6.0 * c1 * h20);
  const ComplexVector h22 =
      solve(0.0, M({q, q, qb, qb}) + 4.0 * M({q, qb, h11}) + M({qb, qb, h20}) + M({q, q, h20b}) +
                     2.0 * M({h11, h11}) + 2.0 * M({q, h21b}) + 2.0 * M({qb, h21}) + M({h20b, h20}) -
                     4.0 * (c1 + std::conj(c1)) * h11);
  const ComplexVector r32 = M({q, q, q, qb, qb}) + M({q, q, q, h20b}) + 3.0 * M({q, qb, qb, h20}) +
                            6.0 * M({q, q, qb, h11}) + M({qb, qb, h30}) + 3.0 * M({q, q, h21b}) +
                            6.0 * M({q, qb, h21}) + 3.0 * M({q, h20b, h20}) + 6.0 * M({q, h11, h11}) +
                            6.0 * M({qb, h20, h11}) + 2.0 * M({qb, h31}) + 3.0 * M({q, h22}) +
                            M({h20b, h30}) + 3.0 * M({h21b, h20}) + 6.0 * M({h11, h21});
  return (p.dot(r32) / 12.0).real() / w;
}

double hopf_transversality(const System& system, const Vector& u, const HopfPoint& hopf, int parameter) {
  const int n = system.state_size();
  const Matrix J = system.jacobian(u);
  Vector d = Vector::Zero(u.size());
  d.head(n) = -J.leftCols(n).partialPivLu().solve(J.col(n + parameter));  // x' = -F_x^{-1} F_p
  d[n + parameter] = 1.0;
  const Forms forms(system, u);
  const ComplexVector Aq = forms.mixed(d, hopf.q.real()).cast<Complex>() +
                           Complex(0, 1) * forms.mixed(d, hopf.q.imag()).cast<Complex>();
  return hopf.p.dot(Aq).real();
}

double HopfTest::value(const PointContext& point) const {
  const ComplexVector& lambda = point.eigenvalues;
  if (lambda.size() == 0)
    throw std::logic_error(
        "the Hopf test needs the eigenvalues of F_x: set ContinuationOptions::eigenvalues");
  Complex psi = 1.0;
  for (Eigen::Index i = 0; i < lambda.size(); ++i)
    for (Eigen::Index j = i + 1; j < lambda.size(); ++j) {
      const double scale = std::abs(lambda[i]) + std::abs(lambda[j]);
      psi *= scale > 0 ? (lambda[i] + lambda[j]) / scale : Complex(0.0);
    }
  return psi.real();
}

std::pair<Eigen::Index, Eigen::Index> critical_pair(const ComplexVector& lambda) {
  Eigen::Index a = 0, b = 1;
  double smallest = std::numeric_limits<double>::infinity();
  for (Eigen::Index i = 0; i < lambda.size(); ++i)
    for (Eigen::Index j = i + 1; j < lambda.size(); ++j) {
      const double scale = std::abs(lambda[i]) + std::abs(lambda[j]);
      const double f = scale > 0 ? std::abs(lambda[i] + lambda[j]) / scale : 0.0;
      if (f < smallest) smallest = f, a = i, b = j;
    }
  return {a, b};
}

bool is_real(std::complex<double> lambda) { return std::abs(lambda.imag()) <= 1e-6 * std::abs(lambda); }

bool HopfTest::describe(const PointContext& point, SpecialPoint* special) const {
  const ComplexVector& lambda = point.eigenvalues;
  const auto [a, b] = critical_pair(lambda);
  if (is_real(lambda[a]) && is_real(lambda[b])) return false;  // a neutral saddle +-kappa
  const double omega = std::abs(lambda[a].imag());
  special->data["frequency"] = omega;
  special->data["period"] = 2 * M_PI / omega;
  for (Eigen::Index j = 0; j < lambda.size(); ++j)
    if (j != a && j != b && std::abs(lambda[j]) <= kZeroBeside * omega) {
      special->type = "ZH";  // l1 is not defined beside a zero eigenvalue
      return true;
    }
  const HopfPoint h = hopf_point(point.problem.system(), point.problem.u(point.y), omega);
  special->data["l1"] = h.l1;
  special->data["criticality"] = !std::isfinite(h.l1)         ? "undetermined (l1 is not finite)"
                                 : std::abs(h.l1) <= l1_zero_ ? "degenerate"
                                 : h.l1 < 0                   ? "supercritical"
                                                              : "subcritical";
  return true;
}

}  // namespace saltus
