#!/usr/bin/env bash
# saltus against a Python peer (scipy.integrate.solve_ivp with events) on the
# triple pendulum with a barrier: simulated time per wall-clock second, side
# by side, at matched tolerances and at equal event-time accuracy.
#
#   bench/peer/compare.sh            # from anywhere; BUILD=... to use another build dir
#   MIN_TIME=1 ACCURACY="1e-6 1e-8" TOLERANCES="1e-8 1e-10" bench/peer/compare.sh
#   METHOD=dopri5 bench/peer/compare.sh   # saltus' SimulationOptions::method (default: the simulator's)
#
# Why windows of N impacts and not a fixed span: the peer models free flight
# and impacts only, not the permanent contact (sticking, sliding) that ends
# every Zeno sequence of this system. From psi = (1.8, 1.0, 2.0) at rest the
# third link chatters against the barrier at once: with e = 0.8 it sticks at
# the 50th impact (t ~ 2.46), with e = 1 at impact 14597 (t ~ 4.73). Each
# case therefore compares the first N impacts, all checked below to be
# free -> free in saltus' reference log, and both tools stop at the N-th
# (the simulated time is the N-th impact time).
#
# Accuracy is measured, not assumed: the reference is saltus at 1e-13, and a
# tool's error is max |t_i - t_i(ref)| over the N impact times (infinite if
# its guard sequence differs). "Equal accuracy" takes, for each tool, the
# loosest tolerance on the grid whose error is <= the target (each of
# ACCURACY) and compares those speeds; the peer is given its faster method
# (DOP853 or RK45) at that accuracy. The grid is half-decades so that neither
# tool is forced a whole decade tighter than it needs.
#
# The reference is saltus itself, but it does not favour saltus: the peer at
# the same 1e-13 agrees with it to ~3e-10 over all impact times (printed as
# "same model?"), 30 times below the tightest target (1e-8).
#
# Speeds are wall-clock, as the issue asks, and also process CPU time: each
# tool reports its fastest repetition, and on a busy machine a short saltus
# run (under 1 ms) is likelier than a long peer run (20-100 ms) to fall between
# other programs' time slices, which flatters saltus' wall-clock ratio. The
# CPU-time ratio does not depend on the load; on an idle machine the two agree.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
MIN_TIME=${MIN_TIME:-0.5}        # wall seconds per measurement (fastest repetition is kept)
ACCURACY=${ACCURACY:-"1e-6 1e-8"}  # event-time accuracies for the equal-accuracy comparison
TOLERANCES=${TOLERANCES:-"1e-6 3e-7 1e-7 3e-8 1e-8 3e-9 1e-9 3e-10 1e-10 3e-11 1e-11 3e-12 1e-12"}
REFERENCE_TOL=1e-13
METHOD=${METHOD:-}               # saltus' method for the timed runs: dopri5, dop853 or empty (the default)
# Cases: "e N". q1 = 1.1 throughout (models::TriplePendulum defaults otherwise).
CASES=${CASES:-"0.8 40
1.0 60"}
Q1=1.1
T1=50  # only a cap: the runs stop at the N-th impact, long before

# Debian's interpreter, explicitly: python3-scipy installs into its
# dist-packages, which a python3 earlier on PATH (pyenv, venv) would not see.
PY=/usr/bin/python3
if ! "$PY" -c 'import scipy' 2>/dev/null; then
  echo "installing python3-scipy ..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y python3-scipy >&2 || { apt-get update >&2 && apt-get install -y python3-scipy >&2; }
fi

if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DSALTUS_BUILD_BENCH=ON >&2
fi
cmake --build "$BUILD" --target saltus_bench saltus_peer_events -j2 >&2
EVENTS=$BUILD/bench/saltus_peer_events
PEER=$ROOT/bench/peer/triple_pendulum_scipy.py

OUT=$(mktemp -d /tmp/saltus_peer.XXXXXX)
echo "raw JSON in $OUT" >&2

# (stdin of every program in the loop is /dev/null: the loop reads CASES there.)
while read -r e n; do
  [ -z "$e" ] && continue
  tag="e${e}_n${n}"
  "$EVENTS" --q1 $Q1 --e "$e" --t1 $T1 --tol $REFERENCE_TOL --max-events "$n" --min-time 0 < /dev/null > "$OUT/${tag}_ref.json"
  # The peer at the reference tolerance: not timed, it checks that the two
  # codes integrate the same model with the same impact law.
  "$PY" "$PEER" --q1 $Q1 --e "$e" --t1 $T1 --tol $REFERENCE_TOL --max-events "$n" --min-time 0 \
    --method DOP853 < /dev/null > "$OUT/${tag}_peer_ref.json"
  for tol in $TOLERANCES; do
    echo "  e = $e, N = $n, tol = $tol" >&2
    "$EVENTS" --q1 $Q1 --e "$e" --t1 $T1 --tol "$tol" --max-events "$n" --min-time "$MIN_TIME" \
      ${METHOD:+--method "$METHOD"} < /dev/null > "$OUT/${tag}_saltus_${tol}.json"
    for method in DOP853 RK45; do
      "$PY" "$PEER" --q1 $Q1 --e "$e" --t1 $T1 --tol "$tol" --max-events "$n" --min-time "$MIN_TIME" \
        --method $method < /dev/null > "$OUT/${tag}_${method}_${tol}.json"
    done
  done
done <<< "$CASES"

# The table. Inline so that the script stays one file; same interpreter.
"$PY" - "$OUT" "$ACCURACY" "$TOLERANCES" "$CASES" <<'EOF'
import json, math, sys

out, accuracies, tols = sys.argv[1], [float(a) for a in sys.argv[2].split()], sys.argv[3].split()
cases = [l.split() for l in sys.argv[4].splitlines() if l.strip()]

def load(name):
    with open(f"{out}/{name}.json") as f:
        return json.load(f)

def error(run, ref):
    """max |t_i - t_i(ref)|; inf when the impact sequence itself differs."""
    a, b = run["events"], ref["events"]
    if len(a) != len(b) or any(x["guard"] != y["guard"] for x, y in zip(a, b)):
        return math.inf
    return max(abs(x["t"] - y["t"]) for x, y in zip(a, b))

def rate(run):
    return run["sim_time"] / run["wall_s"]

def cpu_rate(run):
    return run["sim_time"] / run["cpu_s"]

def fmt(x):
    return "   --   " if x is None else ("   inf  " if math.isinf(x) else f"{x:8.1e}")

print("simt/s: simulated time units per wall-clock second (fastest repetition); ratio: saltus over the peer;\n"
      "|dt| vs DOP853: max |t_saltus - t_scipy| over the N impact times at that tolerance; err: max |t - t_ref|\n"
      "(inf: a different impact sequence); nfev: field evaluations per run")
for e, n in cases:
    tag = f"e{e}_n{n}"
    ref = load(f"{tag}_ref")
    bad = [i for i, ev in enumerate(ref["events"]) if ev["mode_before"] or ev["mode_after"]]
    if ref["status"] != "max_events" or len(ref["events"]) != int(n) or bad:
        sys.exit(f"e = {e}: the reference is not {n} free impacts (status {ref['status']}, contact at {bad[:3]})")
    method = load(f"{tag}_saltus_{tols[0]}").get("method", "?")
    print(f"\ntriple pendulum, q1 = 1.1, e = {e}: the first {n} impacts, t in [0, {ref['sim_time']:.6f}] "
          f"(reference: saltus at 1e-13, {ref.get('method', '?')}); saltus runs with {method}")
    pref = load(f"{tag}_peer_ref")
    first = abs(pref["events"][0]["t"] - ref["events"][0]["t"]) if pref["events"] else math.inf
    print(f"same model? scipy DOP853 at 1e-13 vs the reference: first impact t = {ref['events'][0]['t']:.13f}, "
          f"|dt| = {first:.1e}; max over the {n} impacts {fmt(error(pref, ref)).strip()} "
          f"(peer status {pref['status']})")
    print(f"{'tol':>7} | {'saltus':>9} {'DOP853':>9} {'RK45':>9} | {'ratio':>6} {'ratio':>6} | "
          f"{'|dt| vs':>8} | {'err':>8} {'err':>8} {'err':>8} | {'nfev':>6} {'nfev':>6} {'nfev':>6}")
    print(f"{'':>7} | {'simt/s':>9} {'simt/s':>9} {'simt/s':>9} | {'/DOP':>6} {'/RK45':>6} | "
          f"{'DOP853':>8} | {'saltus':>8} {'DOP853':>8} {'RK45':>8} | {'saltus':>6} {'DOP':>6} {'RK45':>6}")
    rows = []
    for tol in tols:
        s, d, r = load(f"{tag}_saltus_{tol}"), load(f"{tag}_DOP853_{tol}"), load(f"{tag}_RK45_{tol}")
        err = {k: error(v, ref) for k, v in (("saltus", s), ("DOP853", d), ("RK45", r))}
        rows.append((float(tol), s, d, r, err))
        print(f"{tol:>7} | {rate(s):9.1f} {rate(d):9.1f} {rate(r):9.1f} | {rate(s) / rate(d):6.1f} "
              f"{rate(s) / rate(r):6.1f} | {fmt(error(s, d))} | {fmt(err['saltus'])} {fmt(err['DOP853'])} "
              f"{fmt(err['RK45'])} | {s['field_evaluations']:6d} {d['nfev']:6d} {r['nfev']:6d}")
    # Equal accuracy: each tool at its loosest tolerance meeting the target.
    def best(tool, accuracy):
        ok = [row for row in rows if row[4][tool] <= accuracy]
        if not ok:
            return None
        row = max(ok, key=lambda row: row[0])
        run = {"saltus": row[1], "DOP853": row[2], "RK45": row[3]}[tool]
        return row[0], rate(run), row[4][tool], cpu_rate(run)
    for accuracy in accuracies:
        picks = {tool: best(tool, accuracy) for tool in ("saltus", "DOP853", "RK45")}
        print(f"equal accuracy (all {n} impact times within {accuracy:g} of the reference):")
        for tool, p in picks.items():
            print(f"  {tool:>6}: " + ("never within the tolerances tried" if p is None else
                  f"tol {p[0]:g}, error {p[2]:.1e}, {p[1]:.1f} simulated time units per wall second "
                  f"({p[3]:.1f} per CPU second)"))
        peers = [p for t, p in picks.items() if t != "saltus" and p]
        if picks["saltus"] and peers:
            fastest = max(peers, key=lambda p: p[1])
            fastest_cpu = max(peers, key=lambda p: p[3])
            print(f"  ratio saltus / fastest peer = {picks['saltus'][1] / fastest[1]:.1f} by wall time, "
                  f"{picks['saltus'][3] / fastest_cpu[3]:.1f} by CPU time  (goal: >= 50)")
EOF
