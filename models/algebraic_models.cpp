#include "models/algebraic_models.h"

#include "continuation/autodiff_system.h"
#include "models/bratu.h"
#include "models/brusselator_1d.h"
#include "models/normal_forms.h"

namespace saltus::models {

const std::vector<AlgebraicModel>& algebraic_models() {
  static const std::vector<AlgebraicModel> models = {
      {"bratu", "the 1-D Bratu problem u'' + lambda e^u = 0, n interior grid points (models/bratu.h)", true,
       Bratu{}.n, 1, INT_MAX,
       [](int n) {
         Bratu bratu;
         bratu.n = n;
         return std::shared_ptr<const System>(make_system(bratu));
       }},
      {"brusselator_1d", "the 1-D Brusselator, n interior points per species (models/brusselator_1d.h)", true,
       Brusselator1d{}.n, 2, 1000000,
       [](int n) {
         Brusselator1d model;
         model.n = n;
         return std::shared_ptr<const System>(make_system(model));
       }},
      {"cusp", "f = mu + lambda x - x^3, folds meeting at a cusp (models/normal_forms.h)", false, 0, 0,
       INT_MAX, [](int) { return std::shared_ptr<const System>(make_system(Cusp{})); }},
      {"pitchfork", "f = lambda x - x^3, a simple branch point at the origin (models/normal_forms.h)", false,
       0, 0, INT_MAX, [](int) { return std::shared_ptr<const System>(make_system(Pitchfork{})); }},
  };
  return models;
}

const AlgebraicModel* find_algebraic_model(const std::string& name) {
  for (const auto& m : algebraic_models())
    if (m.name == name) return &m;
  return nullptr;
}

std::string algebraic_model_names() {
  std::string names;
  for (const auto& m : algebraic_models()) names += (names.empty() ? "" : ", ") + m.name;
  return names;
}

}  // namespace saltus::models
