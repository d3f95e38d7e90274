#!/usr/bin/env python
"""One-GPU benchmark of the DACA-GRPO pipeline at LLaDA-8B-Instruct's shape (issues 12, 15 and 38).

A model with LLaDA-8B's dimensions (hidden 4096, 32 layers, 32 heads, SwiGLU 12288, vocab 126464; random
weights, SDPA attention) is timed, with warm-ups and `torch.cuda.synchronize`, on the parts below. `--model` picks the
implementation, or several, comma-separated, measured one after the other in one run (`tiny,llada`): `tiny` (default) is
`TinyDLLM` at that shape; `llada` is the library's native `LLaDAModelLM`
(daca_grpo.models.llada_dream) with LLaDA-8B-Instruct's config; `dream` is the native `DreamModel` with Dream-v0-7B's config
(hidden 3584, 28 layers, 28 query / 4 key-value heads, SwiGLU 18944, vocab 152064; the FLOP formulas of daca_grpo.paper.perf
count k and v as full-width, so Dream's MFU is slightly overstated). `--shape tiny` shrinks each to a CPU-sized model.

  matmul      a bf16 matrix-product peak (8192^3), the denominator of every MFU below
  bandwidth   device-to-device copy bandwidth (a copy reads and writes its bytes: 2 x bytes / seconds); the weight-
              bandwidth floor of a denoising step is the bytes of the weights a pass reads / this bandwidth
  rollout     the sampler at the paper's settings (prompt 200, gen 256, 128 steps, block 32, batch 6, temperature 0.9):
              none (exact), none_captured (CUDA graphs), prefix, dual (the static cache), dual_captured,
              dual_threshold0.9; ms per denoising step against the floor, whether the tokens equal the uncaptured mode's, and DPS's bookkeeping on the trajectory
  estimators  one mean-field pass (d1) and one SML pass with K = 4 (`daca_grpo.estimators`)
  lora_step   one LoRA (r = 128 on q, k, v, as d1) diffu-GRPO step (`daca_grpo.losses`) on a synthetic batch, with
              the peak of `torch.cuda.max_memory_allocated`; mean-field, then SML K = 2, K = 4, and K = 4 with
              `sml.chunk_size = 1` (each stratum's pass recomputed in backward: memory that does not grow with K)
  fsdp2_step  the same mean-field step with the model prepared by accelerate's FSDP2 (one process, world size 1)
  mfu         model FLOPs per second (`daca_grpo.paper.perf`'s formulas) / the measured matmul peak, per phase

Each part records its numbers or its error string in `OUT/gpu_bench.json`; parts are skipped once the time budget
(default 450 s) is near. `summary` holds, per model, the issue-38 figures (`dual_step_over_floor`, `dual_speedup_vs_exact`,
`exact_mfu`, `lora_step_mfu`, `sml_k4_peak_gib`) beside their targets. No network is used. Run from anywhere:

    python benchmarks/gpu.py --model tiny,llada --parts matmul,bandwidth,rollout,lora_step --out OUT   # the issue-38 run (H200)
    python benchmarks/gpu.py --out OUT                                # the H200 run: LLaDA-8B shape, cuda, bf16
    python benchmarks/gpu.py --model llada --out OUT                  # the same with the native LLaDA (LoRA on d1's targets)
    OMP_NUM_THREADS=1 python benchmarks/gpu.py --model dream --shape tiny --device cpu --dtype fp32 --out /tmp/gpub
    OMP_NUM_THREADS=1 python benchmarks/gpu.py --shape tiny --device cpu --dtype fp32 --out /tmp/gpub   # a CPU check
"""
import argparse, gc, json, os, platform, socket, sys, time, traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))

import torch
from daca_grpo.paper import perf

SHAPES = {  # TinyDLLMConfig kwargs; llada8b: GSAI-ML/LLaDA-8B-Instruct config.json (see daca_grpo.paper.perf.LLADA_8B)
    'llada8b': dict(hidden_size=4096, num_hidden_layers=32, num_attention_heads=32, intermediate_size=12288, vocab_size=126464),
    'tiny': dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, intermediate_size=352, vocab_size=512)}
