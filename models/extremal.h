#pragma once
// The plane extremal-point (contact-point) problem of Damerau & Low 2016
// (J. Comput. Nonlinear Dynam. 11(6), doi:10.1115/1.4034393, Sec. 2 and 4.1), rederived.
//
// Body 1 is fixed; body 2's boundary c2_b(s2), given in its own frame, is
// posed in body 1's frame by (x, y, phi):
//
//   c2(s2; x, y, phi) = A(phi) c2_b(s2) + (x, y),  A(phi) = [cos -sin; sin cos]   (2)
//
// The unknowns are u = (s1, s2), the parameters (x, y, phi); the equations
// are eq. (3) with UNIT tangents and normals (the paper's examples reproduce
// with those, not with the unnormalised vectors its text suggests):
//
//   f1 = (c2 - c1) . t1,    f2 = n1 . t2,                                         (3)
//
// with the conventions of models/planar_curve.h: t = c'/|c'|, outward normal
// n = (t_y, -t_x), signed curvature kappa (> 0 convex), Frenet formulas
// dt/dsigma = -kappa n, dn/dsigma = kappa t in the arc length sigma. The
// posed curve has t2 = A t2_b, n2 = A n2_b and the same kappa2 (a rotation
// keeps the orientation).
//
// Jacobian (7)-(9), rederived. In the arc lengths (d sigma_i = |c_i'| ds_i),
// at ANY (s1, s2), with d := (c2 - c1) . n1 (the signed distance along body
// 1's outward normal: > 0 separated, < 0 penetrating):
//
//   df1/dsigma1 = -t1.t1 + (c2 - c1).(-kappa1 n1) = -1 - kappa1 d
//   df1/dsigma2 = t2 . t1
//   df2/dsigma1 = (kappa1 t1) . t2 = kappa1 t1.t2
//   df2/dsigma2 = n1 . (-kappa2 n2) = -kappa2 n1.n2                               (8)
//
// In the plane n_i = R t_i with one rotation R, so n1.n2 = t1.t2 =: eps. At an
// extremal point f2 = 0 makes t2 parallel to t1, eps = +-1. eps = -1 is the
// paper's case (opposing bodies: tangents and normals antiparallel, eq. (18)):
//
//   J = [ -1 - kappa1 d   -1     ]     det J = -kappa1 - kappa2 - kappa1 kappa2 d   (9), (10)
//       [ -kappa1         kappa2 ],    tr J  = -1 - kappa1 d + kappa2              (11)
//
// eps = +1 (co-oriented tangents: the same formulas with kappa2 -> -kappa2)
// gives det J = -kappa1 + kappa2 + kappa1 kappa2 d; in general
// det J = eps kappa2 (1 + kappa1 d) - kappa1 at an extremal point. In the
// curve parameters J_s = J diag(|c1'|, |c2'|), so det J_s = |c1'| |c2'| det J:
// the same zero set and sign; the trace and the eigenvalues (11) are those of
// the arc-length J. The parameter columns (used by the extended system (12)-(14)
// of the next slice): df/dx = (t1_x, 0), df/dy = (t1_y, 0),
// df1/dphi = (A' c2_b) . t1, df2/dphi = n1 . dt2/dphi = -n1.n2 = -eps
// (dt2/dphi = -n2 as in (17)).
//
// All of it is exact: ExtremalEquations is a functor templated on its scalar
// (AutoDiffSystem differentiates it with ceres::Jet and Boost.Math fvar); the
// curve derivative c'(s) inside it comes from Taylor<T, 1>.

#include <Eigen/Dense>
#include <memory>
#include <string>
#include <vector>

#include "continuation/autodiff_system.h"
#include "continuation/taylor.h"
#include "models/extremal_degeneracy.h"
#include "models/planar_curve.h"

