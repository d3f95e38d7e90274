#!/usr/bin/env python
"""Pilot the long-output task (tiny_sudoku6x6) on seed 0's validation split, before its main-table rows are run.

The task (`make_sudoku6x6`, `nbs/tasks/04_procedural.ipynb`) and its protocol setting (`TASK_PROTOCOL['tiny_sudoku6x6']`,
`nbs/07_config.ipynb`) were fixed before any run on seed 0: 100 labelled puzzles, 96-token completions in 3 blocks of 32 with
48 denoising steps, the protocol's RL settings (lr 5e-4, 120 steps, 32 prompts x 8 rollouts, temperature 1.0), and rollouts
with the dual key/value cache (evaluation exact). Three runs, validation read only (the test split is never read for a choice):

    1. `base`: the main table's own seed-0 base stage (results/reproduce/full/tiny_sudoku6x6/seed0/default/base.*), 2000 SFT
       steps on the 64-wide, 2-layer model, validated every 100.
    2. `diffu_grpo`, from that base: the main table's own seed-0 diffu-GRPO cell (dual-cache rollouts, the task's setting).
    3. `exact_rollouts`: the same arm with LLaDA's exact sampler in the rollouts, from the same base (results/pilot/...).
    4. `size_h128_l4`: the base stage of a 128-wide, 4-layer model (same pools and labelled puzzles), validated every 250 SFT
       steps: the learning curve of the next size, and its cost.

Rule (written here before the runs, committed with their results):
    * GO: the long task's main table, ablations and 2x-steps table are run if run 2's mean validation accuracy over RL steps
      60-120 (`late valid`, 7 evaluations) exceeds the base's validation accuracy (the best of its 21 SFT checkpoints, so the
      rule leans towards "no"). Otherwise the task does not go ahead at this size and setting.
    * ROLLOUTS: the dual cache stays. Exact rollouts do not fit the budget (measured: 15.5 s against 5.3 s of rollout per RL
      step; the main table alone would take about 40 core-hours), so run 3 is a check, not a choice: if its late validation
      exceeds run 2's by more than 2 pp, every conclusion of the long task names the cached rollouts as a possible cause.
    * SIZE: the 64 x 2 model stays if GO holds (a bigger model costs about 4x per step and does not fit the budget);
      run 4's curve and seconds are reported beside it as what a bigger budget would buy, and it is the first fallback if GO fails.

    OMP_NUM_THREADS=1 python tools/long_pilot.py                 # run the missing pilot stages, two at a time
    python tools/long_pilot.py --report                          # the table (validation only) and the rule's verdict, from the files
"""
import argparse, csv, json, sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TASK, SEED, ARM, LATE_FROM = 'tiny_sudoku6x6', 0, 'diffu_grpo', 60
BIG = {'model.tiny': {'hidden_size': 128, 'num_hidden_layers': 4, 'num_attention_heads': 4, 'abs_position_embeddings': True,
                      'max_position_embeddings': 160}, 'protocol.base_select_every': 250}
EXACT = {'sampler.cache': 'none'}
ROLLOUT_MARGIN = 0.02
NAN = float('nan')


def main_cell(root=None):
    "The main table's seed-0 cell of the long task: its base and its diffu-GRPO run."
    from daca_grpo.paper.reproduce import _seed_dir
    return _seed_dir(Path(root or REPO / 'results' / 'reproduce') / 'full', TASK, SEED) / 'default'


def pilot_dir(root, name): return Path(root) / TASK / f'seed{SEED}' / name


def pilot_jobs(root, main_root=None):
    "The four stages: the main table's base and diffu-GRPO (seed 0), the exact-rollout arm and the bigger model's base (under `root`)."
    from daca_grpo.paper.reproduce import Job, _pairs
    cell = str(main_cell(main_root))
    big = str(pilot_dir(root, 'size_h128_l4'))
    return [Job('base', TASK, SEED, 'base', cell, cell), Job('base', TASK, SEED, 'base', big, big, _pairs(BIG)),
            Job('arm', TASK, SEED, ARM, cell, cell), Job('arm', TASK, SEED, ARM, str(pilot_dir(root, 'exact_rollouts')), cell, _pairs(EXACT))]


def _mean(xs): return sum(xs) / len(xs) if xs else NAN