PAPER = dict(prompt_len=200, gen_length=256, steps=128, block_length=32, batch=6)   # d1 train.yaml; batch = per-device 6
DTYPES = {'bf16': torch.bfloat16, 'fp32': torch.float32}
NATIVE = {  # --model llada | dream: the published configs (GSAI-ML/LLaDA-8B-Instruct, Dream-org/Dream-v0-Instruct-7B) and a CPU size
    'llada': {'llada8b': dict(d_model=4096, n_layers=32, n_heads=32, n_kv_heads=32, mlp_hidden_size=12288, vocab_size=126464,
                              embedding_size=126464, max_sequence_length=4096),
              'tiny': dict(d_model=128, n_layers=2, n_heads=4, mlp_hidden_size=352, vocab_size=126464, embedding_size=126464)},
    'dream': {'llada8b': dict(hidden_size=3584, num_hidden_layers=28, num_attention_heads=28, num_key_value_heads=4,
                              intermediate_size=18944, vocab_size=152064),
              'tiny': dict(hidden_size=128, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, intermediate_size=352,
                           vocab_size=152064)}}
LORA = dict(r=128, lora_alpha=64, lora_dropout=0.05, target_modules=['q_proj', 'k_proj', 'v_proj'])   # d1 train.yaml; --model llada: + up_proj (lora_model)
FIRST_ID = 6   # random token ids start above TinyDLLM's special ids (pad 0, eos 1, eot 2, mask 3, bos 5)


class Bench:
    "Shared state: arguments, device, the results dict and the time budget."
    def __init__(self, args):
        self.args, self.t0 = args, time.perf_counter()
        self.dev, self.dtype = torch.device(args.device), DTYPES[args.dtype]
        self.S = {k: getattr(args, k) for k in PAPER}
        self.res = {'meta': {}, 'parts': {}, 'models': {}, 'summary': {}}
        self.parts = self.res['parts']     # where `part` writes: the device's parts, then each model's
    def elapsed(self): return time.perf_counter() - self.t0
    def over_budget(self): return self.elapsed() > self.args.budget
    def sync(self):
        if self.dev.type == 'cuda': torch.cuda.synchronize()
    def timed(self, fn, warmup=1, reps=1):
        "Mean seconds of `fn()` over `reps` runs after `warmup` runs, and its last output."
        for _ in range(warmup): fn()
        self.sync(); t = time.perf_counter()
        for _ in range(reps): out = fn()
        self.sync()
        return (time.perf_counter() - t) / reps, out
    def mem_reset(self):
        gc.collect()
        if self.dev.type == 'cuda': torch.cuda.empty_cache(); torch.cuda.reset_peak_memory_stats()
    def mem(self):
        "{'allocated_gib', 'peak_gib'} on CUDA; a note elsewhere."
        if self.dev.type != 'cuda': return {'peak_gib': None, 'memory_note': 'torch.cuda.max_memory_allocated: CUDA only'}
        return {'allocated_gib': torch.cuda.memory_allocated() / 2**30, 'peak_gib': torch.cuda.max_memory_allocated() / 2**30}
    def rate(self, fl, sec):
        "TFLOP/s and MFU (against the measured matmul peak) of `fl` model FLOPs in `sec` seconds."
        tf = fl / sec / 1e12
        peak = self.res['parts'].get('matmul', {}).get('tflops')
        return {'model_tflop': fl / 1e12, 'tflops': tf, 'mfu': tf / peak if peak else None}


def part(name):
    "Run one part into bench.parts[name]: its dict, {'error': ...} on an exception, {'skipped': ...} past the budget."
    def deco(fn):
        def run(b, *a, **kw):
            if b.over_budget():
                b.parts[name] = {'skipped': f'time budget: {b.elapsed():.0f}s > {b.args.budget:.0f}s'}
                return None
            t = time.perf_counter()
            try: out = fn(b, *a, **kw)
            except Exception as e:
                out = {'error': f'{type(e).__name__}: {e}'[:2000], 'traceback': traceback.format_exc()[-3000:]}
            out = out if isinstance(out, dict) else {'value': out}
            out['part_seconds'] = time.perf_counter() - t
            b.parts[name] = out
            print(f"[{b.elapsed():6.1f}s] {name}: {'error: ' + out['error'].splitlines()[0] if 'error' in out else 'done'}", flush=True)
            return out
        return run
    return deco


def meta(b):
    import transformers, accelerate
    m = {'argv': sys.argv, 'shape': b.args.shape, 'implementations': b.args.model.split(','),
         'models': {n: SHAPES[b.args.shape] if n == 'tiny' else NATIVE[n][b.args.shape] for n in b.args.model.split(',')},
         'settings': b.S, 'device': str(b.dev),
         'dtype': b.args.dtype, 'torch': torch.__version__, 'transformers': transformers.__version__,
         'accelerate': accelerate.__version__, 'python': platform.python_version(), 'torch_threads': torch.get_num_threads(),
         'OMP_NUM_THREADS': os.environ.get('OMP_NUM_THREADS'), 'budget_s': b.args.budget,
         'started': time.strftime('%Y-%m-%d %H:%M:%S %Z')}
    try: import peft; m['peft'] = peft.__version__
    except ImportError: m['peft'] = None
    if b.dev.type == 'cuda':
        p = torch.cuda.get_device_properties(b.dev)
        m.update(gpu=p.name, gpu_memory_gib=p.total_memory / 2**30, cuda=torch.version.cuda, cudnn=torch.backends.cudnn.version(),
                 sdpa_flash=torch.backends.cuda.flash_sdp_enabled(), sdpa_mem_efficient=torch.backends.cuda.mem_efficient_sdp_enabled())
    else: m['cpu'] = platform.processor() or platform.machine()
    return m


