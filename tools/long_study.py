#!/usr/bin/env python
"""The long-output task's study after its pilot, run in the order and within the budget fixed before it ran
(nbs/paper/21_main_results.ipynb, "What the second design costs, and the cut"; committed before any stage below;
its amendment, 3., committed before any stage of the study finished).

1. THE DECISION. The base, diffu-GRPO and the matched-compute SFT control at five seeds (`reproduce --only main --tasks
   tiny_sudoku6x6 --stages base diffu_grpo sft_control`). The task counts only if diffu-GRPO minus the base and diffu-GRPO
   minus the control both have paired 95% intervals above zero over the five seeds. If it does not count, nothing below runs.
2. THE REST, in this order, two processes at a time; a cell runs all its seeds or none, and the first cell whose
   estimated cost would take the study past BUDGET_HOURS (at the seconds measured by then) ends the study:
     a. diffu-GRPO + DPS, + SML and + DPS + SML at five seeds;
     b. the 2x-steps table (96 denoising steps instead of 48) for diffu-GRPO and diffu-GRPO + DPS at seeds 0-2;
     c. wd1, GDPO and their plug-ins at seeds 0-2, in the main table's order.
   Cut at first: seeds 3-4 of wd1's and GDPO's cells, the 2x-steps cells of wd1, the DPS-lambda and SML-K ablations.
3. THE AMENDMENT (2026-12-06, after the decision and before any stage of a-c finished; from cost alone). Priced at the
   seconds of seeds 1-4, which ran faster than seed 0, a-c come to about 29.6 core-hours, not 38.9, so what was cut
   follows them, under the same rule, in this order:
     d. seeds 3-4 of wd1's and GDPO's eight cells (every method's row at five seeds);
     e. the DPS-lambda ablation (wd1 + DPS at lambda 1 and 2; 0.5 is the main table's cell), seeds 0-2;
     f. the SML-K ablation (diffu-GRPO + SML at K = 2 and 8; 4 is the main table's), seeds 0-2;
     g. the 2x-steps cells of wd1 and wd1 + DPS, seeds 0-2.
   A 2x-steps step (b, g) runs both its cells or neither: its question is DPS against no DPS at 96 steps.

The spent core-hours are the first design's stages (results/pilot/first_design), its design runs outside them
(DESIGN_RUN_HOURS) and every stage of the long task under the main root, from their `.meta.json`.

    python tools/long_study.py --report               # the decision, what is spent, what each cell would cost; runs nothing
    OMP_NUM_THREADS=1 python tools/long_study.py      # run what the decision and the budget allow, step by step
"""
import argparse, json, sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / 'tools'))
from long_pilot import FIRST_ROOT, TASK

BUDGET_HOURS = 40.0
DESIGN_RUN_HOURS = 0.5      # the first design's size and rollout runs outside its stages (21_main_results)
STEPS_FACTOR = 1.9          # a 96-step stage against a 48-step one, priced from seed 0's diffu-GRPO (rollouts 805 s, evaluations about 380 s of 1,335 s: both doubled)
SEEDS_DECISION = 5
WD1_GDPO = ('wd1', 'wd1_dps', 'wd1_sml', 'wd1_dps_sml', 'gdpo', 'gdpo_dps', 'gdpo_sml', 'gdpo_dps_sml')
STUDY = [  # (title, tables, stage names, seeds or None for all of the table's)
    ('a. diffu-GRPO plug-ins, five seeds', ('main',), ('diffu_grpo_dps', 'diffu_grpo_sml', 'diffu_grpo_dps_sml'), None),
    ('b. 2x steps: diffu-GRPO and + DPS, seeds 0-2', ('ablation_long_steps_diffu_grpo', 'ablation_long_steps_diffu_grpo_dps'), ('diffu_grpo', 'diffu_grpo_dps'), None),
    ('c. wd1, GDPO and their plug-ins, seeds 0-2', ('main',), WD1_GDPO, (0, 1, 2)),
    # the amendment (docstring, 3.): what the first estimate cut, in this order, under the same rule
    ('d. wd1, GDPO and their plug-ins, seeds 3-4', ('main',), WD1_GDPO, (3, 4)),
    ('e. DPS-lambda ablation (wd1 + DPS), seeds 0-2', ('ablation_long_dps_lambda',), ('wd1_dps',), None),
    ('f. SML-K ablation (diffu-GRPO + SML), seeds 0-2', ('ablation_long_sml_K',), ('diffu_grpo_sml',), None),
    ('g. 2x steps: wd1 and + DPS, seeds 0-2', ('ablation_long_steps_wd1', 'ablation_long_steps_wd1_dps'), ('wd1', 'wd1_dps'), None)]

