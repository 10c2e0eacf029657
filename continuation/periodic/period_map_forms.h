#pragma once
// The second and third derivatives of an orbit's period map (a forced
// orbit) or Poincare map (an autonomous one) along one direction, exactly,
// for smooth and hybrid systems alike: what the normal forms of
// codimension-2 points on curves of cycles need (the cusp of cycles and the
// generalized period doubling, testfunctions/cycle_normal_form.h).
//
// The period (stroboscopic) map of a forced orbit is P(x) = phi(t0 + T; t0,
// x, p) at fixed p; at its fixed point x0 write
//
//   P(x0 + y) = x0 + M y + B(y, y) / 2 + C(y, y, y) / 6 + O(|y|^4)
//
// (Kuznetsov, "Elements of Applied Bifurcation Theory", 3rd ed. 2004, Sec.
// 5.4, for maps). The tangent-lifted system (continuation/flow/
// tangent_lifted.h) lifted once more has the state (z, w, z', w') and the
// flow
//
//   (z, w, z', w')  ->  (phi(z), Dphi(z) w, Dphi(z) z', D^2 phi(z)(w, z') + Dphi(z) w'),
//
// the second lift being the derivative of the first along (z', w'), with
// every event's saltation in it (each lift carries its perturbation through
// the events with the simulator's saltation matrix, and the lifted resets
// are smooth functions of the state before the event). Started from
// (x0, q, q, 0), parameters' components of the directions zero:
//
//   its state at t0 + T holds             B(q, q)          (fourth block),
//   its state-transition matrix holds     M                (block (1, 1)),
//                                         B(q, .)          (block (4, 3): d/dz' of D^2 phi(w, z')),
//                                         C(q, q, .)       (block (4, 1): d/dz of the same, w' = 0),
//
// the last from the simulator's variational equations (ceres::Jet through
// the doubly lifted field, Taylor<Taylor<Jet, 1>, 1> inside). One period of
// a system of four times the hybrid state with its state-transition matrix;
// nothing is differenced.
//
// An autonomous orbit (period T0, x0 on it) has no period map: its time-T0
// map Phi = phi(T0, .) keeps the multiplier 1 along the flow, and a nearby
// orbit returns after another time. Its Poincare map on a section through
// the orbit is (Kuznetsov 2004, Sec. 1.5 and 5.4; Kuznetsov, Govaerts,
// Doedel & Dhooge 2005, SIAM J. Numer. Anal. 43, compute the periodic
// normal forms instead, whose coefficients have the same zeros)
//
//   P(x) = phi(T(x), x),   s(P(x)) = 0,   T(x0) = T0,
//
// with the section Sigma = {s(x) = n . (x - x1) = 0}, x1 = Phi(x0) the return
// point (x0 to the orbit's accuracy) and n = f(x0), the field at the point:
// a plane through the orbit orthogonal to it, a function of the point
// alone. (The shooting problem's own phase plane, f(x_ref) . (x - x_ref) =
// 0, moves to each accepted point of the branch: a test value computed on
// it would jump a little between steps. Any transversal section gives a
// Poincare map conjugate to this one by the flow's holonomy h, P' = h P
// h^-1, and a conjugacy with h'(x0) q = k q' scales the center map's
// coefficients by nonzero factors: the fold's b by 1 / k, the flip's c by
// 1 / k^2 > 0. What is invariant, and all a test function needs, is the
// zero of b, the zero and the sign of c, and b's sign for a given
// orientation of q.)
//
// P = G o Phi, with G the projection onto Sigma along the flow near x1:
// G(z) = phi(tau(z), z), s(G(z)) = 0, tau(x1) = 0. Phi's forms M, B0, C0
// come from the twice-lifted system as above (the orbit over T0); G's need
// only f, A = Df and H = D^2 f at x1, since tau = O(|y|) for z = x1 + y:
// with phi(t, z) = z + t f(z) + t^2 (A f)(z) / 2 + t^3 (D(A f) f)(z) / 6 +
// ..., tau = tau1 + tau2 + tau3 (homogeneous in y), nu = n . f(x1) != 0
// (transversality), Pi = I - f n^T / nu (the projection onto Sigma along f):
//
//   order 1:  tau1 = -n . y / nu,                          G1(y) = Pi y;
//   order 2:  R2 = tau1 A y + tau1^2 A f / 2,              G2(y) = Pi R2,  tau2 = -n . R2 / nu;
//   order 3:  R3 = tau2 A y + tau1 H(y, y) / 2 + tau1 tau2 A f
//                  + tau1^2 (H(f, y) + A^2 y) / 2 + tau1^3 (H(f, f) + A^2 f) / 6,
//                                                          G3(y) = Pi R3
//
// (each order's tau_k f is what Pi removes: s(G) = 0 fixes tau_k). D^2
// G(a, b) = Pi dR2(a)[b] and D^3 G(a, a, b) = 2 Pi dR3(a)[b] (R2 and R3 are
// homogeneous of degree 2 and 3 in y), their derivatives along b written
// out as matrices in poincare_map_forms (period_map_forms.cpp). The chain
// rule then gives P's forms along q:
//
//   M_P        = Pi M,
//   B_P(q, w)  = D^2 G(Mq, Mw) + Pi B0(q, w),
//   C_P(q,q,w) = D^3 G(Mq, Mq, Mw) + D^2 G(Mw, B0(q, q)) + 2 D^2 G(Mq, B0(q, w)) + Pi C0(q, q, w).
//
// The map is taken on all of R^n (n states), not reduced to the (n - 1)
// coordinates of Sigma: P maps a neighbourhood of x0 into Sigma, so M_P has
// the eigenvalue 0 along f (M f(x0) = f(x1), Pi f = 0) where M has the
// trivial 1, the others are the nontrivial multipliers, and a center
// manifold of P (P(W) = W) lies in P's image Sigma: it is the center
// manifold of the restriction to Sigma, with the same map on it. The
// normal-form formulas for maps then apply to (M_P, B_P, C_P) as they are,
// with no basis of Sigma to choose (and none to keep continuous along a
// curve), and the trivial multiplier's direction is out of the way (I - M_P
// and I + M_P are regular on it). The caller's q and p are M_P's critical
// vectors (poincare_jacobian below), q in Sigma and p a left eigenvector of
// M itself. f, A, H(f, .) and H(Mq, .) come from the twice-lifted field and
// its Jacobian (Jets) at the return point: (f, f_z w, ., .) at (x1, w, 0, 0)
// has the z-derivative H(w, .) in its second block. Exact; nothing is
// differenced.

