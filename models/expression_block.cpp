#include "models/expression_block.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>

namespace saltus::models {

namespace {

using Op = Expression::Op;

// A value of the block: an input (op kVar, index = input), a constant (op
// kConst) or an opcode applied to earlier nodes. Nodes are made after their
// operands, so their order is an evaluation order.
struct Node {
  Expression::Instruction op;
  std::int32_t a = -1, b = -1;
};

// The same opcode on the same operands is the same value: the key of a node.
using Key = std::tuple<Op, std::int32_t, std::int32_t, std::int32_t, std::uint64_t>;

class BlockBuilder {
 public:
  BlockBuilder(int inputs, const Definitions& definitions)
      : inputs_(inputs), definitions_(definitions), definition_node_(definitions.expressions.size(), -1) {
    for (int i = 0; i < inputs; ++i) intern({{Op::kVar, i, 0.0}});
  }

  // The node of an expression's value.
  std::int32_t add(const Expression& e) {
    std::vector<std::int32_t> stack;
    for (const Expression::Instruction& in : e.program()) {
      if (in.op == Op::kConst) {
        stack.push_back(intern({in}));
      } else if (in.op == Op::kVar) {
        stack.push_back(variable(in.index));
      } else if (Expression::is_binary(in.op)) {
        const std::int32_t b = stack.back();
        stack.pop_back();
        std::int32_t a = stack.back();
        stack.pop_back();
        // + and * commute exactly in floating point; min and max do not (ties, NaN).
        Node node{{in.op, 0, 0.0}, a, b};
        if ((in.op == Op::kAdd || in.op == Op::kMul) && b < a) std::swap(node.a, node.b);
        stack.push_back(intern(node));
      } else {
        const std::int32_t a = stack.back();
        stack.pop_back();
        stack.push_back(intern({in, a, a}));
      }
    }
    if (stack.size() != 1) throw std::logic_error("expression '" + e.text() + "': malformed program");
    return stack.back();
  }

  const std::vector<Node>& nodes() const { return nodes_; }

 private:
  std::int32_t variable(int index) {
    if (index < inputs_) return index;
    const std::size_t k = static_cast<std::size_t>(index - inputs_);
    if (definition_node_[k] < 0) {
      definition_node_[k] = add(definitions_.expressions[k]);
    }
    return definition_node_[k];
  }

  std::int32_t intern(const Node& node) {
    const Key key{node.op.op, node.op.index, node.a, node.b, std::bit_cast<std::uint64_t>(node.op.value)};
    const auto [it, inserted] = index_.emplace(key, static_cast<std::int32_t>(nodes_.size()));
    if (inserted) nodes_.push_back(node);
    return it->second;
  }

