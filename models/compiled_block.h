#pragma once
// Expression blocks compiled with the system compiler (issue 12's option 3).
//
// Why. On the triple pendulum written as a run file the register loop of
// models/expression_block.h cost 1.65x the built-in C++ model on the state
// alone (bench/user_model.cpp): the profile showed the time in its
// dispatch (an indirect call, loads and stores per instruction) on double
// and on the Taylor series with which flow::Mechanical takes the
// constraint Jacobian and curvature terms at every field evaluation in
// contact, not in the arithmetic. Fusing instructions would shorten the
// loop, not remove it; compiled code has none, and the compiler keeps the
// values in registers and inlines the Taylor recurrences.
//
// How. compile_blocks() writes the blocks' programs (ExpressionBlock::
// source: each instruction the same apply_instruction call as the loop, so
// the values are the same bit for bit) as one C++ file, with the three
// headers it includes (embedded in saltus at build time), compiles it with
// the compiler that built saltus into a shared object, and dlopens it. The
// object is cached under the hash of its source, the headers, the flags
// and the versions of saltus and Ceres (in $SALTUS_CACHE_DIR, else $XDG_CACHE_HOME/saltus,
// else ~/.cache/saltus): a run file compiles once (the pendulum's: 1.8 s of
// CPU), and every later run, and any run of the same expressions with other
// parameter values, initial state or options, loads it in milliseconds.
// The headers every block includes (Eigen, ceres' Jet) are precompiled once
// per cache (a 100 MB prelude-*/prelude.h.gch, about 5 s): a new run file's
// blocks then compile without parsing them (the Lorenz rates: about 1.5 s of
// CPU instead of 4).
// Compiled are the scalars of a simulation (double, Taylor<double, 1>,
// Taylor<double, 2>) and the Jet of its variational equations
// (ExpressionBlock::CompiledJet, with the parameters plain and with every
// input a Jet); other Jets keep the loop. The pendulum's run file went from
// 1.58x the built-in to 1.31x on the state (one run of
// bench/user_model.cpp, before the Jets were compiled).
//
// Fallback. Without a compiler (or a cache directory, or when the compiler
// fails), compile_blocks() returns false and the blocks keep the
// interpreter, with the same values: nothing is reported. Environment:
//   SALTUS_COMPILE=0    never compile (the interpreter only)
//   SALTUS_CXX          the compiler (default: the one that built saltus)
//   SALTUS_CACHE_DIR    the cache directory

#include <vector>

#include "models/expression_block.h"

namespace saltus::models {

// Compiles `blocks` together (or loads them from the cache) and attaches
// the result to each; false (and the blocks unchanged) if that failed.
bool compile_blocks(const std::vector<ExpressionBlock*>& blocks);

}  // namespace saltus::models
