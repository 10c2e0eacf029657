#pragma once
// Parameters of hybrid systems. A model's parameters are fields of its
// functor, listed once by a visitor,
//
//   template <class Self, class Visit>
//   static void parameters(Self& self, Visit&& visit) {  // Self: F or const F
//     visit("A", self.A, "table amplitude");
//     ...
//   }
//   template <class Q> auto cast() const;  // the functor with parameters of scalar Q
//
// and the functor is a class template on the scalar P of its parameters
// (P = double for simulation). A field the model decides on as a number (a
// restitution, a friction bound: next_mode compares it) is `double` in every
// cast; such a parameter can be changed but not carried in the state.
//
// From the visitor, AutoDiffHybrid gives every such model names, values and
// changed copies (sweeps), and the shooting form ParametersInState below: the
// chosen parameters p ride in the state as x = (x, p) with p' = 0, unchanged
// by every reset, and at each evaluation the functor is cast to the state's
// scalar with p put in, so that the variational equations carry d/dp exactly
// (ceres::Jet through the whole model: fields, guards, resets). No model
// keeps a "with parameter" copy of itself.

#include <ceres/jet.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "continuation/flow/crossing.h"
#include "continuation/system.h"
#include "continuation/taylor.h"

namespace saltus::flow {

namespace detail {

struct IgnoreField {
  template <class V>
  void operator()(const char*, V&, const char*) const {}
};

template <class V>
double value_of(const V& v) {
  return series::value_of(v);
}

}  // namespace detail

// A functor whose parameters are listed by a visitor (see above).
template <class F>
concept Parameterized = requires(F& f, const F& c) {
  F::parameters(f, detail::IgnoreField{});
  F::parameters(c, detail::IgnoreField{});
  c.template cast<double>();
};

struct ParameterInfo {
  std::string name;
  double value;
  std::string doc;
};

// "a, b, c": the names, for messages.
inline std::string parameter_names_text(const std::vector<ParameterInfo>& list) {
  std::string out;
  for (const auto& p : list) out += (out.empty() ? "" : ", ") + p.name;
  return out;
}

template <Parameterized F>
std::vector<ParameterInfo> parameter_list(const F& f) {
  std::vector<ParameterInfo> out;
  F::parameters(f, [&](const char* name, const auto& v, const char* doc) {
    out.push_back({name, detail::value_of(v), doc});
  });
  return out;
}

// The values of `from`, assigned field by field (in visiting order) to a
// default-constructed To: the body of a model's cast<Q>(). Members that are
// not parameters keep To's defaults, so a model lists every member its
// equations read.
template <class To, class From>
To cast_parameters(const From& from) {
  std::vector<double> values;
  From::parameters(from,
                   [&](const char*, const auto& v, const char*) { values.push_back(detail::value_of(v)); });
  To to;
  std::size_t i = 0;
  To::parameters(to, [&](const char*, auto& v, const char*) {
    using V = std::remove_reference_t<decltype(v)>;
    v = V(values[i++]);
  });
  return to;
}

// Sets named parameters of f (values of scalar double). Throws
// std::invalid_argument naming an unknown name and listing the known ones.
template <Parameterized F>
void set_parameters(F* f, const std::map<std::string, double>& values) {
  std::map<std::string, bool> seen;
  for (const auto& [name, value] : values) seen[name] = false;
  F::parameters(*f, [&](const char* name, auto& v, const char*) {
    const auto it = values.find(name);
    if (it == values.end()) return;
    using V = std::remove_reference_t<decltype(v)>;
    v = V(it->second);
    seen[name] = true;
  });
  for (const auto& [name, found] : seen)
    if (!found)
      throw std::invalid_argument(
          "'" + name + "' is not a parameter (known: " + parameter_names_text(parameter_list(*f)) + ")");
}

// The names of a carried parameter: "c1=c2=c3" (the label of a map axis
// over tied parameters, drivers/map_spec.cpp) is one state component that
// sets c1, c2 and c3 together; a plain name is itself. Throws
// std::invalid_argument for an empty name in the list.
inline std::vector<std::string> tied_names(const std::string& label) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = label.find('=', start);
    out.push_back(label.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (out.back().empty())
      throw std::invalid_argument("'" + label + "': an empty parameter name (tied names are 'a=b=c')");
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}

// The shooting form of a parameterized functor F: state (x, p) with the
// chosen parameters p (indices into F's visiting order) as constant
// components, and optionally some coordinates that are angles wrapped into
// [-pi, pi] by two guards each (q_i = pi rising, q_i = -pi falling, reset by
// -+2 pi), so that an orbit on which a link goes round closes in the state
// space. The field is 2 pi periodic in an angle, so these events have the
// saltation matrix I and change nothing else.
template <Parameterized F>
class ParametersInState {
 public:
  // Throws std::invalid_argument for an unknown parameter, one the model
  // decides on as a number (a double field in every cast), or a bad angle.
  ParametersInState(F base, const std::vector<std::string>& names, std::vector<int> angles = {})
      : base_(std::move(base)), angles_(std::move(angles)) {
    const auto all = parameter_list(base_);
    std::vector<int> used;
    for (const auto& label : names) {
      std::vector<int> group;
      for (const auto& name : tied_names(label)) {
        int index = -1;
        for (std::size_t i = 0; i < all.size(); ++i)
          if (all[i].name == name) index = static_cast<int>(i);
        if (index < 0)
          throw std::invalid_argument("'" + name +
                                      "' is not a parameter (known: " + parameter_names_text(all) + ")");
        if (std::find(used.begin(), used.end(), index) != used.end())
          throw std::invalid_argument("the parameter '" + name +
                                      "' is carried twice: name each parameter once");
        if (!carried_type(index))
          throw std::invalid_argument(
              "the parameter '" + name +
              "' cannot ride in the state: the model decides on it as a number (continue "
              "in another parameter)");
        if (all[index].value != all[group.empty() ? index : group.front()].value)
          throw std::invalid_argument("the tied parameters '" + label + "' differ (" +
                                      all[group.front()].name + " = " +
                                      std::to_string(all[group.front()].value) + ", " + name + " = " +
                                      std::to_string(all[index].value) + "): set them equal first");
        used.push_back(index);
        group.push_back(index);
      }
      index_.push_back(group);
      names_.push_back(label);
    }
    n_ = base_.dimension();
    for (int a : angles_)
      if (a < 0 || a >= n_)
        throw std::invalid_argument("angle index " + std::to_string(a) + " is not a state component");
    guards_ = 2 * static_cast<int>(angles_.size());
  }

