#pragma once
// The pseudo-arclength predictor, with the branch's curvature once two
// regular points give it. From the last point y with unit tangent t, reached
// by a step ds_last from a point with tangent t_before,
//
//   y'' ~ (t - t_before) / ds_last,   y_pred = y + ds t + ds^2 / 2 y'',
//
// whose error is O(ds^3) where the tangent's is O(ds^2): on a curve of
// arclength s, with t - t_before = ds_last y'' - ds_last^2 / 2 y''' + ...,
//
//   y(s + ds) - y_pred = (ds^3 / 6 + ds^2 ds_last / 4) y''' + O(ds^4),
//
// so that the corrector starts closer (for shooting, each of its
// iterations is an integration of the orbit). The tangent alone without
// t_before (empty), or where the curvature term would exceed half the
// step: near a branch point the difference of tangents is no curvature.

#include "continuation/system.h"

namespace saltus {

inline Vector predict(const Vector& y, const Vector& t, const Vector& t_before, double ds_last, double ds) {
  Vector y_pred = y + ds * t;
  if (t_before.size() == t.size() && ds_last > 0) {
    const Vector bend = (0.5 * ds * ds / ds_last) * (t - t_before);
    if (bend.norm() <= 0.5 * ds) y_pred += bend;
  }
  return y_pred;
}

}  // namespace saltus