namespace saltus::models {

namespace detail {

// Point and unit tangent of a shape at s, on any scalar T: c'(s) is the
// first coefficient of the shape evaluated on the series s + t. Throws (see
// throw_not_regular) where |c'(s)| <= kRegularity * scale.
template <class T, class Shape>
void point_and_tangent(const Shape& shape, const T& s, T* point, T* tangent) {
  using std::sqrt;
  using Series = Taylor<T, 1>;
  Series xy[2];
  shape.eval(Series::variable(s, 1), xy);
  point[0] = xy[0][0];
  point[1] = xy[1][0];
  const T speed2 = xy[0][1] * xy[0][1] + xy[1][1] * xy[1][1];
  const double threshold = kRegularity * shape.scale();
  const double speed2_value = series::value_of(speed2);
  if (!(speed2_value > threshold * threshold))
    throw_not_regular(shape_name(shape), series::value_of(s), std::sqrt(std::max(speed2_value, 0.0)),
                      threshold);
  const T speed = sqrt(speed2);
  tangent[0] = xy[0][1] / speed;
  tangent[1] = xy[1][1] / speed;
}

}  // namespace detail

// f(s1, s2; x, y, phi) of eq. (3): u = (s1, s2, x, y, phi), two equations.
// Shape1, Shape2: any shape of planar_curve.h (or AnyShape).
template <class Shape1, class Shape2>
struct ExtremalEquations {
  Shape1 curve1;  // body 1, fixed: its frame is the common frame
  Shape2 curve2;  // body 2, in its own frame, posed by (x, y, phi)

  int state_size() const { return 2; }
  int parameter_size() const { return 3; }
  std::vector<std::string> state_names() const { return {"s1", "s2"}; }
  std::vector<std::string> parameter_names() const { return {"x", "y", "phi"}; }

