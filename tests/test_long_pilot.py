"""Plain tests of `tools/long_pilot.py` (the long-output task's pilot, two designs): the second design's stages are the main
table's own seed-0 base, diffu-GRPO and SFT control, its reports read validation only, and both verdicts follow the rules in its docstring.
In subprocesses, like test_rl_pilot.py."""
import json, subprocess, sys, textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

def _py(code, *args):
    return subprocess.run([sys.executable, '-c', textwrap.dedent(code), *map(str, args)], cwd=ROOT, capture_output=True, text=True, timeout=300)

def test_pilot_jobs_are_the_main_tables_own_seed0_stages(tmp_path):
    r = _py('''
        import sys; sys.path.insert(0, 'tools'); import long_pilot as L
        from pathlib import Path
        main = Path(sys.argv[1]) / 'reproduce'
        base, arm, control = L.pilot_jobs(main)
        cell = str(main / 'full' / 'tiny_sudoku6x6' / 'seed0' / 'default')
        assert (base.kind, base.out, base.base, base.overrides) == ('base', cell, cell, ()), base            # the main table's own stages,
        assert (arm.kind, arm.name, arm.out, arm.base, arm.overrides) == ('arm', 'diffu_grpo', cell, cell, ()), arm
        assert (control.kind, control.name, control.out, control.overrides) == ('control', 'sft_control', cell, ()), control
        from daca_grpo.paper.reproduce import jobs_of, table_stages
        assert {base, arm, control} <= set(jobs_of(table_stages('main', 'full', main / 'full', {'tiny_sudoku6x6': [0]})))   # ... as reproduce runs them
        from daca_grpo.config import protocol_config
        c = protocol_config('tiny_sudoku6x6')
        assert (c.sft.steps, c.protocol.base_select_every, c.sampler.cache) == (20000, 1000, 'dual')          # the second design's setting
        print('ok')
    ''', tmp_path)
    assert r.returncode == 0 and r.stdout.strip() == 'ok', r.stderr

def _arm(d, late, test=0.99):
    d.mkdir(parents=True, exist_ok=True)
    curve = [dict(step=s, valid=late if s >= 60 else 0.1, test=test) for s in range(0, 130, 10)]
    (d / 'diffu_grpo.json').write_text(json.dumps(dict(test=test, valid=late, best_step=60, curve=curve)))
    (d / 'diffu_grpo_run').mkdir(exist_ok=True)
    (d / 'diffu_grpo_run' / 'metrics.csv').write_text('step,reward,time/step\n' + ''.join(f'{i + 1},{0.5 if i < 20 else 0.6},{5 + i % 3}\n' for i in range(40)))

def _sft(d, name, valid, steps=range(0, 2100, 100)):
    (d / f'{name}.json').write_text(json.dumps(dict(test=0.99, valid=valid, best_step=steps[-1], curve=[dict(step=s, valid=valid, test=0.99) for s in steps])))

def _report(tmp_path, dual, exact, base_valid=0.6, plateau=None):
    "The first design's runs under <tmp>/first (dual, exact: late validation); `plateau`: (base, control, diffu-GRPO) validation of the second design."
    first = tmp_path / 'first' / 'tiny_sudoku6x6' / 'seed0'
    _arm(first / 'default', dual); _arm(first / 'exact_rollouts', exact); _sft(first / 'default', 'base', base_valid)
    if plateau:
        cell = tmp_path / 'reproduce' / 'full' / 'tiny_sudoku6x6' / 'seed0' / 'default'
        _arm(cell, plateau[2]); _sft(cell, 'base', plateau[0], range(0, 21000, 1000)); _sft(cell, 'sft_control', plateau[1])
    return subprocess.run([sys.executable, 'tools/long_pilot.py', '--report', '--root', str(tmp_path / 'first'), '--main-root', str(tmp_path / 'reproduce')],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)

def _verdicts(out): return [json.loads(part.splitlines()[0]) for part in out.split('rule: ')[1:]]

def test_report_reads_validation_only_and_applies_the_rule(tmp_path):
    r = _report(tmp_path, dual=0.65, exact=0.66)
    assert r.returncode == 0, r.stderr
    row = next(l for l in r.stdout.splitlines() if l.startswith('| diffu_grpo (dual-cache'))
    assert row == '| diffu_grpo (dual-cache rollouts, the setting) | 0.100 | 0.650 | 0.650 (60) | +0.100 | 6.0 |', row
    assert '0.99' not in r.stdout                                                     # the test split is never read
    first, second = _verdicts(r.stdout)
    assert first == {'go': True, 'cached_rollouts_caveat': False, 'size': 'hidden 64, 2 layers'}, first
    assert second == {'go': None}, second                                              # the second design has not run

def test_no_go_and_caveat(tmp_path):
    r = _report(tmp_path, dual=0.6, exact=0.63)                                       # late valid equal to the base's: no go
    assert _verdicts(r.stdout)[0] == {'go': False, 'cached_rollouts_caveat': True, 'size': 'hidden 128, 4 layers (fallback)'}, r.stdout

def test_second_design_needs_both_the_base_and_the_control_beaten(tmp_path):
    for (base, control, late), go in (((0.60, 0.62, 0.63), True), ((0.60, 0.62, 0.61), False), ((0.62, 0.60, 0.61), False), ((0.6, 0.6, 0.6), False)):
        r = _report(tmp_path / str((base, control, late)), 0.65, 0.65, plateau=(base, control, late))
        assert r.returncode == 0, r.stderr
        assert _verdicts(r.stdout)[1] == {'go': go}, (base, control, late, r.stdout)
        assert '0.99' not in r.stdout                                                   # test never read

def test_workers_below_one_is_a_usage_error():
    r = subprocess.run([sys.executable, 'tools/long_pilot.py', '--workers', '0'], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and '--workers must be at least 1' in r.stderr and 'Traceback' not in r.stderr
