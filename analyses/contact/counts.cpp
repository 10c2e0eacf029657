// Step 5 of the contact classification (analyses/contact/classification.h):
// the normal form at a pose and the number of extremal points it predicts.

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "analyses/contact/classification.h"

namespace saltus {

std::vector<double> normal_form_coefficients(const ContactClassification& result,
                                             const Eigen::Vector3d& pose) {
  if (result.status != ClassificationStatus::kClassified)
    throw std::invalid_argument("normal_form_coefficients: the classification is undecided (" +
                                result.message + ")");
  const double dx = pose[0] - result.degenerate_point[2], dy = pose[1] - result.degenerate_point[3],
               dphi = pose[2] - result.degenerate_point[4];
  std::vector<double> mu;
  for (const auto& nf : result.normal_form) {
    double v = 0.0;
    for (const auto& t : nf.terms)
      v += t.value * std::pow(dx, t.ex) * std::pow(dy, t.ey) * std::pow(dphi, t.ephi);
    mu.push_back(v);
  }
  return mu;
}

int predicted_solution_count(const ContactClassification& result, const Eigen::Vector3d& pose) {
  const std::vector<double> mu = normal_form_coefficients(result, pose);
  // Real roots of q^(z+1) + sum_i mu_i q^i (the companion matrix's real
  // eigenvalues; a root counts as real when its imaginary part is below
  // 1e-7 of the root scale: poses on the bifurcation set are ambiguous anyway).
  const int n = static_cast<int>(mu.size());
  Eigen::MatrixXd companion = Eigen::MatrixXd::Zero(n, n);
  for (int i = 1; i < n; ++i) companion(i, i - 1) = 1.0;
  for (int i = 0; i < n; ++i) companion(i, n - 1) = -mu[i];
  const Eigen::VectorXcd roots = companion.eigenvalues();
  double scale = 0.0;
  for (int i = 0; i < n; ++i) scale = std::max(scale, std::abs(roots[i]));
  std::vector<double> real;
  for (int i = 0; i < n; ++i)
    if (std::abs(roots[i].imag()) <= 1e-7 * (scale + 1e-300)) real.push_back(roots[i].real());
  std::sort(real.begin(), real.end());
  int count = 0;
  for (std::size_t i = 0; i < real.size(); ++i)
    if (i == 0 || real[i] - real[i - 1] > 1e-7 * (scale + 1e-300)) ++count;
  return count;
}

}  // namespace saltus
