"""Bad input to the `daca-grpo` CLI, each case in a fresh process: does it end as it should?

    OMP_NUM_THREADS=1 HF_HUB_OFFLINE=1 python tools/bad_input_battery.py [--only SUBSTRING] [--keep DIR]

Every case expects one of: GOOD = exit 2 with one line on stderr and no traceback (or, for `ok` cases, exit 0),
and nothing the user made changed. Anything else is classed TRACEBACK (a Python traceback), SILENT (exit 0 where an
error was due), DATA-LOSS (a file the user made changed or vanished), HANG (past the time limit) or UNCLEAR (exit 2
but several lines). The classes are those of issue 59's outside battery; the notebooks test each class in-process
(nbs/07, 08, 09, 11, 12, 01*, 02, tasks/05); this tool re-runs them the way a user meets them, from a shell.
"""
import argparse, hashlib, json, os, shutil, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT / 'tests/fixtures/real_models'
TINY_RUN = ['sft.steps=5', 'optim.max_steps=1', 'data.eval_size=2', 'optim.prompts_per_step=2', 'optim.num_generations=2', '--no-progress']

def sh(args, cwd, env, timeout=300):
    "Run `daca-grpo args` in `cwd`: (exit code or 'HANG', stdout, stderr)."
    cmd = [sys.executable, '-c', 'import sys; from daca_grpo.cli import main; sys.exit(main())', *args]
    try: r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired: return 'HANG', '', ''
    return r.returncode, r.stdout, r.stderr

