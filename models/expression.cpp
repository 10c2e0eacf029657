#include "models/expression.h"

#include <algorithm>
#include <array>
#include <boost/fusion/include/adapt_struct.hpp>
#include <boost/spirit/home/x3.hpp>
#include <boost/spirit/home/x3/support/ast/variant.hpp>
#include <cctype>
#include <cmath>
#include <numbers>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace saltus::models {
namespace {

namespace x3 = boost::spirit::x3;

// ---------------------------------------------------------------------------
// AST. Every precedence level is a "chain": a first operand followed by
// (operator, operand) pairs; compilation decides associativity.
namespace ast {

struct Nil {};
struct Signed;
struct Chain;
struct Call;

struct Name {
  std::string name;
  const char* where = nullptr;  // into the parsed text, for error columns
};

struct Operand
    : x3::variant<Nil, double, Name, x3::forward_ast<Signed>, x3::forward_ast<Chain>, x3::forward_ast<Call>> {
  using base_type::base_type;
  using base_type::operator=;
};

struct Signed {
  char sign;
  Operand operand;
};

struct Operation {
  char op;
  Operand operand;
};

struct Chain {
  Operand first;
  std::vector<Operation> rest;
};

struct Call {
  Name name;
  std::vector<Chain> args;
};

}  // namespace ast
}  // namespace
}  // namespace saltus::models

BOOST_FUSION_ADAPT_STRUCT(saltus::models::ast::Signed, sign, operand)
BOOST_FUSION_ADAPT_STRUCT(saltus::models::ast::Operation, op, operand)
BOOST_FUSION_ADAPT_STRUCT(saltus::models::ast::Chain, first, rest)
BOOST_FUSION_ADAPT_STRUCT(saltus::models::ast::Call, name, args)

namespace saltus::models {
namespace {

// ---------------------------------------------------------------------------
// Grammar. Rule names double as the "expected ..." part of syntax errors.
namespace grammar {

// Unsigned (signs are operators here) and without nan/inf, which would otherwise
// shadow variables called "inf" or "nan".
struct NumberPolicies : x3::ureal_policies<double> {
  template <class It, class Attr>
  static bool parse_nan(It&, It const&, Attr&) {
    return false;
  }
  template <class It, class Attr>
  static bool parse_inf(It&, It const&, Attr&) {
    return false;
  }
};
const x3::real_parser<double, NumberPolicies> number;

// Recursive descent uses a few KiB of call stack per nesting level (more in debug and
// sanitizer builds), so deep nesting must end in an ExpressionError, not a crash.
constexpr int kMaxNesting = 128;
struct NestingTag;
struct NestingTooDeep {
  const char* where;
};

template <class Subject>
struct NestingGuard : x3::unary_parser<Subject, NestingGuard<Subject>> {
  using base_type = x3::unary_parser<Subject, NestingGuard<Subject>>;
  static bool const is_pass_through_unary = true;
  static bool const handles_container = Subject::handles_container;
  constexpr NestingGuard(Subject const& inner) : base_type(inner) {}