  int inputs_;
  const Definitions& definitions_;
  std::vector<std::int32_t> definition_node_;
  std::vector<Node> nodes_;
  std::map<Key, std::int32_t> index_;
};

}  // namespace

namespace {

// The opcode of `op` with a constant right operand, or with a constant left
// one (kSub's negation of the constant is the caller's): kNeg where there is
// none and the constant must be a T.
Op right_constant(Op op) {
  switch (op) {
    case Op::kAdd:
      return Op::kAddC;
    case Op::kSub:
      return Op::kAddC;  // a - c = a + (-c), exactly
    case Op::kMul:
      return Op::kMulC;
    case Op::kDiv:
      return Op::kDivC;
    default:
      return Op::kNeg;
  }
}
Op left_constant(Op op) {
  switch (op) {
    case Op::kAdd:
      return Op::kAddC;  // + and * commute exactly
    case Op::kSub:
      return Op::kRSubC;
    case Op::kMul:
      return Op::kMulC;
    case Op::kDiv:
      return Op::kRDivC;
    default:
      return Op::kNeg;
  }
}

// One program over the live nodes: `plain` ones (constants, plain inputs and
// what depends on them alone) in double registers, the rest in T registers;
// sin and cos of one operand paired (`pair`).
template <class Program, class Instruction>
Program compile(int inputs, const std::vector<Node>& nodes, const std::vector<bool>& live,
                const std::vector<std::int32_t>& pair, const std::vector<bool>& plain_inputs,
                const std::vector<std::int32_t>& out_nodes) {
  const std::int32_t n = static_cast<std::int32_t>(nodes.size());
  std::vector<bool> plain(n, false);
  for (std::int32_t k = 0; k < n; ++k) {
    if (k < inputs)
      plain[k] = !plain_inputs.empty() && plain_inputs[k];
    else
      plain[k] = nodes[k].op.op == Op::kConst || (plain[nodes[k].a] && plain[nodes[k].b]);
  }
  Program program;
  // Registers: the inputs in both files, then the live nodes each in its own.
  std::vector<std::int32_t> reg(n, -1);
  for (std::int32_t k = 0; k < inputs; ++k) reg[k] = k;
  program.registers = program.plain_registers = inputs;
  for (std::int32_t k = inputs; k < n; ++k)
    if (live[k]) reg[k] = plain[k] ? program.plain_registers++ : program.registers++;
  std::vector<std::int32_t> promoted(n, -1), negated(n, -1);
  const auto as_t = [&](std::int32_t k) {  // node k in a T register
    if (!plain[k]) return reg[k];
    if (promoted[k] < 0) {
      promoted[k] = program.registers++;
      program.promoted.emplace_back(promoted[k], reg[k]);
    }
    return promoted[k];
  };
  std::vector<bool> emitted(n, false);
  for (std::int32_t k = inputs; k < n; ++k) {
    if (!live[k] || emitted[k]) continue;
    const Node& node = nodes[k];
    auto& code = plain[k] ? program.plain_code : program.code;
    if (node.op.op == Op::kConst) {
      program.constants.emplace_back(reg[k], node.op.value);
      continue;
    }
    if (pair[k] >= 0) {
      const std::int32_t sin = node.op.op == Op::kSin ? k : pair[k], cos = pair[sin];
      code.push_back({{Op::kSin, 0, 0.0}, reg[sin], reg[node.a], reg[node.a], reg[cos], -1});
      emitted[sin] = emitted[cos] = true;
      continue;
    }
    if (plain[k] || plain[node.a] == plain[node.b]) {
      code.push_back({node.op, reg[k], reg[node.a], reg[node.b], -1, -1});
      continue;
    }
    // One operand plain: the mixed opcode with that operand as its constant.
    const bool right = plain[node.b];
    const std::int32_t c = right ? node.b : node.a, v = right ? node.a : node.b;
    const Op mixed = right ? right_constant(node.op.op) : left_constant(node.op.op);
    if (mixed == Op::kNeg) {
      code.push_back({node.op, reg[k], as_t(node.a), as_t(node.b), -1, -1});
      continue;
    }
    std::int32_t immediate = reg[c];
    if (right && node.op.op == Op::kSub) {
      if (negated[c] < 0) {
        negated[c] = program.plain_registers++;
        program.plain_code.push_back({{Op::kNeg, 0, 0.0}, negated[c], reg[c], reg[c], -1, -1});
      }
      immediate = negated[c];
    }
    code.push_back({{mixed, 0, 0.0}, reg[k], reg[v], reg[v], -1, immediate});
  }
  for (std::int32_t k : out_nodes) program.outputs.push_back(as_t(k));
  return program;
}

}  // namespace

ExpressionBlock::ExpressionBlock(int inputs, const Definitions& definitions,
                                 const std::vector<const Expression*>& outputs,
                                 const std::vector<bool>& plain)
    : inputs_(inputs) {
  if (!plain.empty() && static_cast<int>(plain.size()) != inputs)
    throw std::logic_error("ExpressionBlock: one plain flag per input");
  BlockBuilder builder(inputs, definitions);
  std::vector<std::int32_t> out_nodes;
  for (const Expression* e : outputs) out_nodes.push_back(builder.add(*e));
  const std::vector<Node>& nodes = builder.nodes();
  const std::int32_t n = static_cast<std::int32_t>(nodes.size());

  // Only what the outputs read: walk back from them (operands come first).
  std::vector<bool> live(n, false);
  for (std::int32_t k : out_nodes) live[k] = true;
  for (std::int32_t k = n - 1; k >= inputs; --k) {
    if (!live[k] || nodes[k].a < 0) continue;
    live[nodes[k].a] = true;
    live[nodes[k].b] = true;
  }
  // sin u and cos u of one u: one instruction, where the first of the two is.
  std::vector<std::int32_t> cos_of(n, -1), pair(n, -1);
  for (std::int32_t k = inputs; k < n; ++k)
    if (live[k] && nodes[k].op.op == Op::kCos) cos_of[nodes[k].a] = k;
  for (std::int32_t k = inputs; k < n; ++k)
    if (live[k] && nodes[k].op.op == Op::kSin && cos_of[nodes[k].a] >= 0) {
      pair[k] = cos_of[nodes[k].a];
      pair[pair[k]] = k;
    }
  all_ = compile<Program, Instruction>(inputs, nodes, live, pair, {}, out_nodes);
  for (int i = 0; i < static_cast<int>(plain.size()); ++i)
    if (plain[i]) plain_inputs_.push_back(i);
  has_plain_ = !plain_inputs_.empty();
  split_ = has_plain_ ? compile<Program, Instruction>(inputs, nodes, live, pair, plain, out_nodes) : all_;
  for (Program* program : {&all_, &split_})
    for (auto* code : {&program->plain_code, &program->code})
      for (Instruction& in : *code) in.handler = handler_of(in);
}

}  // namespace saltus::models

