#!/usr/bin/env python
"""Run nbdev's documentation processing on the notebooks, the step of `nbdev_docs` before Quarto renders the site.

    python tools/check_docs.py                     # every notebook under nbs/; exit 1 if any fails
    python tools/check_docs.py nbs/03_sampler.ipynb

`nbdev_docs` first processes every notebook (nbdev.serve.proc_nbs): it executes the exported cells, the cells with imports
and the `show_doc` cells in a fresh shell, from the repository root, and inserts the API documentation. Quarto, which
renders the result, cannot be installed here, and `nbdev_proc_nbs` tries to install it; this script runs the same
processing (nbdev's `FilterDefaults`, as `nbdev.serve_drv` does) without Quarto, one notebook at a time, writing into a
temporary folder, and names the notebook and cell of the first error. Where Quarto is installed, `nbdev_docs` builds the
site into `_docs/`.
"""
import os, sys, tempfile, time, traceback, warnings
os.environ.setdefault('MPLBACKEND', 'Agg'); os.environ.setdefault('TQDM_DISABLE', '1')
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

def notebooks(args):
    if args: return [Path(a).resolve() for a in args]
    return sorted(p for p in (ROOT / 'nbs').rglob('*.ipynb') if not any(s.startswith(('.', '_')) for s in p.relative_to(ROOT / 'nbs').parts))

def check(nb, out_dir):
    "Process `nb` as nbdev_docs would; None if it worked, else the error's first lines."
    import nbdev.serve_drv
    from nbdev.processors import FilterDefaults
    os.chdir(ROOT)
    try: nbdev.serve_drv.main((nb, Path(out_dir) / nb.name, FilterDefaults))
    except Exception as e: return ''.join(traceback.format_exception_only(type(e), e)).strip()[:1500]

if __name__ == '__main__':
    warnings.simplefilter('ignore')
    failed = []
    with tempfile.TemporaryDirectory() as out:
        for nb in notebooks(sys.argv[1:]):
            t = time.time(); err = check(nb, out)
            print(f"{'FAIL' if err else 'ok  '} {nb.relative_to(ROOT)} ({time.time() - t:.0f}s)" + (f"\n{err}\n" if err else ''), flush=True)
            if err: failed.append(nb)
    if failed: sys.exit(f"{len(failed)} notebook(s) fail nbdev's documentation processing")
