#pragma once

// Several expressions of one system compiled together into one straight-line
// register program: a run-file system's definitions, mass matrix and forces
// (or its rates) are evaluated in one pass where each distinct subexpression
// is computed once (common subexpressions are shared across the expressions
// and the definitions they read), operands are read in place instead of
// pushed (a push copies a whole Jet), only what the outputs need is computed,
// and sin(u) and cos(u) of the same u come from one sincos. The arithmetic of
// each opcode is the stack program's own (apply_instruction in expression.h),
// so a block gives the values the separate expressions give.

#include <cmath>
#include <cstdint>
#include <new>
#include <type_traits>
#include <vector>

#include "continuation/taylor.h"
#include "models/expression.h"

namespace saltus::models {

namespace detail {

template <class T>
concept FirstOrderJet = CeresJet<T> && std::is_same_v<typename T::Scalar, double>;
template <class T>
struct IsTaylor : std::false_type {};
template <class C, int N>
struct IsTaylor<series::Taylor<C, N>> : std::true_type {};

// sin u and cos u at once: one sincos for double and for ceres' first-order
// jets (whose sin and cos each take both of the value part), one recurrence
// for Taylor series (continuation/taylor.h builds both anyway); separately
// for the other scalars (nested jets, Boost.Math fvar).
template <class T>
void sin_cos(const T& u, T* s, T* c) {
  using std::cos, std::sin;
  if constexpr (std::is_same_v<T, double>) {
    ::sincos(u, s, c);
  } else if constexpr (FirstOrderJet<T>) {
    double su, cu;
    ::sincos(u.a, &su, &cu);
    s->a = su;
    s->v = cu * u.v;
    c->a = cu;
    c->v = -su * u.v;
  } else if constexpr (IsTaylor<T>::value) {
    using C = std::remove_cvref_t<decltype(u[0])>;
    C s0, c0;
    sin_cos(u[0], &s0, &c0);
    series::detail::trig_pair(u, s0, c0, -1.0, s, c);
  } else {
    *s = sin(u);
    *c = cos(u);
  }
}

}  // namespace detail

class ExpressionBlock {
 public:
  ExpressionBlock() = default;

  // `outputs` are expressions over the same names: values 0 .. inputs - 1,
  // then (at inputs + k) definition k of `definitions`, which may read the
  // inputs and the definitions before it. A definition is computed only when
  // an output reads it.
  ExpressionBlock(int inputs, const Definitions& definitions, const std::vector<const Expression*>& outputs);

  // outputs[j] = the j-th output expression at `inputs`.
  template <class T>
  void evaluate(const T* inputs, T* outputs) const;

  int input_count() const { return inputs_; }
  int output_count() const { return static_cast<int>(outputs_.size()); }
  // Instructions after sharing (for tests).
  std::size_t program_size() const { return code_.size(); }

 private:
  struct Instruction {
    Expression::Instruction op;  // opcode and its immediate operand
    std::int32_t dst, a, b;      // registers (b = a for one-operand opcodes)
    std::int32_t cos_dst;        // a kSin with this >= 0 also writes cos(a) here
  };
  int inputs_ = 0;
  int registers_ = 0;  // inputs first, then constants, then results
  std::vector<std::pair<std::int32_t, double>> constants_;
  std::vector<Instruction> code_;
  std::vector<std::int32_t> outputs_;

  template <class T>
  void run(const T* inputs, T* r, T* outputs) const;
};

template <class T>
void ExpressionBlock::run(const T* inputs, T* r, T* outputs) const {
  // The registers are raw storage: constructed in place, never destroyed
  // (trivially destructible scalars only, as Expression::evaluate).
  for (int i = 0; i < inputs_; ++i) ::new (static_cast<void*>(r + i)) T(inputs[i]);
  for (const auto& [k, c] : constants_) ::new (static_cast<void*>(r + k)) T(detail::constant<T>(c));
  for (const Instruction& in : code_) {
    if (in.cos_dst >= 0) {
      ::new (static_cast<void*>(r + in.dst)) T;
      ::new (static_cast<void*>(r + in.cos_dst)) T;
      detail::sin_cos(r[in.a], r + in.dst, r + in.cos_dst);
    } else {
      ::new (static_cast<void*>(r + in.dst)) T(apply_instruction(in.op, r[in.a], r[in.b]));
    }
  }
  for (std::size_t j = 0; j < outputs_.size(); ++j) outputs[j] = r[outputs_[j]];
}

template <class T>
void ExpressionBlock::evaluate(const T* inputs, T* outputs) const {
  static_assert(std::is_trivially_destructible_v<T>, "ExpressionBlock needs a trivially destructible scalar");
  // Up to ~16 KiB of registers on the call stack, else on the heap.
  constexpr std::size_t kInline = std::max<std::size_t>(16, 16384 / sizeof(T));
  if (static_cast<std::size_t>(registers_) <= kInline) {
    union Storage {
      Storage() {}
      T slots[kInline];
    } storage;
    run(inputs, storage.slots, outputs);
    return;
  }
  std::vector<T> heap(registers_);
  run(inputs, heap.data(), outputs);
}

}  // namespace saltus::models
