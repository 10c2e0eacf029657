#!/usr/bin/env bash
# `mpirun -n 2 saltus sweep | map` writes exactly the files of the serial run
# (studies/grid_mpi.h). Usage: mpi_compare.sh SALTUS MPIEXEC SOURCE_DIR WORK
set -euo pipefail
saltus="$1" mpiexec="$2" source_dir="$3" work="$4"
rm -rf "$work"
mkdir -p "$work"
# The triple pendulum's diagram on 4 chunks, and the impact oscillator's map
# with seeded rows, both shortened so the test takes seconds.
jq '.sweep.steps = 12 | .sweep.transient = 10 | .sweep.record = 30 | .sweep.threads = 4' \
  "$source_dir/examples/triple_pendulum.json" > "$work/sweep.json"
jq '.map.x.steps = 8 | .map.y.steps = 5 | .map.transient = 40 | .map.record = 30 | .map.threads = 2' \
  "$source_dir/examples/user/impact_oscillator_map.json" > "$work/map.json"
mpi=("$mpiexec" --oversubscribe --allow-run-as-root -n 2)
status=0
for kind in sweep map; do
  "$saltus" "$kind" "$work/$kind.json" --out "$work/$kind-serial" > /dev/null
  "${mpi[@]}" "$saltus" "$kind" "$work/$kind.json" --out "$work/$kind-mpi" > /dev/null
  files=(sweep.csv sweep.json sweep.dat)
  [[ $kind == map ]] && files=(map.csv summary.json map.dat)
  for f in "${files[@]}"; do
    if cmp -s "$work/$kind-serial/$f" "$work/$kind-mpi/$f"; then
      echo "mpi_compare: $kind: $f identical"
    else
      echo "mpi_compare: $kind: $f differs between the serial and the 2-rank run" >&2
      status=1
    fi
  done
  if ls "$work/$kind-mpi/"*.journal.jsonl* > /dev/null 2>&1; then
    echo "mpi_compare: $kind: a journal was left behind" >&2
    status=1
  fi
done
# Stopped on both ranks (the hidden --interrupt-after stops each after 2 points, as Ctrl-C does),
# then resumed without MPI from the two ranks' journals: the serial files.
"${mpi[@]}" "$saltus" sweep "$work/sweep.json" --out "$work/sweep-resumed" --interrupt-after 2 > /dev/null 2>&1 || true
ls "$work/sweep-resumed/sweep.journal.jsonl.1" > /dev/null
"$saltus" sweep "$work/sweep.json" --out "$work/sweep-resumed" --resume > /dev/null
for f in sweep.csv sweep.json sweep.dat; do
  if cmp -s "$work/sweep-serial/$f" "$work/sweep-resumed/$f"; then
    echo "mpi_compare: sweep stopped on 2 ranks, resumed serially: $f identical"
  else
    echo "mpi_compare: sweep stopped on 2 ranks, resumed serially: $f differs" >&2
    status=1
  fi
done
exit $status