def build_model(b, name):
    "A randomly initialised model (`tiny`, `llada` or `dream`) of the chosen shape, built directly on the device in the chosen dtype."
    from daca_grpo.models.tiny import TinyDLLM, TinyDLLMConfig
    from daca_grpo.models.llada_dream import LLaDAConfig, LLaDAModelLM, DreamConfig, DreamModel
    if name == 'tiny':
        cls, cfg = TinyDLLM, TinyDLLMConfig(**SHAPES[b.args.shape], max_position_embeddings=max(1024, b.S['prompt_len'] + b.S['gen_length']))
    elif name == 'llada': cls, cfg = LLaDAModelLM, LLaDAConfig(**NATIVE['llada'][b.args.shape])
    else: cls, cfg = DreamModel, DreamConfig(**NATIVE['dream'][b.args.shape])
    with torch.device(b.dev): model = cls(cfg)           # float32 first (LLaDA-8B: 32 GB), then cast
    model = model.to(b.dtype).eval().requires_grad_(False)
    b.mem_reset()
    return model


def synthetic_batch(b, vocab):
    "Prompt ids [B, P], an all-ones prompt mask and completion ids [B, L] (random tokens, no padding)."
    g = torch.Generator().manual_seed(0)
    B, P, L = b.S['batch'], b.S['prompt_len'], b.S['gen_length']
    top = min(vocab, 126000)     # below LLaDA's and Dream's special ids ([MASK] 126336 / 151666), so no prompt holds a [MASK]
    pid = torch.randint(FIRST_ID, top, (B, P), generator=g).to(b.dev)
    cid = torch.randint(FIRST_ID, top, (B, L), generator=g).to(b.dev)
    return pid, torch.ones_like(pid), cid


@part('matmul')
def bench_matmul(b):
    n = b.args.matmul_n or (8192 if b.dev.type == 'cuda' else 1024)
    x, y = (torch.randn(n, n, device=b.dev, dtype=b.dtype) for _ in range(2))
    sec, _ = b.timed(lambda: x @ y, warmup=3, reps=10)
    return {'n': n, 'dtype': b.args.dtype, 'seconds': sec, 'tflops': 2 * n ** 3 / sec / 1e12}


@part('bandwidth')
def bench_bandwidth(b):
    "Device-to-device copy bandwidth: a copy reads and writes `nbytes`, so the bandwidth is 2 * nbytes / seconds."
    nbytes = b.args.copy_mib * 2**20 if b.args.copy_mib else (4 * 2**30 if b.dev.type == 'cuda' else 256 * 2**20)
    src = torch.empty(nbytes, dtype=torch.uint8, device=b.dev).fill_(1); dst = torch.empty_like(src)
    sec, _ = b.timed(lambda: dst.copy_(src), warmup=3, reps=20)
    return {'bytes': nbytes, 'seconds': sec, 'gb_per_s': 2 * nbytes / sec / 1e9}


def weight_bytes(model):
    "Bytes of the weights one forward pass reads: every parameter but the input embedding table, of which a pass reads only its rows."
    emb = model.get_input_embeddings().weight
    tied = model.get_output_embeddings() is None or model.get_output_embeddings().weight is emb
    return sum(p.numel() * p.element_size() for p in model.parameters() if p is not emb or tied)


ROLLOUT_MODES = {  # name: generate_fast keyword arguments ('none' runs daca_grpo.sampler.generate, the exact sampler)
    'none': None, 'none_captured': dict(cache='none', capture=True), 'prefix': dict(cache='prefix'),
    'dual': dict(cache='dual'), 'dual_captured': dict(cache='dual', capture=True),
    'dual_threshold0.9': dict(cache='dual', threshold=0.9)}
SAME_TOKENS_AS = {'none_captured': 'none', 'dual_captured': 'dual'}   # modes that must not change a token