  const F& base() const { return base_; }
  // The model's opt-in to tangent lifting (hybrid_system.h), passed on.
  static constexpr bool tangent_liftable = [] {
    if constexpr (requires { F::tangent_liftable; })
      return static_cast<bool>(F::tangent_liftable);
    else
      return false;
  }();
  int dimension() const { return n_ + static_cast<int>(index_.size()); }
  std::vector<std::string> state_names() const {
    std::vector<std::string> names;
    if constexpr (requires { base_.state_names(); })
      names = base_.state_names();
    else
      for (int i = 0; i < n_; ++i) names.push_back("x" + std::to_string(i));
    names.insert(names.end(), names_.begin(), names_.end());
    return names;
  }
  std::string mode_name(int mode) const {
    if constexpr (requires { base_.mode_name(mode); }) return base_.mode_name(mode);
    return "mode " + std::to_string(mode);
  }
  int guard_count(int mode) const { return base_guards(mode) + guards_; }
  std::string guard_name(int mode, int k) const {
    const int own = base_guards(mode);
    if (k >= own) {
      const int j = k - own;
      return "wrap " + state_names()[angles_[j / 2]] + (j % 2 ? " below -pi" : " above pi");
    }
    if constexpr (requires { base_.guard_name(mode, k); }) return base_.guard_name(mode, k);
    return "guard " + std::to_string(k);
  }
  // Wrap guards: h = pi - q_i falls through zero going up, h = q_i + pi going down.
  Crossing crossing(int mode, int k) const {
    if (k >= base_guards(mode)) return Crossing::kFalling;
    if constexpr (requires { base_.crossing(mode, k); }) return base_.crossing(mode, k);
    return Crossing::kFalling;
  }