WHOLE_STEPS = {STUDY[1][0], STUDY[6][0]}     # the 2x-steps tables compare plain with + DPS at 96 steps: both cells or neither


def main_root(root=None): return Path(root or REPO / 'results' / 'reproduce')


def long_records(task_dir, arms=('base', 'diffu_grpo', 'sft_control'), cell='default'):
    "{(arm, seed): record} of one cell (seed*/`cell`; default: the main table's) under `task_dir`."
    return {(a, int(d.parent.name[4:])): json.loads((d / f'{a}.json').read_text())
            for d in sorted(Path(task_dir).glob(f'seed*/{cell}')) for a in arms if (d / f'{a}.json').exists()}


def decision(records, seeds=SEEDS_DECISION):
    "The paired intervals of diffu-GRPO minus the base and minus the control (test metric), and whether the task counts."
    from daca_grpo.paper.stats import paired_diff
    rows = [dict(task=TASK, arm=a, seed=s, value=r['test']) for (a, s), r in records.items()]
    out = {}
    for b in ('base', 'sft_control'):
        d, h, n = paired_diff(rows, TASK, 'diffu_grpo', b)
        out[b] = dict(seeds=n, mean=d, low=d - h, high=d + h)
    out['counts'] = all(out[b]['seeds'] >= seeds and out[b]['low'] > 0 for b in ('base', 'sft_control'))
    out['decided'] = all(out[b]['seeds'] >= seeds for b in ('base', 'sft_control'))
    return out


class MissingFirstDesign(FileNotFoundError): "The first design's stages, which the budget counts, are not where the code looks."


def spent_hours(root=None, first_root=FIRST_ROOT):
    "Core-hours spent on the long task so far: the first design's stages and design runs, and every stage under the main root."
    first = sorted((Path(first_root) / TASK).rglob('*.meta.json'))
    if not first:       # a copy of the code without results/pilot would price the budget 5.9 core-hours low, silently
        raise MissingFirstDesign(f"{first_root}: no stage of the first design, whose core-hours the budget counts: "
                                "run from a checkout that holds results/pilot/first_design (or link it there)")
    metas = [*first, *(main_root(root) / 'full' / TASK).rglob('*.meta.json')]
    return DESIGN_RUN_HOURS + sum(json.loads(m.read_text())['seconds'] for m in metas) / 3600


def fit(spent, cells, budget=BUDGET_HOURS):
    """`cells` ({'hours': estimate or None, 'group': optional, ...}) in order, each with `fits` and the running `total`; the first
    that does not fit ends the study. Cells of one `group` run all or none: each needs the hours of the group's cells from it on."""
    out, stopped = [], False
    for i, c in enumerate(cells):
        need = [x['hours'] for x in cells[i:] if x is c or (c.get('group') is not None and x.get('group') == c['group'])]
        stopped = stopped or None in need or spent + sum(need) > budget                 # a cost nothing has measured is not promised
        if not stopped: spent += c['hours']
        out.append(dict(c, fits=not stopped, total=spent))
    return out