  template <class It, class Context, class RContext, class Attribute>
  bool parse(It& first, It const& last, Context const& context, RContext& rcontext, Attribute& attr) const {
    int& depth = x3::get<NestingTag>(context);
    if (depth >= kMaxNesting) throw NestingTooDeep{first};
    ++depth;
    bool ok = this->subject.parse(first, last, context, rcontext, attr);
    --depth;
    return ok;
  }
};

struct NestingGuardGen {
  template <class Subject>
  constexpr NestingGuard<typename x3::extension::as_parser<Subject>::value_type> operator[](
      Subject const& inner) const {
    return {x3::as_parser(inner)};
  }
};
constexpr NestingGuardGen nesting_guard{};

const auto set_name = [](auto& ctx) {
  const auto& range = x3::_attr(ctx);
  x3::_val(ctx).name.assign(range.begin(), range.end());
  x3::_val(ctx).where = &*range.begin();
};

const x3::rule<class ExpressionId, ast::Chain> expression = "an operand";
const x3::rule<class TermId, ast::Chain> term = "an operand";
const x3::rule<class UnaryId, ast::Operand> unary = "an operand";
const x3::rule<class SignedId, ast::Signed> signed_operand = "an operand";
const x3::rule<class PowerId, ast::Chain> power = "an operand";
const x3::rule<class PrimaryId, ast::Operand> primary = "an operand";
const x3::rule<class CallId, ast::Call> call = "a function call";
const x3::rule<class NameId, ast::Name> name = "a name";
const x3::rule<class CloseParenId> close_paren = "')'";
const x3::rule<class CloseCallId> close_call = "',' or ')'";

const auto expression_def = term >> *(x3::char_("+-") > term);
const auto term_def = unary >> *(x3::char_("*/") > unary);
// Unary minus binds looser than ^ (so -x^2 == -(x^2)); the exponent is a unary so
// that 2^-1 works and ^ is right-associative. Every recursion (parentheses, call
// arguments, signs, exponents) passes through unary, so the nesting guard sits here.
const auto unary_def = nesting_guard[signed_operand | power];
const auto signed_operand_def = x3::char_("+-") > unary;
const auto power_def = primary >> *(x3::char_('^') > unary);
const auto primary_def = number | call | name | ('(' > expression > close_paren);
const auto call_def = (name >> '(') > -(expression % ',') > close_call;
const auto name_def =
    x3::raw[x3::lexeme[(x3::alpha | x3::char_('_')) >> *(x3::alnum | x3::char_('_'))]][set_name];
const auto close_paren_def = x3::lit(')');
const auto close_call_def = x3::lit(')');

BOOST_SPIRIT_DEFINE(expression, term, unary, signed_operand, power, primary, call, name, close_paren,
                    close_call)

}  // namespace grammar

// ---------------------------------------------------------------------------
// Error reporting helpers.

std::string quote_list(const std::vector<std::string>& items) {
  if (items.empty()) return "none";
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += items[i];
  }
  return out;
}

// The token starting at `pos`, for "found '...'" in messages.
std::string token_at(std::string_view text, std::size_t pos) {
  if (pos >= text.size()) return "end of input";
  auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  auto is_number = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; };
  constexpr std::size_t kLongest = 80;
  std::size_t end = pos + 1;
  if (is_word(text[pos]) || is_number(text[pos])) {
    while (end < text.size() && (is_word(text[end]) || is_number(text[end]))) ++end;
  } else {
    // The whole of a non-ASCII character: its UTF-8 bytes after the first are 10xxxxxx.
    while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
  }
  if (end - pos > kLongest) return "'" + std::string(text.substr(pos, kLongest)) + "...'";  // ASCII: a word
  return "'" + std::string(text.substr(pos, end - pos)) + "'";
}

// A token that starts like a number but failed to parse as one can only have overflowed.
std::string found(std::string_view text, std::size_t pos) {
  std::string token = token_at(text, pos);
  if (pos < text.size() && (std::isdigit(static_cast<unsigned char>(text[pos])) ||
                            (text[pos] == '.' && pos + 1 < text.size() &&
                             std::isdigit(static_cast<unsigned char>(text[pos + 1]))))) {
    return "number " + token + " (out of range)";
  }
  return token;
}

std::size_t skip_spaces(std::string_view text, std::size_t pos) {
  while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
  return pos;
}

struct FunctionInfo {
  std::string_view name;
  Expression::Op op;
  int arity;
};

constexpr std::array<FunctionInfo, 17> kFunctions{{
    {"sin", Expression::Op::kSin, 1},
    {"cos", Expression::Op::kCos, 1},
    {"tan", Expression::Op::kTan, 1},
    {"asin", Expression::Op::kAsin, 1},
    {"acos", Expression::Op::kAcos, 1},
    {"atan", Expression::Op::kAtan, 1},
    {"sinh", Expression::Op::kSinh, 1},
    {"cosh", Expression::Op::kCosh, 1},
    {"tanh", Expression::Op::kTanh, 1},
    {"exp", Expression::Op::kExp, 1},
    {"log", Expression::Op::kLog, 1},
    {"sqrt", Expression::Op::kSqrt, 1},
    {"abs", Expression::Op::kAbs, 1},
    {"atan2", Expression::Op::kAtan2, 2},
    {"pow", Expression::Op::kPow, 2},
    {"min", Expression::Op::kMin, 2},
    {"max", Expression::Op::kMax, 2},
}};

const FunctionInfo* find_function(std::string_view name) {
  for (const auto& f : kFunctions)
    if (f.name == name) return &f;
  return nullptr;
}

std::string function_list() {
  std::string out;
  for (const auto& f : kFunctions) {
    if (!out.empty()) out += ", ";
    out += f.name;
  }
  return out;
}

// Integer exponents up to this size use repeated squaring; beyond, pow() is as exact.
constexpr double kMaxIntegerExponent = 64;

}  // namespace

// ---------------------------------------------------------------------------
// AST -> postfix program, folding every variable-free subtree into a constant.
class ExpressionCompiler {
 public:
  using Op = Expression::Op;
  using Instruction = Expression::Instruction;

