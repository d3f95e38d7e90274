#!/usr/bin/env python
"""Issue 61's runs: the credit study's RL checkpoints and oracle arm, and the code and JSON tasks' rows of the main table,
in the order and within the budget fixed here before any of them ran (committed 2026-12-07, before the first stage).

BUDGET: 40 core-hours for all of it, counted from the `.meta.json` seconds of every stage under RERUN_ROOT (the credit
study's reruns and oracle arm) and of the code and JSON tasks' stages under results/reproduce/full (pilots included).

THE ORDER. A step's cells run all their seeds or none; before each step its cells are priced at the seconds measured by
then (a cell nothing has run yet: `stage_plan`'s price, see `reproduce --plan`), and the first cell whose estimate would take
the spend past the budget ends the study. Seeds and ablations may be cut; the protocol (SFT base on a scarce labelled pool,
RL on prompt-only problems, the matched-compute SFT control, validation-chosen checkpoints, pools disjoint by solution) may not.
  1. Credit reruns on the 4x4 Sudoku: diffu-GRPO, wd1 and GDPO at seeds 0-4, from the committed SFT bases, with the main
     table's settings, keeping the validation-chosen weights (the main table's arm weights were never committed). Each rerun
     is checked against its committed record (same commit lineage, same processor type: the test metric should match).
     Priced at the main table's median seconds of these stages: 626 + 530 + 658 s a seed, about 2.5 core-hours.
  2. The oracle-credit arm on the 4x4 Sudoku, diffu-GRPO with the verifier's per-cell token credit, seeds 0-4 (about 0.9,
     priced at diffu-GRPO's 626 s).
  3. The code and JSON pilots (`tiny_code`, `tiny_json` under the protocol; shaping the task so the base leaves room), seed 0,
     validation only; at most 2 core-hours each. THE PILOT RULE (committed before any pilot stage ran), per task:
       a. a design passes the room check if its SFT base's best validation metric lies in [0.10, 0.85];
       b. it passes the learning check if diffu-GRPO's mean validation metric over RL steps 60-120 is at least 2 pp above
          the base's best validation metric (the control is the five-seed decision's business, step 4); diffu-GRPO runs only
          on a design whose base passed a (a base outside the range is reshaped first: RL from a base at 0 has no signal);
       c. at most three designs per task, one shaping knob changed at a time (difficulty mix, completion length, labelled
          pool size), each judged by a and b on seed 0; the first design passing both goes to step 4; if none does, the last
          design that passed a goes to step 4 all the same (the task gets its row, with the pilots' evidence), and if none
          passed a, the design whose base is nearest the [0.10, 0.85] range does.
  4. The code and JSON decisions: the base, diffu-GRPO and the SFT control at seeds 0-4 for each task.
  5. Their other 11 cells at seeds 0-4, in the main table's order (code first, then JSON), whether or not RL learned (a task
     where it did not still gets its row, with the pilot's evidence).
  6. Credit reruns on the 6x6 Sudoku (diffu-GRPO, wd1, GDPO at seeds 0-4; about 3.8 core-hours at 909 + 836 + 986 s a seed):
     last, so cut first.
The credit study's rollouts from the committed SFT bases cost minutes and are not counted.

    python tools/study61.py --prepare-reruns TASK     # copy the committed bases into RERUN_ROOT (nothing is trained)
    python tools/study61.py --rerun-command TASK      # print the reproduce command of step 1 (or 6) for TASK
    OMP_NUM_THREADS=1 python tools/study61.py --oracle [--root R] [--profile quick]   # step 2: the oracle arm, seeds 0-4
    python tools/study61.py --report                  # the core-hours spent so far, by step
    python tools/study61.py --collect                 # copy finished reruns and oracle stages into CREDIT_DIR, to be committed
    OMP_NUM_THREADS=1 python tools/study61.py --pilot TASK DESIGN   # step 3: a design's seed-0 base and diffu-GRPO (results/pilot/TASK/DESIGN)
    python tools/study61.py --pilot-report            # every pilot design's checks, from validation only
"""
import argparse, json, shutil, sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BUDGET_HOURS = 40.0
RERUN_ROOT = REPO / 'runs' / 'credit'            # not committed; the chosen weights and records are copied to CREDIT_DIR
CREDIT_DIR = REPO / 'results' / 'credit'
COMMITTED = REPO / 'results' / 'reproduce' / 'full'
RERUN_ARMS = ('diffu_grpo', 'wd1', 'gdpo')
SEEDS = (0, 1, 2, 3, 4)
BASE_FILES = ('base.json', 'base.pt', 'base.meta.json', 'cell.json', 'pools.json')


