"""CPU benchmark suite of daca_grpo: every speed number is a ratio against a baseline measured in the same run.

    OMP_NUM_THREADS=1 python benchmarks/run.py --quick --out DIR     # under 10 minutes on 2 cores
    OMP_NUM_THREADS=1 python benchmarks/run.py --full --out DIR      # every size, length and batch

Writes DIR/bench_summary.json (the headline ratios), DIR/bench_*.csv (every measurement) and DIR/bench_*.png (plots),
each CSV with a provenance line in DIR/bench.meta.txt. What is measured:

- the exact sampler against a line-by-line transcription of LLaDA's generate.py (`daca_grpo.sampler.ref_generate`):
  speed ratio, and whether the greedy tokens are identical;
- the prefix and dual key/value caches and confidence-threshold parallel decoding (`daca_grpo.fast_sampler`):
  speed-up over the exact sampler on random-weight models of two sizes, and token agreement and log-confidence
  difference on a trained model (the committed `tests/fixtures/models/tiny_sudoku_base`), and on a trained model with
  long outputs in several blocks (the `tiny_chain` base of the reproduction, `results/reproduce/full/tiny_chain/seed0`:
  48 tokens in 3 blocks of 16, the setting it was trained and is evaluated at; `--long-agreement` runs only this part);
- DPS's share of the sampling time, SML's cost against K mean-field passes, MFU against a measured matmul peak;
- a training-step breakdown (rollout, rewards, old and reference log-probs, policy updates) and how it grows with
  generation length, steps, K and mu;
- bf16 autocast on CPU (when the processor has bf16 support) against fp32, with its token agreement.
"""
import argparse, csv, json, os, shutil, sys, time
from pathlib import Path
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from daca_grpo.models.tiny import TinyDLLM, TinyDLLMConfig
from daca_grpo.sampler import generate, ref_generate
from daca_grpo.sampler import agreement
from daca_grpo.dps import dps_weights
from daca_grpo.estimators import meanfield_logp, stratified_logp
from daca_grpo.paper import perf

SIZES = {'tiny': dict(hidden_size=128, num_hidden_layers=4, num_attention_heads=4),       # TinyDLLMConfig's defaults
         'medium': dict(hidden_size=512, num_hidden_layers=8, num_attention_heads=8)}
PROFILES = {  # (size, gen_length, batch) cells of the sampler benchmark, and the rest of each profile's settings
    'quick': dict(cells=[('tiny', 64, 1), ('tiny', 256, 8), ('medium', 256, 1)], reps=1,
                  agree_lengths=(32, 64), agree_prompts=32, breakdown=dict(gen_length=(32, 64), steps=(16, 32), K=(2, 4), mu=(1, 2))),
    'full': dict(cells=[(s, L, b) for s in SIZES for L in (64, 128, 256) for b in (1, 8)], reps=2,
                 agree_lengths=(32, 64, 96), agree_prompts=100, breakdown=dict(gen_length=(32, 64, 128), steps=(8, 16, 32, 64), K=(1, 2, 4, 8), mu=(1, 2, 4))),
}
PROMPT_LEN, BLOCK = 32, 32
FAST_MODES = [('prefix', 'prefix', None), ('dual', 'dual', None), ('parallel', 'none', 0.9), ('dual_parallel', 'dual', 0.9)]


def timed(fn, reps=1):
    "(result, best wall-clock seconds over `reps` runs)."
    best, out = float('inf'), None
    for _ in range(reps):
        t = time.perf_counter(); out = fn(); best = min(best, time.perf_counter() - t)
    return out, best


def matmul_peak(n=512, reps=20):
    "Measured fp32 matmul FLOP/s on this machine and thread setting: the denominator of every MFU."
    a, b = torch.randn(n, n), torch.randn(n, n)
    a @ b
    _, s = timed(lambda: [a @ b for _ in range(reps)], reps=3)
    return 2 * n ** 3 * reps / s


def random_model(size, seed=0):
    torch.manual_seed(seed)
    return TinyDLLM(TinyDLLMConfig(max_position_embeddings=1024, **SIZES[size])).eval()


