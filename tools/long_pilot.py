#!/usr/bin/env python
"""Pilot the long-output task (tiny_sudoku6x6) on seed 0's validation split, before its main-table rows are run.

The task (`make_sudoku6x6`, `nbs/tasks/04_procedural.ipynb`) and its protocol setting (`TASK_PROTOCOL['tiny_sudoku6x6']`,
`nbs/07_config.ipynb`): 100 labelled puzzles, 96-token completions in 3 blocks of 32 with 48 denoising steps, the protocol's
RL settings (lr 5e-4, 120 steps, 32 prompts x 8 rollouts, temperature 1.0), and rollouts with the dual key/value cache
(evaluation exact). Validation is read only; the test split is never read for a choice. Two designs, in the order they ran.

FIRST DESIGN (2026-12-05, commit 07a32ab; the base: 2000 SFT steps, validated every 100). Its stages are committed under
results/pilot/first_design/ (they were run as the main table's cell and moved there when the design changed; rerun them by
checking out 07a32ab). Four runs on seed 0:
    1. `base`: 2000 SFT steps on the 64-wide, 2-layer model, validated every 100 (seed0/default/base.*).
    2. `diffu_grpo`, from that base, dual-cache rollouts (seed0/default/diffu_grpo.*).
    3. `exact_rollouts`: the same arm with LLaDA's exact sampler in the rollouts, from the same base.
    4. `size_h128_l4`: the base stage of a 128-wide, 4-layer model (same pools), validated every 250 SFT steps.
  Rule (written before the runs, commit 89449ba):
    * GO: the long task's tables are run if run 2's mean validation accuracy over RL steps 60-120 (`late valid`, 7
      evaluations) exceeds the base's validation accuracy (the best of its SFT checkpoints). Otherwise it does not go ahead.
    * ROLLOUTS: the dual cache stays (exact rollouts do not fit the budget); if run 3's late validation exceeds run 2's by
      more than 2 pp, every conclusion of the long task names the cached rollouts as a possible cause.
    * SIZE: the 64 x 2 model stays if GO holds; run 4 is the first fallback if it fails.
  Outcome: GO by 0.4 pp. The comparison that followed (nbs/paper/21_main_results.ipynb) found diffu-GRPO above the base
  at five seeds, but not above the matched-compute SFT control at seeds 0-2 (-0.3 pp [-8.8, +8.2]; no results of seeds 3-4
  could lift that interval above zero, so they were not run): on seeds 0 and 1 more SFT of the same 100 puzzles kept
  paying long after the base's best checkpoint (+3.5 and +3.1 pp on validation, best after 12,320 more SFT steps); on
  seed 2 it did not. The rule had not looked at the control; the second design's does.

SECOND DESIGN, "SFT to its plateau" (the setting now): the base gets 20,000 SFT steps, validated every 1,000, so that it
is the best SFT can do with the labelled puzzles rather than an early point of a curve still rising (chosen from the first
design's control curves, which levelled off after about 13,400 SFT steps in all on seeds 0 and 1; not tuned on this pilot). Three runs on seed
0, the main table's own seed-0 stages (results/reproduce/full/tiny_sudoku6x6/seed0/default/): `base`, `diffu_grpo` from it,
and the matched-compute `sft_control` from it.
  Rule (written before the runs, committed before any of them):
    * GO: the long task's other cells, ablations and 2x-steps table are run if diffu-GRPO's late validation (mean over RL
      steps 60-120) exceeds both the base's validation accuracy and the control's (each the best of its checkpoints, so the
      rule leans towards "no"); then the five-seed comparison decides whether the task counts (paired 95% intervals of
      diffu-GRPO minus base and minus control above zero).
    * NO GO: the long task is reported as it stands (what it shows, with intervals) and no plug-in cell is run on it.

    OMP_NUM_THREADS=1 python tools/long_pilot.py                 # run the second design's missing stages, two at a time
    python tools/long_pilot.py --report                          # both designs' tables (validation only) and verdicts
"""
import argparse, csv, json, sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TASK, SEED, ARM, LATE_FROM = 'tiny_sudoku6x6', 0, 'diffu_grpo', 60
FIRST_ROOT = REPO / 'results' / 'pilot' / 'first_design'     # the first design's stages: <root>/tiny_sudoku6x6/seed<s>/<cell>
ROLLOUT_MARGIN = 0.02
NAN = float('nan')


def pilot_dir(root, name): return Path(root) / TASK / f'seed{SEED}' / name


def main_cell(main_root=None):
    "The main table's seed-0 cell of the long task (the second design's three stages); `pilot_jobs` checks it is reproduce's."
    return Path(main_root or REPO / 'results' / 'reproduce') / 'full' / TASK / f'seed{SEED}' / 'default'


def pilot_jobs(main_root=None):
    "The second design's stages: the main table's own seed-0 base, diffu-GRPO and SFT control, exactly as `reproduce` runs them."
    from daca_grpo.paper.reproduce import jobs_of, table_stages
    root = Path(main_root or REPO / 'results' / 'reproduce') / 'full'
    jobs = [j for j in jobs_of(table_stages('main', 'full', root, {TASK: [SEED]})) if j.name in ('base', ARM, 'sft_control')]
    assert {j.out for j in jobs} == {str(main_cell(main_root))}, jobs
    return jobs


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


