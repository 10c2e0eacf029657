#!/usr/bin/env bash
# The cost of the Lorenz cascade (examples/lorenz.json) by the three routes,
# in callgrind instructions (repeatable on this host, unlike its times):
#   the command line   saltus continue examples/lorenz.json (figures drawn by
#                      gnuplot children, not counted; their data counted)
#   the C++ driver     saltus_lorenz_cascade (drivers/examples/lorenz_cascade.cpp)
#   Python             bench/studies/lorenz_cascade.py, less `import saltus`
#                      alone (the interpreter's start-up, stated apart)
# Each route once to warm the expression cache (models/compiled_block.h), then
# under callgrind. Run from anywhere; needs valgrind.
#
#   bench/studies/cost.sh [BUILD_DIR (default build)]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
python="$(cat "$build/python/interpreter")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cd "$root"
instructions() {  # instructions NAME COMMAND...: runs it once, then under callgrind; prints the count
  local name="$1"
  shift
  "$@" > /dev/null
  valgrind --tool=callgrind --callgrind-out-file="$tmp/$name.out" "$@" > /dev/null 2> "$tmp/$name.log"
  awk '/^summary:/ {print $2}' "$tmp/$name.out"
}
export PYTHONPATH="$build/python"
cli=$(instructions cli "$build/saltus" continue examples/lorenz.json --out "$tmp/cli")
driver=$(instructions driver "$build/saltus_lorenz_cascade" examples/lorenz.json)
startup=$(instructions startup "$python" -c "import saltus")
script=$(instructions python "$python" bench/studies/lorenz_cascade.py)
awk -v cli="$cli" -v driver="$driver" -v startup="$startup" -v script="$script" 'BEGIN {
  printf "command line         %8.4f G instructions\n", cli / 1e9
  printf "C++ driver           %8.4f G  (%.3f x the command line)\n", driver / 1e9, driver / cli
  printf "Python, whole        %8.4f G\n", script / 1e9
  printf "  start-up apart     %8.4f G  (import saltus alone)\n", startup / 1e9
  printf "  the study          %8.4f G  (%.3f x the command line)\n", (script - startup) / 1e9, (script - startup) / cli
}'