  ExpressionCompiler(std::string_view text, const std::vector<std::string>& names,
                     std::vector<Instruction>& code)
      : text_(text), names_(names), code_(code) {}

  // nullopt: code for the value was appended; otherwise the value is this constant
  // and nothing was emitted.
  using Value = std::optional<double>;

  Value compile(const ast::Chain& chain) {
    // A chain of ^ is right-associative; everything else is left-associative.
    if (!chain.rest.empty() && chain.rest.front().op == '^') {
      return compile_power_chain(chain, 0);
    }
    Value acc = compile(chain.first);
    for (const auto& operation : chain.rest) {
      std::size_t rhs_start = code_.size();
      Value rhs = compile(operation.operand);
      acc = combine(operation.op, acc, rhs, rhs_start);
    }
    return acc;
  }

  [[noreturn]] void fail(const char* where, const std::string& message) const {
    throw ExpressionError(prefix() + message + " at column " + std::to_string(column(where)) + suffix_);
  }

  std::string prefix() const { return "expression '" + std::string(text_) + "': "; }
  std::size_t column(const char* where) const { return static_cast<std::size_t>(where - text_.data()) + 1; }

 private:
  Value compile(const ast::Operand& operand) {
    return boost::apply_visitor([this](const auto& node) { return compile_node(node); }, operand);
  }

  Value compile_node(const ast::Nil&) { return 0.0; }  // unreachable: the grammar never yields it
  Value compile_node(double value) { return value; }
  Value compile_node(const x3::forward_ast<ast::Chain>& chain) { return compile(chain.get()); }

  Value compile_node(const ast::Name& name) {
    // Variables shadow the built-in constants.
    auto it = std::find(names_.begin(), names_.end(), name.name);
    if (it != names_.end()) {
      code_.push_back({Op::kVar, static_cast<std::int32_t>(it - names_.begin()), 0.0});
      return std::nullopt;
    }
    if (name.name == "pi") return std::numbers::pi;
    if (name.name == "e") return std::numbers::e;
    std::string message = "unknown name '" + name.name + "'";
    suffix_ = " (known: " + quote_list(names_) + ")";
    if (find_function(name.name)) {
      suffix_ += "; '" + name.name + "' is a function, call it as " + name.name + "(...)";
    }
    fail(name.where, message);
  }

  Value compile_node(const x3::forward_ast<ast::Signed>& node) {
    const ast::Signed& s = node.get();
    Value v = compile(s.operand);
    if (s.sign == '+') return v;
    if (v) return fold({{Op::kConst, 0, *v}, {Op::kNeg, 0, 0.0}});
    code_.push_back({Op::kNeg, 0, 0.0});
    return std::nullopt;
  }

  Value compile_node(const x3::forward_ast<ast::Call>& node) {
    const ast::Call& c = node.get();
    const FunctionInfo* f = find_function(c.name.name);
    if (!f) {
      suffix_ = " (known: " + function_list() + ")";
      fail(c.name.where, "unknown function '" + c.name.name + "'");
    }
    if (static_cast<int>(c.args.size()) != f->arity) {
      fail(c.name.where, "function '" + c.name.name + "' takes " + std::to_string(f->arity) +
                             (f->arity == 1 ? " argument" : " arguments") + " but got " +
                             std::to_string(c.args.size()));
    }
    if (f->arity == 1) {
      Value v = compile(c.args[0]);
      if (v) return fold({{Op::kConst, 0, *v}, {f->op, 0, 0.0}});
      code_.push_back({f->op, 0, 0.0});
      return std::nullopt;
    }
    Value lhs = compile(c.args[0]);
    std::size_t rhs_start = code_.size();
    Value rhs = compile(c.args[1]);
    if (f->op == Op::kPow) return combine('^', lhs, rhs, rhs_start);
    return binary(f->op, lhs, rhs, rhs_start);
  }

  Value compile_power_chain(const ast::Chain& chain, std::size_t i) {
    // a ^ b ^ c == a ^ (b ^ c); operands[0] is chain.first, operands[k] is rest[k-1].
    const ast::Operand& base = i == 0 ? chain.first : chain.rest[i - 1].operand;
    Value lhs = compile(base);
    if (i == chain.rest.size()) return lhs;
    std::size_t rhs_start = code_.size();
    Value rhs = compile_power_chain(chain, i + 1);
    return combine('^', lhs, rhs, rhs_start);
  }