def prepare_reruns(task, root=RERUN_ROOT):
    "Copy `task`'s committed bases (and the files that name their cell) into `root`, so reproduce reruns only the arms."
    dst_task = Path(root) / 'full' / task
    dst_task.mkdir(parents=True, exist_ok=True)
    shutil.copy2(COMMITTED / task / 'protocol.json', dst_task / 'protocol.json')
    for s in SEEDS:
        src, dst = COMMITTED / task / f'seed{s}' / 'default', dst_task / f'seed{s}' / 'default'
        dst.mkdir(parents=True, exist_ok=True)
        for f in BASE_FILES:
            if (src / f).exists() and not (dst / f).exists(): shutil.copy2(src / f, dst / f)
    return dst_task


ORACLE_CELL = {'dps.credit': 'oracle'}       # diffu-GRPO + DPS's slot, its weights from the verifier (`dps.oracle_weights`)
ORACLE_ARM = 'diffu_grpo_dps'


def oracle_jobs(root=RERUN_ROOT, profile='full', task='tiny_sudoku', seeds=SEEDS):
    "Step 2's stages: diffu-GRPO with the oracle's token credit from each seed's committed base (copied into `root` by prepare_reruns)."
    from daca_grpo.paper.design import Job, profile_overrides
    from daca_grpo.paper.reproduce import cell_tag
    over = {**profile_overrides(profile, task), **ORACLE_CELL}
    out = []
    for s in seeds:
        base = Path(root) / profile / task / f'seed{s}' / 'default'
        out.append(Job('arm', task, s, ORACLE_ARM, str(base.parent / cell_tag(ORACLE_CELL)), str(base), tuple(sorted(over.items()))))
    return out


PILOT_ROOT = REPO / 'results' / 'pilot'
PILOT_DESIGNS = {   # task -> design -> overrides on the task's protocol settings; a design is added here (and committed) before it runs
    'tiny_code': {'d1': {},      # TASK_PROTOCOL's: 300 labelled, 10,000 SFT steps validated every 500, 48-token completions
                  # d1's base validated at 0.95 (no room); 24 labelled left a 2,000-step base at 0.015 (the protocol's feasibility
                  # run): the labelled pool is the knob, at 100 (the long Sudoku's), all else d1's
                  'd2': {'protocol.n_labelled': 100}},
    'tiny_json': {'d1': {}},
}
ROOM, LEARN_PP, LATE_STEPS = (0.10, 0.85), 0.02, (60, 120)


def pilot_jobs(task, design, root=PILOT_ROOT):
    "The pilot's stages of `design` on `task`: the SFT base and diffu-GRPO at seed 0, under results/pilot/<task>/<design>/."
    from daca_grpo.paper.design import Job
    over, d = tuple(sorted(PILOT_DESIGNS[task][design].items())), str(Path(root) / task / design / 'seed0' / 'default')
    return [Job('base', task, 0, 'base', d, d, over), Job('arm', task, 0, 'diffu_grpo', d, d, over)]


def pilot_checks(task, design, root=PILOT_ROOT):
    "The pilot rule's checks (docstring, step 3) of one design, from validation only; None where a stage has not finished."
    d = Path(root) / task / design / 'seed0' / 'default'
    base = json.loads((d / 'base.json').read_text()) if (d / 'base.json').exists() else None
    arm = json.loads((d / 'diffu_grpo.json').read_text()) if (d / 'diffu_grpo.json').exists() else None
    out = dict(task=task, design=design, base_valid=base and base['valid'])
    out['room'] = None if base is None else ROOM[0] <= base['valid'] <= ROOM[1]
    if arm is not None:
        late = [c['valid'] for c in arm['curve'] if LATE_STEPS[0] <= c['step'] <= LATE_STEPS[1]]
        out['rl_late_valid'] = sum(late) / len(late)
        out['learns'] = out['rl_late_valid'] - base['valid'] >= LEARN_PP
    return out


