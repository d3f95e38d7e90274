"""Plain tests of `tools/rl_pilot.py` (the chains' RL-settings pilot): its jobs start from the committed base and write
under the pilot root, and its report reads validation only. In subprocesses, like test_benchmarks.py."""
import json, subprocess, sys, textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

def _py(code, *args):
    return subprocess.run([sys.executable, '-c', textwrap.dedent(code), *map(str, args)], cwd=ROOT, capture_output=True, text=True, timeout=300)

def test_pilot_jobs_start_from_the_committed_base(tmp_path):
    r = _py('''
        import sys; sys.path.insert(0, 'tools'); import rl_pilot
        from pathlib import Path
        jobs = rl_pilot.pilot_jobs('tiny_chain', 0, sys.argv[1])
        assert [Path(j.out).name for j in jobs] == list(rl_pilot.GRIDS['tiny_chain']), jobs
        assert all(j.kind == 'arm' and j.name == 'diffu_grpo' and j.seed == 0 for j in jobs)
        assert {Path(j.base).relative_to(rl_pilot.REPO).as_posix() for j in jobs} == {'results/reproduce/full/tiny_chain/seed0/default'}
        assert all(Path(j.out).parent == Path(sys.argv[1]) / 'tiny_chain' / 'seed0' for j in jobs)
        assert dict(jobs[-1].overrides) == {'optim.lr': 1e-4, 'sampler.temperature': 0.7}, jobs[-1]
        assert list(rl_pilot.run_dirs('tiny_chain', 0, sys.argv[1]))[0] == 'lr5e-4 (protocol)'   # the protocol's own run, from the main table
        print('ok')
    ''', tmp_path)
    assert r.returncode == 0 and r.stdout.strip() == 'ok', r.stderr

def test_report_reads_validation_only(tmp_path):
    run = tmp_path / 'tiny_chain' / 'seed0' / 'lr2e-4'; run.mkdir(parents=True)
    curve = [dict(step=s, valid=v, test=0.99) for s, v in zip(range(0, 130, 10), [0.3] * 6 + [0.2, 0.4, 0.3, 0.3, 0.3, 0.3, 0.5])]
    (run / 'diffu_grpo.json').write_text(json.dumps(dict(test=0.99, valid=0.5, best_step=120, curve=curve)))
    (run / 'diffu_grpo_run').mkdir()                                    # 40 steps: reward 0.2 for the first 20, 0.3 for the last 20
    (run / 'diffu_grpo_run' / 'metrics.csv').write_text('step,reward\n' + ''.join(f'{i + 1},{0.2 if i < 20 else 0.3}\n' for i in range(40)))
    r = subprocess.run([sys.executable, 'tools/rl_pilot.py', '--report', '--root', str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    row = next(l for l in r.stdout.splitlines() if l.startswith('| lr2e-4 |'))
    assert row == '| lr2e-4 | 0.300 | 0.329 | 0.500 (120) | +0.100 |', row        # late = mean of steps 60..120 = 2.3 / 7; the test column is never read
    assert '0.99' not in r.stdout

def test_workers_below_one_is_a_usage_error():
    r = subprocess.run([sys.executable, 'tools/rl_pilot.py', '--workers', '0'], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and '--workers must be at least 1' in r.stderr and 'Traceback' not in r.stderr

def test_reward_check_of_an_unknown_setting_is_a_usage_error():
    r = subprocess.run([sys.executable, 'tools/rl_pilot.py', '--reward-check', 'lr9'], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and '--reward-check: one of lr2e-4' in r.stderr and 'Traceback' not in r.stderr, r.stderr

def test_reward_check_without_the_pilot_weights_says_what_to_run(tmp_path):
    r = subprocess.run([sys.executable, 'tools/rl_pilot.py', '--reward-check', 'lr2e-4', '--root', str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and 'run the pilot first' in r.stderr and 'Traceback' not in r.stderr, r.stderr
