"""Plain tests of `tools/study61.py` (issue 61's runs): the reruns start from the committed bases, the oracle arm's stages
start from them too under the protocol's settings with the verifier's token credit, and the spend counts only what ran."""
import json, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'tools'))
import study61 as S


def test_reruns_start_from_the_committed_bases(tmp_path):
    d = S.prepare_reruns('tiny_sudoku', tmp_path)
    for s in S.SEEDS:
        got, committed = d / f'seed{s}' / 'default', S.COMMITTED / 'tiny_sudoku' / f'seed{s}' / 'default'
        assert (got / 'base.pt').read_bytes() == (committed / 'base.pt').read_bytes()
        assert json.loads((got / 'base.json').read_text()) == json.loads((committed / 'base.json').read_text())
    assert (d / 'protocol.json').read_text() == (S.COMMITTED / 'tiny_sudoku' / 'protocol.json').read_text()
    assert '--stages diffu_grpo wd1 gdpo' in S.rerun_command('tiny_sudoku', tmp_path)


def test_oracle_jobs_are_diffu_grpo_dps_with_oracle_credit_from_each_seeds_base(tmp_path):
    jobs = S.oracle_jobs(tmp_path)
    assert [j.seed for j in jobs] == [0, 1, 2, 3, 4] and {j.name for j in jobs} == {'diffu_grpo_dps'}
    for j in jobs:
        over = dict(j.overrides)
        assert over['dps.credit'] == 'oracle' and Path(j.out).name == 'dps.credit=oracle'
        assert Path(j.base) == tmp_path / 'full' / 'tiny_sudoku' / f'seed{j.seed}' / 'default'
        assert not any(k.startswith(('optim.', 'sampler.')) for k in over)     # the full profile adds nothing: the protocol's settings


def test_spent_hours_counts_the_stages_run_not_the_copied_bases(tmp_path):
    d = tmp_path / 'full' / 'tiny_sudoku' / 'seed0' / 'default'; d.mkdir(parents=True)
    for name, secs in (('base', 9000.0), ('diffu_grpo', 1800.0), ('wd1', 1800.0)):
        (d / f'{name}.meta.json').write_text(json.dumps(dict(seconds=secs)))
    assert S.spent_hours(tmp_path) == 1.0


def test_collect_copies_finished_stages_only(tmp_path):
    root, dest = tmp_path / 'runs', tmp_path / 'credit'
    d = root / 'full' / 'tiny_sudoku' / 'seed1' / 'default'; d.mkdir(parents=True)
    o = d.parent / 'dps.credit=oracle'; o.mkdir()
    for folder, name in ((d, 'diffu_grpo'), (o, 'diffu_grpo_dps')):
        for e in ('json', 'meta.json', 'pt'): (folder / f'{name}.{e}').write_text(f'{name}.{e}')
    (d / 'wd1.json').write_text('{}')                                   # unfinished: no weights, no meta
    got = S.collect(root, dest)
    assert sorted(p.name for p in got) == ['diffu_grpo', 'oracle']
    assert (dest / 'tiny_sudoku' / 'seed1' / 'oracle.pt').read_text() == 'diffu_grpo_dps.pt'
    assert not (dest / 'tiny_sudoku' / 'seed1' / 'wd1.json').exists()


def test_pilot_checks_read_validation_only(tmp_path):
    d = tmp_path / 'tiny_code' / 'd1' / 'seed0' / 'default'; d.mkdir(parents=True)
    (d / 'base.json').write_text(json.dumps(dict(valid=0.30, test=0.9)))
    assert S.pilot_checks('tiny_code', 'd1', tmp_path) == dict(task='tiny_code', design='d1', base_valid=0.30, room=True)
    curve = [dict(step=k, valid=0.30 + (0.03 if k >= 60 else 0.0), test=0.0) for k in range(0, 130, 10)]
    (d / 'diffu_grpo.json').write_text(json.dumps(dict(valid=0.33, test=0.0, curve=curve)))
    c = S.pilot_checks('tiny_code', 'd1', tmp_path)
    assert c['learns'] and abs(c['rl_late_valid'] - 0.33) < 1e-12
    (d / 'base.json').write_text(json.dumps(dict(valid=0.02, test=0.0)))
    assert S.pilot_checks('tiny_code', 'd1', tmp_path)['room'] is False
    jobs = S.pilot_jobs('tiny_json', 'd1', tmp_path)
    assert [j.name for j in jobs] == ['base', 'diffu_grpo'] and all(j.seed == 0 and 'd1' in j.out for j in jobs)