def spent_hours(root=RERUN_ROOT):
    "Core-hours of every stage this study ran: its `.meta.json` seconds under `root` (bases copied from the committed records excluded)."
    metas = [m for m in Path(root).rglob('*.meta.json') if m.name != 'base.meta.json']
    return sum(json.loads(m.read_text())['seconds'] for m in metas) / 3600


def collect(root=RERUN_ROOT, dest=CREDIT_DIR, tasks=('tiny_sudoku', 'tiny_sudoku6x6')):
    "Copy each finished rerun (<arm>.pt/.json/.meta.json, its metrics.csv) and oracle stage (as `oracle.*`) into `dest`; the paths copied."
    done = []
    for task in tasks:
        for s in SEEDS:
            seed_dir = Path(root) / 'full' / task / f'seed{s}'
            stages = [(seed_dir / 'default', a, a) for a in RERUN_ARMS] + [(seed_dir / 'dps.credit=oracle', ORACLE_ARM, 'oracle')]
            for src, name, as_name in stages:
                if not all((src / f'{name}.{e}').exists() for e in ('json', 'meta.json', 'pt')): continue
                out = Path(dest) / task / f'seed{s}'; out.mkdir(parents=True, exist_ok=True)
                for e in ('json', 'meta.json', 'pt'): shutil.copy2(src / f'{name}.{e}', out / f'{as_name}.{e}')
                if (src / f'{name}_run' / 'metrics.csv').exists():
                    (out / f'{as_name}_run').mkdir(exist_ok=True); shutil.copy2(src / f'{name}_run' / 'metrics.csv', out / f'{as_name}_run' / 'metrics.csv')
                done.append(out / as_name)
    return done


def rerun_command(task, root=RERUN_ROOT):
    return (f'OMP_NUM_THREADS=1 python -m daca_grpo.paper.reproduce --profile full --only main --tasks {task} '
            f'--stages {" ".join(RERUN_ARMS)} --root {root} --out {Path(root) / "tables"}')


if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--prepare-reruns', metavar='TASK')
    p.add_argument('--rerun-command', metavar='TASK')
    p.add_argument('--oracle', action='store_true', help="run step 2 (the oracle arm's missing stages)")
    p.add_argument('--root', default=str(RERUN_ROOT))
    p.add_argument('--profile', default='full')
    p.add_argument('--workers', type=int, default=1)
    p.add_argument('--report', action='store_true')
    p.add_argument('--collect', action='store_true')
    p.add_argument('--pilot', nargs=2, metavar=('TASK', 'DESIGN'))
    p.add_argument('--pilot-report', action='store_true')
    a = p.parse_args()
    if a.oracle:
        from daca_grpo.paper.reproduce import run_jobs
        print(run_jobs(oracle_jobs(a.root, a.profile), workers=a.workers))
    if a.pilot:
        from daca_grpo.paper.reproduce import run_jobs
        base, arm = pilot_jobs(*a.pilot)
        print(run_jobs([base], workers=1))
        checks = pilot_checks(*a.pilot)
        print(checks)
        if checks['room']: print(run_jobs([base, arm], workers=1))
        else: print('the base is outside the room range: diffu-GRPO does not run on this design (the rule, step 3 b)')
    if a.pilot_report:
        for task, designs in PILOT_DESIGNS.items():
            for design in designs: print(pilot_checks(task, design))
    if a.collect: print(f'{len(collect(a.root))} stages in {CREDIT_DIR}')
    if a.report: print(f'spent: {spent_hours(a.root):.2f} of {BUDGET_HOURS:.0f} core-hours under {a.root}')
    if a.prepare_reruns: print(prepare_reruns(a.prepare_reruns))
    if a.rerun_command: print(rerun_command(a.rerun_command))
