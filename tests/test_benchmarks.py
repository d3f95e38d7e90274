"Plain tests of `benchmarks/run.py`'s long-output agreement on a model it trains itself (tiny settings: seconds, not minutes)."
import importlib.util, json, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_bench():
    spec = importlib.util.spec_from_file_location('bench_run', ROOT / 'benchmarks' / 'run.py')
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    return mod


def test_long256_trains_caches_and_compares(tmp_path, monkeypatch):
    R = load_bench()
    monkeypatch.setattr(R, 'LONG256_DIR', tmp_path / 'chain256')
    monkeypatch.setitem(R.LONG256, 'sft_steps', 2); monkeypatch.setitem(R.LONG256, 'n_prompts', 3)
    monkeypatch.setitem(R.LONG256, 'gen_length', 232); monkeypatch.setitem(R.LONG256, 'steps', 8); monkeypatch.setitem(R.LONG256, 'block_length', 116)
    logs = []
    rows = R.long256_rows(logs.append, temperatures=(0.0,))
    assert any('training the 256-token chain model' in l for l in logs)
    assert not (tmp_path / 'chain256.tmp').exists() and (tmp_path / 'chain256' / 'config.json').exists()   # written whole, then renamed
    assert json.loads((tmp_path / 'chain256' / 'train.json').read_text())['sft_steps'] == 2
    assert [r['mode'] for r in rows] == [m for m, _, _ in R.FAST_MODES]
    for r in rows:
        assert 0.0 <= r['token_agreement'] <= 1.0 and 0.0 <= r['exact_reward'] <= 1.0 and r['exact_passes'] == 8
    par = next(r for r in rows if r['mode'] == 'parallel')
    assert par['passes'] <= par['exact_passes']
    summary = R.long_summary(rows)
    assert list(summary) == ['232_tokens'] and set(summary['232_tokens']) == {'model', *(m for m, _, _ in R.FAST_MODES)}
    logs.clear()
    again = R.long256_rows(logs.append, temperatures=(0.0,))                       # cached: no retraining, the same tokens
    assert not any('training' in l for l in logs)
    assert [r['token_agreement'] for r in again] == [r['token_agreement'] for r in rows]
