#pragma once

// Algebraic expressions given as strings in run files, e.g. "mu + lambda*x - x^3".
// Parsing (Boost.Spirit X3) lives in expression.cpp; this header only holds the
// compiled postfix program and its evaluator, which is templated on the scalar so
// the same program runs on double, ceres::Jet<double, N>, nested jets and
// Boost.Math autodiff fvar (the engine's second derivatives).
// The header deliberately does not include ceres: jet overloads are found by ADL.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace saltus::series {
template <class C, int N>
class Taylor;  // continuation/taylor.h
}  // namespace saltus::series

namespace saltus::models {

// Thrown for any invalid expression; what() names the problem, the offending token
// or name, and the 1-based column, e.g.
//   expression 'mu + kappa*x': unknown name 'kappa' at column 6 (known: x, mu, lambda)
// When the input ends too early the column is that of its last character.
class ExpressionError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

namespace detail {

// ceres::Jet (possibly nested) needs the special handling below; any other
// class scalar, such as the engine's Boost.Math autodiff fvar for second
// derivatives, mixes with double and converts explicitly to it.
template <class T>
concept CeresJet = requires(const T& x) {
  x.a;
  x.v;
  typename T::Scalar;
};
template <class T>
constexpr bool is_plain_v = std::is_arithmetic_v<T> || !CeresJet<T>;

// The double inside a scalar: the value itself for arithmetic types, the
// recursively innermost .a for (nested) jets.
template <class T>
double scalar_part(const T& x) {
  if constexpr (is_plain_v<T>) {
    return static_cast<double>(x);
  } else {
    return scalar_part(x.a);
  }
}

// A constant of type T (zero derivative parts). Recursive because ceres' Jet(value)
// is explicit, so Jet<Jet<double, 1>, N>(2.0) would not compile.
template <class T>
T constant(double c) {
  if constexpr (is_plain_v<T>) {
    return T(c);
  } else {
    return T(constant<typename T::Scalar>(c));
  }
}

// The cheapest type that ceres lets us mix with T in + - * /: Jet<double, N> has
// cheap overloads taking a double, but for nested jets ceres only mixes with the
// inner jet type, so those get a full constant.
template <class T, class = void>
struct mixed_scalar {
  using type = T;
};
template <class T>
struct mixed_scalar<T, std::enable_if_t<!is_plain_v<T> && std::is_arithmetic_v<typename T::Scalar>>> {
  using type = typename T::Scalar;
};

// A Taylor series mixes with double: a series times a number scales its
// coefficients (the convolution with a constant series gives the same).
template <class C, int N>
struct mixed_scalar<series::Taylor<C, N>> {
  using type = double;
};

template <class T>
typename mixed_scalar<T>::type mixed(double c) {
  return constant<typename mixed_scalar<T>::type>(c);
}

// x + c touches only the value part, so do exactly that (cheap for nested jets).
template <class T>
T add_constant(const T& x, double c) {
  if constexpr (is_plain_v<T>) {
    return x + c;
  } else {
    T r = x;
    r.a = add_constant(x.a, c);
    return r;
  }
}

// Integer powers by repeated squaring: exact sign for negative bases and no
// pow(0, n-1) corner cases in the jet derivative rules.
template <class T>
T integer_power(const T& x, int n) {
  const bool invert = n < 0;
  unsigned m = invert ? static_cast<unsigned>(-n) : static_cast<unsigned>(n);
  T result = constant<T>(1.0);
  T base = x;
  bool first = true;
  while (m != 0) {
    if (m & 1u) {
      result = first ? base : result * base;
      first = false;
    }
    m >>= 1u;
    if (m != 0) base = base * base;
  }
  if (invert) return constant<T>(1.0) / result;
  return result;
}

// Exactly zero including all derivative parts.
template <class T>
bool is_zero(const T& x) {
  if constexpr (is_plain_v<T>) {
    return x == 0;
  } else {
    if (!is_zero(x.a)) return false;
    for (int i = 0; i < x.v.size(); ++i)
      if (!is_zero(x.v[i])) return false;
    return true;
  }
}

// General f^g. ceres' pow(Jet, Jet) does not compile for nested jets (its corner-case
// tests compare a jet against its inner type), so nested jets get the same rule here,
// recursing on the inner type.
template <class T>
T power(const T& f, const T& g) {
  using std::log;
  using std::pow;
  if constexpr (is_plain_v<T>) {
    return pow(f, g);
  } else if constexpr (std::is_arithmetic_v<typename T::Scalar>) {
    return pow(f, g);
  } else {
    using U = typename T::Scalar;
    const double fa = scalar_part(f);
    const double ga = scalar_part(g);
    const U value = power(f.a, g.a);
    const U dbase = g.a * power(f.a, add_constant(g.a, -1.0));  // g f^(g-1)
    const bool integer_exponent = ga == std::floor(ga);
    if (fa < 0 && integer_exponent) {
      // Real-valued only for integer g, so there is no derivative along g.
      T r(value, f.v * dbase);
      for (int i = 0; i < r.v.size(); ++i)
        if (!is_zero(g.v[i])) r.v[i] = constant<U>(std::numeric_limits<double>::quiet_NaN());
      return r;
    }
    if (fa == 0 && ga >= 1) {
      // f^g log(f) -> 0 as f -> 0; avoid 0 * log(0) = NaN.
      return T(value, f.v * dbase);
    }
    return T(value, f.v * dbase + g.v * (value * log(f.a)));
  }
}

// c^g for a constant base.
template <class T>
T constant_base_power(double c, const T& g) {
  using std::pow;
  if constexpr (is_plain_v<T>) {
    return pow(constant<T>(c), g);
  } else if constexpr (std::is_arithmetic_v<typename T::Scalar>) {
    return pow(static_cast<typename T::Scalar>(c), g);
  } else {
    return power(constant<T>(c), g);
  }
}

// tanh(x) = sign(x) (1 - e) / (1 + e), e = exp(-2 |x|), for the plain
// class scalars (Boost.Math fvar computes sinh(x) / cosh(x), whose higher
// coefficients overflow to inf / inf = NaN once |x| passes a few hundred, as
// a regularized sign function's argument does). double and ceres::Jet
// (tanh(a), derivative 1 - tanh(a)^2) are stable as they are.
template <class T>
T tanh_stable(const T& x) {
  using std::exp, std::tanh;
  if constexpr (std::is_arithmetic_v<T> || CeresJet<T>) {
    return tanh(x);
  } else {
    const bool negative = scalar_part(x) < 0;
    const T e = exp(negative ? T(2.0 * x) : T(-2.0 * x));
    const T magnitude = (1.0 - e) / (1.0 + e);
    return negative ? T(-magnitude) : magnitude;
  }
}

}  // namespace detail

// The values an expression reads (x, p, t, ...), on the stack for small
// systems: the expression-defined functors fill one per evaluation, at every
// Runge-Kutta stage.
template <class T, int kInline = 32>
class ValueArray {
 public:
  explicit ValueArray(int n) {
    if (n > kInline) large_.resize(n);
  }
  T* data() { return large_.empty() ? small_.data() : large_.data(); }
  const T* data() const { return large_.empty() ? small_.data() : large_.data(); }
  T& operator[](int i) { return data()[i]; }
  const T& operator[](int i) const { return data()[i]; }

