#pragma once
// Text for people from the results of the contact classification
// (analyses/contact/classification.h): the analysis returns numbers and
// terms; the drivers and the tests turn them into strings here.

#include <string>

#include "analyses/contact/classification.h"

namespace saltus {

// mu_i as a polynomial in the pose deviations, its terms in the order of
// mu.terms: "-1.6875*x + 0.84375*phi" (the values, 10 significant digits), or
// with exact = true "-27/16*x + 27/32*phi" (the terms' exact strings; throws
// std::invalid_argument when a term has none, i.e. the classification was
// not exact). "0" when mu has no terms.
std::string polynomial_text(const NormalFormCoefficient& mu, bool exact = false);

}  // namespace saltus
