"""Write `tests/fixtures/data/`: a few records of every benchmark, in the same layout and format as the full data,
so the default test run passes in a checkout that has no benchmark data beside it.

    python tools/make_fixtures.py [--data DIR]     # DIR: the full data (default: $DACA_DATA_DIR or ../shared/data)

Deterministic: the same full data gives byte-identical fixtures. The Countdown 3-to-4 file declares no licence, so its
fixture is not copied: it is generated here in the same format (`target`, `nums`), every target reachable.
"""
import argparse, csv, json, os, random, shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / 'tests' / 'fixtures' / 'data'
MBPP_IDS = [1, 2, 3, 11, 12, 13, 14, 511, 512, 601, 602, 603]     # prompt, test, validation and train splits
N = {'gsm8k': 8, 'math500': 8, 'countdown_cd3': 12, 'sudoku': 24, 'sanitized': 6, 'json': 24}

def _jsonl(rows, path):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, 'w') as f:
        for r in rows: f.write(json.dumps(r, ensure_ascii=False) + '\n')

def _lines(path, n): return [json.loads(l) for l in open(path) if l.strip()][:n]

def _countdown_3to4(n=24, seed=0):
    "Countdown records in the 3to4 format, half with 3 numbers; each target is a +,-,* combination of the numbers."
    rng, rows = random.Random(seed), []
    while len(rows) < n:
        nums = [rng.randint(1, 99) for _ in range(3 + len(rows) % 2)]
        t = nums[0]
        for x in nums[1:]: t = rng.choice([t + x, t - x, t * x])
        if 1 <= t <= 100: rows.append({'target': t, 'nums': nums})
    return rows

def main(data):
    if OUT.exists(): shutil.rmtree(OUT)
    for split in ('train', 'test'): _jsonl(_lines(data / 'gsm8k' / f'{split}.jsonl', N['gsm8k']), OUT / 'gsm8k' / f'{split}.jsonl')
    _jsonl(_lines(data / 'math500' / 'test.jsonl', N['math500']), OUT / 'math500' / 'test.jsonl')
    mbpp = {r['task_id']: r for r in _lines(data / 'mbpp' / 'mbpp.jsonl', 10**6)}
    _jsonl([mbpp[i] for i in MBPP_IDS], OUT / 'mbpp' / 'mbpp.jsonl')
    san = json.loads((data / 'mbpp' / 'sanitized-mbpp.json').read_text())[:N['sanitized']]
    (OUT / 'mbpp' / 'sanitized-mbpp.json').write_text(json.dumps(san, indent=1, ensure_ascii=False) + '\n')
    _jsonl(_lines(data / 'countdown' / 'countdown_cd3_test.jsonl', N['countdown_cd3']), OUT / 'countdown' / 'countdown_cd3_test.jsonl')
    _jsonl(_countdown_3to4(), OUT / 'countdown' / 'countdown_tasks_3to4_first10002.jsonl')
    with open(data / 'sudoku' / '4x4_test_sudoku.csv', newline='') as f: rows = list(csv.reader(f))[:N['sudoku'] + 1]
    (OUT / 'sudoku').mkdir(parents=True)
    with open(OUT / 'sudoku' / '4x4_test_sudoku.csv', 'w', newline='') as f: csv.writer(f, lineterminator='\n').writerows(rows)
    for p in sorted((data / 'jsonschemabench').glob('*.jsonl')):
        recs = [json.loads(l) for l in open(p) if l.strip()]
        short = sorted(recs, key=lambda r: len(json.dumps(r)))[:N['json']]      # the shortest schemas keep the fixture small
        _jsonl(sorted(short, key=lambda r: str(r['unique_id'])), OUT / 'jsonschemabench' / p.name)
    size = sum(f.stat().st_size for f in OUT.rglob('*') if f.is_file())
    print(f'wrote {OUT.relative_to(ROOT)} ({size / 1024:.0f} KiB)')

if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--data', type=Path, default=Path(os.environ.get('DACA_DATA_DIR') or ROOT.parent / 'shared' / 'data'))
    a = ap.parse_args()
    if not a.data.is_dir(): raise SystemExit(f"--data {a.data}: not a directory (point it at the full benchmark data)")
    main(a.data)