namespace saltus::models {

namespace {

// A double as an exact C++ constant (every bit, NaN and infinities included).
std::string literal(double value) {
  char text[48];
  std::snprintf(text, sizeof text, "std::bit_cast<double>(0x%016llxULL)",
                static_cast<unsigned long long>(std::bit_cast<std::uint64_t>(value)));
  return text;
}

}  // namespace

std::string ExpressionBlock::source(const std::string& name, bool split) const {
  // The order of run(): constants, the code on doubles, the promotions,
  // the code on T; a register k of the double file is the local dk, of
  // the T file rk. Each instruction is the handler's own call.
  const Program& program = split ? split_ : all_;
  std::ostringstream out;
  out << "template <class T>\nvoid " << name << "(const T* in, [[maybe_unused]] const double* d, T* out) {\n";
  std::vector<bool> plain(inputs_, false);
  if (split)
    for (std::int32_t i : plain_inputs_) plain[i] = true;
  for (int i = 0; i < inputs_; ++i)
    out << (plain[i] ? "  const double d" : "  const T r") << i << " = " << (plain[i] ? "d[" : "in[") << i
        << "];\n";
  for (const auto& [k, c] : program.constants) out << "  const double d" << k << " = " << literal(c) << ";\n";
  const auto emit = [&](const std::vector<Instruction>& code, const char* type, char file) {
    for (const Instruction& in : code) {
      const auto reg = [&](std::int32_t k) { return file + std::to_string(k); };
      if (in.handler == kSinCos) {
        out << "  " << type << ' ' << reg(in.dst) << ", " << reg(in.cos_dst) << ";\n  sin_cos(" << reg(in.a)
            << ", &" << reg(in.dst) << ", &" << reg(in.cos_dst) << ");\n";
        continue;
      }
      const bool mixed = in.handler >= kMixed;
      const int op = mixed ? in.handler - kMixed : in.handler;
      out << "  const " << type << ' ' << reg(in.dst) << " = apply_instruction(I{Op(" << op << "), "
          << in.op.index << ", " << (mixed ? "d" + std::to_string(in.immediate) : literal(in.op.value))
          << "}, " << reg(in.a) << ", " << reg(mixed ? in.a : in.b) << ");\n";
    }
  };
  emit(program.plain_code, "double", 'd');
  for (const auto& [k, c] : program.promoted) out << "  const T r" << k << " = constant<T>(d" << c << ");\n";
  emit(program.code, "T", 'r');
  for (std::size_t j = 0; j < program.outputs.size(); ++j)
    out << "  ::new (static_cast<void*>(out + " << j << ")) T(r" << program.outputs[j] << ");\n";
  out << "}\n";
  return out.str();
}

}  // namespace saltus::models