 private:
  std::array<T, kInline> small_;
  std::vector<T> large_;
};

class Expression;

// Named intermediate quantities of a run-file system ("definitions": {name:
// expression}, in order), each an expression of the system's names and the
// definitions before it. They sit after the system's own values in the
// values array and are evaluated once per call (a sine shared by a mass
// matrix and the forces is taken once).
struct Definitions {
  std::vector<std::string> names;
  std::vector<Expression> expressions;

  template <class T>
  void evaluate(T* values, int base) const;
  // Per value (the base ones given by `base_flags`, then each definition):
  // whether it depends on a flagged base value, through the definitions.
  std::vector<bool> depends(std::vector<bool> base_flags) const;
};

// Whether e reads a value flagged in `flags` (as from Definitions::depends).
bool reads(const Expression& e, const std::vector<bool>& flags);

class Expression {
 public:
  // The constant 0, so that default-constructed holders evaluate safely.
  Expression();

  // Parses `text` once. `names` are the variables the expression may use; at
  // evaluation, values[i] is the value of names[i]. Throws ExpressionError.
  static Expression parse(std::string_view text, const std::vector<std::string>& names);

  // values[i] is the value of names[i] (only used_variables() are read).
  template <class T>
  T evaluate(const T* values) const;

  const std::string& text() const { return text_; }
  const std::vector<std::string>& names() const { return names_; }
  // Indices into names() of the variables the expression uses (sorted, unique).
  const std::vector<int>& used_variables() const { return used_; }
  // True when the expression does not depend on any variable.
  bool is_constant() const { return used_.empty(); }
  // Number of postfix instructions after constant folding (for tests/diagnostics).
  std::size_t program_size() const { return code_.size(); }
  // Readable postfix listing, one instruction per line (for debugging).
  std::string disassemble() const;