  // Binary arithmetic, using the constant-operand opcodes where one side is constant.
  Value combine(char op, Value lhs, Value rhs, std::size_t rhs_start) {
    Op generic = op == '+'   ? Op::kAdd
                 : op == '-' ? Op::kSub
                 : op == '*' ? Op::kMul
                 : op == '/' ? Op::kDiv
                             : Op::kPow;
    if (lhs && rhs) return binary(generic, lhs, rhs, rhs_start);
    if (rhs) {
      double c = *rhs;
      switch (op) {
        case '+':
          code_.push_back({Op::kAddC, 0, c});
          break;
        case '-':
          code_.push_back({Op::kAddC, 0, -c});
          break;  // x - c == x + (-c) exactly
        case '*':
          code_.push_back({Op::kMulC, 0, c});
          break;
        case '/':
          code_.push_back({Op::kDivC, 0, c});
          break;
        default:
          if (c == std::trunc(c) && std::abs(c) <= kMaxIntegerExponent) {
            code_.push_back({Op::kPowI, static_cast<std::int32_t>(c), 0.0});
          } else {
            code_.push_back({Op::kPowC, 0, c});
          }
      }
      return std::nullopt;
    }
    if (lhs) {
      double c = *lhs;
      switch (op) {
        case '+':
          code_.push_back({Op::kAddC, 0, c});
          break;
        case '-':
          code_.push_back({Op::kRSubC, 0, c});
          break;
        case '*':
          code_.push_back({Op::kMulC, 0, c});
          break;
        case '/':
          code_.push_back({Op::kRDivC, 0, c});
          break;
        default:
          code_.push_back({Op::kRPowC, 0, c});
      }
      return std::nullopt;
    }
    code_.push_back({generic, 0, 0.0});
    return std::nullopt;
  }

  // Generic two-operand opcode; a constant left operand must be pushed before the
  // code of the right operand, hence the insertion at rhs_start.
  Value binary(Op op, Value lhs, Value rhs, std::size_t rhs_start) {
    if (lhs && rhs) {
      if (op == Op::kPow && *rhs == std::trunc(*rhs) && std::abs(*rhs) <= kMaxIntegerExponent) {
        return fold({{Op::kConst, 0, *lhs}, {Op::kPowI, static_cast<std::int32_t>(*rhs), 0.0}});
      }
      return fold({{Op::kConst, 0, *lhs}, {Op::kConst, 0, *rhs}, {op, 0, 0.0}});
    }
    if (lhs) code_.insert(code_.begin() + static_cast<std::ptrdiff_t>(rhs_start), {Op::kConst, 0, *lhs});
    if (rhs) code_.push_back({Op::kConst, 0, *rhs});
    code_.push_back({op, 0, 0.0});
    return std::nullopt;
  }

  // Constant folding runs the evaluator itself, so folded and unfolded arithmetic agree bit for bit.
  static double fold(std::initializer_list<Instruction> program) {
    double stack[3];
    return Expression::run<double>(program.begin(), program.end(), nullptr, stack);
  }

  std::string_view text_;
  const std::vector<std::string>& names_;
  std::vector<Instruction>& code_;
  std::string suffix_;  // appended after the column, e.g. the list of known names
};

Expression::Expression() : text_("0"), code_{{Op::kConst, 0, 0.0}} {}