def _sft_stage(d, name):
    "An SFT stage's validation curve, its best (and step) and seconds; None if it has not run."
    f = Path(d) / f'{name}.json'
    if not f.exists(): return None
    rec = json.loads(f.read_text())
    return dict(valid=rec['valid'], best_step=rec['best_step'], curve=[(c['step'], c['valid']) for c in rec['curve']], seconds=_seconds(d, name))


def _print_sft(title, rows):
    print(f'| {title} | SFT steps: validation | best (step) | seconds |\n|---|---|---|---|')
    for name, r in rows.items():
        print(f"| {name} | {', '.join(f'{s}: {v:.3f}' for s, v in r['curve'])} | {r['valid']:.3f} ({r['best_step']}) | {r['seconds']:.0f} |")


def _print_arms(title, arms):
    print(f'\n| {title} | valid at step 10 | late valid | best valid (step) | training reward, last 20 - first 20 | s per step (median) |\n|---|---|---|---|---|---|')
    for name, r in arms.items():
        print(f"| {name} | {r['valid_at_10']:.3f} | {r['late_valid']:.3f} | {r['best_valid']:.3f} ({r['best_step']}) | {r['reward_rise']:+.3f} | {r['sec_per_step']:.1f} |")


def verdict(base_valid, rows):
    "The first design's three answers from its finished runs (None where a run is missing)."
    dual, exact = rows.get('diffu_grpo (dual-cache rollouts, the setting)'), rows.get('exact rollouts')
    go = None if dual is None else dual['late_valid'] > base_valid
    caveat = None if dual is None or exact is None else exact['late_valid'] > dual['late_valid'] + ROLLOUT_MARGIN
    return dict(go=go, cached_rollouts_caveat=caveat, size='hidden 64, 2 layers' if go else ('hidden 128, 4 layers (fallback)' if go is False else None))


def report(root=FIRST_ROOT):
    "The first design (2000 SFT steps): print and return its base curves, arm rows and the rule's verdict; validation only."
    cell = pilot_dir(root, 'default')
    print(f"FIRST DESIGN. {TASK} seed {SEED}: validation blank-cell accuracy only (late = mean over the evaluations from RL step {LATE_FROM} on)\n")
    bases = {k: r for k, d in (('hidden 64, 2 layers (the setting)', cell), ('hidden 128, 4 layers', pilot_dir(root, 'size_h128_l4')))
             if (r := _sft_stage(d, 'base')) is not None}
    _print_sft('base', bases)
    arms = {k: summarise(d) for k, d in (('diffu_grpo (dual-cache rollouts, the setting)', cell), ('exact rollouts', pilot_dir(root, 'exact_rollouts')))
            if (d / f'{ARM}.json').exists()}
    _print_arms('diffu-GRPO from the 64 x 2 base', arms)
    out = {'bases': bases, 'arms': arms}
    if 'hidden 64, 2 layers (the setting)' in bases:
        out['verdict'] = verdict(bases['hidden 64, 2 layers (the setting)']['valid'], arms)
        print('\nrule:', json.dumps(out['verdict']))
    return out


def plateau_verdict(base_valid, control_valid, arm):
    "The second design's answer: GO iff diffu-GRPO's late validation exceeds the base's and the control's best (None while a run is missing)."
    if None in (base_valid, control_valid, arm): return dict(go=None)
    return dict(go=arm['late_valid'] > max(base_valid, control_valid))


def plateau_report(main_root=None):
    "The second design (SFT to its plateau): print and return the base's and the control's curves, diffu-GRPO's row and the verdict; validation only."
    cell = main_cell(main_root)
    print(f"\nSECOND DESIGN (SFT to its plateau). {TASK} seed {SEED}: validation only\n")
    sft = {k: r for k, n in (('base', 'base'), ('SFT control (from the base)', 'sft_control')) if (r := _sft_stage(cell, n)) is not None}
    _print_sft('stage', sft)
    arm = summarise(cell) if (cell / f'{ARM}.json').exists() else None
    _print_arms('diffu-GRPO from the base', {'diffu_grpo (dual-cache rollouts)': arm} if arm else {})
    v = plateau_verdict(sft.get('base', {}).get('valid'), sft.get('SFT control (from the base)', {}).get('valid'), arm)
    print('\nrule:', json.dumps(v))
    return {'sft': sft, 'arm': arm, 'verdict': v}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    ap.add_argument('--root', default=str(FIRST_ROOT), help="the first design's stages (default: results/pilot/first_design)")
    ap.add_argument('--main-root', default=str(REPO / 'results' / 'reproduce'), help="the full reproduction's root, where the main table's seed-0 stages go")
    ap.add_argument('--workers', type=int, default=2)
    ap.add_argument('--report', action='store_true', help='print the tables from the finished runs; train nothing')
    a = ap.parse_args(argv)
    if a.workers < 1: ap.error('--workers must be at least 1')
    if not a.report:
        from daca_grpo.paper.reproduce import run_jobs, write_manifests
        jobs = pilot_jobs(a.main_root)
        write_manifests(jobs)     # protocol.json and cell.json: a changed setting refuses to reuse a directory
        res = run_jobs(jobs, workers=a.workers)
        if res['failed']: print('failed:', res['failed'], file=sys.stderr)
    report(a.root)
    plateau_report(a.main_root)


if __name__ == '__main__': main()
