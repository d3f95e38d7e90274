"""Plain tests of `tools/long_study.py` (the long task's study after its pilot): the decision needs five seeds and both
intervals above zero, the budget ends the study at the first cell that does not fit, nothing runs before the decision,
and the cells are the ones 21_main_results fixed (their order, seeds and the 2x-steps price)."""
import json, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'tools'))
import long_study as S


def _records(tmp, tests, seconds=100.0):
    "tests: {arm: [test metric per seed]} written as the main table's records (and .meta.json) under tmp/full/tiny_sudoku6x6."
    for arm, vals in tests.items():
        for s, v in enumerate(vals):
            d = tmp / 'full' / S.TASK / f'seed{s}' / 'default'; d.mkdir(parents=True, exist_ok=True)
            (d / f'{arm}.json').write_text(json.dumps(dict(test=v, valid=v)))
            (d / f'{arm}.meta.json').write_text(json.dumps(dict(seconds=seconds)))
    return tmp / 'full' / S.TASK


def test_decision_needs_five_seeds_and_both_intervals_above_zero(tmp_path):
    base, up = [0.50, 0.52, 0.49, 0.51, 0.50], [0.60, 0.61, 0.58, 0.62, 0.60]
    cases = {'counts': (up, base, True, True), 'control_as_good': (up, up, False, True), 'three_seeds': (up[:3], base[:3], False, False)}
    for name, (rl, control, counts, decided) in cases.items():
        d = S.decision(S.long_records(_records(tmp_path / name, dict(base=base[:len(rl)], diffu_grpo=rl, sft_control=control))))
        assert (d['counts'], d['decided']) == (counts, decided), (name, d)
    d = S.decision(S.long_records(tmp_path / 'counts' / 'full' / S.TASK))
    assert d['base']['seeds'] == 5 and abs(d['base']['mean'] - 0.098) < 1e-9 and d['base']['low'] > 0, d


def test_the_first_cell_that_does_not_fit_ends_the_study():
    cells = [dict(hours=h) for h in (2.0, 1.0, 5.0, 0.5, None)]
    got = S.fit(35.0, cells, budget=40.0)
    assert [c['fits'] for c in got] == [True, True, False, False, False], got         # 0.5 would fit, but the order ends it at 5.0
    assert [c['total'] for c in got] == [37.0, 38.0, 38.0, 38.0, 38.0], got
    assert [c['fits'] for c in S.fit(0.0, [dict(hours=None), dict(hours=1.0)])] == [False, False]   # an unmeasured cost is not promised
    pair = [dict(hours=1.0), dict(hours=2.0, group='g'), dict(hours=2.0, group='g')]
    assert [c['fits'] for c in S.fit(35.0, pair, budget=40.0)] == [True, True, True]
    assert [c['fits'] for c in S.fit(36.5, pair, budget=40.0)] == [True, False, False]   # the pair's first cell alone would fit: both or neither


def test_spent_hours_counts_the_first_design_its_runs_and_every_long_stage(tmp_path):
    _records(tmp_path / 'main', dict(base=[0.5, 0.5]), seconds=3600.0)
    first = tmp_path / 'first'; (first / S.TASK / 'seed0' / 'x').mkdir(parents=True)
    (first / S.TASK / 'seed0' / 'x' / 'base.meta.json').write_text(json.dumps(dict(seconds=1800.0)))
    assert abs(S.spent_hours(tmp_path / 'main', first) - (S.DESIGN_RUN_HOURS + 2.5)) < 1e-9
    try: S.spent_hours(tmp_path / 'main', tmp_path / 'nowhere'); raise AssertionError('a budget without the first design was priced')
    except FileNotFoundError as e: assert 'results/pilot/first_design' in str(e), e      # no silent 5.9 core-hours low


def test_the_cli_refuses_to_price_without_the_first_design(tmp_path, monkeypatch, capsys):
    _records(tmp_path, dict(base=[0.5] * 5, diffu_grpo=[0.6] * 5, sft_control=[0.55] * 5))
    monkeypatch.setattr(S.spent_hours, '__defaults__', (None, tmp_path / 'nowhere'))      # a copy of the code without results/pilot
    assert S.main(['--report', '--root', str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith('long_study: ') and 'results/pilot/first_design' in err and err.count('\n') == 1 and 'Traceback' not in err, err


def test_nothing_runs_before_the_decision(tmp_path):
    _records(tmp_path, dict(base=[0.5], diffu_grpo=[0.6], sft_control=[0.55]))
    r = subprocess.run([sys.executable, 'tools/long_study.py', '--root', str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and 'is not decided yet: nothing of the study runs' in r.stdout, (r.stdout, r.stderr)
    assert sorted(p.name for p in (tmp_path / 'full' / S.TASK / 'seed0' / 'default').iterdir()) == [f'{a}.{e}' for a in ('base', 'diffu_grpo', 'sft_control') for e in ('json', 'meta.json')]
    r = subprocess.run([sys.executable, 'tools/long_study.py', '--workers', '0'], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and '--workers must be at least 1' in r.stderr and 'Traceback' not in r.stderr


def test_the_study_cells_are_the_ones_fixed_before_it_ran():
    cells = S.study_cells()                                                            # the committed records: read, never written
    steps = [t for t, *_ in S.STUDY]
    assert [steps.index(c['step']) for c in cells] == sorted(steps.index(c['step']) for c in cells)
    for c in cells:
        assert c['todo'] >= 1 and (c['hours'] is None or c['hours'] > 0), c
        if c['step'] == steps[0]: assert c['cell'] == 'default' and c['todo'] <= 5 and c['name'].startswith('diffu_grpo_'), c
        if c['step'] == steps[1]: assert c['cell'] == 'sampler.steps=96' and c['todo'] <= 3 and c['name'] in ('diffu_grpo', 'diffu_grpo_dps'), c
        if c['step'] == steps[2]: assert c['cell'] == 'default' and c['todo'] <= 3 and c['name'].startswith(('wd1', 'gdpo')), c
        # the amendment: what the first estimate cut, after a-c
        if c['step'] == steps[3]: assert c['cell'] == 'default' and c['todo'] <= 2 and c['name'].startswith(('wd1', 'gdpo')), c
        if c['step'] == steps[4]: assert c['cell'] in ('dps.lam=1.0', 'dps.lam=2.0') and c['todo'] <= 3 and c['name'] == 'wd1_dps', c
        if c['step'] == steps[5]: assert c['cell'] in ('sml.K=2', 'sml.K=8') and c['todo'] <= 3 and c['name'] == 'diffu_grpo_sml', c
        if c['step'] == steps[6]: assert c['cell'] == 'sampler.steps=96' and c['todo'] <= 3 and c['name'] in ('wd1', 'wd1_dps'), c
    assert {c['step'] for c in cells} <= set(steps) and len(cells) <= 3 + 2 + 8 + 8 + 2 + 2 + 2
    assert [s[-1] for s in S.STUDY] == [None, None, (0, 1, 2), (3, 4), None, None, None]           # five seeds for every main-table cell at most
