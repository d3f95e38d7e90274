#!/usr/bin/env python
"""Write README.md from nbs/index.ipynb (quarto, which nbdev_readme needs, cannot be installed here).

Markdown cells are copied as they are; code cells become ```python blocks, except cells whose first line
is a `#|` directive (hidden/exported cells) and cells starting with `%%bash`/`!`, which become ```bash blocks.
Run with --check to fail (exit 1) when README.md is out of date.
"""
import json, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

def render(nb_path=ROOT / 'nbs' / 'index.ipynb') -> str:
    nb = json.loads(Path(nb_path).read_text())
    parts = ['<!-- generated from nbs/index.ipynb by tools/sync_readme.py: edit the notebook, not this file -->']
    for cell in nb['cells']:
        src = ''.join(cell['source']).strip('\n')
        if not src: continue
        if cell['cell_type'] == 'markdown': parts.append(src)
        elif cell['cell_type'] == 'code' and not src.lstrip().startswith('#|'):
            if src.startswith('%%bash'): parts.append('```bash\n' + src.split('\n', 1)[1] + '\n```')
            else: parts.append('```python\n' + src + '\n```')
    return '\n\n'.join(parts) + '\n'

if __name__ == '__main__':
    text, readme = render(), ROOT / 'README.md'
    if '--check' in sys.argv:
        if not readme.exists() or readme.read_text() != text: sys.exit('README.md is out of date: run python tools/sync_readme.py')
    else: readme.write_text(text)
