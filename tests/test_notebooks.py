"""Run every notebook under nbs/ with nbdev's test machinery, one pytest test per notebook.

Cells flagged with one of `tst_flags` in settings.ini (`notest slow gpu`) are skipped, unless the flag is
listed in the environment variable DACA_TEST_FLAGS (e.g. `DACA_TEST_FLAGS=slow pytest tests/`), which is
how the benchmarks run the heavy cells. A failing cell fails its notebook's test with the cell's traceback.
"""
import os, io, contextlib
from configparser import ConfigParser
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
NBS = ROOT / 'nbs'

def _tst_flags():
    cfg = ConfigParser(delimiters=['=']); cfg.read(ROOT / 'settings.ini')
    return cfg['DEFAULT'].get('tst_flags', '').split()

NOTEBOOKS = sorted(p for p in NBS.rglob('*.ipynb') if not any(part.startswith(('.', '_')) for part in p.relative_to(NBS).parts))

@pytest.mark.parametrize('nb', NOTEBOOKS, ids=[str(p.relative_to(NBS)) for p in NOTEBOOKS])
def test_notebook(nb):
    from nbdev.test import test_nb
    force = os.environ.get('DACA_TEST_FLAGS', '').split()
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        ok, secs = test_nb(nb, skip_flags=_tst_flags(), force_flags=force, showerr=True, basepath=ROOT)
    if not ok: pytest.fail(f'{nb.name} failed after {secs:.1f}s:\n{err.getvalue()[-20000:]}', pytrace=False)