def summarise(run_dir):
    "Validation only: at RL step 10, mean from step `LATE_FROM` on, best (and its step); the training reward's change, first to last 20 steps; median seconds per step."
    rec = json.loads((Path(run_dir) / f'{ARM}.json').read_text())
    log = list(csv.DictReader(open(Path(run_dir) / f'{ARM}_run' / 'metrics.csv')))
    reward, secs = [float(r['reward']) for r in log], sorted(float(r['time/step']) for r in log if r.get('time/step'))
    return dict(best_valid=rec['valid'], best_step=rec['best_step'], late_valid=_mean([c['valid'] for c in rec['curve'] if c['step'] >= LATE_FROM]),
                valid_at_10=next((c['valid'] for c in rec['curve'] if c['step'] == 10), NAN), reward_rise=_mean(reward[-20:]) - _mean(reward[:20]),
                sec_per_step=secs[len(secs) // 2] if secs else NAN)


def _seconds(d, name):
    f = Path(d) / f'{name}.meta.json'
    return json.loads(f.read_text()).get('seconds', NAN) if f.exists() else NAN


def verdict(base_valid, rows):
    "The rule's three answers from the finished runs (None where a run is missing)."
    dual, exact = rows.get('diffu_grpo (dual-cache rollouts, the setting)'), rows.get('exact rollouts')
    go = None if dual is None else dual['late_valid'] > base_valid
    caveat = None if dual is None or exact is None else exact['late_valid'] > dual['late_valid'] + ROLLOUT_MARGIN
    return dict(go=go, cached_rollouts_caveat=caveat, size='hidden 64, 2 layers' if go else ('hidden 128, 4 layers (fallback)' if go is False else None))


def report(root, main_root=None):
    "Print and return the pilot's base curves, arm rows and the rule's verdict; validation only."
    cell, big = main_cell(main_root), pilot_dir(root, 'size_h128_l4')
    out = {'bases': {}, 'arms': {}}
    print(f"{TASK} seed {SEED}: validation blank-cell accuracy only (late = mean over the evaluations from RL step {LATE_FROM} on)\n")
    print('| base | SFT steps: validation | best (step) | seconds |\n|---|---|---|---|')
    for name, d in (('hidden 64, 2 layers (the setting)', cell), ('hidden 128, 4 layers', big)):
        if not (d / 'base.json').exists(): continue
        rec = json.loads((d / 'base.json').read_text())
        out['bases'][name] = dict(valid=rec['valid'], best_step=rec['best_step'], curve=[(c['step'], c['valid']) for c in rec['curve']], seconds=_seconds(d, 'base'))
        print(f"| {name} | {', '.join(f'{s}: {v:.3f}' for s, v in out['bases'][name]['curve'])} | {rec['valid']:.3f} ({rec['best_step']}) | {out['bases'][name]['seconds']:.0f} |")
    print('\n| diffu-GRPO from the 64 x 2 base | valid at step 10 | late valid | best valid (step) | training reward, last 20 - first 20 | s per step (median) |\n|---|---|---|---|---|---|')
    for name, d in (('diffu_grpo (dual-cache rollouts, the setting)', cell), ('exact rollouts', pilot_dir(root, 'exact_rollouts'))):
        if not (d / f'{ARM}.json').exists(): continue
        r = out['arms'][name] = summarise(d)
        print(f"| {name} | {r['valid_at_10']:.3f} | {r['late_valid']:.3f} | {r['best_valid']:.3f} ({r['best_step']}) | {r['reward_rise']:+.3f} | {r['sec_per_step']:.1f} |")
    base = out['bases'].get('hidden 64, 2 layers (the setting)')
    if base is not None:
        out['verdict'] = verdict(base['valid'], out['arms'])
        print('\nrule:', json.dumps(out['verdict']))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    ap.add_argument('--root', default=str(REPO / 'results' / 'pilot'), help='where the pilot-only stages go (default: results/pilot)')
    ap.add_argument('--main-root', default=str(REPO / 'results' / 'reproduce'), help="the full reproduction's root, where the main table's seed-0 stages go")
    ap.add_argument('--workers', type=int, default=2)
    ap.add_argument('--report', action='store_true', help='print the tables from the finished runs; train nothing')
    a = ap.parse_args(argv)
    if a.workers < 1: ap.error('--workers must be at least 1')
    if not a.report:
        from daca_grpo.paper.reproduce import run_jobs, write_manifests
        jobs = pilot_jobs(a.root, a.main_root)
        write_manifests(jobs)     # protocol.json and cell.json: a changed setting refuses to reuse a directory
        res = run_jobs(jobs, workers=a.workers)
        if res['failed']: print('failed:', res['failed'], file=sys.stderr)
    report(a.root, a.main_root)


if __name__ == '__main__': main()
