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
// When. A run file's first run does not wait for the compiler (issue 37):
// with the blocks not in the cache, compile_blocks() starts their compile in
// a detached background process and returns at once, and the run is
// interpreted; the background process renames the object into the cache
// when it is done, and the next run (or the next load of the same
// expressions in a Python session) loads it. The compiled program is the
// interpreter's bit for bit (see How), so a run's results do not depend on
// which it used; compile_blocks() reports which (CompileReport), and the
// summary.json of `saltus continue` says it ("expressions"). Why not switch to the
// compiled code in the middle of the run that started the compile: the
// compile takes 1.5 to 5 s of CPU, a study like examples/lorenz.json 0.1 s,
// so only runs longer than the compile would gain (20 to 35% of their
// time); the switch would put an atomic load in every evaluation and a
// thread in every process that outlives its study. A long run that wants
// the compiled code from its first step says SALTUS_COMPILE=wait.
//
// Several runs, one cache. Every file is written under a name of its own and
// renamed into place (atomic: a half-written object is never loaded); of
// runs that start a new run file at the same time only the first compiles
// (pending-<key>, created exclusively; one older than 10 minutes, from a
// compile that was killed, is taken over), the others are interpreted.
//
// Failure. A background compile that fails leaves the command and the
// compiler's output in failed-<key>.log in the cache; later runs of the same
// expressions are interpreted, report it (CompileReport::failed, the note
// names the log; `saltus continue` prints it as a warning) and do not retry
// until the log is deleted. Without a compiler (or a cache directory) the blocks keep
// the interpreter, with the same values, and that is not a failure.
//
// Environment:
//   SALTUS_COMPILE=0     never compile (the interpreter only)
//   SALTUS_COMPILE=wait  compile in the foreground, the run waits (the
//                        behaviour before issue 37; the test programs and
//                        the benchmarks default to it, so that no process
//                        they start outlives them)
//   SALTUS_COMPILE unset or anything else: in the background, as above
//   SALTUS_CXX           the compiler (default: the one that built saltus)
//   SALTUS_CACHE_DIR     the cache directory

#include <string>
#include <vector>

#include "models/expression_block.h"

namespace saltus::models {

enum class CompileMode { kOff, kBackground, kWait };
// From SALTUS_COMPILE (above).
CompileMode compile_mode();

// What compile_blocks() did.
struct CompileReport {
  bool compiled = false;  // the blocks run the compiled program, else the interpreter's loop
  bool failed = false;    // a compile of these blocks failed, or its object did not load
  std::string note;       // one sentence: which, and why (names the object or the failure's log)
  explicit operator bool() const { return compiled; }
};

// Loads `blocks` compiled together from the cache and attaches the result to
// each, or (not there) compiles them as `mode` says: in the background
// (the blocks stay interpreted), now (kWait), or not at all (kOff).
CompileReport compile_blocks(const std::vector<ExpressionBlock*>& blocks, CompileMode mode);
CompileReport compile_blocks(const std::vector<ExpressionBlock*>& blocks);  // compile_mode()

// Waits until the background compiles this process started are done (their
// objects, or failure logs, are then in the cache); how many there were. For
// tests, benchmarks and scripts that must not leave a process behind.
int wait_for_background_compiles();

}  // namespace saltus::models