def random_prompts(batch, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(6, 108, (batch, PROMPT_LEN), generator=g), torch.ones(batch, PROMPT_LEN, dtype=torch.long)


def sampler_cells(cells, reps, peak, log):
    "Exact vs reference vs fast modes, greedy, on random-weight models: one row per (size, length, batch, mode)."
    rows = []
    for size, L, B in cells:
        model, (pid, pm) = random_model(size), random_prompts(B)
        args = dict(gen_length=L, steps=L // 2, block_length=BLOCK)
        ref, t_ref = timed(lambda: ref_generate(model, pid, pm, steps=L // 2, gen_length=L, block_length=BLOCK, mask_id=3), reps)
        ex, t_ex = timed(lambda: generate(model, pid, pm, allow_mask_proposal=True, **args), reps)
        shape = perf.shape_of(model)
        fl = perf.flops(perf.rollout_flops(shape, PROMPT_LEN, L, L // 2, BLOCK, 'none', batch=B, logits='completion'))
        base = dict(size=size, gen_length=L, batch=B)
        rows.append(dict(base, mode='reference', seconds=t_ref, speedup=1.0, identical=True, mfu=fl / t_ref / peak))
        rows.append(dict(base, mode='exact', seconds=t_ex, speedup=t_ref / t_ex, identical=bool(torch.equal(ex.sequences, ref)),
                         mfu=fl / t_ex / peak))
        for name, cache, thr in FAST_MODES:
            _, t = timed(lambda: generate(model, pid, pm, cache=cache, threshold=thr, **args), reps)
            rows.append(dict(base, mode=name, seconds=t, speedup=t_ex / t, identical=None, mfu=None))
        log(f"  {size:6s} L={L:3d} B={B}: exact/reference {t_ref / t_ex:.2f}x; over exact: "
            + ', '.join(f"{r['mode']} {r['speedup']:.2f}x" for r in rows[-len(FAST_MODES):]))
    return rows


def trained_model():
    from daca_grpo.config import protocol_config
    from daca_grpo.paper.protocol import protocol_pools
    from daca_grpo.models.tokenizer import build_tokenizer
    path = ROOT / 'tests' / 'fixtures' / 'models' / 'tiny_sudoku_base'
    tok = build_tokenizer()
    pools = protocol_pools(protocol_config('tiny_sudoku', seed=0), tok)
    return TinyDLLM.from_pretrained(path).eval(), tok, pools['test']['prompt']


LONG_BASE = ROOT / 'results' / 'reproduce' / 'full' / 'tiny_chain' / 'seed0' / 'default' / 'base.pt'


def long_agreement_rows(log, n_prompts=100, temperatures=(0.0, 1.0)):
    "Fast modes against the exact sampler on the chain base (long outputs, 3 blocks) at its own sampler settings; [] if it is not here."
    from daca_grpo.config import protocol_config
    from daca_grpo.paper.protocol import protocol_pools
    from daca_grpo.trainer import build_model
    if not LONG_BASE.exists(): log(f"  {LONG_BASE.relative_to(ROOT)} not here: skipped"); return []
    cfg = protocol_config('tiny_chain', seed=0)
    model, tok = build_model(cfg)[:2]
    model.load_state_dict(torch.load(LONG_BASE, weights_only=True)); model.eval()
    prompts = protocol_pools(cfg, tok)['test']['prompt'][:n_prompts]
    enc = tok(list(prompts), padding=True, return_tensors='pt', add_special_tokens=False)
    eos = (tok.eos_token_id, tok.convert_tokens_to_ids('<|eot_id|>'))
    s, rows = cfg.eval_sampler, []
    for T in temperatures:
        args = dict(gen_length=s.gen_length, steps=s.steps, block_length=s.block_length, temperature=T)
        ex, t_ex = timed(lambda: generate(model, enc['input_ids'], enc['attention_mask'], generator=torch.Generator().manual_seed(0), **args))
        for name, cache, thr in FAST_MODES:
            f, t = timed(lambda: generate(model, enc['input_ids'], enc['attention_mask'], generator=torch.Generator().manual_seed(0),
                                          cache=cache, threshold=thr, **args))
            rows.append(dict(model='tiny_chain base (seed 0)', gen_length=s.gen_length, steps=s.steps, block_length=s.block_length, temperature=T,
                             mode=name, speedup=t_ex / t, passes=f.forward_passes, exact_passes=ex.forward_passes, **agreement(f, ex, eos)))
        log(f"  chain base L={s.gen_length} ({s.gen_length // s.block_length} blocks) T={T}: "
            + ', '.join(f"{r['mode']} {r['token_agreement']:.3f} (content {r['content_agreement']:.3f})" for r in rows[-len(FAST_MODES):]))
    return rows


LONG256_DIR = ROOT / 'runs' / 'bench' / 'chain256_sft'     # not committed: trained here on first use (seeded, about an hour on one core)
LONG256 = dict(min_steps=30, max_steps=36, gen_length=256, steps=128, block_length=32, sft_steps=4000, n_prompts=64)


def long256_model(log):
    "A chain model trained (masked-diffusion SFT, seeded) to write 190-226-token completions; cached in `LONG256_DIR`."
    from daca_grpo.config import protocol_config
    from daca_grpo.tasks.procedural import make_chain
    from daca_grpo.sft import sft_train
    from daca_grpo.models.tokenizer import build_tokenizer
    from daca_grpo.trainer import build_model
    cfg = protocol_config('tiny_chain', seed=0)     # the chain base's shape and SFT settings, with room for 256 tokens
    cfg.model.tiny = {**cfg.model.tiny, 'max_position_embeddings': 512}
    tok = build_tokenizer()
    data = make_chain(n_train=2000, n_test=LONG256['n_prompts'], min_steps=LONG256['min_steps'], max_steps=LONG256['max_steps'],
                      seed=0, tokenizer=tok)
    if (LONG256_DIR / 'config.json').exists():
        info = json.loads((LONG256_DIR / 'train.json').read_text())
        if info['sft_steps'] == LONG256['sft_steps']:
            return TinyDLLM.from_pretrained(LONG256_DIR).eval(), tok, data['test'], info
        log(f"  the cached model in {LONG256_DIR} had {info['sft_steps']} SFT steps, not {LONG256['sft_steps']}: retraining")
    log(f"  training the 256-token chain model ({LONG256['sft_steps']} SFT steps) into {LONG256_DIR}")
    torch.manual_seed(0)
    model = build_model(cfg)[0]
    t = time.perf_counter()
    hist = sft_train(model, tok, data['train'], LONG256['gen_length'], LONG256['sft_steps'], lr=cfg.sft.lr,
                     batch_size=cfg.sft.batch_size, warmup=cfg.sft.warmup, seed=0, progress=False, log_every=100)
    info = dict(sft_steps=LONG256['sft_steps'], seconds=time.perf_counter() - t, final_loss=hist[-1]['loss'], **{k: LONG256[k] for k in ('min_steps', 'max_steps')})
    tmp = LONG256_DIR.with_name(LONG256_DIR.name + '.tmp')            # written whole, then renamed: a killed run leaves no half model
    for d in (tmp, LONG256_DIR): shutil.rmtree(d, ignore_errors=True)
    model.save_pretrained(tmp); (tmp / 'train.json').write_text(json.dumps(info, indent=1))
    tmp.rename(LONG256_DIR)
    return model.eval(), tok, data['test'], info


def long256_rows(log, temperatures=(0.0, 1.0)):
    "Fast modes against the exact sampler at the paper's rollout shape (256 tokens, 128 steps, blocks of 32) on a trained model."
    from daca_grpo.paper.protocol import chain_verifier_reward
    from daca_grpo.tasks.evaluate import decode_completions
    model, tok, test, info = long256_model(log)
    enc = tok(list(test['prompt']), padding=True, return_tensors='pt', add_special_tokens=False)
    eos = (tok.eos_token_id, tok.convert_tokens_to_ids('<|eot_id|>'))
    args0, rows = {k: LONG256[k] for k in ('gen_length', 'steps', 'block_length')}, []
    for T in temperatures:
        args = dict(args0, temperature=T)
        gen = lambda **kw: generate(model, enc['input_ids'], enc['attention_mask'], generator=torch.Generator().manual_seed(0), **args, **kw)
        ex, t_ex = timed(gen)
        score = lambda r: sum(chain_verifier_reward(completions=decode_completions(tok, r.completion_ids, eos), chain=test['chain'])) / len(test)   # read as evaluation reads
        for name, cache, thr in FAST_MODES:
            f, t = timed(lambda: gen(cache=cache, threshold=thr))
            rows.append(dict(model=f"chain model, 256-token outputs ({info['sft_steps']} SFT steps)", **args, mode=name, speedup=t_ex / t,
                             passes=f.forward_passes, exact_passes=ex.forward_passes, exact_reward=score(ex), fast_reward=score(f),
                             **agreement(f, ex, eos)))
        log(f"  chain model L=256 (8 blocks) T={T}: exact reward {rows[-1]['exact_reward']:.3f}; "
            + ', '.join(f"{r['mode']} {r['token_agreement']:.3f} (content {r['content_agreement']:.3f}, {r['speedup']:.2f}x)" for r in rows[-len(FAST_MODES):]))
    return rows


def agreement_rows(lengths, n_prompts, log, temperatures=(0.0, 1.0)):
    "Fast modes against the exact sampler on the trained model: token agreement and log-confidence difference."
    model, tok, prompts = trained_model()
    enc = tok(list(prompts[:n_prompts]), padding=True, return_tensors='pt', add_special_tokens=False)
    eos = (tok.eos_token_id, tok.convert_tokens_to_ids('<|eot_id|>'))
    rows = []
    for L in lengths:
        bl = min(L, BLOCK)
        if enc['input_ids'].shape[1] + L > model.config.max_position_embeddings:
            log(f"  L={L}: skipped (prompt + completion exceed the trained model's {model.config.max_position_embeddings} positions)"); continue
        for T in temperatures:
            args = dict(gen_length=L, steps=L // 2, block_length=bl, temperature=T)
            ex, t_ex = timed(lambda: generate(model, enc['input_ids'], enc['attention_mask'], generator=torch.Generator().manual_seed(0), **args))
            for name, cache, thr in FAST_MODES:
                f, t = timed(lambda: generate(model, enc['input_ids'], enc['attention_mask'], generator=torch.Generator().manual_seed(0),
                                              cache=cache, threshold=thr, **args))
                rows.append(dict(gen_length=L, temperature=T, mode=name, speedup=t_ex / t, passes=f.forward_passes,
                                 exact_passes=ex.forward_passes, **agreement(f, ex, eos)))
            log(f"  trained model L={L} T={T}: " + ', '.join(f"{r['mode']} {r['token_agreement']:.3f}" for r in rows[-len(FAST_MODES):]))
    return rows


def dps_and_sml(peak, log, size='tiny', L=128, B=8, reps=3):
    "DPS time over sampling time, and SML time over K mean-field passes (both batched, no gradient)."
    model, (pid, pm) = random_model(size), random_prompts(B)
    roll, t_gen = timed(lambda: generate(model, pid, pm, gen_length=L, steps=L // 2, block_length=BLOCK, temperature=0.9,
                                         generator=torch.Generator().manual_seed(0)))
    _, t_dps = timed(lambda: dps_weights(roll.trajectory, lam=0.5, sync=False), reps)
    comp = roll.completion_ids
    with torch.no_grad():
        _, t_mf = timed(lambda: meanfield_logp(model, pid, pm, comp, mask_seeds=0, p_mask_prompt=0.0), reps)
        sml = {K: timed(lambda: stratified_logp(model, pid, pm, comp, K=K, p_mask_prompt=0.0), reps)[1] for K in (2, 4)}
    out = dict(dps_overhead_frac=t_dps / t_gen, **{f'sml_cost_over_K_{K}': t / (K * t_mf) for K, t in sml.items()})
    log(f"  DPS / sampling {out['dps_overhead_frac']:.4f}; SML / (K x mean-field): " + ', '.join(f"K={K} {out[f'sml_cost_over_K_{K}']:.2f}" for K in sml))
    return out


def step_breakdown(gen_length=32, steps=16, K=0, mu=1, B=16, size='tiny', seed=0):
    "Seconds of each phase of one diffu-GRPO step (SML with K strata when K > 0) on a random-weight model."
    from daca_grpo.losses import diffu_grpo_loss
    model, (pid, pm) = random_model(size, seed), random_prompts(B, seed)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-5)
    t = {}
    roll, t['rollout'] = timed(lambda: generate(model, pid, pm, gen_length=gen_length, steps=steps, block_length=min(BLOCK, gen_length),
                                                temperature=0.9, generator=torch.Generator().manual_seed(seed)))
    comp = roll.completion_ids
    _, t['rewards'] = timed(lambda: [float((c == 7).float().mean()) for c in comp])      # a cheap verifier stands in
    est = (lambda m: stratified_logp(m, pid, pm, comp, K=K, p_mask_prompt=0.0)) if K else (lambda m: meanfield_logp(m, pid, pm, comp, mask_seeds=0, p_mask_prompt=0.0))
    with torch.no_grad():
        old, t['old_logp'] = timed(lambda: est(model))
        ref, t['ref_logp'] = timed(lambda: est(model))
    adv, mask = torch.randn(B), torch.ones_like(comp, dtype=torch.bool)
    def update():
        for _ in range(mu):
            loss = diffu_grpo_loss(est(model), old, adv, mask, ref_logp=ref, beta=0.04)[0]
            opt.zero_grad(); loss.backward(); opt.step()
    model.train(); _, t['update'] = timed(update); model.eval()
    return t


def breakdown_rows(grid, log):
    "One row per (varied knob, value, phase): the step breakdown as each knob grows, the others at their defaults."
    rows, default = [], dict(gen_length=32, steps=16, K=0, mu=1)
    for knob, values in grid.items():
        for v in values:
            cfg = dict(default, **{knob: v})
            if knob == 'gen_length': cfg['steps'] = v // 2
            for phase, s in step_breakdown(**cfg).items(): rows.append(dict(knob=knob, value=v, phase=phase, seconds=s))
        log(f"  breakdown over {knob}: done")
    return rows


def bf16_support():
    "Does this CPU run bf16 matmuls natively (AVX512-BF16 or AMX)? Falls back to fp32 otherwise."
    try: return bool(torch.backends.mkldnn.is_available() and torch.ops.mkldnn._is_mkldnn_bf16_supported())
    except Exception: return False


def bf16_rows(log, size='medium', L=128, B=2):
    if not bf16_support():
        log("  bf16: this CPU has no native bf16 support: skipped (fp32 only)"); return [dict(supported=False)]
    model, (pid, pm) = random_model(size), random_prompts(B)
    args = dict(gen_length=L, steps=L // 2, block_length=BLOCK)
    ex, t32 = timed(lambda: generate(model, pid, pm, **args))
    with torch.autocast('cpu', dtype=torch.bfloat16):
        bf, t16 = timed(lambda: generate(model, pid, pm, **args))
    row = dict(supported=True, size=size, gen_length=L, batch=B, fp32_seconds=t32, bf16_seconds=t16, speedup=t32 / t16,
               token_agreement=(bf.completion_ids == ex.completion_ids).float().mean().item())
    log(f"  bf16 autocast: {row['speedup']:.2f}x over fp32, token agreement {row['token_agreement']:.3f}")
    return [row]


def write_csv(path, rows):
    cols = list(dict.fromkeys(k for r in rows for k in r))
    with open(path, 'w', newline='') as f:
        w = csv.DictWriter(f, cols); w.writeheader(); w.writerows(rows)


def plot(out, samp, agree, brk):
    import matplotlib; matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(1, 3, figsize=(15, 4))
    import numpy as np
    cells = list(dict.fromkeys((r['size'], r['gen_length'], r['batch']) for r in samp))
    modes = ['exact', *[m for m, _, _ in FAST_MODES]]
    wid = 0.8 / len(modes)
    for i, mode in enumerate(modes):
        h = [next((r['speedup'] for r in samp if (r['size'], r['gen_length'], r['batch']) == c and r['mode'] == mode), 0) for c in cells]
        ax[0].bar(np.arange(len(cells)) + (i - len(modes) / 2 + 0.5) * wid, h, wid, label=mode)
    ax[0].set_xticks(range(len(cells)), [f'{s} L={L} B={B}' for s, L, B in cells], fontsize=8)
    ax[0].set(ylabel='speed-up (exact vs reference; fast vs exact)', title='sampler speed (random weights)')
    ax[0].axhline(1, color='grey', lw=0.5); ax[0].legend(fontsize=7)
    for mode, _, _ in FAST_MODES:
        p = sorted((r['gen_length'], r['token_agreement']) for r in agree if r['mode'] == mode and r['temperature'] == 0.0)
        if p: ax[1].plot(*zip(*p), marker='o', label=mode)
    ax[1].axhline(0.97, color='red', lw=0.8, ls=':', label='0.97 target')
    ax[1].set(xlabel='generation length', ylabel='token agreement with exact (greedy)', title='trained tiny model'); ax[1].legend(fontsize=7)
    knobs = list(dict.fromkeys(r['knob'] for r in brk)); phases = list(dict.fromkeys(r['phase'] for r in brk))
    cols = [(k, v) for k in knobs for v in dict.fromkeys(r['value'] for r in brk if r['knob'] == k)]
    bottoms = np.zeros(len(cols))
    for ph in phases:
        h = np.array([next(r['seconds'] for r in brk if r['knob'] == k and r['value'] == v and r['phase'] == ph) for k, v in cols])
        ax[2].bar(range(len(cols)), h, bottom=bottoms, label=ph); bottoms += h
    ax[2].set_xticks(range(len(cols)), [f'{k}={v}' for k, v in cols], rotation=60, fontsize=7)
    ax[2].set(ylabel='seconds per step', title='training-step breakdown (tiny, random weights)'); ax[2].legend(fontsize=7)
    fig.tight_layout()
    for ext in ('png', 'pdf'): fig.savefig(out / f'bench.{ext}', dpi=120)
    plt.close(fig)


def long_summary(rows):
    "Headline numbers of the long-output agreement (greedy), per generation length and fast mode: agreement, speed-up, passes."
    keys = ('token_agreement', 'content_agreement', 'logconf_abs_diff', 'speedup', 'passes', 'exact_passes', 'exact_reward', 'fast_reward')
    out = {}
    for r in rows:
        if r['temperature'] == 0.0: out.setdefault(f"{r['gen_length']}_tokens", {'model': r['model']})[r['mode']] = {k: r[k] for k in keys if k in r}
    return out


def summary(samp, agree, extra, peak, bf):
    "The headline numbers the issue asks for (each a ratio measured in this run)."
    at = lambda mode, key, size='medium', L=256, B=None: [r[key] for r in samp if r['mode'] == mode and r['size'] == size
                                                          and r['gen_length'] == L and (B is None or r['batch'] == B)]
    longest = max(r['gen_length'] for r in agree) if agree else None
    ag = lambda mode: next((r for r in agree if r['mode'] == mode and r['gen_length'] == longest and r['temperature'] == 0.0), {})
    mean = lambda xs: sum(xs) / len(xs) if xs else None
    return {
        'exact_sampler_vs_reference': {'speed_ratio': mean([r['speedup'] for r in samp if r['mode'] == 'exact']),
                                       'identical_greedy_tokens': all(r['identical'] for r in samp if r['mode'] == 'exact')},
        'prefix_cache_speedup': mean(at('prefix', 'speedup')), 'dual_cache_speedup': mean(at('dual', 'speedup')),
        'dual_cache_token_agreement': ag('dual').get('token_agreement'),
        'dual_cache_content_agreement': ag('dual').get('content_agreement'),
        'parallel_decoding_speedup': mean(at('parallel', 'speedup')),
        'parallel_decoding_token_agreement': ag('parallel').get('token_agreement'),
        'agreement_gen_length': longest,
        'trained_model_speedup': {r['mode']: r['speedup'] for r in agree if r['gen_length'] == min(x['gen_length'] for x in agree) and r['temperature'] == 0.0},
        'trained_model_token_agreement': {r['mode']: r['token_agreement'] for r in agree if r['gen_length'] == min(x['gen_length'] for x in agree) and r['temperature'] == 0.0}, 'speedup_setting': 'medium model (hidden 512, 8 layers, random weights), generation length 256, mean over batch sizes '
                           + str(sorted({r['batch'] for r in samp if r['size'] == 'medium' and r['gen_length'] == 256})),
        'dps_overhead_frac': extra['dps_overhead_frac'],
        'sml_cost_over_K': {k.rsplit('_', 1)[1]: v for k, v in extra.items() if k.startswith('sml_cost_over_K_')},
        'mfu': {size: mean([r['mfu'] for r in samp if r['mode'] == 'exact' and r['size'] == size]) for size in SIZES},
        'matmul_peak_gflops': peak / 1e9, 'bf16': bf[0],
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    g = ap.add_mutually_exclusive_group(); g.add_argument('--quick', action='store_true'); g.add_argument('--full', action='store_true')
    g.add_argument('--long-agreement', action='store_true', help='only the long-output agreement (bench_long_agreement.csv/.json)')
    ap.add_argument('--out', default=str(ROOT / 'paper_figures'), help='where bench_summary.json, bench_*.csv and bench.png go')
    a = ap.parse_args(argv)
    if a.long_agreement: return long_agreement_main(Path(a.out))
    prof = PROFILES['full' if a.full else 'quick']
    out = Path(a.out); out.mkdir(parents=True, exist_ok=True)
    log = lambda s: print(s, flush=True)
    t0 = time.time()
    log(f"threads: torch {torch.get_num_threads()}, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}, "
        f"MKL_NUM_THREADS={os.environ.get('MKL_NUM_THREADS', 'unset')}; torch {torch.__version__}; profile {'full' if a.full else 'quick'}")
    peak = matmul_peak(); log(f"fp32 matmul peak: {peak / 1e9:.1f} GFLOP/s")
    log("sampler (random weights):"); samp = sampler_cells(prof['cells'], prof['reps'], peak, log)
    log("agreement (trained tiny model):"); agree = agreement_rows(prof['agree_lengths'], prof['agree_prompts'], log)
    log("agreement (trained model with long outputs):"); long_agree = long_agreement_rows(log)
    if a.full or (LONG256_DIR / 'config.json').exists(): long_agree += long256_rows(log)
    else: log(f"  256-token chain model not trained yet ({LONG256_DIR}): `--long-agreement` or `--full` trains it")
    log("DPS and SML cost:"); extra = dps_and_sml(peak, log)
    log("training-step breakdown:"); brk = breakdown_rows(prof['breakdown'], log)
    log("bf16:"); bf = bf16_rows(log)
    for name, rows in [('sampler', samp), ('agreement', agree), ('long_agreement', long_agree), ('breakdown', brk), ('bf16', bf)]:
        if rows: write_csv(out / f'bench_{name}.csv', rows)
    plot(out, samp, agree, brk)
    s = summary(samp, agree, extra, peak, bf)
    s['long_output_agreement'] = long_summary(long_agree)
    s['seconds'] = time.time() - t0
    (out / 'bench_summary.json').write_text(json.dumps(s, indent=1))
    from daca_grpo.paper.likelihood import _provenance
    cmd = f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')} python benchmarks/run.py {'--full' if a.full else '--quick'}"
    (out / 'bench.meta.txt').write_text(_provenance(cmd) + '\n')
    log(json.dumps(s, indent=1))
    log(f"done in {s['seconds'] / 60:.1f} min: {out}/bench_summary.json, bench_*.csv, bench.png")
    return 0


def long_agreement_main(out):
    "`--long-agreement`: the long-output agreement alone, into bench_long_agreement.csv/.json (+ .meta.txt)."
    from daca_grpo.paper.likelihood import _provenance
    out.mkdir(parents=True, exist_ok=True)
    log = lambda s: print(s, flush=True)
    log(f"threads: torch {torch.get_num_threads()}; agreement (trained model with long outputs):")
    rows = long_agreement_rows(log) + long256_rows(log)
    write_csv(out / 'bench_long_agreement.csv', rows)
    (out / 'bench_long_agreement.json').write_text(json.dumps(long_summary(rows), indent=1))
    cmd = f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')} python benchmarks/run.py --long-agreement"
    (out / 'bench_long_agreement.meta.txt').write_text(_provenance(cmd) + '\n')
    log(json.dumps(long_summary(rows), indent=1))
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
