#!/usr/bin/env python
"""Pilot the RL settings of one task on ONE seed's validation split, before its main-table rows are run.

The protocol's RL settings (`PROTOCOL_TINY`: lr 5e-4, 120 steps, 32 prompts x 8 rollouts, temperature 1.0) were chosen on
tiny Sudoku. This script trains diffu-GRPO from the full reproduction's committed base of `--seed` (never retrained) under
each setting of `GRIDS[task]` and reports validation accuracy only; the test split is never read for the choice.

    OMP_NUM_THREADS=1 python tools/rl_pilot.py --task tiny_chain            # run the grid's missing settings, two at a time
    python tools/rl_pilot.py --task tiny_chain --report                     # the table (validation only), from the files
    python tools/rl_pilot.py --task tiny_chain --reward-check lr1e-4        # greedy and sampled reward vs the metric, on validation

Results: results/pilot/<task>/seed<s>/<setting>/diffu_grpo.json (+ _run/metrics.csv, .meta.json), committed.
Choice rule (written here before the runs, committed with their results): the setting with the highest mean validation accuracy over the evaluations at RL
steps 60-120 (`late_valid`) is adopted for the task, if that mean exceeds the base's validation accuracy; otherwise the
protocol's setting stays and the task's table reports RL as it is.
"""
import argparse, csv, json, sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GRIDS = {'tiny_chain': {'lr2e-4': {'optim.lr': 2e-4}, 'lr1e-4': {'optim.lr': 1e-4},
                        'lr2e-4_T0.7': {'optim.lr': 2e-4, 'sampler.temperature': 0.7},
                        'lr1e-4_T0.7': {'optim.lr': 1e-4, 'sampler.temperature': 0.7}}}
ARM, LATE_FROM = 'diffu_grpo', 60


NAN = float('nan')


def base_dir(task, seed):
    "The full reproduction's main-table cell of `seed`: its committed base, and the protocol's own diffu-GRPO run."
    from daca_grpo.paper.reproduce import _seed_dir
    return _seed_dir(REPO / 'results' / 'reproduce' / 'full', task, seed) / 'default'


def run_dirs(task, seed, root) -> dict:
    "{setting: directory of its diffu-GRPO run}: the protocol's run in the main table, then the grid's under `root`."
    return {'lr5e-4 (protocol)': base_dir(task, seed), **{name: Path(root) / task / f'seed{seed}' / name for name in GRIDS[task]}}


def pilot_jobs(task, seed, root):
    from daca_grpo.paper.reproduce import Job, _pairs
    return [Job('arm', task, seed, ARM, str(Path(root) / task / f'seed{seed}' / name), str(base_dir(task, seed)), _pairs(ov))
            for name, ov in GRIDS[task].items()]


def _mean(xs): return sum(xs) / len(xs) if xs else NAN


def summarise(run_dir):
    "Validation only: at RL step 10, mean from step `LATE_FROM` on, best (and its step); the training reward's change, first to last 20 steps."
    rec = json.loads((Path(run_dir) / f'{ARM}.json').read_text())
    reward = [float(r['reward']) for r in csv.DictReader(open(Path(run_dir) / f'{ARM}_run' / 'metrics.csv'))]
    return dict(best_valid=rec['valid'], best_step=rec['best_step'], late_valid=_mean([c['valid'] for c in rec['curve'] if c['step'] >= LATE_FROM]),
                valid_at_10=next((c['valid'] for c in rec['curve'] if c['step'] == 10), NAN), reward_rise=_mean(reward[-20:]) - _mean(reward[:20]))


def report(task, seed, root):
    "Print and return the pilot's rows (the base first), validation only; settings not run yet are left out."
    base = json.loads((base_dir(task, seed) / 'base.json').read_text())
    rows = [dict(setting='base (SFT, no RL)', best_valid=base['valid'], best_step='', late_valid=NAN, valid_at_10=NAN, reward_rise=NAN)]
    rows += [dict(setting=k, **summarise(d)) for k, d in run_dirs(task, seed, root).items() if (d / f'{ARM}.json').exists()]
    print(f"{task} seed {seed}, {ARM}, validation accuracy only (late = mean over the evaluations from RL step {LATE_FROM} on)")
    print('| setting | valid at step 10 | late valid | best valid (step) | training reward, last 20 steps - first 20 |\n|---|---|---|---|---|')
    f = lambda v, fmt='.3f': '' if v != v else format(v, fmt)                      # nan (the base has no RL steps): blank
    for r in rows: print(f"| {r['setting']} | {f(r['valid_at_10'])} | {f(r['late_valid'])} | {f(r['best_valid'])}"
                         + (f" ({r['best_step']})" if r['best_step'] != '' else '') + f" | {f(r['reward_rise'], '+.3f')} |")
    return rows