Expression Expression::parse(std::string_view text, const std::vector<std::string>& names) {
  const std::string prefix = "expression '" + std::string(text) + "': ";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (std::find(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(i), names[i]) !=
        names.begin() + static_cast<std::ptrdiff_t>(i)) {
      throw ExpressionError(prefix + "variable name '" + names[i] + "' is given twice");
    }
  }
  if (skip_spaces(text, 0) == text.size()) throw ExpressionError(prefix + "empty expression at column 1");

  // At end of input the column is that of the last character (the dangling operator
  // or argument), which is where the user has to look.
  auto syntax_error = [&](const char* where, const std::string& what) -> ExpressionError {
    std::size_t pos = skip_spaces(text, static_cast<std::size_t>(where - text.data()));
    if (pos == text.size()) pos = text.find_last_not_of(" \t\n\r\f\v");
    return ExpressionError(prefix + "syntax error at column " + std::to_string(pos + 1) + ": " + what);
  };

  // Spirit's skipper classifies chars with std::isspace, undefined for the
  // negative chars of a UTF-8 byte (an assertion under a debug build, found
  // by fuzzing with sanitizers): such a byte is an error before parsing.
  const auto non_ascii = [](char c) { return static_cast<unsigned char>(c) >= 0x80; };
  if (const auto wide = std::find_if(text.begin(), text.end(), non_ascii); wide != text.end()) {
    const std::size_t pos = static_cast<std::size_t>(wide - text.begin());
    throw ExpressionError(prefix + "syntax error at column " + std::to_string(pos + 1) + ": found " +
                          found(text, pos) + " (expressions are ASCII: names are letters, digits and '_')");
  }

  ast::Chain tree;
  const char* first = text.data();
  const char* const last = text.data() + text.size();
  try {
    int nesting = 0;
    bool ok = x3::phrase_parse(first, last, x3::with<grammar::NestingTag>(nesting)[grammar::expression],
                               x3::space, tree);
    if (!ok) {
      std::size_t pos = skip_spaces(text, static_cast<std::size_t>(first - text.data()));
      throw syntax_error(first, "expected an operand, found " + found(text, pos));
    }
  } catch (const x3::expectation_failure<const char*>& e) {
    std::size_t pos = skip_spaces(text, static_cast<std::size_t>(e.where() - text.data()));
    std::string what = "expected " + e.which();
    if (pos < text.size()) {
      what += ", found " + found(text, pos);
      if (text[pos] == '*' && pos > 0 && text[pos - 1] == '*') what += " (use ^ for powers)";
    } else if (e.which() == "')'" || e.which() == "',' or ')'") {
      what += " (unbalanced parentheses)";
    }
    throw syntax_error(e.where(), what);
  } catch (const grammar::NestingTooDeep& e) {
    throw syntax_error(e.where, "nesting deeper than " + std::to_string(grammar::kMaxNesting) + " levels");
  }
  std::size_t rest = skip_spaces(text, static_cast<std::size_t>(first - text.data()));
  if (rest != text.size()) {
    if (text[rest] == ')') throw syntax_error(first, "unmatched ')' (unbalanced parentheses)");
    throw syntax_error(first, "unexpected " + token_at(text, rest) + ", expected an operator");
  }

  Expression result;
  result.text_ = std::string(text);
  result.names_ = names;
  result.code_.clear();
  ExpressionCompiler compiler(text, names, result.code_);
  if (auto c = compiler.compile(tree)) result.code_.push_back({Op::kConst, 0, *c});

  std::size_t depth = 0;
  for (const Instruction& in : result.code_) {
    switch (in.op) {
      case Op::kConst:
      case Op::kVar:
        result.max_depth_ = std::max(result.max_depth_, ++depth);
        if (in.op == Op::kVar) result.used_.push_back(in.index);
        break;
      case Op::kAdd:
      case Op::kSub:
      case Op::kMul:
      case Op::kDiv:
      case Op::kPow:
      case Op::kAtan2:
      case Op::kMin:
      case Op::kMax:
        --depth;
        break;
      default:
        break;
    }
  }
  std::sort(result.used_.begin(), result.used_.end());
  result.used_.erase(std::unique(result.used_.begin(), result.used_.end()), result.used_.end());
  return result;
}

std::string Expression::disassemble() const {
  static constexpr const char* kNames[] = {
      "const", "var",   "neg",  "add",  "sub",   "mul",  "div", "pow",   "addc", "rsubc", "mulc",
      "divc",  "rdivc", "powi", "powc", "rpowc", "sin",  "cos", "tan",   "asin", "acos",  "atan",
      "sinh",  "cosh",  "tanh", "exp",  "log",   "sqrt", "abs", "atan2", "min",  "max"};
  static_assert(std::size(kNames) == static_cast<std::size_t>(Op::kMax) + 1);
  std::ostringstream out;
  out.precision(17);
  for (const Instruction& in : code_) {
    out << kNames[static_cast<int>(in.op)];
    switch (in.op) {
      case Op::kVar:
        out << ' ' << names_[static_cast<std::size_t>(in.index)];
        break;
      case Op::kPowI:
        out << ' ' << in.index;
        break;
      case Op::kConst:
      case Op::kAddC:
      case Op::kRSubC:
      case Op::kMulC:
      case Op::kDivC:
      case Op::kRDivC:
      case Op::kPowC:
      case Op::kRPowC:
        out << ' ' << in.value;
        break;
      default:
        break;
    }
    out << '\n';
  }
  return out.str();
}

std::vector<bool> Definitions::depends(std::vector<bool> flags) const {
  for (const Expression& e : expressions) flags.push_back(reads(e, flags));
  return flags;
}

bool reads(const Expression& e, const std::vector<bool>& flags) {
  for (int i : e.used_variables())
    if (i < static_cast<int>(flags.size()) && flags[i]) return true;
  return false;
}

}  // namespace saltus::models
