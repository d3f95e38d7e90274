"""Every command in README.md runs as written, so an example cannot rot.

The commands are read from the README itself. Each `daca-grpo` command must have an entry in `RECIPES`: the overrides
that shorten it where it trains (appended, so they win over the README's own values), the substitutions it needs here
(a model folder for a GPU path), and what its output must show. A command without an entry fails
`test_every_readme_command_is_covered`; commands that cannot run here (installs, downloads, GPU launches, CI itself)
are in `NOT_RUN` with the reason. They run in a temporary folder, offline, one thread each, in two lanes side by side
(`lane_of`): each lane in README order, and a command that reads another's output in that command's lane (the quickstart
writes the run that `eval` and `plot` read).

The GPU block's `eval` and `export` read an adapter trained here first (2 RL steps of d1/mbpp_wd1_dps.yaml on the tiny
LLaDA): about 40 s, so they are `slow` (`pytest -m slow tests`, or tools/run_slow.sh); the default run keeps that
config's `--dry-run` with the tiny LLaDA, and the CLI's training, eval and export on the real architectures are checked
by models/03_llada_dream, 05_evaluate and 08_checkpoint.
"""
import json, os, re, shlex, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / 'README.md').read_text()
LLADA_TINY = ROOT / 'tests/fixtures/real_models/llada_tiny'

def readme_blocks(lang):
    "The README's fenced code blocks in `lang`, in order."
    return re.findall(rf"```{lang}\n(.*?)```", README, re.S)

def readme_commands():
    "Each shell command of the README's bash blocks, in order: comments dropped, `a && b` split."
    for block in readme_blocks('bash'):
        for line in block.splitlines():
            line = re.sub(r'\s+#.*$', '', line).strip()
            yield from (c.strip() for c in line.split(' && ') if c.strip())

NOT_RUN = {   # prefix -> why it does not run here
    'pip install': 'installs: .ci/run installs from scratch the same way',
    'pytest tests': 'the test suite itself',
    'bash .ci/run': 'CI itself',
    'nbdev_export': '.ci/run checks that it leaves no diff', 'nbdev_clean': '.ci/run checks that it leaves no diff',
    'python tools/sync_readme.py': '.ci/run checks that it leaves no diff',
    'daca-grpo data fetch': 'downloads the benchmarks (no network in the tests)',
    'daca-grpo train d1/mbpp_wd1_dps.yaml model.path=/models/LLaDA-8B-Instruct --launch multi_gpu': None,   # set below
}
NOT_RUN['daca-grpo train d1/mbpp_wd1_dps.yaml model.path=/models/LLaDA-8B-Instruct --launch multi_gpu'] = \
    'launches 8 GPU processes: its --dry-run runs, and the same config trains on the tiny LLaDA below'

QUICK = ['sft.steps=8', 'protocol.base_select_every=4', 'optim.max_steps=2', 'protocol.select_every=1',
         'optim.prompts_per_step=4', 'protocol.n_valid=8', 'protocol.n_test=8']   # the quickstart's pipeline in seconds
SMALL_RL = ['optim.max_steps=2', 'optim.prompts_per_step=2', 'optim.num_generations=4', 'data.eval_size=4']
SHORT_GEN = ['sampler.gen_length=16', 'sampler.steps=4', 'sampler.block_length=16', 'eval_sampler.gen_length=16',
             'eval_sampler.steps=4', 'eval_sampler.block_length=16', 'data.eval_size=2', 'optim.num_generations=2']
RECIPES = {   # README command -> (extra arguments, {text: substitute}, what the output or the files must show)
    'daca-grpo train': (QUICK, {}, ['| base: SFT on 24 labelled problems', 'runs/quickstart/result.json']),
    'daca-grpo train --preset tiny_sudoku sft.steps=300 dps.enabled=true':
        (['sft.steps=4', *SMALL_RL], {}, ['SFT warm start: 4 steps', 'runs/tiny_sudoku/result.json']),
    'daca-grpo train configs/tiny/tiny_countdown.yaml --resume':
        (['sft.steps=4', *SMALL_RL], {}, ['--resume: no checkpoint', 'runs/tiny_countdown/result.json']),
    'daca-grpo train d1/gsm8k_wd1_dps.yaml --dry-run': ([], {}, ['GPU-hours']),
    'daca-grpo eval --model runs/quickstart/final': ([], {}, ['cell_accuracy']),
    'daca-grpo plot runs/quickstart/diffu_grpo_run': ([], {}, ['runs/quickstart/diffu_grpo_run/curves.png']),
    'daca-grpo reproduce --profile quick': (['--plan'], {}, ['stages']),   # the whole of it runs in .ci/run
    'daca-grpo train d1/mbpp_wd1_dps.yaml model.path=/models/LLaDA-8B-Instruct --launch multi_gpu --dry-run':
        ([], {'/models/LLaDA-8B-Instruct': str(LLADA_TINY)}, ['processes', 'GPU-hours']),
    # the adapter that eval and export read: the same config for 2 RL steps on the tiny LLaDA, no --launch
    'daca-grpo eval --model runs/d1_mbpp_wd1_dps/final --task gsm8k,math,mbpp,humaneval,countdown,sudoku,json --gen-length 128,256,512':
        (['--limit', '1', '--block-length', '16', '--steps', '8'], {'128,256,512': '16,32'}, ['runs/d1_mbpp_wd1_dps/final', 'humaneval']),
    'daca-grpo export runs/d1_mbpp_wd1_dps/final merged/ --merge': ([], {}, ['merged/config.json']),
}
TRAIN_TINY_LLADA = ['train', 'd1/mbpp_wd1_dps.yaml', f'model.path={LLADA_TINY}', 'optim.max_steps=2', 'log.save_every=0',
                    'model.gradient_checkpointing=false', 'model.load_in_4bit=false', 'model.dtype=float32',
                    'data.max_prompt_length=400', *SHORT_GEN]