def snapshot(d):
    "{relative path: sha256} of every file under `d`."
    d = Path(d)
    return {str(p.relative_to(d)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(d.rglob('*')) if p.is_file()} if d.exists() else {}

def verdict(rc, err, expect='error', lost=()):
    "The class of one outcome."
    if rc == 'HANG': return 'HANG'
    if lost: return 'DATA-LOSS'
    if 'Traceback' in err: return 'TRACEBACK'
    if expect == 'ok': return 'GOOD' if rc == 0 else f'FAILED ({rc})'
    if rc == 0: return 'SILENT'
    lines = [l for l in err.strip().splitlines() if l.strip()]
    return 'GOOD' if rc == 2 and len(lines) == 1 else 'UNCLEAR'

def copy_model(src, dst, edit=None):
    "A copy of the model folder `src` at `dst`, then `edit(dst)`."
    shutil.copytree(src, dst); edit and edit(Path(dst)); return str(dst)

def safetensors_edit(how):
    def edit(d):
        f = next(Path(d).glob('*.safetensors')); b = f.read_bytes()
        f.write_bytes({'truncated': b[:len(b) // 2], 'empty': b'', 'garbage': os.urandom(4096)}[how])
    return edit

def tensors_edit(how):
    "Rewrite the weights: drop one tensor, or make every float tensor NaN."
    def edit(d):
        from safetensors.torch import load_file, save_file
        f = next(Path(d).glob('*.safetensors')); sd = load_file(f)
        if how == 'missing': sd.pop(sorted(k for k in sd if k.endswith('weight'))[1])
        else: sd = {k: v.float().fill_(float('nan')).to(v.dtype) if v.is_floating_point() else v for k, v in sd.items()}
        save_file(sd, f, metadata={'format': 'pt'})
    return edit

def config_edit(**kv):
    def edit(d):
        c = json.loads((Path(d) / 'config.json').read_text()); c.update(kv); (Path(d) / 'config.json').write_text(json.dumps(c))
    return edit

def cases(w):
    "(name, args, expect, {folder: files the user made there}) for each case; `w` the working folder."
    tiny = str(w / 'tiny_model')
    yield 'a tiny model to break (sft --out)', ['sft', '--preset', 'tiny_sudoku', 'sft.steps=3', '--out', tiny], 'ok', {}
    yield 'a finished run (the base of the overwrite cases)', ['train', '--preset', 'tiny_sudoku', *TINY_RUN, 'log.output_dir=done'], 'ok', {}
    # data loss
    user = w / 'user_files'; (user / 'eval').mkdir(parents=True); (user / 'logs').mkdir()
    (user / 'metrics.csv').write_text('mine\n'); (user / 'eval/notes.txt').write_text('mine'); (user / 'logs/a.log').write_text('mine')
    yield '--overwrite into a folder of the user\'s metrics.csv, eval/, logs/', ['train', '--preset', 'tiny_sudoku', *TINY_RUN, f'log.output_dir={user}', '--overwrite'], 'error', {user: None}
    own = w / 'own_config'; own.mkdir(); (own / 'config.yaml').write_text('my: settings\n')
    yield 'a user\'s own config.yaml in log.output_dir', ['train', '--preset', 'tiny_sudoku', *TINY_RUN, f'log.output_dir={own}'], 'error', {own: None}
    yield '--overwrite on a finished run keeps eval/my_analysis.ipynb', ['train', '--preset', 'tiny_sudoku', *TINY_RUN, 'log.output_dir=done', '--overwrite'], 'ok', {w / 'done': ['eval/my_analysis.ipynb']}
    # silent
    for k in ('optim.lr=1e9', 'optim.lr=1e308', 'optim.weight_decay=1e30'):
        yield f'weights go non-finite: {k}', ['train', '--preset', 'tiny_sudoku', *TINY_RUN, 'sft.steps=0', 'optim.max_steps=3', k, f'log.output_dir=nf_{k}'], 'error', {}
    nan_model = w / 'nan_model'
    yield 'model.init_from a NaN model', ['train', '--preset', 'tiny_sudoku', *TINY_RUN, f'model.init_from={nan_model}', 'log.output_dir=from_nan'], 'error', {}
    yield 'eval of a NaN model', ['eval', '--model', str(nan_model), '--task', 'tiny_sudoku', '--limit', '2'], 'error', {}
    yield 'eval of a tiny model missing a tensor', ['eval', '--model', str(w / 'tiny_missing'), '--task', 'tiny_sudoku', '--limit', '2'], 'error', {}
    yield 'eval of a LLaDA missing a tensor', ['eval', '--model', str(w / 'llada_missing'), '--task', 'tiny_sudoku', '--limit', '1', '--gen-length', '8', '--steps', '2', '--block-length', '8'], 'error', {}
    (w / 'twice.yaml').write_text('preset: tiny_sudoku\noptim:\n  lr: 1.0e-3\nsft:\n  steps: 5\noptim:\n  max_steps: 1\n')
    yield 'a YAML file with a section twice', ['train', str(w / 'twice.yaml'), '--dry-run'], 'error', {}
    yield 'log.output_dir= (empty)', ['train', '--preset', 'tiny_sudoku', *TINY_RUN, 'log.output_dir='], 'error', {}
    yield 'log.output_dir=~/r makes no folder named ~', ['train', '--preset', 'tiny_sudoku', '--dry-run', 'log.output_dir=~/r'], 'ok', {}
    # tracebacks
    for k in ('sft.lr=1e308', 'sft.steps=0'):
        yield f'daca-grpo sft {k}', ['sft', '--preset', 'tiny_sudoku', 'sft.steps=3', k, '--out', f'sft_{k}'], 'error', {}
    yield 'seed=4294967296', ['train', '--preset', 'tiny_sudoku', *TINY_RUN, 'seed=4294967296', 'log.output_dir=seed'], 'error', {}
    yield 'SFT targets longer than sampler.gen_length (train)', ['train', '--preset', 'tiny_sudoku', *TINY_RUN, 'sampler.gen_length=8', 'sampler.block_length=8', 'sampler.steps=4', 'log.output_dir=short'], 'error', {}
    yield 'SFT targets longer than sampler.gen_length (sft)', ['sft', '--preset', 'tiny_sudoku', 'sft.steps=3', 'sampler.gen_length=8', 'sampler.block_length=8', 'sampler.steps=4', '--out', 'short_sft'], 'error', {}
    for layout in ('tiny', 'llada', 'dream'):
        for how in ('truncated', 'empty', 'garbage'):
            yield f'{how} safetensors ({layout})', ['eval', '--model', str(w / f'{layout}_{how}'), '--task', 'tiny_sudoku', '--limit', '1', '--gen-length', '8', '--steps', '2', '--block-length', '8'], 'error', {}
    yield 'config vocab_size does not match the weights (LLaDA)', ['eval', '--model', str(w / 'llada_vocab'), '--task', 'tiny_sudoku', '--limit', '1', '--gen-length', '8', '--steps', '2', '--block-length', '8'], 'error', {}
    yield 'config d_model does not match the weights (LLaDA)', ['eval', '--model', str(w / 'llada_width'), '--task', 'tiny_sudoku', '--limit', '1', '--gen-length', '8', '--steps', '2', '--block-length', '8'], 'error', {}
    yield 'model.init_from a folder without tokenizer files', ['train', '--preset', 'tiny_sudoku', *TINY_RUN, f'model.init_from={w / "no_tokenizer"}', 'log.output_dir=notok'], 'error', {}
    yield 'eval --model: config.json model_type unknown', ['eval', '--model', str(w / 'llada_type'), '--task', 'tiny_sudoku', '--limit', '1'], 'error', {}

def broken_models(w):
    "The broken model folders the cases read, made after the tiny model exists."
    tiny = w / 'tiny_model'
    copy_model(tiny, w / 'nan_model', tensors_edit('nan'))
    copy_model(tiny, w / 'tiny_missing', tensors_edit('missing'))
    copy_model(FIX / 'llada_tiny', w / 'llada_missing', tensors_edit('missing'))
    for layout, src in (('tiny', tiny), ('llada', FIX / 'llada_tiny'), ('dream', FIX / 'dream_tiny')):
        for how in ('truncated', 'empty', 'garbage'): copy_model(src, w / f'{layout}_{how}', safetensors_edit(how))
    llada_cfg = json.loads((FIX / 'llada_tiny/config.json').read_text())
    copy_model(FIX / 'llada_tiny', w / 'llada_vocab', config_edit(vocab_size=llada_cfg['vocab_size'] * 2, embedding_size=llada_cfg.get('embedding_size', llada_cfg['vocab_size']) * 2))
    copy_model(FIX / 'llada_tiny', w / 'llada_width', config_edit(d_model=llada_cfg['d_model'] * 2))
    copy_model(FIX / 'llada_tiny', w / 'llada_type', config_edit(model_type='lladaa'))
    copy_model(tiny, w / 'no_tokenizer', lambda d: [p.unlink() for p in d.iterdir() if 'token' in p.name])

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--only', default=None, help='run only the cases whose name contains this')
    ap.add_argument('--keep', default=None, help='work in this folder and keep it (default: a temporary one)')
    a = ap.parse_args()
    w = Path(a.keep or tempfile.mkdtemp(prefix='battery-')).resolve(); w.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, 'OMP_NUM_THREADS': '1', 'HF_HUB_OFFLINE': '1', 'HF_DATASETS_OFFLINE': '1', 'HOME': str(w / 'home')}
    (w / 'home').mkdir(exist_ok=True)
    counts, t_all = {}, time.time()
    for i, (name, args, expect, kept) in enumerate(cases(w)):
        if i == 2: broken_models(w)
        if a.only and a.only not in name and i > 1: continue
        for d, files in kept.items():
            if files: [((d / f).parent.mkdir(parents=True, exist_ok=True), (d / f).write_text('mine')) for f in files]
        before = {d: snapshot(d) for d in kept}
        t0 = time.time(); rc, out, err = sh(args, w, env)
        lost = [f"{d.name}/{f}" for d, files in kept.items() for f in (files or before[d])
                if before[d].get(f) != snapshot(d).get(f) and (files is None or f in files)]
        if name.startswith('log.output_dir=~') and (w / '~').exists(): lost = ['a folder named ~']
        v = verdict(rc, err, expect, lost) if not (name.startswith('log.output_dir=~') and lost) else 'SILENT'
        counts[v] = counts.get(v, 0) + 1
        last = (err.strip().splitlines() or [''])[-1][:160] if v != 'GOOD' or expect == 'error' else ''
        print(f"{v:10s} {time.time() - t0:5.1f}s  {name}" + (f"\n           {last}" if last else ''), flush=True)
    print(f"\n{sum(counts.values())} cases in {time.time() - t_all:.0f}s: " + ', '.join(f"{k} {v}" for k, v in sorted(counts.items())))
    if not a.keep: shutil.rmtree(w, ignore_errors=True)
    return 0 if set(counts) <= {'GOOD'} else 1

if __name__ == '__main__': sys.exit(main())
