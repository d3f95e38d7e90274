#!/usr/bin/env python
"""Pilot the RL settings of one task on ONE seed's validation split, before its main-table rows are run.

The protocol's RL settings (`PROTOCOL_TINY`: lr 5e-4, 120 steps, 32 prompts x 8 rollouts, temperature 1.0) were chosen on
tiny Sudoku. This script trains diffu-GRPO from the full reproduction's committed base of `--seed` (never retrained) under
each setting of `GRIDS[task]` and reports validation accuracy only; the test split is never read for the choice.

    OMP_NUM_THREADS=1 python tools/rl_pilot.py --task tiny_chain            # run the grid's missing settings, two at a time
    python tools/rl_pilot.py --task tiny_chain --report                     # the table (validation only), from the files

Results: results/pilot/<task>/seed<s>/<setting>/diffu_grpo.json (+ _run/metrics.csv, .meta.json), committed.
Choice rule (fixed before the runs): the setting with the highest mean validation accuracy over the evaluations at RL
steps 60-120 (`late_valid`) is adopted for the task, if that mean exceeds the base's validation accuracy; otherwise the
protocol's setting stays and the task's table reports RL as it is.
"""
import argparse, json, sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GRIDS = {'tiny_chain': {'lr2e-4': {'optim.lr': 2e-4}, 'lr1e-4': {'optim.lr': 1e-4},
                        'lr2e-4_T0.7': {'optim.lr': 2e-4, 'sampler.temperature': 0.7},
                        'lr1e-4_T0.7': {'optim.lr': 1e-4, 'sampler.temperature': 0.7}}}
ARM, LATE_FROM = 'diffu_grpo', 60


def pilot_jobs(task, seed, root):
    from daca_grpo.reproduce import Job, _pairs
    base = REPO / 'results' / 'reproduce' / 'full' / task / f'seed{seed}' / 'default'
    return [Job('arm', task, seed, ARM, str(Path(root) / task / f'seed{seed}' / name), str(base), _pairs(ov))
            for name, ov in GRIDS[task].items()]


def summarise(rec):
    late = [c['valid'] for c in rec['curve'] if c['step'] >= LATE_FROM]
    return dict(best_valid=rec['valid'], best_step=rec['best_step'], late_valid=sum(late) / len(late), valid_at_10=rec['curve'][1]['valid'])


def report(task, seed, root):
    base_dir = REPO / 'results' / 'reproduce' / 'full' / task / f'seed{seed}' / 'default'
    base = json.loads((base_dir / 'base.json').read_text())
    rows = [dict(setting='base (SFT, no RL)', best_valid=base['valid'], best_step='', late_valid=float('nan'), valid_at_10=float('nan'))]
    ref = base_dir / f'{ARM}.json'                                               # the protocol's setting, from the main table
    if ref.exists(): rows.append(dict(setting='lr5e-4 (protocol)', **summarise(json.loads(ref.read_text()))))
    for name in GRIDS[task]:
        p = Path(root) / task / f'seed{seed}' / name / f'{ARM}.json'
        if p.exists(): rows.append(dict(setting=name, **summarise(json.loads(p.read_text()))))
    print(f"{task} seed {seed}, {ARM}, validation accuracy only (late = mean over RL steps {LATE_FROM}-120)")
    print('| setting | valid at step 10 | late valid | best valid (step) |\n|---|---|---|---|')
    f = lambda v: '' if v != v else f'{v:.3f}'                                     # nan (the base has no RL steps): blank
    for r in rows: print(f"| {r['setting']} | {f(r['valid_at_10'])} | {f(r['late_valid'])} | {f(r['best_valid'])}" + (f" ({r['best_step']})" if r['best_step'] != '' else '') + ' |')
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    ap.add_argument('--task', default='tiny_chain', choices=sorted(GRIDS))
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--root', default=str(REPO / 'results' / 'pilot'))
    ap.add_argument('--workers', type=int, default=2)
    ap.add_argument('--report', action='store_true', help='print the table from the finished runs; train nothing')
    a = ap.parse_args(argv)
    if a.workers < 1: ap.error('--workers must be at least 1')
    if not a.report:
        from daca_grpo.reproduce import run_jobs
        res = run_jobs(pilot_jobs(a.task, a.seed, a.root), workers=a.workers)
        if res['failed']: print('failed:', res['failed'], file=sys.stderr)
    report(a.task, a.seed, a.root)


if __name__ == '__main__': main()
