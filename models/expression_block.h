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
//
// Why it is fast. The program is compiled once per run file; a call is one
// loop over a flat array of instructions on registers, with no tree walk,
// allocation or virtual call. Parameters that carry no derivative (a run
// file's parameters, except one carried in a shooting state) can be plain
// doubles: what depends on them alone (c1 + c2, -c2) is computed in double,
// and each operation of a derivative-carrying value with one of them is the
// mixed form (Jet * double, Taylor * double: a scaling instead of a product
// rule or a series convolution), the form a hand-written model gets from
// C++ overloading. Each instruction is one indirect call to a handler in
// which its opcode is a constant (no second dispatch). On the triple
// pendulum (bench/user_model.cpp) this took the run file from 1.95x to
// 1.65x the built-in model on the state and from 1.91x to 1.4x with the
// variational equations (together with fixed sizes in
// flow::Mechanical); what remains on the state is the dispatch per
// instruction, which compiled C++ does not pay.
//
// Compiled blocks. source() writes the same register program as
// straight-line C++ (each instruction the same apply_instruction call, so
// the values are the interpreter's bit for bit), and
// models/compiled_block.h compiles it once with the system compiler into a
// cached shared object that attach() plugs in for the scalars of a
// simulation: double, the Taylor series of the constraint kinematics, and
// the Jet of the flow's variational passes (CompiledJet), the last both
// with the plain inputs and with every input a Jet (a parameter carried in
// a shooting state makes the model's parameters Jets); other scalars, and
// any block that could not be compiled, keep the loop.