  template <class T>
  void field(int mode, const T& t, const T* x, T* f) const {
    at<T>(x).template field<T>(mode, t, x, f);
    for (int j = n_; j < dimension(); ++j) f[j] = T(0.0);
  }

  template <class T>
  T guard(int mode, int k, const T& t, const T* x) const {
    const int own = base_guards(mode);
    if constexpr (requires { base_.template guard<T>(mode, k, t, x); })
      if (k < own) return at<T>(x).template guard<T>(mode, k, t, x);
    const int j = k - own;
    const T& q = x[angles_[j / 2]];
    return j % 2 ? q + T(M_PI) : T(M_PI) - q;
  }

  int next_mode(int mode, int k, double t, const double* x) const {
    if constexpr (requires { base_.next_mode(mode, k, t, x); })
      if (k < base_guards(mode)) return at<double>(x).next_mode(mode, k, t, x);
    return mode;
  }

  template <class T>
  void reset(int mode, int k, int next, const T& t, const T* x, T* x_plus) const {
    const int own = base_guards(mode);
    for (int i = 0; i < dimension(); ++i) x_plus[i] = x[i];
    if constexpr (requires { base_.template reset<T>(mode, k, next, t, x, x_plus); })
      if (k < own) {
        at<T>(x).template reset<T>(mode, k, next, t, x, x_plus);
        return;
      }
    const int j = k - own;
    x_plus[angles_[j / 2]] += T(j % 2 ? 2 * M_PI : -2 * M_PI);
  }

  void constrained_directions(int mode, double t, const double* x, Matrix* C) const {
    if constexpr (requires { at<double>(x).constrained_directions(mode, t, x, C); }) {
      at<double>(x).constrained_directions(mode, t, x, C);
      C->conservativeResize(C->rows(), dimension());
      C->rightCols(dimension() - n_).setZero();
    } else {
      C->resize(0, dimension());
    }
  }

 private:
  int base_guards(int mode) const {
    if constexpr (requires { base_.guard_count(mode); }) return base_.guard_count(mode);
    return 0;
  }

  // Whether the field at `index` takes the state's scalar in a cast (is of
  // scalar P, not a double the model decides on).
  bool carried_type(int index) const {
    using Jet = ceres::Jet<double, 1>;
    auto jet = base_.template cast<Jet>();
    bool carried = false;
    int i = 0;
    decltype(jet)::parameters(jet, [&](const char*, auto& v, const char*) {
      if (i++ == index) carried = std::is_same_v<std::remove_reference_t<decltype(v)>, Jet>;
    });
    return carried;
  }

  // The model of scalar T with the carried parameters from x[n..].
  template <class T>
  auto at(const T* x) const {
    auto m = base_.template cast<T>();
    int i = 0;
    decltype(m)::parameters(m, [&](const char*, auto& v, const char*) {
      for (std::size_t j = 0; j < index_.size(); ++j)
        if (std::find(index_[j].begin(), index_[j].end(), i) != index_[j].end()) {
          if constexpr (std::is_same_v<std::remove_reference_t<decltype(v)>, T>)
            v = x[n_ + static_cast<int>(j)];
        }
      ++i;
    });
    return m;
  }

  F base_;
  std::vector<int> angles_;
  std::vector<std::vector<int>> index_;  // per carried component, the places in F's visiting order it sets
  std::vector<std::string> names_;
  int n_ = 0;
  int guards_ = 0;
};

}  // namespace saltus::flow
