#include "analyses/contact/series.h"

#include <charconv>
#include <numeric>

namespace saltus::contact {

namespace {

using boost::multiprecision::cpp_int;

// The integer square root of n if n is a perfect square.
bool exact_isqrt(const cpp_int& n, cpp_int* root) {
  if (n < 0) return false;
  *root = boost::multiprecision::sqrt(n);
  return (*root) * (*root) == n;
}

}  // namespace

std::string Rational::str() const {
  const cpp_int num = boost::multiprecision::numerator(v_);
  const cpp_int den = boost::multiprecision::denominator(v_);
  if (den == 1) return num.str();
  return num.str() + "/" + den.str();
}

Rational sqrt(const Rational& x) {
  const cpp_int num = boost::multiprecision::numerator(x.value());
  const cpp_int den = boost::multiprecision::denominator(x.value());
  cpp_int a, b;
  if (!exact_isqrt(num, &a) || !exact_isqrt(den, &b))
    throw InexactError("sqrt(" + x.str() + ") is not rational");
  return Rational(Rational::value_type(a) / Rational::value_type(b));
}

Rational sin(const Rational& x) {
  if (x.is_zero()) return Rational(0);
  throw InexactError("sin(" + x.str() + ") is not rational");
}

Rational cos(const Rational& x) {
  if (x.is_zero()) return Rational(1);
  throw InexactError("cos(" + x.str() + ") is not rational");
}

Rational abs(const Rational& x) { return x.sign() < 0 ? -x : x; }

Rational exact_dyadic(double v, int max_shift) {
  if (!std::isfinite(v)) throw InexactError(to_string(v) + " is not finite");
  const double scaled = std::ldexp(v, max_shift);
  if (std::abs(scaled) >= 9007199254740992.0 * 1024.0 || scaled != std::nearbyint(scaled))
    throw InexactError(to_string(v) + " is not a short dyadic rational (m / 2^k, k <= " +
                       std::to_string(max_shift) + "): it is probably rounded");
  return Rational(v);
}

std::string to_string(double v) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), v);
  return std::string(buffer, result.ptr);
}

// ---- MonomialSet ----------------------------------------------------------------

MonomialSet::MonomialSet(int variables, std::vector<MonomialConstraint> constraints)
    : n_(variables), constraints_(std::move(constraints)) {
  if (n_ < 1) throw std::invalid_argument("MonomialSet: needs at least one variable");
  if (constraints_.empty()) throw std::invalid_argument("MonomialSet: needs at least the grading constraint");
  for (const auto& c : constraints_) {
    if (static_cast<int>(c.weights.size()) != n_)
      throw std::invalid_argument("MonomialSet: a constraint has " + std::to_string(c.weights.size()) +
                                  " weights for " + std::to_string(n_) + " variables");
    if (c.bound < 0) throw std::invalid_argument("MonomialSet: a constraint bound is negative");
    for (int w : c.weights)
      if (w < 0) throw std::invalid_argument("MonomialSet: a weight is negative");
  }
  for (int w : constraints_[0].weights)
    if (w < 1) throw std::invalid_argument("MonomialSet: the grading (first constraint) needs weights >= 1");
  radix_.assign(n_, 0);
  for (int v = 0; v < n_; ++v) {
    int max_exponent = constraints_[0].bound / constraints_[0].weights[v];
    for (const auto& c : constraints_)
      if (c.weights[v] > 0) max_exponent = std::min(max_exponent, c.bound / c.weights[v]);
    radix_[v] = max_exponent + 1;
  }
  // Enumerate by recursion over the variables.
  std::vector<std::vector<int>> found;
  std::vector<int> alpha(n_, 0);
  std::vector<int> used(constraints_.size(), 0);
  auto recurse = [&](auto&& self, int v) -> void {
    if (v == n_) {
      found.push_back(alpha);
      return;
    }
    for (int a = 0; a < radix_[v]; ++a) {
      bool ok = true;
      for (std::size_t c = 0; c < constraints_.size(); ++c)
        if (used[c] + a * constraints_[c].weights[v] > constraints_[c].bound) ok = false;
      if (!ok) break;  // constraints are monotone in a
      for (std::size_t c = 0; c < constraints_.size(); ++c) used[c] += a * constraints_[c].weights[v];
      alpha[v] = a;
      self(self, v + 1);
      for (std::size_t c = 0; c < constraints_.size(); ++c) used[c] -= a * constraints_[c].weights[v];
    }
    alpha[v] = 0;
  };
  recurse(recurse, 0);
  auto grade = [&](const std::vector<int>& a) {
    int g = 0;
    for (int v = 0; v < n_; ++v) g += a[v] * constraints_[0].weights[v];
    return g;
  };
  std::stable_sort(found.begin(), found.end(),
                   [&](const std::vector<int>& a, const std::vector<int>& b) { return grade(a) < grade(b); });
  const int size = static_cast<int>(found.size());
  exponents_.resize(static_cast<std::size_t>(size) * n_);
  weight_.resize(size);
  int table = 1;
  for (int r : radix_) table *= r;
  lookup_.assign(table, -1);
  for (int i = 0; i < size; ++i) {
    std::copy(found[i].begin(), found[i].end(), exponents_.begin() + static_cast<std::ptrdiff_t>(i) * n_);
    weight_[i] = grade(found[i]);
    max_weight_ = std::max(max_weight_, weight_[i]);
    lookup_[packed(found[i].data())] = i;
  }
  // Product table.
  offsets_.assign(size + 1, 0);
  std::vector<int> sum(n_);
  for (int i = 0; i < size; ++i) {
    offsets_[i] = static_cast<int>(right_.size());
    for (int j = 0; j < size; ++j) {
      if (weight_[i] + weight_[j] > max_weight_) continue;
      bool inside = true;
      for (int v = 0; v < n_ && inside; ++v) {
        sum[v] = exponents_[i * n_ + v] + exponents_[j * n_ + v];
        if (sum[v] >= radix_[v]) inside = false;
      }
      if (!inside) continue;
      const int k = lookup_[packed(sum.data())];
      if (k < 0) continue;
      right_.push_back(j);
      result_.push_back(k);
    }
  }
  offsets_[size] = static_cast<int>(right_.size());
}

int MonomialSet::packed(const int* alpha) const {
  int key = 0;
  for (int v = 0; v < n_; ++v) key = key * radix_[v] + alpha[v];
  return key;
}

std::vector<int> MonomialSet::exponents(int index) const {
  return std::vector<int>(exponents_.begin() + static_cast<std::ptrdiff_t>(index) * n_,
                          exponents_.begin() + static_cast<std::ptrdiff_t>(index + 1) * n_);
}

int MonomialSet::index(const std::vector<int>& alpha) const {
  if (static_cast<int>(alpha.size()) != n_) return -1;
  for (int v = 0; v < n_; ++v)
    if (alpha[v] < 0 || alpha[v] >= radix_[v]) return -1;
  return lookup_[packed(alpha.data())];
}

bool MonomialSet::contains(const std::vector<int>& alpha) const { return index(alpha) >= 0; }

int MonomialSet::variable_index(int variable) const {
  std::vector<int> alpha(n_, 0);
  if (variable < 0 || variable >= n_) return -1;
  alpha[variable] = 1;
  return index(alpha);
}

std::shared_ptr<const MonomialSet> make_monomial_set(int variables,
                                                     std::vector<MonomialConstraint> constraints) {
  return std::make_shared<const MonomialSet>(variables, std::move(constraints));
}

}  // namespace saltus::contact
