#!/usr/bin/env bash
# What `saltus simulate` pays for the variational equations (issue 37 item 3):
# instructions (valgrind --tool=callgrind, deterministic) of the whole
# process and of studies::simulate inside it, on the impact oscillator's run
# file and the bouncing balls (chaotic and Zeno), with --transition-matrix (the state and
# Phi, what every run paid before issue 37) and without (the default since);
# then the impact oscillator's run file against the same model written as a
# C++ functor (bench/simulate.cpp), inside flow::simulate, on the state alone,
# with the run file's max_step 0.05 and without.
#
#   bench/peer/simulate_instructions.sh        # BUILD=... to use another build dir
#
# --no-figures throughout: gnuplot is another process and not traced, and
# writing the figures' .dat files is output, not simulation. Each command
# runs once untraced first, so that a run file's compiled blocks are in the
# cache and the compiler is not what is counted.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
command -v valgrind >/dev/null || {
  echo "installing valgrind ..." >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y valgrind >&2
}
cmake --build "$BUILD" --target saltus_cli saltus_bench -j2 >&2
OUT=$(mktemp -d /tmp/saltus_simulate_ir.XXXXXX)

# callgrind's "Collected" count of a command; $1: --toggle-collect pattern or "".
instructions() {
  local toggle=$1
  shift
  valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.out" ${toggle:+--toggle-collect="$toggle"} "$@" \
    2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

mega() { awk -v n="$1" 'BEGIN { printf "%.2f M", n / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }

echo "| saltus simulate ... --no-figures | whole process, Phi / state | ratio | inside studies::simulate, Phi / state | ratio |"
echo "| --- | --- | --- | --- | --- |"
for file in examples/user/impact_oscillator.json examples/bouncing_ball_chaotic.json examples/bouncing_ball.json; do
  run=("$BUILD/saltus" simulate "$ROOT/$file" --out "$OUT/run" --no-figures)
  "${run[@]}" >/dev/null
  whole_phi=$(instructions "" "${run[@]}" --transition-matrix)
  whole=$(instructions "" "${run[@]}")
  inside_phi=$(instructions 'saltus::studies::simulate*' "${run[@]}" --transition-matrix)
  inside=$(instructions 'saltus::studies::simulate*' "${run[@]}")
  echo "| \`$file\` | $(mega "$whole_phi") / $(mega "$whole") | $(ratio "$whole_phi" "$whole") |" \
    "$(mega "$inside_phi") / $(mega "$inside") | $(ratio "$inside_phi" "$inside") |"
done

echo
echo "The impact oscillator inside flow::simulate, the state alone (bench/simulate.cpp):"
echo "| max_step | run file | C++ functor | run file / C++ |"
echo "| --- | --- | --- | --- |"
for arg in 1 0; do
  bench=("$BUILD/bench/saltus_bench" --benchmark_min_time=0)
  file=$(instructions 'saltus::flow::simulate*' "${bench[@]}" --benchmark_filter="^BM_ImpactOscillator_RunFileModel/$arg\$")
  cpp=$(instructions 'saltus::flow::simulate*' "${bench[@]}" --benchmark_filter="^BM_ImpactOscillator_CppModel/$arg\$")
  echo "| $([ $arg = 1 ] && echo "0.05 (the run file's)" || echo none) | $(mega "$file") | $(mega "$cpp") |" \
    "$(ratio "$file" "$cpp") |"
done
rm -rf "$OUT"
