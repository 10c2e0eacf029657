#!/usr/bin/env bash
# saltus against Siconos (Debian's libsiconos-kernel-dev 4.4, event-driven:
# LSODAR between impacts, its root finder locating them, Newton's impact law)
# on the forced impact oscillator (examples/user/impact_oscillator.json) and
# the chaotic bouncing ball (examples/bouncing_ball_chaotic.json): over the
# same first N impacts, each tool's event-time error at each tolerance, the
# instructions it executes per impact, and at matched event-time accuracy
# the instructions and the CPU time per impact of both.
#
#   bench/peer/siconos_compare.sh            # BUILD=... to use another build dir
#   FIGURE=docs/siconos_comparison.png bench/peer/siconos_compare.sh
#   ACCURACY="1e-6 1e-8" REPETITIONS=15 bench/peer/siconos_compare.sh
#
# Optional: without Siconos (CMake did not find it, so there is no
# saltus_peer_siconos) the script says how to install it and stops.
#
# Accuracy is measured, not assumed: the reference is saltus at 1e-13 on the
# example without max_step, and a tool's error is max |t_i - t_i(ref)| over the N
# impact times (infinite when it finds fewer or fails). Siconos at 1e-13 is
# printed beside the reference ("same model?"): the two codes integrate the
# same model with the same impact law.
#
# The tolerance grid runs the same differential equation in both codes.
# The impact oscillator: its run file without its max_step 0.05 (which binds
# at every tolerance, so that saltus' steps, and its error, would not depend
# on the tolerance at all; docs/performance.md: the same impacts without it).
# The ball: Siconos integrates it in the table's frame (a fixed obstacle),
# y'' = -g + A omega^2 sin(omega t); the built-in model's flight in absolute
# coordinates is a parabola, which saltus' Runge-Kutta integrates exactly at
# any tolerance, so that its grid runs bench/peer/bouncing_ball_table_frame.json,
# the same model in the table's frame, and the reference (the built-in
# model) carries no integration error at all. The ball is chaotic (its
# impact-time errors grow ~1000-fold over 10 impacts, ~10^6-fold over 18):
# N = 10. Each example as `saltus simulate` runs it (its own tolerance and
# max_step) is one more row ("as shipped").
# "Matched accuracy" takes, for each tool, the loosest tolerance on the
# half-decade grid whose error is <= the target.
#
# Instructions (valgrind --tool=callgrind, deterministic) count one run: for
# saltus flow::simulate (the system built from the run file beforehand, as
# `saltus simulate` builds it once), for Siconos run_once, which builds the
# dynamical system, the interaction and the event-driven simulation and runs
# it (its construction and initialize() are part of what a Siconos run
# costs; it is printed separately as "setup"). CPU times: REPETITIONS
# processes of each tool in one randomly shuffled order, each reporting the
# median of 5 runs after a warm-up; the median over the processes is given.
#
# saltus runs at abs = rel = tol, the state alone (the default of `saltus
# simulate`), recording only the events; Siconos' LSODAR runs at
# rtol = atol = tol. Both stop at the N-th impact.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
ACCURACY=${ACCURACY:-"1e-6 1e-8"}
TOLERANCES=${TOLERANCES:-"1e-4 3e-5 1e-5 3e-6 1e-6 3e-7 1e-7 3e-8 1e-8 3e-9 1e-9 3e-10 1e-10 3e-11 1e-11 3e-12 1e-12"}
REFERENCE_TOL=1e-13
REPETITIONS=${REPETITIONS:-15}
# Cases: "the example (Siconos' model and the reference), saltus' file on the
# grid, N impacts" (both examples have more within their span).
CASES=${CASES:-"examples/user/impact_oscillator.json examples/user/impact_oscillator.json 20
examples/bouncing_ball_chaotic.json bench/peer/bouncing_ball_table_frame.json 10"}
PY=/usr/bin/python3  # Debian's, for its python3-matplotlib

if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DSALTUS_BUILD_BENCH=ON >&2
fi
cmake --build "$BUILD" --target saltus_peer_impacts -j2 >&2
if ! cmake --build "$BUILD" --target saltus_peer_siconos -j2 >&2 2>/dev/null; then
  cat >&2 <<EOF
Siconos was not found when $BUILD was configured: install it and configure again,
  apt-get install -y libsiconos-kernel-dev && cmake -S $ROOT -B $BUILD
EOF
  exit 1
fi
command -v valgrind >/dev/null || {
  echo "installing valgrind ..." >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y valgrind >&2
}
"$PY" -c 'import matplotlib' 2>/dev/null || {
  echo "installing python3-matplotlib ..." >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y python3-matplotlib >&2
}
SALTUS=$BUILD/bench/saltus_peer_impacts
SICONOS=$BUILD/bench/saltus_peer_siconos
OUT=$(mktemp -d /tmp/saltus_siconos.XXXXXX)
FIGURE=${FIGURE:-$OUT/siconos_comparison.png}
echo "raw JSON in $OUT" >&2

# The last line of a program's stdout (Siconos prints on its own before it).
json() { "$@" < /dev/null | tail -n 1; }
# callgrind's instruction count inside the functions matching $1.
instructions() {
  local toggle=$1
  shift
  valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect="$toggle" "$@" --repeat 1 \
    2>&1 >/dev/null < /dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

while read -r file grid n; do
  [ -z "$file" ] && continue
  tag=$(basename "$file" .json)
  json "$SALTUS" "$ROOT/$file" --tol $REFERENCE_TOL --max-events "$n" --max-step 0 --repeat 1 > "$OUT/${tag}_ref.json"
  json "$SICONOS" "$ROOT/$file" --tol $REFERENCE_TOL --max-events "$n" --repeat 1 > "$OUT/${tag}_siconos_ref.json"
  # The example as shipped: its own tolerance and max_step.
  json "$SALTUS" "$ROOT/$file" --tol 0 --max-events "$n" --repeat 1 > "$OUT/${tag}_shipped.json"
  instructions 'saltus::flow::simulate*' "$SALTUS" "$ROOT/$file" --tol 0 --max-events "$n" > "$OUT/${tag}_shipped.ir"
  # Siconos' setup alone: run_once stopped before its first impact.
  setup=$(instructions '*run_once*' "$SICONOS" "$ROOT/$file" --max-events 0)
  echo "{\"setup_instructions\": ${setup:-0}}" > "$OUT/${tag}_siconos_setup.json"
  for tol in $TOLERANCES; do
    echo "  $tag, N = $n, tol = $tol" >&2
    json "$SALTUS" "$ROOT/$grid" --tol "$tol" --max-events "$n" --max-step 0 --repeat 1 > "$OUT/${tag}_saltus_${tol}.json"
    json "$SICONOS" "$ROOT/$file" --tol "$tol" --max-events "$n" --repeat 1 > "$OUT/${tag}_siconos_${tol}.json"
    instructions 'saltus::flow::simulate*' "$SALTUS" "$ROOT/$grid" --tol "$tol" --max-events "$n" --max-step 0 \
      > "$OUT/${tag}_saltus_${tol}.ir"
    instructions '*run_once*' "$SICONOS" "$ROOT/$file" --tol "$tol" --max-events "$n" \
      > "$OUT/${tag}_siconos_${tol}.ir"
  done
done <<< "$CASES"

# The tables, the interleaved CPU timings and the figure.
"$PY" - "$OUT" "$ACCURACY" "$TOLERANCES" "$CASES" "$SALTUS" "$SICONOS" "$ROOT" "$REPETITIONS" "$FIGURE" <<'EOF'
import json, math, random, statistics, subprocess, sys

out, accuracies, tols = sys.argv[1], [float(a) for a in sys.argv[2].split()], sys.argv[3].split()
cases = [l.split() for l in sys.argv[4].splitlines() if l.strip()]
grids = {c[0]: c[1] for c in cases}
cases = [(c[0], c[2]) for c in cases]
programs = {"saltus": sys.argv[5], "siconos": sys.argv[6]}
root, repetitions, figure = sys.argv[7], int(sys.argv[8]), sys.argv[9]
tools = ("saltus", "siconos")

def load(name):
    with open(f"{out}/{name}.json") as f:
        return json.load(f)

def instructions(name):
    with open(f"{out}/{name}.ir") as f:
        return int(f.read().strip())

def error(run, ref):
    """max |t_i - t_i(ref)| over the reference's impacts; inf when fewer or failed."""
    a, b = run["events"], ref["events"]
    if len(a) < len(b) or run["status"] == "failed":
        return math.inf
    return max(abs(x["t"] - y["t"]) for x, y in zip(a, b))

def fmt(x):
    return "   inf  " if math.isinf(x) else f"{x:8.1e}"

def cpu(tool, file, tol, n):
    """CPU seconds of one run (median of 5 after a warm-up) in a fresh process."""
    args = [programs[tool], f"{root}/{file}", "--tol", tol, "--max-events", n, "--repeat", "6"]
    if tool == "saltus":
        args = [programs[tool], f"{root}/{grids[file]}", "--tol", tol, "--max-events", n, "--repeat", "6",
                "--max-step", "0"]
    p = subprocess.run(args, capture_output=True, text=True, check=True, stdin=subprocess.DEVNULL)
    return json.loads(p.stdout.strip().splitlines()[-1])["cpu_s"]

curves, shipped_points = {}, {}
for file, n in cases:
    tag = file.split("/")[-1][:-5]
    ref = load(f"{tag}_ref")
    if ref["status"] != "max_events" or len(ref["events"]) != int(n):
        sys.exit(f"{file}: the reference is not {n} impacts (status {ref['status']}, {len(ref['events'])} events)")
    sref = load(f"{tag}_siconos_ref")
    setup = load(f"{tag}_siconos_setup")["setup_instructions"]
    print(f"\n{file}: the first {n} impacts, t in [0, {ref['sim_time']:.6f}] (reference: saltus at 1e-13); "
          f"saltus' grid runs {grids[file]} without max_step")
    print(f"same model? Siconos at 1e-13 against the reference: first impact t = {ref['events'][0]['t']:.13f}, "
          f"max |dt| over the {n} impacts {fmt(error(sref, ref)).strip()} (Siconos status {sref['status']})")
    shipped = load(f"{tag}_shipped")
    shipped_points[file] = (error(shipped, ref), instructions(f"{tag}_shipped") / int(n))
    print(f"saltus on the example as shipped (its tolerance and max_step): error {fmt(error(shipped, ref)).strip()}, "
          f"{instructions(f'{tag}_shipped') / int(n):.0f} instructions per impact")
    print(f"Siconos' setup (building the system and initialize(), in every run below): {setup / 1e3:.1f} k instructions")
    print(f"{'tol':>7} | {'err':>8} {'err':>8} | {'Ir/impact':>10} {'Ir/impact':>10} | {'ratio':>6}")
    print(f"{'':>7} | {'saltus':>8} {'Siconos':>8} | {'saltus':>10} {'Siconos':>10} | {'Sic/sal':>6}")
    rows = []
    for tol in tols:
        err = {t: error(load(f"{tag}_{t}_{tol}"), ref) for t in tools}
        ir = {t: instructions(f"{tag}_{t}_{tol}") / int(n) for t in tools}
        rows.append((tol, err, ir))
        print(f"{tol:>7} | {fmt(err['saltus'])} {fmt(err['siconos'])} | {ir['saltus']:10.0f} {ir['siconos']:10.0f} | "
              f"{ir['siconos'] / ir['saltus']:6.1f}")
    curves[file] = rows
    for accuracy in accuracies:
        pick = {}
        for t in tools:
            ok = [r for r in rows if r[1][t] <= accuracy]
            pick[t] = max(ok, key=lambda r: float(r[0])) if ok else None
        print(f"matched accuracy (all {n} impact times within {accuracy:g} of the reference):")
        if not all(pick.values()):
            print("  " + ", ".join(t for t in tools if not pick[t]) + ": never within the tolerances tried")
            continue
        # Randomly interleaved processes of both tools, each at its tolerance.
        order = [t for t in tools for _ in range(repetitions)]
        random.shuffle(order)
        times = {t: [] for t in tools}
        for t in order:
            times[t].append(cpu(t, file, pick[t][0], n))
        med = {t: statistics.median(times[t]) / int(n) for t in tools}
        for t in tools:
            tol, err, ir = pick[t]
            print(f"  {t:>7}: tol {tol}, error {err[t]:.1e}, {ir[t]:.0f} instructions and "
                  f"{med[t] * 1e6:.2f} us of CPU per impact (median of {repetitions} interleaved processes)")
        print(f"  Siconos / saltus per impact: {pick['siconos'][2]['siconos'] / pick['saltus'][2]['saltus']:.1f}x "
              f"the instructions, {med['siconos'] / med['saltus']:.1f}x the CPU time")

# The figure: instructions per impact against the event-time error.
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
fig, axes = plt.subplots(1, len(cases), figsize=(5.2 * len(cases), 4.2), squeeze=False)
for ax, (file, n) in zip(axes[0], cases):
    for t, style in (("saltus", "o-"), ("siconos", "s--")):
        pts = [(r[1][t], r[2][t]) for r in curves[file] if not math.isinf(r[1][t]) and r[1][t] > 0]
        ax.loglog([p[0] for p in pts], [p[1] for p in pts], style, label="saltus" if t == "saltus" else
                  "Siconos 4.4 (event-driven, LSODAR)")
    e, ir = shipped_points[file]
    if 0 < e < math.inf:
        ax.loglog([e], [ir], "*", markersize=12, color="C2", label="saltus, the example as shipped")
    ax.set_xlabel(f"max |t_i - t_i(ref)| over the first {n} impacts")
    ax.set_ylabel("instructions per impact (callgrind)")
    ax.set_title(file.split("/")[-1])
    ax.grid(True, which="both", alpha=0.3)
    ax.invert_xaxis()
    ax.legend()
fig.tight_layout()
fig.savefig(figure, dpi=110)
print(f"\nfigure: {figure}")
EOF
