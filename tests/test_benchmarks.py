"""Plain tests of `benchmarks/run.py`'s long-output agreement on a model it trains itself (tiny settings: seconds, not minutes).

The check runs in a subprocess: the notebook tests share pytest's process (execnb), and loading the benchmark script
here would register the exported model classes with transformers' Auto classes before the notebooks define their own."""
import subprocess, sys, textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHECK = textwrap.dedent('''
    import importlib.util, json, sys
    from pathlib import Path
    root, tmp = Path(sys.argv[1]), Path(sys.argv[2])
    spec = importlib.util.spec_from_file_location('bench_run', root / 'benchmarks' / 'run.py')
    R = importlib.util.module_from_spec(spec); spec.loader.exec_module(R)
    R.LONG256_DIR = tmp / 'chain256'
    R.LONG256.update(sft_steps=2, n_prompts=3, gen_length=232, steps=8, block_length=116)
    logs = []
    rows = R.long256_rows(logs.append, temperatures=(0.0,))
    assert any('training the 256-token chain model' in l for l in logs), logs
    assert not (tmp / 'chain256.tmp').exists() and (tmp / 'chain256' / 'config.json').exists()   # written whole, then renamed
    assert json.loads((tmp / 'chain256' / 'train.json').read_text())['sft_steps'] == 2
    assert [r['mode'] for r in rows] == [m for m, _, _ in R.FAST_MODES]
    for r in rows:
        assert 0.0 <= r['token_agreement'] <= 1.0 and 0.0 <= r['exact_reward'] <= 1.0 and r['exact_passes'] == 8, r
    par = next(r for r in rows if r['mode'] == 'parallel')
    assert par['passes'] <= par['exact_passes']
    summary = R.long_summary(rows)
    assert list(summary) == ['232_tokens'] and set(summary['232_tokens']) == {'model', *(m for m, _, _ in R.FAST_MODES)}
    logs.clear()
    again = R.long256_rows(logs.append, temperatures=(0.0,))                       # cached: no retraining, the same tokens
    assert not any('training' in l for l in logs), logs
    assert [r['token_agreement'] for r in again] == [r['token_agreement'] for r in rows]
    R.LONG256.update(sft_steps=3); logs.clear()                                     # another step count: the cache is stale
    R.long256_rows(logs.append, temperatures=(0.0,))
    assert any('had 2 SFT steps, not 3: retraining' in l for l in logs), logs
    assert json.loads((tmp / 'chain256' / 'train.json').read_text())['sft_steps'] == 3
    print('ok')
''')


def test_long256_trains_caches_and_compares(tmp_path):
    r = subprocess.run([sys.executable, '-c', CHECK, str(ROOT), str(tmp_path)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and r.stdout.strip().endswith('ok'), r.stdout[-2000:] + r.stderr[-4000:]
