"""`daca-grpo eval` scores a model exactly as the run that trained it did (issue 41, item 1).

A small quickstart (the verifier-only protocol on tiny Sudoku: SFT base, diffu-GRPO, checkpoint chosen on validation) is
trained into a temporary folder; its RL arm's weights are saved as `daca-grpo train` saves them (`final/`, with the
tokenizer) together with the task card (`write_task_card`). `eval --model final` alone must then give the protocol's test
metric of that arm, to the last bit: same problems (the protocol's test pool), same prompts (the bare puzzle), same sampler
and batch. Without a card, `eval` must do what it always did: the task's own test split and wording, eval's defaults.
"""
import contextlib, io, json, shutil
from pathlib import Path
import pytest, torch

# the quickstart, shrunk to seconds: small pools, a short SFT base and 8 RL steps (the arm's best step is 2, not the base's 0)
SMALL = {'sft.steps': 120, 'protocol.base_select_every': 50, 'protocol.n_labelled': 24, 'protocol.n_prompt_only': 64,
         'protocol.n_valid': 24, 'protocol.n_test': 24, 'optim.max_steps': 8, 'protocol.select_every': 2, 'optim.lr': 5e-4,
         'optim.prompts_per_step': 8, 'optim.num_generations': 4, 'protocol.control': False, 'log.report_to': []}


@pytest.fixture(scope='module')
def trained(tmp_path_factory):
    "(config, the protocol's result, the saved model folder) of a small quickstart."
    from daca_grpo.config import quickstart_config, apply_overrides, validate
    from daca_grpo.paper.protocol import run_protocol, arm_of
    from daca_grpo.trainer import build_model
    from daca_grpo.tasks.evaluate import write_task_card
    torch.set_num_threads(1)
    out = tmp_path_factory.mktemp('quickstart')
    cfg = validate(apply_overrides(quickstart_config(), {**SMALL, 'log.output_dir': str(out)}))
    result = run_protocol(cfg, out_dir=out, log=lambda s: None)
    model, tok, _ = build_model(cfg)                          # as run_protocol_job (daca_grpo.cli) saves the model
    model.load_state_dict(torch.load(out / f'{arm_of(cfg)}.pt', weights_only=True))
    final = out / 'final'
    model.save_pretrained(final); tok.save_pretrained(final)
    write_task_card(final, cfg)
    return cfg, result, final


def _eval(*argv):
    "(the plan's line, the summaries) of `eval_main(argv)`."
    from daca_grpo.tasks.evaluate import eval_main
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf): res = eval_main([str(a) for a in argv])
    return buf.getvalue().splitlines()[0], res


def test_eval_of_a_protocol_model_is_the_protocols_test_metric(trained, tmp_path):
    from daca_grpo.paper.protocol import protocol_pools, arm_of
    from daca_grpo.models.tokenizer import build_tokenizer
    cfg, result, final = trained
    metric, stage = result['metric'], result['stages'][arm_of(cfg)]
    assert stage['best_step'] > 0 and result['after'] != result['before']       # the RL arm's own weights, not the base's
    line, res = _eval('--model', final, '--out', tmp_path, '--no-progress')
    assert res[0]['value'] == result['after'][metric], (res[0]['value'], result['after'])
    assert line == (f"tiny_sudoku: the protocol's test pool (seed 0, 24 problems), prompts as trained ('compact'), "
                    f"L=32 steps=16 block=32 temperature 0, batch 100 (from {final / 'daca_grpo_task.json'})")
    recs = [json.loads(l) for l in open(res[0]['path'])]
    assert [r['prompt'] for r in recs] == protocol_pools(cfg, build_tokenizer())['test']['prompt']
    _, valid = _eval('--model', final, '--split', 'valid', '--out', tmp_path, '--no-progress')
    assert valid[0]['value'] == stage['valid']                                  # the score the checkpoint was chosen by
    _, readme = _eval('--model', final, '--task', 'tiny_sudoku', '--gen-length', 32, '--out', tmp_path, '--no-progress')
    assert readme[0]['value'] == result['after'][metric]                        # the README's command


def test_eval_of_another_task_ignores_the_card(trained, tmp_path):
    from daca_grpo.tasks.evaluate import get_task
    from daca_grpo.models.tokenizer import build_tokenizer
    _, _, final = trained
    line, res = _eval('--model', final, '--task', 'tiny_countdown', '--gen-length', 16, '--limit', 4, '--out', tmp_path, '--no-progress')
    assert line.endswith(f"(the daca_grpo_task.json in {final} is for tiny_sudoku: eval's defaults)"), line
    assert [json.loads(l)['prompt'] for l in open(res[0]['path'])] == get_task('tiny_countdown').load_eval(build_tokenizer(), limit=4)['prompt']


def test_without_a_card_eval_keeps_todays_behaviour(trained, tmp_path):
    from daca_grpo.tasks.evaluate import get_task
    from daca_grpo.models.tokenizer import build_tokenizer
    from daca_grpo.config import ConfigError
    from daca_grpo.cli import main
    _, _, final = trained
    bare = tmp_path / 'bare'
    shutil.copytree(final, bare); (bare / 'daca_grpo_task.json').unlink()
    line, res = _eval('--model', bare, '--task', 'tiny_sudoku', '--gen-length', 32, '--limit', 8, '--out', tmp_path, '--no-progress')
    assert line == (f"tiny_sudoku: the first 8 problems of the task's test split, L=32 steps=16 block=32 temperature 0, batch 8 "
                    f"(no daca_grpo_task.json in {bare}: eval's defaults)")
    prompts = [json.loads(l)['prompt'] for l in open(res[0]['path'])]
    assert prompts == get_task('tiny_sudoku').load_eval(build_tokenizer(), limit=8)['prompt']
    assert all('Solve the 4x4 sudoku (0 = blank): ' in p for p in prompts)      # the task's own wording, not the protocol's
    assert (res[0]['gen_length'], res[0]['steps'], res[0]['block_length'], res[0]['temperature']) == (32, 16, 32, 0.0)
    with pytest.raises(ConfigError, match='--task is required'): _eval('--model', bare)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()): rc = main(['eval', '--model', str(bare)])
    assert rc == 2 and err.getvalue().count('\n') == 1 and err.getvalue().startswith('daca-grpo: --task is required'), err.getvalue()