  template <class T>
  void operator()(const T* u, T* f) const {
    using std::cos, std::sin;
    T p1[2], t1[2], p2[2], t2[2];
    detail::point_and_tangent(curve1, u[0], p1, t1);
    detail::point_and_tangent(curve2, u[1], p2, t2);
    const T c = cos(u[4]), s = sin(u[4]);
    // c2 = A(phi) c2_b + (x, y) and t2 = A(phi) t2_b, eq. (2).
    const T q0 = c * p2[0] - s * p2[1] + u[2];
    const T q1 = s * p2[0] + c * p2[1] + u[3];
    const T r0 = c * t2[0] - s * t2[1];
    const T r1 = s * t2[0] + c * t2[1];
    f[0] = (q0 - p1[0]) * t1[0] + (q1 - p1[1]) * t1[1];  // (c2 - c1) . t1
    f[1] = t1[1] * r0 - t1[0] * r1;                      // n1 . t2, n1 = (t1_y, -t1_x)
  }
};

// The problem as the engine sees it (system: f of eq. (3) with exact
// Jacobians; parameters named x, y, phi) and the two curves for geometry.
struct ExtremalProblem {
  std::shared_ptr<const System> system;
  std::shared_ptr<const PlanarCurve> curve1, curve2;
  // det, c2~, c3~ of models/extremal_degeneracy.h with exact gradients (fold
  // and cusp curves, analyses/contact/continuation.h).
  std::shared_ptr<const ExtremalDegeneracy> degeneracy;
};

// Checks both shapes (throws naming the bad field) and builds the problem.
template <class Shape1, class Shape2>
ExtremalProblem make_extremal_problem(Shape1 curve1, Shape2 curve2) {
  ExtremalProblem problem;
  problem.curve1 = make_curve(curve1);  // checks
  problem.curve2 = make_curve(curve2);
  ExtremalEquations<Shape1, Shape2> equations{std::move(curve1), std::move(curve2)};
  problem.degeneracy = std::make_shared<detail::Degeneracy<ExtremalEquations<Shape1, Shape2>>>(equations);
  problem.system = make_system(std::move(equations));
  return problem;
}

// u = (s1, s2, x, y, phi).
Vector extremal_u(double s1, double s2, const Eigen::Vector3d& pose);

// Everything eq. (3)-(11) speaks of at u = (s1, s2, x, y, phi), in body 1's frame.
struct ExtremalGeometry {
  Eigen::Vector2d c1, c2;                // the two boundary points
  Eigen::Vector2d t1, n1, t2, n2;        // unit tangents and outward normals
  double speed1 = 0, speed2 = 0;         // |c_i'(s_i)| = dsigma_i/ds_i
  double kappa1 = 0, kappa2 = 0;         // signed curvatures
  double d = 0;                          // (c2 - c1) . n1
  double epsilon = 0;                    // t1 . t2 (= n1 . n2); -1 at opposing extremal points
  Eigen::Vector2d residual;              // f of eq. (3)
  Eigen::Matrix<double, 2, 5> jacobian;  // df/d(s1, s2, x, y, phi), automatic (ceres::Jet)
  Eigen::Matrix2d jacobian_arclength;    // df/d(sigma1, sigma2) = J_s diag(1/speed1, 1/speed2)
  Eigen::Matrix2d jacobian_closed_form;  // eq. (8) from kappa1, kappa2, d, epsilon
  double det = 0;                        // det df/d(s1, s2), automatic
  double det_arclength = 0;              // det of jacobian_arclength = det / (speed1 speed2)
  double det_closed_form = 0;            // det of eq. (8): eps kappa2 (1 + kappa1 d) - kappa1 eps^2
  double det_eq10 = 0;         // -kappa1 - kappa2 - kappa1 kappa2 d, eq. (10) (valid where eps = -1)
  double trace_arclength = 0;  // trace of jacobian_arclength (eq. (11) where eps = -1)
  bool opposing() const { return epsilon < 0; }
};

// Throws std::invalid_argument if u does not have 5 finite components or a
// curve is not regular there.
ExtremalGeometry extremal_geometry(const ExtremalProblem& problem, const Vector& u);

// Where to look for all extremal points at one pose: the box
// |s1 - s1_centre| <= half_width, |s2 - s2_centre| <= half_width, searched by
// damped Newton from the centres of a grid x grid lattice of cells. A root is
// found when some start lies in its basin: keep the cell width
// 2 half_width / grid below the distance between roots you need to separate.
struct ExtremalSearchOptions {
  double s1_centre = 0.0;             // a
  double s2_centre = 0.0;             // b
  double half_width = 0.5;            // H > 0, in the curve parameters
  int grid = 32;                      // starts per side (>= 1)
  int max_iterations = 60;            // Newton iterations per start (degenerate roots converge linearly)
  double residual_tolerance = 1e-11;  // |f|_inf at an accepted root (f1 is a length, f2 a cosine)
  double step_tolerance = 1e-12;      // converged when |step|_inf <= this (1 + |s|_inf)
  double duplicate_tolerance =
      1e-6;  // roots closer than this (inf-norm in s, modulo the curves' periods) are one
  double degenerate_tolerance =
      1e-8;  // a root with |det J| (arc length, eq. (9)) below this is flagged degenerate

  // Empty when valid, else a message naming the first bad field and value.
  std::string check() const;
};

struct ExtremalPoint {
  double s1 = 0, s2 = 0;
  double residual = 0;  // |f|_inf
  int iterations = 0;   // Newton iterations of the start that found it first
  ExtremalGeometry geometry;
  bool degenerate = false;  // |det J| <= degenerate_tolerance
};

struct ExtremalPoints {
  int count = 0;                         // solutions.size()
  int opposing_count = 0;                // of them with t1 . t2 = -1 (the paper's physically meaningful ones)
  std::vector<ExtremalPoint> solutions;  // sorted by s1, then s2
  int starts = 0;                        // Newton starts
  int converged = 0;                     // starts that converged to a root inside the box
  int non_regular = 0;                   // starts abandoned at a non-regular curve point
  Eigen::Vector3d pose;                  // (x, y, phi)
  ExtremalSearchOptions options;
  std::string message;  // one line on what was done
};

// All extremal points at `pose` in the box of `options` (see there). Each
// root is verified: |f|_inf <= residual_tolerance at the reported point, inside the box.
// Throws std::invalid_argument on invalid options or a non-finite pose.
ExtremalPoints find_extremal_points(const ExtremalProblem& problem, const Eigen::Vector3d& pose,
                                    const ExtremalSearchOptions& options = {});

}  // namespace saltus::models
