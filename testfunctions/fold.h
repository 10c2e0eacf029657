#pragma once
// Folds (limit points, "LP") and cusps ("CP").
//
// On a branch of F(x, p) = 0 in one parameter p, a fold is where the branch
// turns back in p: the p-component of the unit tangent changes sign there
// (while det F_x vanishes). The fold curve in two parameters (p1, p2) is
// followed as the minimally augmented system (Govaerts, "Numerical methods for
// bifurcations of dynamical equilibria", SIAM 2000, Sec. 4.2; as in MatCont)
//
//   F(x, p) = 0,   g(x, p) = 0,   where  [ F_x  b ] [ v ]   [ 0 ]
//                                        [ c^T 0 ] [ g ] = [ 1 ],
//
// with bordering vectors b, c refreshed at every accepted point. Its exact
// gradient is g_u = -w^T (F_x v)_u, with w from the transposed system, so it
// needs the second derivative of F along v (nested jets). On the fold curve a
// cusp is where the quadratic coefficient a = w^T F_xx[v, v] of the reduced
// equation vanishes (Govaerts Sec. 4.3; Kuznetsov, "Elements of applied
// bifurcation theory", Sec. 8.2).

#include <memory>

#include "continuation/continuation_problem.h"
#include "continuation/test_function.h"

namespace saltus {

// "LP": the component of the unit tangent along the first free parameter.
// On a branch of periodic orbits the same test finds folds of cycles: give
// the type "LPC".
class FoldTest : public TestFunction {
 public:
  explicit FoldTest(std::string type = "LP") : type_(std::move(type)) {}
  std::string type() const override { return type_; }
  double value(const PointContext& point) const override;
  bool reads_eigenvalues() const override { return false; }

 private:
  std::string type_;
};

// g(x, p) of the minimally augmented fold system. Dense linear algebra
// (n + 1 bordered LUs, an SVD at the start): meant for small and moderate n;
// a fold curve of a large sparse system costs O(n^3) per point.
class FoldFunction : public DefiningFunction {
 public:
  // Bordering vectors from the singular vectors of F_x at u (a fold point, or
  // close to one). Throws std::invalid_argument if F_x is far from singular
  // (smallest singular value above `max_sigma` times the largest).
  FoldFunction(const System& system, const Vector& u, double max_sigma = 1e-3);
  std::string name() const override { return "fold"; }
  double evaluate(const System& system, const Vector& u, Vector* gradient) const override;
  void accept(const System& system, const Vector& u) override;
  // The right and left null vectors v, w of F_x at u (as bordered solutions),
  // and g.
  double null_vectors(const System& system, const Vector& u, Vector* v, Vector* w) const;

 private:
  Vector b_, c_;
};

// "CP": a = w^T F_xx[v, v] / (|v|^2 |w|) on a fold curve.
class CuspTest : public TestFunction {
 public:
  explicit CuspTest(std::shared_ptr<const FoldFunction> fold) : fold_(std::move(fold)) {}
  std::string type() const override { return "CP"; }
  double value(const PointContext& point) const override;

 private:
  std::shared_ptr<const FoldFunction> fold_;
};

// The fold curve through the fold point u (x, p) of `system`, in the two
// parameters `free` (the first being the one of the branch where the fold was
// found), and its cusp test. Returns the problem; *start receives y at u.
struct FoldCurve {
  std::shared_ptr<ContinuationProblem> problem;
  Vector start;
  std::shared_ptr<FoldFunction> fold;
  std::shared_ptr<CuspTest> cusp;
};
FoldCurve fold_curve(std::shared_ptr<const System> system, const Vector& u,
                     const std::vector<std::string>& free);

}  // namespace saltus
