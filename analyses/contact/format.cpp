// Text from the contact classification's results (format.h).

#include "analyses/contact/format.h"

#include <cstdio>
#include <stdexcept>

namespace saltus {

namespace {

std::string monomial_name(int ex, int ey, int ephi) {
  std::string s;
  auto add = [&](const char* v, int e) {
    if (e == 0) return;
    if (!s.empty()) s += "*";
    s += v;
    if (e > 1) s += "^" + std::to_string(e);
  };
  add("x", ex);
  add("y", ey);
  add("phi", ephi);
  return s;
}

std::string format_g(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.10g", v);
  return buffer;
}

// Appends " + c*m" / " - c*m" style text.
void append_term(std::string* out, const std::string& coefficient, const std::string& monomial) {
  std::string c = coefficient;
  bool negative = !c.empty() && c[0] == '-';
  if (negative) c = c.substr(1);
  if (out->empty()) {
    *out = negative ? "-" : "";
  } else {
    *out += negative ? " - " : " + ";
  }
  if (monomial.empty()) {
    *out += c;
  } else if (c == "1") {
    *out += monomial;
  } else {
    *out += c + "*" + monomial;
  }
}

}  // namespace

std::string polynomial_text(const NormalFormCoefficient& mu, bool exact) {
  std::string out;
  for (const auto& t : mu.terms) {
    if (exact && t.exact.empty())
      throw std::invalid_argument("polynomial_text: the term x^" + std::to_string(t.ex) + " y^" +
                                  std::to_string(t.ey) + " phi^" + std::to_string(t.ephi) + " of mu_" +
                                  std::to_string(mu.power) + " has no exact value");
    append_term(&out, exact ? t.exact : format_g(t.value), monomial_name(t.ex, t.ey, t.ephi));
  }
  return out.empty() ? "0" : out;
}

}  // namespace saltus