  // Postfix opcodes. "C" variants carry a folded constant operand to save a push.
  enum class Op : std::uint8_t {
    kConst,  // push value
    kVar,    // push values[index]
    kNeg,
    kAdd,
    kSub,
    kMul,
    kDiv,
    kPow,
    kAddC,   // top + value (subtraction of a constant is folded into this)
    kRSubC,  // value - top
    kMulC,   // top * value
    kDivC,   // top / value
    kRDivC,  // value / top
    kPowI,   // top ^ index (integer exponent)
    kPowC,   // pow(top, value)
    kRPowC,  // pow(value, top)
    kSin,
    kCos,
    kTan,
    kAsin,
    kAcos,
    kAtan,
    kSinh,
    kCosh,
    kTanh,
    kExp,
    kLog,
    kSqrt,
    kAbs,
    kAtan2,
    kMin,
    kMax,
  };
  struct Instruction {
    Op op;
    std::int32_t index;  // variable index or integer exponent
    double value;        // constant operand
  };

  // The postfix program (models/expression_block.h compiles several together).
  const std::vector<Instruction>& program() const { return code_; }

  // Whether an opcode takes two stack operands (kAdd ... kPow, kAtan2, kMin, kMax).
  static constexpr bool is_binary(Op op) {
    return op == Op::kAdd || op == Op::kSub || op == Op::kMul || op == Op::kDiv || op == Op::kPow ||
           op == Op::kAtan2 || op == Op::kMin || op == Op::kMax;
  }

  // Runs a postfix program; `stack` must have room for its maximal depth. Public so
  // the compiler can fold constants with exactly the evaluator's arithmetic.
  template <class T>
  static T run(const Instruction* begin, const Instruction* end, const T* values, T* stack);

 private:
  std::string text_;
  std::vector<std::string> names_;
  std::vector<Instruction> code_;
  std::vector<int> used_;
  std::size_t max_depth_ = 1;