def test_every_readme_command_is_covered():
    "Each README command has a recipe here or a reason not to run; no recipe is left for a command the README dropped."
    cmds = list(readme_commands())
    assert 'daca-grpo train' in cmds and len(cmds) > 10, cmds
    uncovered = [c for c in cmds if c not in RECIPES and not c.startswith(tuple(NOT_RUN))]
    assert not uncovered, f"README commands without a recipe in tests/test_readme.py: {uncovered}"
    stale = [c for c in RECIPES if c not in cmds]
    assert not stale, f"recipes for commands no longer in the README: {stale}"

def _run(argv, cwd, env):
    exe = Path(sys.executable).parent / argv[0]
    cmd = [str(exe)] + argv[1:] if exe.exists() else [sys.executable, '-m', 'daca_grpo.cli'] + argv[1:]
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)

@pytest.fixture(scope='module')
def workdir(tmp_path_factory):
    d = tmp_path_factory.mktemp('readme')
    (d / 'configs').symlink_to(ROOT / 'configs')            # `configs/tiny/...` as from the checkout
    return d

def test_python_example(workdir):
    "The README's Python block prints the birth step of each token and the DPS weights' shape."
    (code,) = [b for b in readme_blocks('python') if 'generate(' in b]
    r = subprocess.run([sys.executable, '-c', code], cwd=workdir, capture_output=True, text=True, timeout=300,
                       env={**os.environ, 'OMP_NUM_THREADS': '1'})
    assert r.returncode == 0, r.stderr[-3000:]
    births, shape = r.stdout.strip().splitlines()[-2:]
    assert len(json.loads(births)) == 32 and shape == 'torch.Size([2, 32])', r.stdout

NEEDS_TINY_LLADA = ('daca-grpo eval --model runs/d1_mbpp', 'daca-grpo export runs/d1_mbpp')   # the slow test's commands

def lane_of(c):
    "1: the other trainings and the reproduction plan; 0: the quickstart, what reads its run, and the dry runs (about even halves)."
    return 1 if c.startswith(('daca-grpo train --preset', 'daca-grpo train configs/', 'daca-grpo reproduce')) else 0

def _run_lane(cmds, workdir, env):
    "{README command: (command as run, extra, result, seconds)} of `cmds`, in order; a failed set-up training ends the lane (as run: None)."
    done = {}
    for c in cmds:
        extra, subs, _ = RECIPES[c]
        if c.startswith('daca-grpo eval --model runs/d1_mbpp'):     # the adapter it reads: 2 RL steps of the same recipe
            r = _run(['daca-grpo', *TRAIN_TINY_LLADA], workdir, env)
            if r.returncode: return {**done, c: (None, TRAIN_TINY_LLADA, r, 0.0)}
        run = c
        for old, new in subs.items(): run = run.replace(old, new)
        t0 = time.time(); r = _run(shlex.split(run) + extra, workdir, env)
        done[c] = (run, extra, r, time.time() - t0)
    return done

ENV = {**os.environ, 'OMP_NUM_THREADS': '1', 'HF_HUB_OFFLINE': '1', 'HF_DATASETS_OFFLINE': '1', 'COLUMNS': '200'}

def test_readme_commands_run(workdir):
    "Every command with a recipe but the slow test's, shortened, in two lanes (`lane_of`); its exit code 0 and the output or files it promises."
    cmds = [c for c in readme_commands() if c in RECIPES and not c.startswith(NEEDS_TINY_LLADA)]
    lanes = [[c for c in cmds if lane_of(c) == k] for k in (0, 1)]
    assert lanes[0] and lanes[1], lanes
    with ThreadPoolExecutor(2) as ex: results = {c: x for lane in ex.map(lambda l: _run_lane(l, workdir, ENV), lanes) for c, x in lane.items()}
    _check(cmds, results, workdir)

@pytest.mark.slow
def test_readme_commands_on_the_tiny_llada_run(tmp_path):
    "The GPU block's eval and export, on an adapter trained here by the same recipe: exit code 0 and what they promise."
    cmds = [c for c in readme_commands() if c.startswith(NEEDS_TINY_LLADA)]
    assert len(cmds) == 2 and all(c in RECIPES for c in cmds), cmds
    (tmp_path / 'configs').symlink_to(ROOT / 'configs')
    env = dict(ENV)
    from daca_grpo.tasks.data import data_dir
    try: data_dir('mbpp')
    except FileNotFoundError: env['DACA_DATA_DIR'] = str(ROOT / 'tests' / 'fixtures' / 'data')   # a user's clone: the committed MBPP excerpt
    _check(cmds, _run_lane(cmds, tmp_path, env), tmp_path)

def _check(cmds, results, workdir):
    "Each command of `cmds` in `results` (`_run_lane`): exit code 0 and the output or files its recipe promises; every failure in one message."
    failures = []
    for c in cmds:
        if c not in results: continue          # after a failed set-up in its lane, whose failure fails the test
        run, extra, r, secs = results[c]
        if run is None:
            failures.append(f"training the tiny LLaDA on d1/mbpp_wd1_dps.yaml failed:\n{r.stdout[-2000:]}\n{r.stderr[-3000:]}"); continue
        print(f"{secs:6.1f}s  {run} {' '.join(extra)}")
        out = r.stdout + r.stderr
        missing = [e for e in RECIPES[c][2] if e not in out and not (workdir / e).exists()]
        if r.returncode or missing:
            failures.append(f"{run} {' '.join(extra)}: exit {r.returncode}, missing {missing}\n{out[-2500:]}")
    assert not failures, '\n\n'.join(failures)
