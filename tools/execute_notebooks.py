#!/usr/bin/env python
"""Execute the notebooks and keep their outputs, so that a reader sees results (tables, figures, the printed checks) on
GitHub and in JupyterLab, not only code.

    python tools/execute_notebooks.py                  # every notebook under nbs/, in reading order
    python tools/execute_notebooks.py nbs/03_sampler.ipynb nbs/04_dps.ipynb

Each notebook runs the way the tests run it (nbdev's test machinery): cells flagged with one of `tst_flags` in settings.ini
(`slow`, `gpu`, `notest`) are not run and keep the outputs they already have (the paper notebooks' heavy cells are
re-executed by their own commands, named in each notebook). Progress bars are off (TQDM_DISABLE), one thread per
process, long text outputs are cut to their first and last lines, and `nbdev_clean` runs afterwards, so `.ci/run`'s
no-diff check holds. A notebook whose cell fails is left unchanged and the run exits 1.
"""
import os, subprocess, sys, time
os.environ.setdefault('TQDM_DISABLE', '1')
os.environ.setdefault('OMP_NUM_THREADS', '1')
os.environ.setdefault('MPLBACKEND', 'Agg')
from configparser import ConfigParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES, KEEP = 40, 15            # a text output longer than MAX_LINES keeps its first and last KEEP lines
MAX_BYTES = 1_000_000

def _skip_flags():
    cfg = ConfigParser(delimiters=['=']); cfg.read(ROOT / 'settings.ini')
    return set(cfg['DEFAULT'].get('tst_flags', '').split())

def _portable(text):
    "Machine-specific paths out of the outputs: the site-packages folder and the folder holding the repository."
    import sysconfig
    for path, name in ((sysconfig.get_paths()['purelib'], '<site-packages>'), (str(ROOT), '.'), (str(ROOT.parent), '..')):
        text = text.replace(path, name)
    return text

def _cut(text):
    lines = text.splitlines(keepends=True)
    if len(lines) <= MAX_LINES: return text
    return ''.join(lines[:KEEP] + [f'... ({len(lines) - 2 * KEEP} lines cut)\n'] + lines[-KEEP:])

def _tidy(outputs):
    "Streams merged per name with progress-bar redraws dropped, long texts cut."
    out = []
    for o in outputs:
        if o.get('output_type') == 'stream':
            text = ''.join(o['text']) if isinstance(o['text'], list) else o['text']
            text = _portable(''.join(l for l in text.splitlines(keepends=True) if '\r' not in l))
            if not text: continue
            if out and out[-1].get('output_type') == 'stream' and out[-1]['name'] == o['name']:
                out[-1]['text'] = out[-1]['text'] + text
            else: out.append({**o, 'text': text})
        else:
            data = o.get('data', {})
            if 'text/plain' in data:
                t = data['text/plain']; data['text/plain'] = _cut(_portable(''.join(t) if isinstance(t, list) else t))
            out.append(o)
    for o in out:
        if o.get('output_type') == 'stream': o['text'] = _cut(o['text'])
    return out

def execute(path, skip):
    "Run `path`; write its outputs into the notebook file. Returns (ok, seconds)."
    from execnb.nbio import read_nb, write_nb
    from execnb.shell import CaptureShell
    from nbdev.process import NBProcessor
    from fastcore.foundation import working_directory
    from nbdev.frontmatter import FrontmatterProc
    run = NBProcessor(path, procs=FrontmatterProc, process=True).nb     # directives parsed, as nbdev_test does
    def no_eval(cell):
        if cell.cell_type != 'code': return True
        if 'nbdev_export' + '(' in cell.source: return True
        return bool(skip & (getattr(cell, 'directives_', {}) or {}).keys())
    t0, shell = time.time(), CaptureShell(path)
    try:
        with working_directory(path.parent): shell.run_all(run, exc_stop=True, preproc=no_eval)
    except Exception:
        sys.stderr.write(shell.prettytb(fname=path) + '\n')
        return False, time.time() - t0
    raw = read_nb(path)
    ran = {c.idx_: c for c in run.cells}
    for i, cell in enumerate(raw.cells):
        done = ran.get(i)
        if cell.cell_type != 'code': continue
        if done is None or no_eval(done): cell.outputs = _tidy(cell.get('outputs', []))     # not run: its old outputs, tidied
        else: cell.outputs = _tidy(done.get('outputs', []))
    write_nb(raw, path)
    return True, time.time() - t0

def main(paths):
    skip = _skip_flags()
    paths = [Path(p).resolve() for p in paths] or sorted(p for p in (ROOT / 'nbs').rglob('*.ipynb') if not any(s.startswith(('_', '.')) for s in p.relative_to(ROOT / 'nbs').parts))
    failed = []
    for p in paths:
        ok, secs = execute(p, skip)
        size = p.stat().st_size
        print(f"{'ok  ' if ok else 'FAIL'} {p.relative_to(ROOT)}  {secs:5.1f}s  {size / 1024:6.0f} KiB" + ('  (over 1 MB)' if size > MAX_BYTES else ''), flush=True)
        if not ok: failed.append(p)
    for p in paths: subprocess.run(['nbdev_clean', '--fname', str(p)], cwd=ROOT, check=True)
    if failed: sys.exit(f"failed: {', '.join(str(p.relative_to(ROOT)) for p in failed)}")

if __name__ == '__main__': main(sys.argv[1:])
