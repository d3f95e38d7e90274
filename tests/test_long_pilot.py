"""Plain tests of `tools/long_pilot.py` (the long-output task's pilot): its stages are the main table's seed-0 base and
diffu-GRPO plus two pilot-only stages, its report reads validation only, and its verdict follows the rule in its docstring.
In subprocesses, like test_rl_pilot.py."""
import json, subprocess, sys, textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

def _py(code, *args):
    return subprocess.run([sys.executable, '-c', textwrap.dedent(code), *map(str, args)], cwd=ROOT, capture_output=True, text=True, timeout=300)

def test_pilot_jobs_are_the_main_cell_and_two_pilot_stages(tmp_path):
    r = _py('''
        import sys; sys.path.insert(0, 'tools'); import long_pilot as L
        from pathlib import Path
        root, main = Path(sys.argv[1]) / 'pilot', Path(sys.argv[1]) / 'reproduce'
        base, big, arm, exact = L.pilot_jobs(root, main)
        cell = str(main / 'full' / 'tiny_sudoku6x6' / 'seed0' / 'default')
        assert (base.kind, base.out, base.base, base.overrides) == ('base', cell, cell, ()), base            # the main table's own base
        assert (arm.kind, arm.name, arm.out, arm.base, arm.overrides) == ('arm', 'diffu_grpo', cell, cell, ()), arm
        assert (exact.out, exact.base, dict(exact.overrides)) == (str(root / 'tiny_sudoku6x6' / 'seed0' / 'exact_rollouts'), cell, {'sampler.cache': 'none'})
        assert big.kind == 'base' and big.out == big.base == str(root / 'tiny_sudoku6x6' / 'seed0' / 'size_h128_l4')
        assert dict(big.overrides)['model.tiny']['hidden_size'] == 128 and dict(big.overrides)['model.tiny']['num_hidden_layers'] == 4
        from daca_grpo.config import protocol_config
        assert protocol_config('tiny_sudoku6x6').sampler.cache == 'dual'                                      # the setting run 2 tests
        assert protocol_config('tiny_sudoku6x6', **dict(exact.overrides)).sampler.cache == 'none'
        print('ok')
    ''', tmp_path)
    assert r.returncode == 0 and r.stdout.strip() == 'ok', r.stderr

def _arm(d, late, test=0.99):
    d.mkdir(parents=True, exist_ok=True)
    curve = [dict(step=s, valid=late if s >= 60 else 0.1, test=test) for s in range(0, 130, 10)]
    (d / 'diffu_grpo.json').write_text(json.dumps(dict(test=test, valid=late, best_step=60, curve=curve)))
    (d / 'diffu_grpo_run').mkdir(exist_ok=True)
    (d / 'diffu_grpo_run' / 'metrics.csv').write_text('step,reward,time/step\n' + ''.join(f'{i + 1},{0.5 if i < 20 else 0.6},{5 + i % 3}\n' for i in range(40)))

def _report(tmp_path, dual, exact, base_valid=0.6):
    cell = tmp_path / 'reproduce' / 'full' / 'tiny_sudoku6x6' / 'seed0' / 'default'
    _arm(cell, dual); _arm(tmp_path / 'pilot' / 'tiny_sudoku6x6' / 'seed0' / 'exact_rollouts', exact)
    curve = [dict(step=s, valid=base_valid, test=0.99) for s in range(0, 2100, 100)]
    (cell / 'base.json').write_text(json.dumps(dict(test=0.99, valid=base_valid, best_step=2000, curve=curve)))
    return subprocess.run([sys.executable, 'tools/long_pilot.py', '--report', '--root', str(tmp_path / 'pilot'), '--main-root', str(tmp_path / 'reproduce')],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)

def test_report_reads_validation_only_and_applies_the_rule(tmp_path):
    r = _report(tmp_path, dual=0.65, exact=0.66)
    assert r.returncode == 0, r.stderr
    row = next(l for l in r.stdout.splitlines() if l.startswith('| diffu_grpo (dual-cache'))
    assert row == '| diffu_grpo (dual-cache rollouts, the setting) | 0.100 | 0.650 | 0.650 (60) | +0.100 | 6.0 |', row
    assert '0.99' not in r.stdout                                                     # the test split is never read
    verdict = json.loads(r.stdout.split('rule: ')[1])
    assert verdict == {'go': True, 'cached_rollouts_caveat': False, 'size': 'hidden 64, 2 layers'}, verdict

def test_no_go_and_caveat(tmp_path):
    r = _report(tmp_path, dual=0.6, exact=0.63)                                       # late valid equal to the base's: no go
    verdict = json.loads(r.stdout.split('rule: ')[1])
    assert verdict == {'go': False, 'cached_rollouts_caveat': True, 'size': 'hidden 128, 4 layers (fallback)'}, r.stdout

def test_workers_below_one_is_a_usage_error():
    r = subprocess.run([sys.executable, 'tools/long_pilot.py', '--workers', '0'], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and '--workers must be at least 1' in r.stderr and 'Traceback' not in r.stderr
