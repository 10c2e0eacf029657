// Classification of degenerate extremal points, Damerau & Low 2016, Sec. 4.2-4.4.
// See classification.h for the overview. This file checks the options, reads
// the codimension, the transversality matrix (25) and its rank from the
// reduced coefficients, and runs the double and the exact path; the steps are
// in curve_jets.cpp, jordan_basis.cpp, reduction.cpp and normal_form.cpp, with
// their derivations.

#include <Eigen/Dense>
#include <sstream>
#include <stdexcept>

#include "analyses/contact/detail.h"
#include "models/extremal.h"

namespace saltus {

namespace {

using contact::CurveJet;
using contact::InexactError;
using contact::Rational;
using contact::detail::kMaxOrder;
using contact::detail::num;

}  // namespace

// ---- options ------------------------------------------------------------------------

std::string JordanChoice::check() const {
  auto bad = [](const std::string& field, double v, const std::string& why) {
    return "JordanChoice: " + field + " = " + num(v) + " " + why;
  };
  const std::pair<const char*, double> all[] = {{"v1_scale", v1_scale},     {"v2_scale", v2_scale},
                                                {"v3_plus_v2", v3_plus_v2}, {"v3_plus_v4", v3_plus_v4},
                                                {"v3_plus_v5", v3_plus_v5}, {"v4_plus_v2", v4_plus_v2},
                                                {"v5_plus_v2", v5_plus_v2}};
  for (const auto& [name, v] : all)
    if (!std::isfinite(v)) return bad(name, v, "is not finite");
  for (int i = 0; i < 4; ++i)
    if (!std::isfinite(kernel_mix[i]))
      return bad("kernel_mix[" + std::to_string(i) + "]", kernel_mix[i], "is not finite");
  if (v1_scale == 0.0) return bad("v1_scale", v1_scale, "must be nonzero");
  if (v2_scale == 0.0) return bad("v2_scale", v2_scale, "must be nonzero");
  const double det = kernel_mix[0] * kernel_mix[3] - kernel_mix[1] * kernel_mix[2];
  if (det == 0.0) return "JordanChoice: kernel_mix has determinant 0 (must be invertible)";
  return "";
}

std::string ContactClassificationOptions::check() const {
  auto bad = [](const std::string& field, double v, const std::string& why) {
    return "ContactClassificationOptions: " + field + " = " + num(v) + " " + why;
  };
  if (order < 2 || order > kMaxOrder)
    return bad("order", order, "must be in 2.." + std::to_string(kMaxOrder));
  if (truncation_order < 1 || truncation_order > 12)
    return bad("truncation_order", truncation_order, "must be in 1..12");
  const std::pair<const char*, double> tolerances[] = {{"degenerate_tolerance", degenerate_tolerance},
                                                       {"extremal_tolerance", extremal_tolerance},
                                                       {"zero_tolerance", zero_tolerance},
                                                       {"rank_tolerance", rank_tolerance},
                                                       {"curvature_tolerance", curvature_tolerance}};
  for (const auto& [name, v] : tolerances)
    if (!(v >= 0.0) || !std::isfinite(v)) return bad(name, v, "must be finite and >= 0");
  const std::string j = jordan.check();
  if (!j.empty())
    return "ContactClassificationOptions: jordan: " + j.substr(std::string("JordanChoice: ").size());
  return "";
}

namespace contact {

namespace {

using detail::absd;
using detail::key;
using detail::near_zero;

// ---- step 3: codimension, (25), rank, normal form -----------------------------------------

template <class S>
int exact_rank(std::vector<std::vector<S>> m, double tol) {
  int rank = 0;
  const int rows = static_cast<int>(m.size()), cols = rows ? static_cast<int>(m[0].size()) : 0;
  for (int col = 0; col < cols && rank < rows; ++col) {
    int pivot = -1;
    double best = 0.0;
    for (int r = rank; r < rows; ++r)
      if (!near_zero(m[r][col], tol) && absd(m[r][col]) > best) {
        best = absd(m[r][col]);
        pivot = r;
      }
    if (pivot < 0) continue;
    std::swap(m[rank], m[pivot]);
    for (int r = rank + 1; r < rows; ++r) {
      const S factor = m[r][col] / m[rank][col];
      for (int q = col; q < cols; ++q) m[r][q] -= factor * m[rank][q];
    }
    ++rank;
  }
  return rank;
}

int svd_rank(const std::vector<std::vector<double>>& m, double tol) {
  if (m.empty()) return 0;
  Eigen::MatrixXd M(m.size(), m[0].size());
  for (std::size_t i = 0; i < m.size(); ++i)
    for (std::size_t j = 0; j < m[0].size(); ++j) M(i, j) = m[i][j];
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(M);
  const auto& sv = svd.singularValues();
  const double threshold = tol * (1.0 + (sv.size() ? sv(0) : 0.0));
  int rank = 0;
  for (int i = 0; i < sv.size(); ++i)
    if (sv(i) > threshold) ++rank;
  return rank;
}

std::string type_name(int z) {
  switch (z) {
    case 1:
      return "fold";
    case 2:
      return "cusp";
    case 3:
      return "swallowtail";
    case 4:
      return "butterfly";
    default:
      return "A" + std::to_string(z + 1);
  }
}

// Fills the classification from the reduced coefficients on S.
template <class S>
void fill(const Analysis<S>& an, const ReducedCoefficients<S>& rc,
          const ContactClassificationOptions& options, bool exact, ContactClassification* out) {
  const int N = options.order;
  out->kappa1 = contact::to_double(an.kappa1);
  out->kappa2 = contact::to_double(an.kappa2);
  out->d = contact::to_double(an.d);
  out->epsilon = contact::to_double(an.epsilon);
  out->det = contact::to_double(an.det);
  out->trace = contact::to_double(an.trace);
  out->degeneracy_case = an.vanishing_curvature
                             ? "vanishing curvature (kappa1 = kappa2 = 0, case 1 of Sec. 4.2)"
                             : "concentric osculating circles (d = -(kappa1 + kappa2) / "
                               "(kappa1 kappa2), case 2 of Sec. 4.2)";
  if (contact::to_double(an.epsilon) > 0) out->degeneracy_case = "co-oriented tangents (t1 . t2 = +1)";
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) out->jordan_basis[i][j] = contact::to_double(an.P[i][j]);
  out->c.clear();
  out->cm.clear();
  out->c_exact.clear();
  out->cm_exact.clear();
  out->k.clear();
  out->km.clear();
  double cmax = 1.0;
  for (const auto& [n, v] : rc.c) cmax = std::max(cmax, absd(v));
  int z = 0;
  for (const auto& [n, v] : rc.c) {
    out->c[n] = contact::to_double(v);
    if (exact) out->c_exact[n] = contact::to_string(v);
    if (z == 0 && !near_zero(v, options.zero_tolerance * cmax)) z = n - 1;
  }
  for (const auto& [n, v] : rc.k) out->k[n] = contact::to_double(v);
  for (const auto& [kk, v] : rc.km) out->km[kk] = contact::to_double(v);
  for (const auto& [kk, v] : rc.cm) {
    out->cm[kk] = contact::to_double(v);
    if (exact) out->cm_exact[kk] = contact::to_string(v);
  }
  out->exact = exact;
  out->transversality_matrix.clear();
  out->transversality_exact.clear();
  out->normal_form.clear();
  if (z == 0) {
    out->status = ClassificationStatus::kCodimensionUndecided;
    out->codimension = 0;
    out->type.clear();
    out->rank = 0;
    out->versal = false;
    out->message = "codimension > " + std::to_string(N - 1) + ": c_2 .. c_" + std::to_string(N) +
                   " all vanish at order N = " + std::to_string(N) + " (raise options.order)";
    return;
  }
  out->status = ClassificationStatus::kClassified;
  out->codimension = z;
  std::vector<std::vector<S>> m(z, std::vector<S>(3));
  for (int n = 0; n < z; ++n) {
    std::vector<double> row;
    std::vector<std::string> row_exact;
    for (int col = 0; col < 3; ++col) {
      m[n][col] = rc.cm.at(key(n, col + 3));
      row.push_back(contact::to_double(m[n][col]));
      if (exact) row_exact.push_back(contact::to_string(m[n][col]));
    }
    out->transversality_matrix.push_back(row);
    if (exact) out->transversality_exact.push_back(row_exact);
  }
  if constexpr (std::is_same_v<S, double>) {
    out->rank = svd_rank(out->transversality_matrix, options.rank_tolerance);
  } else {
    out->rank = exact_rank(m, 0.0);
  }
  out->versal = z <= 3 && out->rank == z;
  out->type = type_name(z);
  out->normal_form = detail::normal_form_terms(an, z, options.truncation_order, exact);
  out->truncation_order = options.truncation_order;
  std::ostringstream msg;
  msg << out->type << " (codimension " << z << "): c_" << z + 1 << " = " << contact::to_string(out->c[z + 1]);
  if (exact) msg << " = " << out->c_exact[z + 1];
  msg << "; (25) has rank " << out->rank << " of " << std::min(z, 3) << ": "
      << (out->versal ? "versal unfolding"
                      : "not versal (the pose parameters do not unfold it in general position)");
  out->message = msg.str();
}

}  // namespace

ContactClassification classify_jets(const CurveJet<double>& jet1, const CurveJet<double>& jet2,
                                    const std::array<double, 5>& point,
                                    const ContactClassificationOptions& options,
                                    const std::optional<CurveJet<Rational>>& exact_jet1,
                                    const std::optional<CurveJet<Rational>>& exact_jet2,
                                    const std::string& exact_note) {
  const std::string bad = options.check();
  if (!bad.empty()) throw std::invalid_argument(bad);
  for (int i = 0; i < 5; ++i)
    if (!std::isfinite(point[i]))
      throw std::invalid_argument("classify: point component " + std::to_string(i) + " = " + num(point[i]) +
                                  " is not finite");
  ContactClassification out;
  out.degenerate_point = point;
  out.order = options.order;
  out.arclength = options.arclength;
  out.truncation_order = options.truncation_order;
  // Double path: validates the point (throws) and gives the numbers.
  const Analysis<double> an = analyse<double>(jet1, jet2, point[2], point[3], point[4], options);
  const auto rc = reduced_coefficients(an, options.order, Route::kPaper);
  fill(an, rc, options, false, &out);
  // Exact path.
  out.exact_note = exact_note;
  if (!options.exact) {
    out.exact_note = "options.exact is false";
  } else if (exact_jet1 && exact_jet2) {
    try {
      check_not_rounded(*exact_jet1);
      check_not_rounded(*exact_jet2);
      const Rational x0 = exact_dyadic(point[2]), y0 = exact_dyadic(point[3]);
      ContactClassificationOptions exact_options = options;
      const Analysis<Rational> ea =
          analyse<Rational>(*exact_jet1, *exact_jet2, x0, y0, point[4], exact_options);
      const auto erc = reduced_coefficients(ea, options.order, Route::kPaper);
      ContactClassification exact_out = out;
      fill(ea, erc, options, true, &exact_out);
      if (exact_out.codimension != out.codimension || exact_out.rank != out.rank)
        exact_out.message += " [the double path found codimension " + std::to_string(out.codimension) +
                             ", rank " + std::to_string(out.rank) + "; the exact values decide]";
      exact_out.exact_note.clear();
      out = exact_out;
    } catch (const std::exception& e) {
      out.exact = false;
      out.exact_note = std::string("not exact: ") + e.what();
    }
  } else if (out.exact_note.empty()) {
    out.exact_note = "no exact data";
  }
  return out;
}

}  // namespace contact

