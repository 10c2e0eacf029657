#pragma once
// The second and third derivatives of a forced orbit's period map along one
// direction, exactly, for smooth and hybrid systems alike: what the normal
// forms of codimension-2 points on curves of cycles need (the cusp of
// cycles and the generalized period doubling, testfunctions/
// cycle_normal_form.h).
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

#include "continuation/periodic/shooting.h"

namespace saltus::periodic {

struct PeriodMapForms {
  Matrix M;    // DP (n x n), the monodromy matrix
  Vector Bqq;  // B(q, q)
  Matrix Bq;   // B(q, .) (n x n)
  Matrix Cqq;  // C(q, q, .) (n x n)
};

// The forms at u = (x, p) of `shooting` (a forced orbit's shooting problem)
// along q (size n), through `twice_lifted` = shooting.hybrid()->
// tangent_lifted()->tangent_lifted(). Throws std::invalid_argument for an
// autonomous orbit (its Poincare map needs the period's variation too: not
// built) or a q of the wrong size, std::runtime_error when the simulation
// fails.
PeriodMapForms period_map_forms(const ShootingSystem& shooting, const flow::HybridSystem& twice_lifted,
                                const Vector& u, const Vector& q);

}  // namespace saltus::periodic
