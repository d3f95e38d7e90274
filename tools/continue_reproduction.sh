#!/usr/bin/env bash
# Continue the full reproduction in the background, from a frozen copy of this checkout's HEAD, writing its stages into
# this checkout's results/reproduce (so finished stages can be committed while it runs, and editing the notebooks or
# switching branches meanwhile cannot change the code it runs).
#
#   tools/continue_reproduction.sh                         # every table: the stages still missing, two at a time
#   tools/continue_reproduction.sh --tasks tiny_sudoku     # any arguments go to `python -m daca_grpo.paper.reproduce --profile full`
#
# It first prints what is left to run and its estimated core-hours (`--plan`).
# Log: results/reproduce/continue.log (not committed). Stop it with: pkill -f 'daca_grpo.paper.reproduce --profile full'
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
FROZEN=$(mktemp -d /tmp/daca-repro.XXXXXX)
git -C "$REPO" archive HEAD daca_grpo configs settings.ini | tar -x -C "$FROZEN"
git -C "$REPO" rev-parse --short HEAD > "$FROZEN/COMMIT"
mkdir -p "$REPO/results/reproduce"
cd "$FROZEN"    # run from the copy: from the checkout, `python -m` would put its daca_grpo first on sys.path, ahead of PYTHONPATH
PYTHONPATH="$FROZEN" OMP_NUM_THREADS=1 python -m daca_grpo.paper.reproduce --profile full --root "$REPO/results/reproduce" --plan "$@" | sed -n 1p   # what is left
echo "running daca_grpo $(cat "$FROZEN/COMMIT") from $FROZEN; log: $REPO/results/reproduce/continue.log"
PYTHONPATH="$FROZEN" OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 DACA_CODE_COMMIT="$(cat "$FROZEN/COMMIT")" \
  nohup python -m daca_grpo.paper.reproduce --profile full --root "$REPO/results/reproduce" --out "$REPO/paper_figures" "$@" \
  >> "$REPO/results/reproduce/continue.log" 2>&1 &
echo "pid $!"