def _generate(model, pid, pm, S, mode, gen_length=None, steps=None, seed=0):
    from daca_grpo.sampler import generate
    from daca_grpo.sampler import generate_fast
    g = torch.Generator(pid.device).manual_seed(seed)
    kw = dict(gen_length=gen_length or S['gen_length'], steps=steps or S['steps'], block_length=S['block_length'], temperature=0.9, generator=g)
    return generate(model, pid, pm, **kw) if ROLLOUT_MODES[mode] is None else generate_fast(model, pid, pm, **kw, **ROLLOUT_MODES[mode])


def rollout_mode(b, model, pid, pm, mode, floor_ms):
    "Time one rollout in `mode`: seconds, ms per denoising step and its ratio to the weight-bandwidth floor, MFU."
    S, shape = b.S, perf.shape_of(model)
    nb = S['gen_length'] // S['block_length']
    import warnings
    with warnings.catch_warnings(record=True) as caught:   # a captured mode that cannot capture says why, once
        warnings.simplefilter('always')
        _generate(model, pid, pm, S, mode, gen_length=S['block_length'], steps=S['steps'] // nb)   # warm-up: one block
        sec, ro = b.timed(lambda: _generate(model, pid, pm, S, mode, seed=1), warmup=0)
    ms = 1e3 * sec / ro.forward_passes
    out = {'available': True, 'seconds': sec, 'forward_passes': int(ro.forward_passes), 'ms_per_step': ms,
           'step_over_floor': ms / floor_ms if floor_ms else None, 'query_positions_per_row': getattr(ro, 'query_positions', None),
           'tokens_per_s': S['batch'] * S['gen_length'] / sec, 'steps_per_s': ro.forward_passes / sec,
           'warnings': sorted({str(w.message) for w in caught})}
    if 'threshold' not in (ROLLOUT_MODES[mode] or {}):   # the formula assumes N steps; a threshold commits more tokens per step
        cache = (ROLLOUT_MODES[mode] or {}).get('cache', 'none')
        fl = perf.rollout_flops(shape, S['prompt_len'], S['gen_length'], S['steps'], S['block_length'], cache, S['batch'], 'completion')
        out.update(b.rate(fl['flops'], sec), full_pass_equiv=fl['full_pass_equiv'])
    return out, ro


@part('rollout')
def bench_rollout(b, model):
    pid, pm, _ = synthetic_batch(b, model.config.vocab_size)
    bw = b.res['parts'].get('bandwidth', {}).get('gb_per_s')
    floor_ms = 1e3 * weight_bytes(model) / (bw * 1e9) if bw else None
    out, rollouts = {'weight_bytes': weight_bytes(model), 'bandwidth_floor_ms': floor_ms}, {}
    for mode in b.args.rollout_modes.split(','):
        if b.over_budget(): out[mode] = {'skipped': f'time budget: {b.elapsed():.0f}s'}; continue
        try:
            out[mode], rollouts[mode] = rollout_mode(b, model, pid, pm, mode, floor_ms)
            ref = SAME_TOKENS_AS.get(mode)
            if ref in rollouts:
                same = rollouts[mode].completion_ids == rollouts[ref].completion_ids
                out[mode]['same_tokens_as'] = {'mode': ref, 'equal': bool(same.all()), 'token_agreement': same.float().mean().item()}
        except Exception as e: out[mode] = {'error': f'{type(e).__name__}: {e}'[:2000], 'traceback': traceback.format_exc()[-2000:]}
        print(f"  rollout {mode}: {json.dumps({k: v for k, v in out[mode].items() if k != 'traceback'}, default=str)[:300]}", flush=True)
    if 'none' in rollouts: out['dps_bookkeeping'] = bench_dps(b, rollouts['none'].trajectory, out['none']['seconds'])
    if not b.over_budget():
        try: out['span_pass'] = bench_span_pass(b, model, pid, pm, floor_ms)
        except Exception as e: out['span_pass'] = {'error': f'{type(e).__name__}: {e}'[:2000], 'traceback': traceback.format_exc()[-2000:]}
        print(f"  span_pass: {json.dumps(out['span_pass'], default=str)[:300]}", flush=True)
    return out


def bench_span_pass(b, model, pid, pm, floor_ms, reps=20):
    "The dual cache's forward pass alone (a block's second step), eager and replayed from a CUDA graph: what a step costs before the sampler's own work."
    from daca_grpo.models.adapters import adapter_for
    from daca_grpo.models.shared import DLLMCache
    from daca_grpo.fast_sampler import CapturedSteps
    S, a = b.S, adapter_for(model)
    P, L, blk = pid.shape[1], S['gen_length'], S['block_length']
    x = torch.cat([pid, torch.full((pid.shape[0], L), a.mask_token_id, dtype=pid.dtype, device=pid.device)], 1)
    att = torch.cat([pm, torch.ones(pm.shape[0], L, dtype=pm.dtype, device=pm.device)], 1)
    out = {}
    with torch.no_grad():
        for name, graphs in (('eager', False), ('captured', b.dev.type == 'cuda')):
            steps = CapturedSteps(a, model, att, P, L, 'dual', DLLMCache(), graphs=graphs)
            prev = steps.logits(x, 0, blk, refresh=True, prev=None)
            sec, _ = b.timed(lambda: steps.logits(x, 0, blk, refresh=False, prev=prev), warmup=2, reps=reps)
            out[name] = {'ms': 1e3 * sec, 'over_floor': 1e3 * sec / floor_ms if floor_ms else None, 'graphs': graphs}
    return out


def bench_dps(b, traj, rollout_s):
    "DPS weights from the recorded trajectory: seconds, and the fraction of the rollout's time."
    from daca_grpo.dps import dps_weights
    sec, w = b.timed(lambda: dps_weights(traj, sync=False), warmup=1, reps=3)
    return {'seconds': sec, 'fraction_of_rollout': sec / rollout_s, 'extra_forward_passes': 0, 'shape': list(w.shape)}


@part('estimators')
def bench_estimators(b, model):
    from daca_grpo.estimators import meanfield_logp, stratified_logp
    pid, pm, cid = synthetic_batch(b, model.config.vocab_size)
    shape, S = perf.shape_of(model), b.S
    one = perf.flops(perf.forward_flops(shape, S['prompt_len'] + S['gen_length'], logits=S['gen_length'])) * S['batch']
    out = {}
    with torch.no_grad():
        for name, fn, passes in (('meanfield', lambda: meanfield_logp(model, pid, pm, cid, mask_seeds=0), 1),
                                 ('sml_k4', lambda: stratified_logp(model, pid, pm, cid, K=4, mask_seed=0), 4)):
            b.mem_reset()
            sec, _ = b.timed(fn, warmup=1, reps=2)
            out[name] = {'seconds': sec, 'passes': passes, **b.rate(passes * one, sec), **b.mem()}
    out['sml_k4_over_meanfield'] = out['sml_k4']['seconds'] / out['meanfield']['seconds']
    return out


def lora_model(model):
    "LoRA on d1's targets: q, k, v for the tiny and Dream models; q, k, v and up_proj for LLaDA (what d1's list matches there)."
    from peft import LoraConfig, get_peft_model
    from daca_grpo.models.adapters import adapter_for
    targets = list(adapter_for(model).lora_target_modules) if getattr(model.config, 'model_type', '') == 'llada' else LORA['target_modules']
    return get_peft_model(model, LoraConfig(**{**LORA, 'target_modules': targets}))


def lora_targets(pmodel): return sorted(pmodel.peft_config['default'].target_modules)


def policy_step_fn(b, pmodel, optimizer, sml_k=0, backward=None, adapters=None, chunk_size=None):
    "A closure doing one diffu-GRPO step (old and reference estimates precomputed) and its model FLOPs (recomputation not counted)."
    from daca_grpo.config import TrainConfig, MethodConfig, SMLConfig
    from daca_grpo.losses import PolicyBatch, policy_logp, policy_loss
    pid, pm, cid = synthetic_batch(b, pmodel.config.vocab_size)
    B, S = b.S['batch'], b.S
    adv = torch.linspace(-1, 1, B, device=b.dev)
    batch = PolicyBatch(pid, pm, cid, torch.ones_like(cid, dtype=torch.bool), adv, B)
    lc = TrainConfig(method=MethodConfig(name='diffu_grpo'), sml=SMLConfig(enabled=sml_k > 0, K=max(sml_k, 1), chunk_size=chunk_size))
    with torch.no_grad():
        pmodel.eval()
        old = policy_logp(pmodel, batch, lc, 0)
        with (adapters or pmodel).disable_adapter(): ref = policy_logp(pmodel, batch, lc, 0)   # the reference: the base model
    def step():
        pmodel.train()
        cur = policy_logp(pmodel, batch, lc, 0)
        loss, _ = policy_loss(lc, batch, cur, old, ref)
        (backward or (lambda l: l.backward()))(loss)
        optimizer.step(); optimizer.zero_grad(set_to_none=True)
        return loss.detach()
    shape, T = perf.shape_of(pmodel.config), S['prompt_len'] + S['gen_length']
    fl = (1 + sml_k) * B * perf.flops(perf.train_flops(shape, T, logits=S['gen_length'], lora_r=LORA['r'], lora_targets=lora_targets(pmodel)))
    return step, fl


@part('lora_step')
def bench_lora(b, pmodel):
    out = {'lora': {**LORA, 'target_modules': lora_targets(pmodel)}, 'trainable_params': sum(p.numel() for p in pmodel.parameters() if p.requires_grad)}
    for name, k, chunk in (('meanfield', 0, None), ('sml_k2', 2, None), ('sml_k4', 4, None), ('sml_k4_chunked', 4, 1)):
        if b.over_budget(): out[name] = {'skipped': f'time budget: {b.elapsed():.0f}s'}; continue
        opt = None
        try:
            b.mem_reset()
            opt = torch.optim.AdamW([p for p in pmodel.parameters() if p.requires_grad], lr=3e-6)
            step, fl = policy_step_fn(b, pmodel, opt, k, chunk_size=chunk)
            step()                                   # warm-up (and AdamW's state)
            b.mem_reset()
            sec, loss = b.timed(step, warmup=0, reps=2)
            out[name] = {'seconds': sec, 'loss': float(loss), 'passes_per_row': 1 + k, 'sml_chunk_size': chunk, **b.rate(fl, sec), **b.mem()}
        except Exception as e:   # SML K = 4 keeps 5 passes' activations for one backward: it may not fit
            out[name] = {'error': f'{type(e).__name__}: {e}'[:1000]}
        finally:
            del opt
            pmodel.zero_grad(set_to_none=True); b.mem_reset()
        print(f"  lora_step {name}: {json.dumps(out[name], default=str)[:300]}", flush=True)
    return out


def _free_port():
    with socket.socket() as s: s.bind(('127.0.0.1', 0)); return s.getsockname()[1]


def fsdp_accelerator(b):
    "An FSDP2 `Accelerator` for one process (world size 1), its plugin from configs/accelerate/fsdp.yaml."
    for k, v in dict(MASTER_ADDR='127.0.0.1', MASTER_PORT=str(_free_port()), RANK='0', LOCAL_RANK='0', WORLD_SIZE='1',
                     LOCAL_WORLD_SIZE='1').items():
        os.environ.setdefault(k, v)
    from accelerate import Accelerator
    from accelerate.state import AcceleratorState, PartialState
    from accelerate.utils import DistributedType
    from daca_grpo.scaling import fsdp_plugin_from_config
    plugin = fsdp_plugin_from_config(ROOT / 'configs' / 'accelerate' / 'fsdp.yaml')
    plugin.cpu_ram_efficient_loading = False           # the model is already on the device (one process: nothing to broadcast)
    if b.dev.type == 'cuda':
        return Accelerator(fsdp_plugin=plugin, mixed_precision='bf16' if b.dtype == torch.bfloat16 else 'no'), plugin
    mp = 'bf16' if b.dtype == torch.bfloat16 else 'no'
    acc = Accelerator(cpu=True, mixed_precision=mp)   # accelerate keeps CPU processes on MULTI_CPU: say FSDP (as runs.fsdp_cpu_accelerator)
    PartialState._shared_state['distributed_type'] = AcceleratorState._shared_state['distributed_type'] = DistributedType.FSDP
    if mp != 'no': plugin.set_mixed_precision(mp)      # what AcceleratorState does for an FSDP plugin on GPUs
    AcceleratorState._shared_state['fsdp_plugin'] = plugin
    return acc, plugin


@part('fsdp2_step')
def bench_fsdp(b, pmodel):
    acc, plugin = fsdp_accelerator(b)
    opt = torch.optim.AdamW([p for p in pmodel.parameters() if p.requires_grad], lr=3e-6)
    b.mem_reset()
    t = time.perf_counter()
    model, opt = acc.prepare(pmodel, opt)
    prep_s = time.perf_counter() - t
    from torch.distributed.fsdp import FSDPModule
    units = sum(isinstance(m, FSDPModule) for m in model.modules())
    step, fl = policy_step_fn(b, model, opt, 0, backward=acc.backward, adapters=acc.unwrap_model(model))
    step()
    b.mem_reset()
    sec, loss = b.timed(step, warmup=0, reps=2)
    out = {'distributed_type': str(acc.distributed_type), 'fsdp_version': getattr(plugin, 'fsdp_version', None),
           'is_fsdp2': bool(getattr(acc, 'is_fsdp2', False)), 'fsdp_units': units, 'mixed_precision': acc.mixed_precision,
           'trainable_dtype': str(next(p for p in model.parameters() if p.requires_grad).dtype),
           'prepare_seconds': prep_s, 'seconds': sec, 'loss': float(loss), **b.rate(fl, sec), **b.mem()}
    if torch.distributed.is_initialized(): torch.distributed.destroy_process_group()
    from accelerate.state import AcceleratorState
    AcceleratorState._reset_state(True)   # the next model builds its own accelerator
    return out


def mfu_table(b, P):
    "{phase: {'seconds', 'tflops', 'mfu', 'peak_gib'}} of every measured phase of one model (`P`: its parts)."
    out = {}
    def add(name, d):
        if isinstance(d, dict) and 'seconds' in d and 'tflops' in d:
            out[name] = {k: d.get(k) for k in ('seconds', 'tflops', 'mfu', 'peak_gib')}
    add('matmul', b.res['parts'].get('matmul'))
    for m, d in (P.get('rollout') or {}).items(): add(f'rollout_{m}', d)
    for m in ('meanfield', 'sml_k4'): add(f'estimator_{m}', (P.get('estimators') or {}).get(m))
    for m in ('meanfield', 'sml_k2', 'sml_k4', 'sml_k4_chunked'): add(f'lora_step_{m}', (P.get('lora_step') or {}).get(m))
    add('fsdp2_lora_step', P.get('fsdp2_step'))
    if 'matmul' in out: out['matmul']['mfu'] = 1.0
    return out


TARGETS = {'dual_step_over_floor': ('<=', 2.0), 'dual_speedup_vs_exact': ('>=', 5.0), 'exact_mfu': ('>=', 0.65),
           'lora_step_mfu': ('>=', 0.5), 'sml_k4_peak_gib': ('<=', 48.0)}   # issue 38's targets, at d1's settings on one GPU


def summary(P):
    "Issue 38's figures for one model's parts: the best mode that keeps its tokens, each beside its target; None where not measured."
    R, Lo = P.get('rollout') or {}, P.get('lora_step') or {}
    ok = lambda m: isinstance(R.get(m), dict) and 'seconds' in R[m] and R[m].get('same_tokens_as', {}).get('equal', True)
    dual = min((m for m in ('dual', 'dual_captured') if ok(m)), key=lambda m: R[m]['seconds'], default=None)
    exact = [R[m] for m in ('none', 'none_captured') if ok(m) and R[m].get('mfu') is not None]
    peaks = [Lo[m]['peak_gib'] for m in ('sml_k4', 'sml_k4_chunked') if isinstance(Lo.get(m), dict) and Lo[m].get('peak_gib') is not None]
    s = {'dual_mode': dual,
         'dual_step_over_floor': R[dual]['step_over_floor'] if dual else None,
         'dual_speedup_vs_exact': R['none']['seconds'] / R[dual]['seconds'] if dual and ok('none') else None,
         'exact_mfu': max(r['mfu'] for r in exact) if exact else None,
         'lora_step_mfu': (Lo.get('meanfield') or {}).get('mfu'),
         'sml_k4_peak_gib': min(peaks) if peaks else None,
         'dual_pass_over_floor': min((v['over_floor'] for v in (R.get('span_pass') or {}).values()
                                      if isinstance(v, dict) and v.get('over_floor') is not None), default=None)}   # the pass alone
    s['meets_target'] = {k: (None if s[k] is None else (s[k] <= t if op == '<=' else s[k] >= t)) for k, (op, t) in TARGETS.items()}
    s['targets'] = {k: f'{op} {t}' for k, (op, t) in TARGETS.items()}
    return s


def print_table(b, name):
    M = b.res['models'][name]
    rows = M['mfu']
    print(f"\n== {name}")
    print(f"\n{'phase':28s} {'seconds':>10s} {'TFLOP/s':>10s} {'MFU':>7s} {'peak GiB':>9s}")
    f = lambda v, fmt: format(v, fmt) if isinstance(v, (int, float)) else '-'
    for k, r in rows.items():
        print(f"{k:28s} {f(r['seconds'], '10.4f')} {f(r['tflops'], '10.3f')} {f(r['mfu'], '7.3f')} {f(r['peak_gib'], '9.2f')}")
    R = M['parts'].get('rollout') or {}
    for m, r in R.items():
        if isinstance(r, dict) and 'ms_per_step' in r:
            same = r.get('same_tokens_as')
            print(f"rollout {m:20s} {r['ms_per_step']:9.2f} ms/step  {f(r['step_over_floor'], '6.2f')}x floor"
                  + (f"  same tokens as {same['mode']}: {same['equal']} ({same['token_agreement']:.4f})" if same else ''))
    for part, d in {**b.res['parts'], **M['parts']}.items():
        for k, v in ((part, d), *((f'{part}.{m}', x) for m, x in d.items() if isinstance(x, dict))):
            why = v.get('error') or v.get('skipped') or (v.get('reason') if v.get('available') is False else None)
            if why: print(f"{k:28s} not measured: {why.splitlines()[0][:160]}")
    print('summary ' + json.dumps({k: v for k, v in b.res['summary'][name].items() if k != 'targets'}, default=str))


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--out', required=True, help='folder for gpu_bench.json')
    p.add_argument('--shape', choices=tuple(SHAPES), default='llada8b')
    p.add_argument('--model', default='tiny', help='tiny (TinyDLLM at the shape), llada or dream (the native models), or several, comma-separated')
    p.add_argument('--rollout-modes', default=','.join(ROLLOUT_MODES), help=f'comma-separated, of {",".join(ROLLOUT_MODES)}')
    p.add_argument('--copy-mib', type=int, default=None, help='bytes copied by the bandwidth part (default 4096 MiB on cuda, 256 on cpu)')
    p.add_argument('--device', choices=('cuda', 'cpu'), default='cuda')
    p.add_argument('--dtype', choices=tuple(DTYPES), default='bf16')
    p.add_argument('--budget', type=float, default=450.0, help='seconds after which remaining parts are skipped')
    p.add_argument('--matmul-n', type=int, default=None, help='matrix size of the peak (default 8192 on cuda, 1024 on cpu)')
    p.add_argument('--parts', default='matmul,bandwidth,rollout,estimators,lora_step,fsdp2_step', help='comma-separated parts to run')
    for k, v in PAPER.items(): p.add_argument(f"--{k.replace('_', '-')}", type=int, default=v, help=f'default {v} (the paper)')
    return p.parse_args(argv)


def run_model(b, name, parts, M, write):
    "Build one model and run the chosen parts on it; the model is freed afterwards."
    model = None
    try:
        t = time.perf_counter(); model = build_model(b, name); M['meta']['build_seconds'] = time.perf_counter() - t
        M['meta']['params'] = sum(p.numel() for p in model.parameters())
    except Exception as e: M['meta']['build_error'] = f'{type(e).__name__}: {e}'
    write()
    if model is None: return
    if 'rollout' in parts: bench_rollout(b, model); write()
    if 'estimators' in parts: bench_estimators(b, model); write()
    pmodel = None
    if {'lora_step', 'fsdp2_step'} & set(parts):
        try: pmodel = lora_model(model)
        except Exception as e: M['parts']['lora_step'] = {'error': f'peft: {type(e).__name__}: {e}'}
    if pmodel is not None and 'lora_step' in parts: bench_lora(b, pmodel); write()
    if pmodel is not None and 'fsdp2_step' in parts: bench_fsdp(b, pmodel)
    del model, pmodel
    b.mem_reset()


def main(argv=None):
    args = parse_args(argv)
    for name in args.model.split(','):
        if name not in ('tiny', 'llada', 'dream'): sys.exit(f"--model {name}: use tiny, llada or dream (comma-separated for several)")
    for mode in args.rollout_modes.split(','):
        if mode not in ROLLOUT_MODES: sys.exit(f"--rollout-modes {mode}: use some of {','.join(ROLLOUT_MODES)}")
    if args.device == 'cuda' and not torch.cuda.is_available(): sys.exit('--device cuda: no CUDA device here (use --device cpu)')
    b = Bench(args)
    out = Path(args.out); out.mkdir(parents=True, exist_ok=True)
    b.res['meta'] = meta(b)
    m = b.res['meta']
    print(f"device {m['device']} ({m.get('gpu') or m.get('cpu')}), dtype {m['dtype']}, shape {m['shape']} {m['models']}, "
          f"torch threads {m['torch_threads']} (OMP_NUM_THREADS={m['OMP_NUM_THREADS']}), torch {m['torch']}, transformers "
          f"{m['transformers']}, accelerate {m['accelerate']}, peft {m['peft']}; settings {m['settings']}; budget {m['budget_s']:.0f}s", flush=True)
    parts = args.parts.split(',')
    write = lambda: (out / 'gpu_bench.json').write_text(json.dumps(b.res, indent=1, default=str))
    if 'matmul' in parts: bench_matmul(b)
    if 'bandwidth' in parts: bench_bandwidth(b)
    for name in args.model.split(','):
        M = b.res['models'][name] = {'meta': {}, 'parts': {}}
        b.parts = M['parts']
        run_model(b, name, parts, M, write)
        M['mfu'] = mfu_table(b, M['parts'])
        b.res['summary'][name] = summary(M['parts'])
        write()
    b.res['meta']['total_seconds'] = b.elapsed()
    write()
    for name in b.res['models']: print_table(b, name)
    print(f"\nwrote {out / 'gpu_bench.json'} in {b.elapsed():.1f}s")
    return b.res


if __name__ == '__main__':
    main()