ContactClassification classify(const models::ExtremalProblem& problem, const std::array<double, 5>& point,
                               const ContactClassificationOptions& options) {
  const std::string bad = options.check();
  if (!bad.empty()) throw std::invalid_argument(bad);
  if (!problem.curve1 || !problem.curve2) throw std::invalid_argument("classify: the problem has no curves");
  const int jet_order = options.order + 2;
  auto jet_of = [&](const models::PlanarCurve& curve, double s) {
    const models::CurveTaylor t = curve.taylor(s, jet_order);
    CurveJet<double> jet;
    jet.x = t.x;
    jet.y = t.y;
    jet.name = curve.name();
    return jet;
  };
  const CurveJet<double> jet1 = jet_of(*problem.curve1, point[0]), jet2 = jet_of(*problem.curve2, point[1]);
  // Exact when every number is a short dyadic (then it is exactly the data).
  std::optional<CurveJet<Rational>> e1, e2;
  std::string note;
  if (options.exact) {
    try {
      auto exact_of = [](const CurveJet<double>& jet) {
        CurveJet<Rational> r;
        r.name = jet.name;
        for (std::size_t k = 0; k < jet.x.size(); ++k) {
          try {
            r.x.push_back(contact::exact_dyadic(jet.x[k]));
            r.y.push_back(contact::exact_dyadic(jet.y[k]));
          } catch (const InexactError& e) {
            throw InexactError("Taylor coefficient " + std::to_string(k) + " of curve '" + jet.name +
                               "': " + e.what());
          }
        }
        return r;
      };
      for (int i = 2; i < 5; ++i) contact::exact_dyadic(point[i]);
      e1 = exact_of(jet1);
      e2 = exact_of(jet2);
    } catch (const InexactError& e) {
      e1.reset();
      e2.reset();
      note = std::string("not exact: ") + e.what();
    }
  }
  return contact::classify_jets(jet1, jet2, point, options, e1, e2, note);
}

}  // namespace saltus