#include <ceres/jet_fwd.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
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
  // an output reads it. `plain` (empty, or one flag per input) marks the
  // inputs that the split evaluation below takes as doubles.
  ExpressionBlock(int inputs, const Definitions& definitions, const std::vector<const Expression*>& outputs,
                  const std::vector<bool>& plain = {});

  // outputs[j] = the j-th output expression at `inputs`.
  template <class T>
  void evaluate(const T* inputs, T* outputs) const {
    evaluate<T>([&](T* r) { load_all(inputs, r); }, nullptr, [&](int j, const T& v) { outputs[j] = v; });
  }

  // The general form. load(r) constructs (placement new) in r[i] each input
  // i read as T: all of them when `plain` is null, else those not flagged
  // plain, whose values are then plain[i] (a double per input, the others
  // unread): what depends on plain inputs alone is computed in double, and
  // an operation between a T and such a value is the cheap mixed one (a Jet
  // times a double scales its derivatives instead of the product rule).
  // store(j, value) receives output j.
  template <class T, class Load, class Store>
  void evaluate(Load&& load, const double* plain, Store&& store) const;

  // The compiled program straight on the caller's arrays: input i from
  // in[i], or (`plain` not null: the split program) from plain[i] for the
  // plain ones; output j constructed in out[j] (out may be in). False, and
  // nothing done, where the block has no compiled program for T: the
  // caller then calls evaluate(). For a caller whose inputs already lie in
  // one array (an ODE's state, parameters and time): no copies in or out.
  template <class T>
  bool evaluate_compiled(const T* in, const double* plain, T* out) const {
    const CompiledFunction<T> compiled = compiled_for<T>(plain != nullptr);
    if (!compiled) return false;
    compiled(in, plain, out);
    return true;
  }

  int input_count() const { return inputs_; }
  int output_count() const { return static_cast<int>(all_.outputs.size()); }
  bool has_plain() const { return has_plain_; }
  // Instructions on T after sharing (for tests); `split`: with the plain inputs.
  std::size_t program_size(bool split = false) const { return (split ? split_ : all_).code.size(); }

  // The program as C++: a function template `name`<T>(const T* in, const
  // double* d, T* out) that reads input i from in[i] (and with `split` the
  // plain ones from d[i]), computes every instruction in order into locals
  // and constructs output j in out[j] (after the last read of in, so out
  // may be in). `split`: the plain inputs as doubles; else every input a T
  // (d unread).
  std::string source(const std::string& name, bool split = true) const;
  // The Jet of the flow's derivative passes: AutoDiffHybrid's kStride lanes
  // (continuation/flow/hybrid_system.h; models/expression_system.h checks
  // that they agree).
  using CompiledJet = ceres::Jet<double, 4>;
  // Those programs compiled, per scalar (null: the interpreter's loop).
  struct Compiled {
    void (*on_double)(const double*, const double*, double*) = nullptr;
    void (*on_taylor1)(const series::Taylor<double, 1>*, const double*, series::Taylor<double, 1>*) = nullptr;
    void (*on_taylor2)(const series::Taylor<double, 2>*, const double*, series::Taylor<double, 2>*) = nullptr;
    void (*on_jet)(const CompiledJet*, const double*, CompiledJet*) = nullptr;
    void (*all_on_jet)(const CompiledJet*, const double*, CompiledJet*) = nullptr;  // every input a Jet
    std::shared_ptr<const void> library;  // keeps the shared object loaded
  };
  void attach(Compiled compiled) { compiled_ = std::move(compiled); }
  bool is_compiled() const { return compiled_.on_double != nullptr; }

 private:
  struct Instruction {
    Expression::Instruction op;  // opcode and its immediate operand
    std::int32_t dst, a, b;      // registers (b = a for one-operand opcodes)
    std::int32_t cos_dst;        // a kSin with this >= 0 also writes cos(a) here
    std::int32_t immediate;      // >= 0: op's constant is this double register (a mixed opcode)
    std::uint8_t handler = 0;    // index into handlers(): the opcode, kSinCos, or kMixed + opcode
  };
  // The handlers: one per opcode (the opcode a constant in it, so its switch
  // folds away), then sin-and-cos, then one per opcode reading its constant
  // from a double register (the mixed forms). One indirect call per
  // instruction and no other branch.
  static constexpr int kOpcodes = static_cast<int>(Expression::Op::kMax) + 1;
  static constexpr int kSinCos = kOpcodes, kMixed = kOpcodes + 1, kHandlers = 2 * kOpcodes + 1;
  static std::uint8_t handler_of(const Instruction& in) {
    const int op = static_cast<int>(in.op.op);
    return static_cast<std::uint8_t>(in.cos_dst >= 0 ? kSinCos : in.immediate >= 0 ? kMixed + op : op);
  }
  template <class T>
  using Handler = void (*)(const Instruction&, T*, const double*);
  template <int kHandler, class T>
  static void execute(const Instruction& in, T* r, const double* d);
  template <class T, int... k>
  static constexpr std::array<Handler<T>, kHandlers> handlers(std::integer_sequence<int, k...>) {
    return {&execute<k, T>...};
  }
  // A straight-line program on two register files: doubles (the plain
  // inputs, constants and what depends on them alone) and T (the other
  // inputs first, then the rest).
  struct Program {
    int registers = 0, plain_registers = 0;
    std::vector<std::pair<std::int32_t, double>> constants;       // double register, value
    std::vector<Instruction> plain_code;                          // on doubles
    std::vector<std::pair<std::int32_t, std::int32_t>> promoted;  // T register = double register
    std::vector<Instruction> code;                                // on T
    std::vector<std::int32_t> outputs;                            // T registers
  };
  int inputs_ = 0;
  bool has_plain_ = false;
  std::vector<std::int32_t> plain_inputs_;
  Program all_, split_;  // every input a T; the plain inputs as doubles
  Compiled compiled_;    // split_ (and all_ on Jets) compiled, if they were

  template <class T>
  using CompiledFunction = void (*)(const T*, const double*, T*);
  // `split`: split_ with the plain inputs, else all_ (compiled for Jets only).
  template <class T>
  CompiledFunction<T> compiled_for(bool split) const {
    if constexpr (std::is_same_v<T, CompiledJet>)
      return split ? compiled_.on_jet : compiled_.all_on_jet;
    else if (!split)
      return nullptr;
    else if constexpr (std::is_same_v<T, double>)
      return compiled_.on_double;
    else if constexpr (std::is_same_v<T, series::Taylor<double, 1>>)
      return compiled_.on_taylor1;
    else if constexpr (std::is_same_v<T, series::Taylor<double, 2>>)
      return compiled_.on_taylor2;
    else
      return nullptr;
  }

  template <class T>
  void load_all(const T* inputs, T* r) const {
    for (int i = 0; i < inputs_; ++i) ::new (static_cast<void*>(r + i)) T(inputs[i]);
  }
  template <class T, class Store>
  void run(const Program& program, T* r, double* d, Store&& store) const;
};