  friend class ExpressionCompiler;
};

// One opcode's arithmetic on its operands (a alone for the one-operand
// opcodes), shared by the stack program of one expression and the register
// program of a block (models/expression_block.h), so both compute the same.
template <class T>
[[gnu::always_inline]] inline T apply_instruction(const Expression::Instruction& in, const T& a, const T& b) {
  using std::abs, std::acos, std::asin, std::atan, std::atan2, std::cos, std::cosh, std::exp, std::log,
      std::pow, std::sin, std::sinh, std::sqrt, std::tan, std::tanh;
  namespace d = detail;
  using Op = Expression::Op;
  switch (in.op) {
    case Op::kConst:
      return d::constant<T>(in.value);
    case Op::kVar:
      return a;
    case Op::kNeg:
      return -a;
    case Op::kAdd:
      return a + b;
    case Op::kSub:
      return a - b;
    case Op::kMul:
      return a * b;
    case Op::kDiv:
      return a / b;
    case Op::kPow:
      return d::power(a, b);
    case Op::kAddC:
      return d::add_constant(a, in.value);
    case Op::kRSubC:
      return d::add_constant(T(-a), in.value);
    case Op::kMulC:
      return a * d::mixed<T>(in.value);
    case Op::kDivC:
      return a / d::mixed<T>(in.value);
    case Op::kRDivC:
      return d::mixed<T>(in.value) / a;
    case Op::kPowI:
      return d::integer_power(a, in.index);
    case Op::kPowC:
      return pow(a, in.value);
    case Op::kRPowC:
      return d::constant_base_power(in.value, a);
    case Op::kSin:
      return sin(a);
    case Op::kCos:
      return cos(a);
    case Op::kTan:
      return tan(a);
    case Op::kAsin:
      return asin(a);
    case Op::kAcos:
      return acos(a);
    case Op::kAtan:
      return atan(a);
    case Op::kSinh:
      return sinh(a);
    case Op::kCosh:
      return cosh(a);
    case Op::kTanh:
      return d::tanh_stable(a);
    case Op::kExp:
      return exp(a);
    case Op::kLog:
      return log(a);
    case Op::kSqrt:
      return sqrt(a);
    case Op::kAbs:
      return abs(a);
    case Op::kAtan2:
      return atan2(a, b);
    // Same tie/NaN behaviour as std::min/std::max, compared on the value part only.
    case Op::kMin:
      return d::scalar_part(b) < d::scalar_part(a) ? b : a;
    case Op::kMax:
      return d::scalar_part(a) < d::scalar_part(b) ? b : a;
  }
  return a;
}

template <class T>
T Expression::run(const Instruction* ip, const Instruction* end, const T* values, T* stack) {
  // `s` points one past the top of the stack. Pushes construct in place because the
  // inline stack storage of evaluate() is left uninitialised on purpose.
  T* s = stack;
  for (; ip != end; ++ip) {
    if (ip->op == Op::kConst) {
      ::new (static_cast<void*>(s)) T(detail::constant<T>(ip->value));
      ++s;
    } else if (ip->op == Op::kVar) {
      ::new (static_cast<void*>(s)) T(values[ip->index]);
      ++s;
    } else if (is_binary(ip->op)) {
      s[-2] = apply_instruction(*ip, s[-2], s[-1]);
      --s;
    } else {
      s[-1] = apply_instruction(*ip, s[-1], s[-1]);
    }
  }
  return s[-1];
}

template <class T>
void Definitions::evaluate(T* values, int base) const {
  for (std::size_t i = 0; i < expressions.size(); ++i)
    values[base + i] = expressions[i].template evaluate<T>(values);
}

template <class T>
T Expression::evaluate(const T* values) const {
  // Slots are reused without destruction, which is only sound for trivially
  // destructible scalars (double and ceres jets are).
  static_assert(std::is_trivially_destructible_v<T>,
                "Expression::evaluate needs a trivially destructible scalar");
  // Up to ~4 KiB of stack on the call stack; deeper programs (rare) fall back to the heap.
  constexpr std::size_t kInline = std::max<std::size_t>(8, 4096 / sizeof(T));
  if (max_depth_ <= kInline) {
    union Storage {
      Storage() {}
      T slots[kInline];
    } storage;
    return run(code_.data(), code_.data() + code_.size(), values, storage.slots);
  }
  std::vector<T> heap(max_depth_);
  return run(code_.data(), code_.data() + code_.size(), values, heap.data());
}

}  // namespace saltus::models
