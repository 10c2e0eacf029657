#include "models/expression_block.h"

#include <algorithm>
#include <bit>
#include <map>
#include <stdexcept>
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

ExpressionBlock::ExpressionBlock(int inputs, const Definitions& definitions,
                                 const std::vector<const Expression*>& outputs)
    : inputs_(inputs) {
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

  // Registers: the inputs, then the live nodes in order.
  std::vector<std::int32_t> reg(n, -1);
  for (std::int32_t k = 0; k < inputs; ++k) reg[k] = k;
  registers_ = inputs;
  for (std::int32_t k = inputs; k < n; ++k)
    if (live[k]) reg[k] = registers_++;
  std::vector<bool> emitted(n, false);
  for (std::int32_t k = inputs; k < n; ++k) {
    if (!live[k] || emitted[k]) continue;
    const Node& node = nodes[k];
    if (node.op.op == Op::kConst) {
      constants_.emplace_back(reg[k], node.op.value);
      continue;
    }
    if (pair[k] >= 0) {
      const std::int32_t sin = node.op.op == Op::kSin ? k : pair[k], cos = pair[sin];
      code_.push_back({{Op::kSin, 0, 0.0}, reg[sin], reg[node.a], reg[node.a], reg[cos]});
      emitted[sin] = emitted[cos] = true;
      continue;
    }
    code_.push_back({node.op, reg[k], reg[node.a], reg[node.b], -1});
  }
  for (std::int32_t k : out_nodes) outputs_.push_back(reg[k]);
}

}  // namespace saltus::models