#include "continuation/periodic/shooting.h"

namespace saltus::periodic {

struct PeriodMapForms {
  Matrix M;    // DP (n x n), the monodromy matrix (a forced orbit) or Pi M (an autonomous one)
  Vector Bqq;  // B(q, q)
  Matrix Bq;   // B(q, .) (n x n)
  Matrix Cqq;  // C(q, q, .) (n x n)
};

// The forms at u = (x, [T,] p) of `shooting` along q (size n), through
// `twice_lifted` = shooting.hybrid()->tangent_lifted()->tangent_lifted():
// the period map's (a forced orbit) or the Poincare map's on the section
// through x normal to f(x) (an autonomous orbit; q in that section, see
// poincare_jacobian). Throws std::invalid_argument for a q of the wrong
// size or an autonomous orbit whose field at x vanishes (no section),
// std::runtime_error when the simulation fails.
PeriodMapForms period_map_forms(const ShootingSystem& shooting, const flow::HybridSystem& twice_lifted,
                                const Vector& u, const Vector& q);

// An autonomous orbit's Poincare map Jacobian Pi M, from its monodromy M
// (n x n) at u, with Pi = I - f f^T / |f|^2, f = f(x): the matrix whose
// critical vectors q, p the forms above are taken along (its eigenvalues:
// the nontrivial multipliers and 0 for the trivial one). M itself for a
// forced orbit.
Matrix poincare_jacobian(const ShootingSystem& shooting, const Vector& u, const Matrix& M);

}  // namespace saltus::periodic