template <int kHandler, class T>
void ExpressionBlock::execute(const Instruction& in, T* r, const double* d) {
  if constexpr (kHandler == kSinCos) {
    ::new (static_cast<void*>(r + in.dst)) T;
    ::new (static_cast<void*>(r + in.cos_dst)) T;
    detail::sin_cos(r[in.a], r + in.dst, r + in.cos_dst);
  } else if constexpr (kHandler >= kMixed) {
    const Expression::Instruction op{static_cast<Expression::Op>(kHandler - kMixed), in.op.index,
                                     d[in.immediate]};
    ::new (static_cast<void*>(r + in.dst)) T(apply_instruction(op, r[in.a], r[in.a]));
  } else {
    Expression::Instruction op = in.op;
    op.op = static_cast<Expression::Op>(kHandler);
    ::new (static_cast<void*>(r + in.dst)) T(apply_instruction(op, r[in.a], r[in.b]));
  }
}

template <class T, class Store>
void ExpressionBlock::run(const Program& program, T* r, double* d, Store&& store) const {
  // The registers are raw storage: constructed in place, never destroyed
  // (trivially destructible scalars only, as Expression::evaluate).
  for (const auto& [k, c] : program.constants) d[k] = c;
  static constexpr auto on_double = handlers<double>(std::make_integer_sequence<int, kHandlers>{});
  static constexpr auto on_t = handlers<T>(std::make_integer_sequence<int, kHandlers>{});
  for (const Instruction& in : program.plain_code) on_double[in.handler](in, d, d);
  for (const auto& [k, c] : program.promoted) ::new (static_cast<void*>(r + k)) T(detail::constant<T>(d[c]));
  for (const Instruction& in : program.code) on_t[in.handler](in, r, d);
  for (std::size_t j = 0; j < program.outputs.size(); ++j) store(static_cast<int>(j), r[program.outputs[j]]);
}

template <class T, class Load, class Store>
void ExpressionBlock::evaluate(Load&& load, const double* plain, Store&& store) const {
  static_assert(std::is_trivially_destructible_v<T>, "ExpressionBlock needs a trivially destructible scalar");
  const Program& program = plain ? split_ : all_;
  // Up to ~16 KiB of registers on the call stack, else in a buffer of the
  // thread's kept from call to call: a large system's field (the impact
  // chain's at 512 states, thousands of registers) would otherwise allocate
  // and zero them at every evaluation, a tenth of a matrix-free product's
  // time (perf, `saltus periodic` at N = 256). A nested evaluation (none
  // today: load and store only copy) takes a buffer of its own.
  constexpr std::size_t kInline = std::max<std::size_t>(16, 16384 / sizeof(T));
  constexpr std::size_t kPlainInline = 256;
  union Storage {
    Storage() {}
    T slots[kInline];
  } storage;
  thread_local std::vector<T> kept;
  thread_local std::vector<double> kept_plain;
  thread_local bool busy = false;
  std::vector<T> own;
  std::vector<double> own_plain;
  std::vector<T>& heap = busy ? own : kept;
  std::vector<double>& plain_heap = busy ? own_plain : kept_plain;
  const bool outer = !busy;
  busy = true;
  struct Release {
    bool outer;
    ~Release() {
      if (outer) busy = false;
    }
  } release{outer};
  T* r = storage.slots;
  // The compiled program's outputs land in r[0], r[1], ...
  const std::size_t slots = std::max<std::size_t>(program.registers, program.outputs.size());
  if (slots > kInline) {
    if (heap.size() < slots) heap.resize(slots);
    r = heap.data();
  }
  std::array<double, kPlainInline> plain_storage;
  double* d = plain_storage.data();
  if (static_cast<std::size_t>(program.plain_registers) > kPlainInline) {
    if (plain_heap.size() < static_cast<std::size_t>(program.plain_registers))
      plain_heap.resize(program.plain_registers);
    d = plain_heap.data();
  }
  load(r);
  if (const CompiledFunction<T> compiled = compiled_for<T>(plain != nullptr)) {
    compiled(r, plain, r);  // reads the plain inputs in place; the outputs over the inputs
    for (std::size_t j = 0; j < program.outputs.size(); ++j) store(static_cast<int>(j), r[j]);
    return;
  }
  if (plain)
    for (std::int32_t i : plain_inputs_) d[i] = plain[i];
  run(program, r, d, store);
}

}  // namespace saltus::models