def reward_check(task, seed, setting, root, group=4, batch=50):
    """The reward the RL optimises against the metric, on the validation split: greedy and sampled (temperature 1, `group`
    per problem) mean reward of the base and of `setting`'s chosen checkpoint, beside their validation accuracy.
    Writes `<run>/reward_check.json`. About 1.5 minutes on one core for the chains."""
    import torch
    from daca_grpo.config import protocol_config
    from daca_grpo.paper.protocol import protocol_pools, protocol_rewards
    from daca_grpo.sampler import generate
    from daca_grpo.trainer import build_model
    torch.set_num_threads(1)
    cfg = protocol_config(task, seed=seed, **GRIDS[task].get(setting, {}))
    model, tok = build_model(cfg)[:2]
    valid, reward_fn, s = protocol_pools(cfg, tok)['valid'], protocol_rewards(task)[0], cfg.sampler
    def mean_reward(temperature, g):
        out = []
        for i in range(0, len(valid), batch):
            rows = valid.select(range(i, min(i + batch, len(valid))))
            enc = tok([p for p in rows['prompt'] for _ in range(g)], padding=True, return_tensors='pt', add_special_tokens=False)
            with torch.no_grad():
                o = generate(model.eval(), enc['input_ids'], enc['attention_mask'], gen_length=s.gen_length, steps=s.steps, block_length=s.block_length,
                             temperature=temperature, remasking=s.remasking, generator=torch.Generator().manual_seed(seed * 1000 + i))
            cols = {k: [v for v in rows[k] for _ in range(g)] for k in rows.column_names}
            out += reward_fn(completions=tok.batch_decode(o.completion_ids, skip_special_tokens=True), **cols)
        return sum(out) / len(out)
    run = Path(root) / task / f'seed{seed}' / setting
    res = {'command': f'python tools/rl_pilot.py --task {task} --seed {seed} --reward-check {setting}', 'n_valid': len(valid), 'group': group}
    for name, d in (('base', base_dir(task, seed)), (setting, run)):
        pt = d / ('base.pt' if name == 'base' else f'{ARM}.pt')
        model.load_state_dict(torch.load(pt, weights_only=True))
        rec = json.loads((d / ('base.json' if name == 'base' else f'{ARM}.json')).read_text())
        res[name] = dict(step=rec['best_step'], valid_metric=rec['valid'], greedy_reward=round(mean_reward(0.0, 1), 4),
                         sampled_reward=round(mean_reward(s.temperature, group), 4))
    (run / 'reward_check.json').write_text(json.dumps(res, indent=1))
    return res


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[1])
    ap.add_argument('--task', default='tiny_chain', choices=sorted(GRIDS))
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--root', default=str(REPO / 'results' / 'pilot'))
    ap.add_argument('--workers', type=int, default=2)
    ap.add_argument('--report', action='store_true', help='print the table from the finished runs; train nothing')
    ap.add_argument('--reward-check', metavar='SETTING', help="the reward against the metric on validation, base and SETTING's chosen checkpoint")
    a = ap.parse_args(argv)
    if a.workers < 1: ap.error('--workers must be at least 1')
    if a.reward_check:
        if a.reward_check not in GRIDS[a.task]: ap.error(f"--reward-check: one of {', '.join(GRIDS[a.task])}")
        pt = Path(a.root) / a.task / f'seed{a.seed}' / a.reward_check / f'{ARM}.pt'
        if not pt.exists(): ap.error(f"--reward-check: {pt} is missing: run the pilot first (python tools/rl_pilot.py --task {a.task} --seed {a.seed})")
        print(json.dumps(reward_check(a.task, a.seed, a.reward_check, a.root), indent=1)); return
    if not a.report:
        from daca_grpo.paper.reproduce import run_jobs, write_manifests
        jobs = pilot_jobs(a.task, a.seed, a.root)
        write_manifests(jobs)    # protocol.json (the protocol) and cell.json (the setting's overrides): a changed grid refuses to reuse a directory
        res = run_jobs(jobs, workers=a.workers)
        if res['failed']: print('failed:', res['failed'], file=sys.stderr)
    report(a.task, a.seed, a.root)


if __name__ == '__main__': main()