def study_cells(root=None, log=lambda s: None):
    "One dict per cell of the study, in its order: step, table(s), stage name, cell directory, seeds to run, estimated core-hours (None: not measured)."
    from daca_grpo.paper.reproduce import profile_stages, jobs_of, selected, stage_plan, job_done
    _, _, _, stages, jobs = profile_stages('full', sorted({t for _, tables, _, _ in STUDY for t in tables}), str(main_root(root)), [TASK], log)
    plan, cells = {(r['task'], r['cell'], r['stage']): r for r in stage_plan(jobs)}, []     # `stage_plan`: this cell's median seconds, else this task's stages of that name, else other tasks' scaled
    for title, tables, names, seeds in STUDY:
        mine = jobs_of(s for t in tables for s in stages[t])
        for name in names:
            todo = [j for j in selected(mine, [TASK], [name], seeds) if j.kind != 'base' and not job_done(j)
                    and not (tables[0].startswith('ablation_') and Path(j.out).name == 'default')]       # an ablation's reference is the main table's cell
            for cell in sorted({Path(j.out).name for j in todo}):
                r, n = plan[TASK, cell, name], sum(Path(j.out).name == cell for j in todo)
                each = r['sec_each'] and r['sec_each'] * (STEPS_FACTOR if 'sampler.steps=96' in cell and r['basis'] != 'this cell' else 1)
                cells.append(dict(step=title, tables=tables, name=name, cell=cell, seeds=seeds, todo=n, hours=each and each * n / 3600,
                                  group=title if title in WHOLE_STEPS else None))
    return cells


def report(root=None):
    dec, spent = decision(long_records(main_root(root) / 'full' / TASK)), spent_hours(root)
    for b, label in (('base', 'SFT base'), ('sft_control', 'SFT control')):
        r = dec[b]
        print(f"diffu-GRPO - {label}: {100 * r['mean']:+.1f} pp [{100 * r['low']:+.1f}, {100 * r['high']:+.1f}] over {r['seeds']} seeds")
    print('the long task ' + ('counts' if dec['counts'] else 'does not count' if dec['decided'] else f'is not decided yet (the decision needs {SEEDS_DECISION} seeds)'))
    print(f'spent: {spent:.1f} of {BUDGET_HOURS:.0f} core-hours')
    cells = fit(spent, study_cells(root))
    for c in cells:
        cost = 'not measured' if c['hours'] is None else f"about {c['hours']:.1f} core-hours"
        print(f"{c['step']}: {c['name']} ({c['cell']}) x {c['todo']} seeds, {cost} -> {'runs' if c['fits'] else 'cut'}, {c['total']:.1f} in all")
    return dec, spent, cells


def run(root=None, out=None, workers=2):
    "Run the study's steps in order while the decision holds and the budget allows (re-priced before each step)."
    from daca_grpo.paper.reproduce import reproduce
    dec = decision(long_records(main_root(root) / 'full' / TASK))
    if not dec['counts']:
        print('the long task ' + ('does not count' if dec['decided'] else 'is not decided yet') + ': nothing of the study runs'); return 1
    for title, tables, names, seeds in STUDY:
        cells = fit(spent_hours(root), [c for c in study_cells(root) if c['step'] == title])
        run_names = sorted({c['name'] for c in cells if c['fits']})
        if run_names:
            print(f'{title}: {", ".join(run_names)}', flush=True)
            res = reproduce('full', list(tables), str(main_root(root)), str(out or REPO / 'runs' / 'long_study'), workers, tasks=[TASK], names=run_names, seeds=list(seeds) if seeds else None)
            if res['failed']: print(f"{title}: {len(res['failed'])} stages failed; the study stops (rerun it to retry them)"); return 1
        if not all(c['fits'] for c in cells):
            print(f'{title}: the budget ends the study here'); return 0
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--report', action='store_true', help='print the decision, the spent core-hours and the plan; run nothing')
    ap.add_argument('--root', help='where the stages are (default: results/reproduce)')
    ap.add_argument('--workers', type=int, default=2)
    a = ap.parse_args(argv)
    if a.workers < 1: print('long_study: --workers must be at least 1', file=sys.stderr); return 2
    try:
        if a.report: report(a.root); return 0
        return run(a.root, workers=a.workers)
    except MissingFirstDesign as e: print(f'long_study: {e}', file=sys.stderr); return 2


if __name__ == '__main__': raise SystemExit(main())
