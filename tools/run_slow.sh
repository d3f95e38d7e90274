#!/usr/bin/env bash
# The checks that `python -m pytest tests` skips to stay within minutes, run on their own (before a release, or after
# touching what they cover): notebook cells marked `#| slow` (settings.ini: tst_flags = notest slow gpu) and tests marked
# `@pytest.mark.slow` (pytest.ini deselects them). Where it can, the default run
# keeps a cheaper check of the same property beside it. Today:
#   nbs/13_scaling.ipynb  the FSDP2 checks beyond "two FSDP processes equal one": a killed FSDP run resumes bit for bit,
#                         a damaged sharded checkpoint is skipped on --resume, the TR-DPO reference under FSDP, and the
#                         merged LoRA export under FSDP (two-process launches, about 1.5 min on 2 cores).
#   tests/test_readme.py  (pytest marker `slow`, deselected by pytest.ini's addopts) the GPU block's `eval` over the
#                         paper's seven benchmarks and `export --merge`, on an adapter trained here (about 40 s).
# Only these notebooks run with --flags slow: on every notebook it would also run the paper's studies (hours).
# Usage: tools/run_slow.sh   (from any folder; exit code 0 when every check passes)
set -euo pipefail
cd "$(dirname "$0")/.."
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}" HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1
SLOW_NOTEBOOKS=(nbs/13_scaling.ipynb)
for nb in "${SLOW_NOTEBOOKS[@]}"; do
  nbdev_test --flags slow --n_workers 1 --do_print --timing --path "$nb"
done
python -m pytest -p no:cacheprovider -m slow tests
