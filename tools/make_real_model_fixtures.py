"""Write tiny random LLaDA and Dream checkpoints in their official Hugging Face layouts, and reference outputs of the
*official remote modeling code* on them, as test fixtures for the native implementations.

    /tmp/ref457/bin/python tools/make_real_model_fixtures.py --official DIR --generate-py PATH [--out tests/fixtures/real_models]

DIR holds the official remote code, never copied into this repository:
    DIR/llada/{modeling_llada.py, configuration_llada.py}    (GSAI-ML/LLaDA-8B-Instruct's remote code)
    DIR/dream/{modeling_dream.py, configuration_dream.py, generation_utils.py}    (Dream-org/Dream-v0-Instruct-7B's)
PATH is LLaDA's sampler `generate.py` (github.com/ML-GSAI/LLaDA). Their sha256 are checked against the versions the
committed fixtures were made with (`--allow-other-sources` to run on others; reference.json then records theirs).

Extra references, each in a file of its own plus a key of reference.json (the files above are not rewritten):
    ... --only dream_generate,llada_padding --dream-generation-utils PATH2
writes OUT/reference_dream_generate.json (the official Dream `model.diffusion_generate` tokens at temperature 0 on a
left-padded batch, every alg, 3 lengths x 4 configs, one output_history; PATH2 is Dream's published sampler, see
DREAM_SAMPLER) and OUT/reference_llada_attended.safetensors (the official LLaDA logits on the left-padded batch called
without an attention mask: the padding attended to, as the hub file's callers do). Made with OMP_NUM_THREADS=1 (the
thread count is recorded; the other outputs reproduce byte for byte with 2 threads).

Written (only these files; anything else in the folders, e.g. tokenizer files, is left alone):
    OUT/llada_tiny/{config.json, model.safetensors, generation_config.json}
    OUT/dream_tiny/{config.json, model.safetensors, generation_config.json}
    OUT/reference_llada.safetensors, OUT/reference_dream.safetensors, OUT/reference.json

How: each model is built in float32 by the official code (`AutoModel.from_config(..., trust_remote_code=True)` on a
temporary folder holding config.json + the official .py files), every parameter is overwritten from a seeded
generator and rounded to bfloat16, and the model is saved by its own `save_pretrained(safe_serialization=True)` in
bfloat16 (so the tensor names are the official ones); config.json is then rewritten with the published key set.
The references are computed by the official code after reloading those files the way a user does
(`AutoModel.from_pretrained(folder, trust_remote_code=True, torch_dtype=torch.float32)`), in eval mode, under
`torch.no_grad()`. Deterministic: two runs give byte-identical files (with the same torch build and thread count).
"""
import argparse, hashlib, importlib.util, json, math, os, shutil, sys, tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / 'tests' / 'fixtures' / 'real_models'

# --- provenance of the sources the committed fixtures were made with ---------------------------------------------
OFFICIAL_FILES = {
    'llada/configuration_llada.py': 'd40317935b16a80b60c931e21a88255f51f7c18b75819c34128c6447fef56926',
    'llada/modeling_llada.py': '2052ade16818c1ae8f7ecf78f3e3fc60739eb430d8612633e88dc25be9f8214b',
    'dream/configuration_dream.py': '24d038962ccf16361595494461000ec0c1b043653c7494d7fc835c96f121f0b9',
    'dream/generation_utils.py': '16b8b3be9672af1945d751340667fc75f1f04eb1f15a7c6d89b0629287550b1f',
    'dream/modeling_dream.py': 'bc39c3202618868855cd03c0426c9c4f8533ce3e38d108faaa4a4a0363954151',
}
OFFICIAL_ORIGIN = {
    'llada': 'ZHZisZZ/dllm@03270de7d134f87244f1ffc2ff3653c809beb1d0 dllm/pipelines/llada/models/ '
             '(vendored copy of GSAI-ML/LLaDA-8B-Instruct remote code)',
    'dream': 'zhaoyMa/Saber@2f061e2e07359e27479174e862f46db5f9791c6c Dream/ (copy of Dream-org/Dream-v0-Instruct-7B '
             'remote code; modeling_dream.py\'s two sibling imports made relative, nothing else changed)',
}
GENERATE_PY = {
    'sha256': 'a95b1c67d2f9d6a80f7a2d046d59be215fd0cf010c771e9ec07f5b80eae7a9c7',
    'origin': 'ML-GSAI/LLaDA generate.py, last changed in 65cbed294263040cb6946c32a91e16cbdad209d2 '
              '("debug model name in generate.py", 2025-10-23); identical at HEAD b7e6c3565f194352da44b38dd12b6970597309f3; '
              'git blob 3f71e513d55df4d9e1e231d1cc12b027016fcf5f',
    'signature': "generate(model, prompt, attention_mask=None, steps=128, gen_length=128, block_length=128, "
                 "temperature=0., cfg_scale=0., remasking='low_confidence', mask_id=126336, logits_eos_inf=False, "
                 "confidence_eos_eot_inf=False)",
}

# Dream's sampler as published (DreamGenerationMixin in Dream-org/Dream-v0-Instruct-7B's generation_utils.py). The Saber copy
# above is NOT it (its _sample is Saber's own threshold-and-remask loop), so the diffusion_generate references use this
# vendored copy next to the same modeling_dream.py / configuration_dream.py.
DREAM_SAMPLER = {
    'sha256': 'b635865a96f4a9bc842d10ee0d55e38d8ef82d7e6135f286c73f9c688729d46a',
    'origin': 'ZHZisZZ/dllm@03270de7d134f87244f1ffc2ff3653c809beb1d0 dllm/pipelines/dream/models/generation_utils.py '
              '(git blob f8de3ce5299f5aecce9da34a1f8bc1ce35b26b4b; vendored copy of Dream-org/Dream-v0-Instruct-7B\'s '
              'generation_utils.py: the _sample loop over steps with origin / maskgit_plus / topk_margin / entropy)',
}

# --- configs: the published key sets of LLaDA-8B-Instruct / Dream-v0-Instruct-7B, sizes shrunk -------------------
LLADA_CONFIG = {
    'activation_type': 'silu', 'alibi': False, 'alibi_bias_max': 8.0, 'architectures': ['LLaDAModelLM'],
    'attention_dropout': 0.0, 'attention_layer_norm': False, 'attention_layer_norm_with_affine': True,
    'auto_map': {'AutoConfig': 'configuration_llada.LLaDAConfig', 'AutoModelForCausalLM': 'modeling_llada.LLaDAModelLM',
                 'AutoModel': 'modeling_llada.LLaDAModelLM'},
    'bias_for_layer_norm': False, 'block_group_size': 1, 'block_type': 'llama', 'd_model': 16, 'embedding_dropout': 0.0,
    'embedding_size': 126464, 'eos_token_id': 126081, 'flash_attention': False, 'include_bias': False,
    'include_qkv_bias': False, 'init_cutoff_factor': None, 'init_device': 'meta', 'init_fn': 'mitchell', 'init_std': 0.02,
    'input_emb_norm': False, 'layer_norm_type': 'rms', 'layer_norm_with_affine': True, 'mask_token_id': 126336,
    'max_sequence_length': 512, 'mlp_hidden_size': 48, 'mlp_ratio': 4, 'model_type': 'llada', 'multi_query_attention': None,
    'n_heads': 2, 'n_kv_heads': 2, 'n_layers': 2, 'pad_token_id': 126081, 'precision': 'amp_bf16', 'residual_dropout': 0.0,
    'rms_norm_eps': 1e-05, 'rope': True, 'rope_full_precision': True, 'rope_theta': 500000.0, 'scale_logits': False,
    'torch_dtype': 'bfloat16', 'use_cache': False, 'vocab_size': 126464, 'weight_tying': False,
}
DREAM_CONFIG = {
    'architectures': ['DreamModel'], 'attention_dropout': 0.0,
    'auto_map': {'AutoConfig': 'configuration_dream.DreamConfig', 'AutoModel': 'modeling_dream.DreamModel'},
    'bos_token_id': 151643, 'eos_token_id': 151643, 'hidden_act': 'silu', 'hidden_size': 12, 'initializer_range': 0.02,
    'intermediate_size': 36, 'mask_token_id': 151666, 'max_position_embeddings': 512, 'max_window_layers': 2,
    'model_type': 'Dream', 'num_attention_heads': 2, 'num_hidden_layers': 2, 'num_key_value_heads': 1,
    'pad_token_id': 151643, 'rms_norm_eps': 1e-06, 'rope_scaling': None, 'rope_theta': 1000000.0, 'sliding_window': None,
    'tie_word_embeddings': False, 'torch_dtype': 'bfloat16', 'use_cache': False, 'use_sliding_window': False,
    'vocab_size': 152064,
}

SPECS = {
    'llada': dict(config=LLADA_CONFIG, dir='llada_tiny', py=['modeling_llada.py', 'configuration_llada.py'],
                  weight_seed=0, input_seed=100, cols_seed=200, generate_seed=300, eot_or_im_end=126348),
    'dream': dict(config=DREAM_CONFIG, dir='dream_tiny',
                  py=['modeling_dream.py', 'configuration_dream.py', 'generation_utils.py'],
                  weight_seed=1, input_seed=101, cols_seed=201, generate_seed=None, eot_or_im_end=151645),
}
B, T, REAL_LENS = 3, 12, (12, 9, 5)   # logits inputs: 3 rows of length 12; padded case: real lengths 12, 9, 5
N_RANDOM_COLS = 192
GENERATE_RUNS = {'generate_s8_b8': dict(gen_length=16, steps=8, block_length=8),
                 'generate_s16_b4': dict(gen_length=16, steps=16, block_length=4)}
GENERATE_PROMPT_LENS = (6, 4)


def sha256(path): return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def check_sources(official, generate_py, allow_other):
    found = {rel: sha256(official / rel) for rel in OFFICIAL_FILES}
    found_gen = sha256(generate_py)
    bad = [rel for rel, h in found.items() if h != OFFICIAL_FILES[rel]]
    if found_gen != GENERATE_PY['sha256']: bad.append(str(generate_py))
    if bad and not allow_other:
        sys.exit(f'sha256 differs from the recorded sources for: {bad} (pass --allow-other-sources to use them anyway)')
    return found, found_gen


def model_folder(dst, files, official_subdir, py):
    "A folder as a user has it: the checkpoint files next to the official remote code."
    dst.mkdir(parents=True)
    for f in files: shutil.copy(f, dst / Path(f).name)
    for name in py: shutil.copy(official_subdir / name, dst / name)
    return dst


def randomize_(model, seed):
    """Overwrite every parameter from a seeded generator, in sorted-name order, rounded to bfloat16 (held in float32):
    linear weights ~ N(0, 1/fan_in) (std 1/sqrt(fan_in); the output layer's fan_in is d, so std 1/sqrt(d)), the input
    embedding ~ N(0, 1), biases ~ N(0, 0.5^2), norm weights ~ 1 + 0.3 N(0, 1)."""
    import torch
    from torch import nn
    g = torch.Generator().manual_seed(seed)
    emb, out = model.get_input_embeddings(), model.get_output_embeddings()
    kinds = {}
    for name, p in sorted(model.named_parameters()):
        mod = model.get_submodule(name.rsplit('.', 1)[0])
        z = torch.randn(p.shape, generator=g, dtype=torch.float32)
        if name.endswith('.bias'): kind, w = 'bias', 0.5 * z
        elif mod is emb: kind, w = 'embedding', z
        elif isinstance(mod, nn.Linear):
            kind = 'output' if mod is out else 'linear'
            w = z / math.sqrt(p.shape[1])
        elif p.dim() == 1: kind, w = 'norm', 1 + 0.3 * z
        else: raise ValueError(f'unexpected parameter {name} {tuple(p.shape)} in {type(mod).__name__}')
        with torch.no_grad(): p.copy_(w.to(torch.bfloat16).to(torch.float32))
        kinds[name] = kind
    return kinds


def build_checkpoint(key, official, out, tmp, tf_version):
    "Build the float32 model with the official code, randomise it, save it in bfloat16 by its own save_pretrained."
    import torch
    from transformers import AutoConfig, AutoModel
    spec = SPECS[key]
    build = tmp / f'{key}_build'
    build.mkdir()
    (build / 'config.json').write_text(json.dumps(spec['config'], indent=2))
    for name in spec['py']: shutil.copy(official / key / name, build / name)
    cfg = AutoConfig.from_pretrained(build, trust_remote_code=True)
    model = AutoModel.from_config(cfg, trust_remote_code=True, torch_dtype=torch.float32)
    kinds = randomize_(model, spec['weight_seed'])
    model.to(torch.bfloat16)
    saved = tmp / f'{key}_saved'
    model.save_pretrained(saved, safe_serialization=True)
    dst = out / spec['dir']
    dst.mkdir(parents=True, exist_ok=True)
    written = []
    for name in ('model.safetensors', 'generation_config.json'):
        if (saved / name).exists():
            shutil.copy(saved / name, dst / name)
            written.append(name)
    conf = dict(spec['config'], transformers_version=tf_version)
    (dst / 'config.json').write_text(json.dumps(dict(sorted(conf.items())), indent=2) + '\n')
    return sorted(written + ['config.json']), sorted(p.name for p in saved.iterdir()), kinds


def load_official(key, official, out, tmp, tag, **config_overrides):
    "Reload the saved files with the official code, in float32, as a user does."
    import torch
    from transformers import AutoModel
    spec = SPECS[key]
    src = out / spec['dir']
    files = [src / n for n in ('config.json', 'model.safetensors', 'generation_config.json') if (src / n).exists()]
    folder = model_folder(tmp / f'{key}_{tag}', files, official / key, spec['py'])
    model = AutoModel.from_pretrained(folder, trust_remote_code=True, torch_dtype=torch.float32, **config_overrides)
    return model.eval()


def make_inputs(key):
    import torch
    cfg, spec = SPECS[key]['config'], SPECS[key]
    vocab, mask_id, pad_id = cfg['vocab_size'], cfg['mask_token_id'], cfg['pad_token_id']
    g = torch.Generator().manual_seed(spec['input_seed'])
    ids = torch.randint(0, 2000, (B, T), generator=g)
    for r, n in enumerate(REAL_LENS):       # in each row's real tail: 3 mask ids and one id at the top of the vocabulary
        pos = (T - n) + torch.randperm(n, generator=g)
        ids[r, pos[:3]] = mask_id
        ids[r, pos[3]] = vocab - 1 - r
    mask = torch.zeros(B, T, dtype=torch.long)
    for r, n in enumerate(REAL_LENS): mask[r, T - n:] = 1
    padded = torch.where(mask.bool(), ids, torch.full_like(ids, pad_id))
    g = torch.Generator().manual_seed(spec['cols_seed'])
    extra = {mask_id, cfg['eos_token_id'], pad_id, spec['eot_or_im_end']}
    rand = torch.randperm(vocab, generator=g)[:N_RANDOM_COLS].tolist()
    cols = torch.tensor(sorted(set(range(64)) | extra | set(rand)), dtype=torch.long)
    return ids, padded, mask, cols


# --- the official forwards ------------------------------------------------------------------------------------------
def llada_forward(model, ids, mask=None):
    # LLaDA's own sampler calls `model(x, attention_mask=attention_mask).logits` (generate.py); None when unpadded.
    return model(ids, attention_mask=mask).logits


def dream_forward(model, ids, mask=None, positions='tok_idx'):
    """As Dream's generation_utils.DreamGenerationMixin._sample calls the model: `self(x, attention_mask, tok_idx)`,
    with attention_mask = "full" and tok_idx = None when nothing is padded, else a boolean [B, 1, N, N] mask and
    tok_idx = mask.cumsum(-1) - 1 with padded positions set to 1. positions='arange' is a deliberately wrong variant
    (positions 0..N-1 despite the padding)."""
    import torch
    if mask is None or not torch.any(mask == 0): return model(ids, 'full', None).logits
    tok_idx = mask.long().cumsum(-1) - 1
    tok_idx.masked_fill_(mask == 0, 1)
    mask4 = torch.logical_and(mask.unsqueeze(1).unsqueeze(-2), mask.unsqueeze(1).unsqueeze(-1))
    return model(ids, mask4, tok_idx if positions == 'tok_idx' else None).logits


FORWARD_CALLS = {
    'llada': {'unpadded': 'model(input_ids, attention_mask=None).logits',
              'padded': 'model(input_ids, attention_mask=attention_mask).logits  # attention_mask: [B, T] 0/1 int64'},
    'dream': {'unpadded': 'model(input_ids, "full", None).logits  # positional (input_ids, attention_mask, position_ids) '
                          'as generation_utils._sample calls it when nothing is padded',
              'padded': 'tok_idx = attention_mask.long().cumsum(-1) - 1; tok_idx.masked_fill_(attention_mask == 0, 1); '
                        'm4 = torch.logical_and(attention_mask.unsqueeze(1).unsqueeze(-2), '
                        'attention_mask.unsqueeze(1).unsqueeze(-1))  # bool [B, 1, T, T]; '
                        'model(input_ids, m4, tok_idx).logits'},
}


def forward(key, model, ids, mask=None, **kw):
    import torch
    with torch.no_grad():
        return (llada_forward if key == 'llada' else dream_forward)(model, ids, mask, **kw).float()


def summarize(logits, cols, valid, prefix):
    import torch
    top2 = logits.topk(2, dim=-1).values
    gap = (top2[..., 0] - top2[..., 1])[valid]
    return {f'{prefix}.logits_cols': logits[..., cols].contiguous(),
            f'{prefix}.lse': torch.logsumexp(logits, dim=-1),
            f'{prefix}.argmax': logits.argmax(dim=-1)}, float(gap.min())


def maxdiff(a, b, valid=None):
    import torch
    d = (a - b).abs()
    if valid is not None: d = d[valid]
    return float(torch.nan_to_num(d, nan=float('inf')).max())


# --- LLaDA's sampler ------------------------------------------------------------------------------------------------
def run_generate(gen_module, model, prompt, mask, params, mask_id):
    """Run the official generate() greedily, recording every model call, and return the output and the smallest
    decision margins, which say how far a reimplementation's logits may drift before a choice flips: top-1 minus
    top-2 logit at the committed positions, and, in log space (comparable to logit errors), the lowest committed
    confidence minus the highest passed-over confidence in the current block."""
    import torch
    calls = []
    hook = model.register_forward_hook(lambda m, args, kwargs, out: calls.append((args[0].clone(), out.logits.float())),
                                       with_kwargs=True)
    try:
        x = gen_module.generate(model, prompt, attention_mask=mask, steps=params['steps'],
                                gen_length=params['gen_length'], block_length=params['block_length'], temperature=0.,
                                cfg_scale=0., remasking='low_confidence', mask_id=mask_id)
    finally:
        hook.remove()
    P, nb = prompt.shape[1], params['gen_length'] // params['block_length']
    spb = params['steps'] // nb
    arg_gap, sel_gap = math.inf, math.inf
    for s, (xs, logits) in enumerate(calls):
        x_next = calls[s + 1][0] if s + 1 < len(calls) else x
        end = P + (s // spb + 1) * params['block_length']
        masked = xs == mask_id
        masked[:, end:] = False
        changed = xs != x_next
        top2 = logits.topk(2, dim=-1).values
        if changed.any(): arg_gap = min(arg_gap, float((top2[..., 0] - top2[..., 1])[changed].min()))
        logconf = torch.log_softmax(logits, dim=-1).max(dim=-1).values   # log of generate()'s confidence x0_p
        for j in range(xs.shape[0]):
            rest = masked[j] & ~changed[j]
            if changed[j].any() and rest.any():
                sel_gap = min(sel_gap, float(logconf[j][changed[j]].min() - logconf[j][rest].max()))
    return x, len(calls), arg_gap, sel_gap


def load_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# --- extra references, made with --only (the files above stay as they are) -----------------------------------------
DREAM_GEN_FILE, LLADA_ATTENDED_FILE = 'reference_dream_generate.json', 'reference_llada_attended.safetensors'
DREAM_GEN_PROMPT_LENS, DREAM_GEN_PROMPT_SEED, DREAM_GEN_ORIGIN_SEED = (7, 4, 2), 400, 500
DREAM_GEN_LENGTHS = (6, 11, 16)          # max_new_tokens
DREAM_GEN_ALGS = ('maskgit_plus', 'topk_margin', 'entropy', 'origin')
DREAM_GEN_CONFIGS = {                    # steps as a function of the length L
    'steps_L': dict(steps=lambda L: L, eps=1e-3, top_p=None, top_k=None),
    'steps_4': dict(steps=lambda L: 4, eps=1e-3, top_p=None, top_k=None),
    'steps_5_eps0.2_topp0.9': dict(steps=lambda L: 5, eps=0.2, top_p=0.9, top_k=None),
    'steps_halfL_topk8': dict(steps=lambda L: L // 2, eps=1e-3, top_p=None, top_k=8),
}
DREAM_GEN_HISTORY_CASE = 'entropy/L11/steps_4'


def dream_generate_prompts():
    import torch
    cfg = SPECS['dream']['config']
    g = torch.Generator().manual_seed(DREAM_GEN_PROMPT_SEED)
    P = max(DREAM_GEN_PROMPT_LENS)
    ids = torch.full((len(DREAM_GEN_PROMPT_LENS), P), cfg['pad_token_id'], dtype=torch.long)
    mask = torch.zeros_like(ids)
    for r, n in enumerate(DREAM_GEN_PROMPT_LENS):
        ids[r, P - n:] = torch.randint(0, 2000, (n,), generator=g)
        mask[r, P - n:] = 1
    return ids, mask


def dream_generate_references(official, sampler_py, out, tmp, sampler_sha):
    """The official `model.diffusion_generate` (Dream's DreamGenerationMixin, loaded as remote code beside the official
    modeling_dream.py) at temperature 0 on a left-padded batch of 3 prompts, for every alg x length x config."""
    import torch
    spec = SPECS['dream']
    src = out / spec['dir']
    files = [src / n for n in ('config.json', 'model.safetensors', 'generation_config.json')]
    folder = model_folder(tmp / 'dream_gen', files, official / 'dream', ['modeling_dream.py', 'configuration_dream.py'])
    shutil.copy(sampler_py, folder / 'generation_utils.py')
    from transformers import AutoModel
    model = AutoModel.from_pretrained(folder, trust_remote_code=True, torch_dtype=torch.float32).eval()
    ids, mask = dream_generate_prompts()
    cases, n = {}, 0
    for L in DREAM_GEN_LENGTHS:
        for cname, c in DREAM_GEN_CONFIGS.items():
            for alg in DREAM_GEN_ALGS:
                name = f'{alg}/L{L}/{cname}'
                kw = dict(attention_mask=mask, max_new_tokens=L, steps=c['steps'](L), eps=c['eps'], alg=alg, alg_temp=None,
                          temperature=0.0, top_p=c['top_p'], top_k=c['top_k'], return_dict_in_generate=True,
                          output_history=name == DREAM_GEN_HISTORY_CASE)
                seed = DREAM_GEN_ORIGIN_SEED + n if alg == 'origin' else None
                if seed is not None: torch.manual_seed(seed)
                calls = []
                hook = model.register_forward_hook(lambda m, a, o: calls.append(1))
                try:
                    res = model.diffusion_generate(ids, **kw)
                finally:
                    hook.remove()
                case = {'alg': alg, 'max_new_tokens': L, 'steps': kw['steps'], 'eps': c['eps'], 'top_p': c['top_p'],
                        'top_k': c['top_k'], 'temperature': 0.0, 'alg_temp': None, 'torch_manual_seed': seed,
                        'model_calls': len(calls), 'sequences': res.sequences.tolist(),
                        'masks_left': int((res.sequences == spec['config']['mask_token_id']).sum())}
                if kw['output_history']: case['history'] = [h.tolist() for h in res.history]
                cases[name] = case
                n += 1
    ref = {'what': 'Token ids of the official Dream sampler (model.diffusion_generate, DreamGenerationMixin) on '
                   'tests/fixtures/real_models/dream_tiny, made by tools/make_real_model_fixtures.py --only dream_generate.',
           'sampler': dict(DREAM_SAMPLER, sha256=sampler_sha),
           'modeling': OFFICIAL_ORIGIN['dream'] + ' (modeling_dream.py, configuration_dream.py; generation_utils.py '
                       'replaced by the sampler file above)',
           'call': "model.diffusion_generate(input_ids, attention_mask=attention_mask, max_new_tokens=L, steps=S, eps=E, "
                   "alg=ALG, alg_temp=None, temperature=0.0, top_p=TOP_P, top_k=TOP_K, return_dict_in_generate=True, "
                   "output_history=HISTORY) on the float32 model; for alg 'origin' torch.manual_seed(torch_manual_seed) "
                   "right before the call (its only randomness: torch.rand on the global CPU generator)",
           'input_ids': ids.tolist(), 'attention_mask': mask.tolist(),
           'prompts': f'lengths {list(DREAM_GEN_PROMPT_LENS)}, ids ~ randint(0, 2000) (torch.Generator seed '
                      f'{DREAM_GEN_PROMPT_SEED}), left-padded with pad id {spec["config"]["pad_token_id"]}',
           'history_case': DREAM_GEN_HISTORY_CASE,
           'sequences': 'int64 [3, P + L]: the prompt (as passed, padding included) then the L generated tokens',
           'cases': cases}
    return ref


def llada_attended_references(official, out, tmp):
    """The official LLaDA forward on the left-padded batch of reference_llada.safetensors called WITHOUT an attention
    mask: padded keys attended to, what copies that pass attn_mask=None do."""
    import torch
    model = load_official('llada', official, out, tmp, 'attended')
    ids, padded, mask, cols = make_inputs('llada')
    lg = forward('llada', model, padded)           # model(padded, attention_mask=None).logits
    lg_masked = forward('llada', model, padded, mask)
    t, gap = summarize(lg, cols, mask.bool(), 'padded_attended')
    tensors = {'cols': cols, 'padded.input_ids': padded, 'padded.attention_mask': mask, 'padded.valid': mask.bool(), **t}
    entry = {'file': LLADA_ATTENDED_FILE, 'call': 'model(padded_input_ids, attention_mask=None).logits (float32 official '
                                                  'model; the padding is attended to)',
             'inputs': 'the padded case of reference_llada.safetensors (same ids, mask and cols)',
             'min_top1_top2_logit_gap_valid': gap,
             'max_abs_diff_vs_masked_at_valid_positions': maxdiff(lg, lg_masked, mask.bool()),
             'argmax_differs_from_masked_at_valid_positions': int((lg.argmax(-1) != lg_masked.argmax(-1))[mask.bool()].sum()),
             'tensors': {'padded_attended.logits_cols': 'float32 [3, 12, C]', 'padded_attended.lse': 'float32 [3, 12]',
                         'padded_attended.argmax': 'int64 [3, 12]'}}
    return {k: v.clone().contiguous() for k, v in sorted(tensors.items())}, entry


def run_only(parts, args, official, out):
    "Add the extra references named in `parts` (files of their own, plus keys in reference.json); nothing else changes."
    tmp = Path(tempfile.mkdtemp(prefix='real_model_fixtures_'))
    os.environ['HF_MODULES_CACHE'] = str(tmp / 'hf_modules')
    os.environ.setdefault('HF_HUB_OFFLINE', '1')
    import torch
    from safetensors.torch import save_file
    torch.manual_seed(0)
    report_path = out / 'reference.json'
    report = json.loads(report_path.read_text())
    try:
        if 'dream_generate' in parts:
            if args.dream_generation_utils is None: sys.exit('--only dream_generate needs --dream-generation-utils PATH')
            found = sha256(args.dream_generation_utils)
            if found != DREAM_SAMPLER['sha256'] and not args.allow_other_sources:
                sys.exit(f'sha256 of {args.dream_generation_utils} differs from DREAM_SAMPLER (--allow-other-sources)')
            ref = dream_generate_references(official, args.dream_generation_utils, out, tmp, found)
            (out / DREAM_GEN_FILE).write_text(json.dumps(ref) + '\n')
            report['dream_generate'] = {'file': DREAM_GEN_FILE, 'sampler': ref['sampler'], 'cases': len(ref['cases']),
                                        'call': ref['call'], 'history_case': ref['history_case'],
                                        'torch_threads': torch.get_num_threads()}
        if 'llada_padding' in parts:
            tensors, entry = llada_attended_references(official, out, tmp)
            save_file(tensors, out / LLADA_ATTENDED_FILE)
            (out / LLADA_ATTENDED_FILE).chmod(0o644)
            report['llada_padding_attended'] = dict(entry, torch_threads=torch.get_num_threads())
        report_path.write_text(json.dumps(report, indent=2) + '\n')
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--official', type=Path, required=True, help='folder with llada/ and dream/ official remote code')
    ap.add_argument('--generate-py', type=Path, required=True, help="LLaDA's official generate.py")
    ap.add_argument('--out', type=Path, default=OUT)
    ap.add_argument('--allow-other-sources', action='store_true')
    ap.add_argument('--only', default=None, help='comma-separated extra references to (re)make, nothing else: '
                                                 'dream_generate, llada_padding')
    ap.add_argument('--dream-generation-utils', type=Path, default=None,
                    help="Dream's published generation_utils.py (the sampler; see DREAM_SAMPLER), for dream_generate")
    args = ap.parse_args()
    official, out = args.official.resolve(), args.out.resolve()
    found, found_gen = check_sources(official, args.generate_py, args.allow_other_sources)
    if args.only:
        parts = set(args.only.split(','))
        if parts - {'dream_generate', 'llada_padding'}: sys.exit(f'--only: unknown parts {sorted(parts)}')
        return run_only(parts, args, official, out)

    tmp = Path(tempfile.mkdtemp(prefix='real_model_fixtures_'))
    os.environ['HF_MODULES_CACHE'] = str(tmp / 'hf_modules')   # keep the remote code out of ~/.cache (read at import)
    os.environ.setdefault('HF_HUB_OFFLINE', '1')
    import torch, transformers
    from safetensors.torch import save_file, load_file
    torch.manual_seed(0)
    try:
        report = {'what': 'Tiny random LLaDA / Dream checkpoints (official HF layouts) and reference outputs of the '
                          'official remote modeling code on them; made by tools/make_real_model_fixtures.py.',
                  'versions': {'torch': torch.__version__, 'transformers': transformers.__version__,
                               'python': sys.version.split()[0]},
                  'official_code': {k: {'origin': OFFICIAL_ORIGIN[k],
                                        'sha256': {rel.split('/')[1]: h for rel, h in found.items() if rel.startswith(k)}}
                                    for k in ('llada', 'dream')},
                  'generate_py': dict(GENERATE_PY, sha256=found_gen),
                  'loading': 'Each model folder (config.json, model.safetensors, generation_config.json) is copied next '
                             'to the official .py files in a temporary folder and loaded with AutoModel.from_pretrained('
                             'folder, trust_remote_code=True, torch_dtype=torch.float32), then .eval(), torch.no_grad(). '
                             'Built with AutoModel.from_config(AutoConfig.from_pretrained(folder, trust_remote_code=True),'
                             ' trust_remote_code=True, torch_dtype=torch.float32) and saved with save_pretrained(dir, '
                             'safe_serialization=True) after .to(torch.bfloat16).',
                  'weights': 'every parameter overwritten in sorted-name order from torch.Generator().manual_seed(seed):'
                             ' linear weights N(0,1)/sqrt(fan_in) (output layer: fan_in = d), input embedding N(0,1), '
                             'biases 0.5*N(0,1), norm weights 1+0.3*N(0,1); rounded to bfloat16. The float32 reference '
                             'models hold exactly the bfloat16 file values.',
                  'models': {}}
        for key in ('llada', 'dream'):
            spec, cfg = SPECS[key], SPECS[key]['config']
            written, save_wrote, kinds = build_checkpoint(key, official, out, tmp, transformers.__version__)
            model = load_official(key, official, out, tmp, 'ref')
            assert all(p.dtype == torch.float32 for p in model.parameters())
            sd = load_file(out / spec['dir'] / 'model.safetensors')
            ids, padded, mask, cols = make_inputs(key)
            valid_full = torch.ones(B, T, dtype=torch.bool)
            valid_pad = mask.bool()
            tensors = {'cols': cols, 'unpadded.input_ids': ids, 'unpadded.attention_mask': torch.ones(B, T, dtype=torch.long),
                       'unpadded.valid': valid_full, 'padded.input_ids': padded, 'padded.attention_mask': mask,
                       'padded.valid': valid_pad}
            lg_u = forward(key, model, ids)
            lg_p = forward(key, model, padded, mask)
            t_u, gap_u = summarize(lg_u, cols, valid_full, 'unpadded')
            t_p, gap_p = summarize(lg_p, cols, valid_pad, 'padded')
            tensors.update(t_u)
            tensors.update(t_p)
            pad_rows = lg_p[~valid_pad]
            if key == 'dream':   # what attention gives the padded query rows (their 4-D mask rows are all False)
                seen = []
                h = model.model.layers[0].self_attn.register_forward_hook(lambda m, a, o: seen.append(o[0]))
                forward(key, model, padded, mask)
                h.remove()
                att_zero = bool((seen[0][~valid_pad] == 0).all())
            padded_rows = ('NaN' if torch.isnan(pad_rows).all() else 'partly NaN' if torch.isnan(pad_rows).any()
                           else 'finite')
            sanity = {'padded_row0_vs_unpadded_row0_max_abs_diff': maxdiff(lg_p[0], lg_u[0]),
                      'min_top1_top2_logit_gap': {'unpadded': gap_u, 'padded (valid positions)': gap_p}}
            # each padded row's real tokens alone, unpadded
            alone = []
            for r, n in enumerate(REAL_LENS):
                lg_a = forward(key, model, padded[r:r + 1, T - n:])
                alone.append(maxdiff(lg_p[r:r + 1, T - n:], lg_a))
            sanity['padded_rows_vs_their_real_tokens_alone_max_abs_diff'] = alone
            # deliberately wrong variants
            wrong = {}
            m_theta = load_official(key, official, out, tmp, 'wrong_theta', rope_theta=10000.0)
            wrong['rope_theta 10000: unpadded'] = maxdiff(forward(key, m_theta, ids), lg_u)
            wrong['rope_theta 10000: padded'] = maxdiff(forward(key, m_theta, padded, mask), lg_p, valid_pad)
            del m_theta
            if key == 'llada':
                wrong['padded without attention_mask'] = maxdiff(forward(key, model, padded), lg_p, valid_pad)
            else:
                wrong['padded, positions 0..T-1 instead of tok_idx'] = maxdiff(
                    forward(key, model, padded, mask, positions='arange'), lg_p, valid_pad)
                with torch.no_grad():
                    wrong['padded, "full" mask (no padding mask) with tok_idx'] = maxdiff(
                        model(padded, 'full', (mask.cumsum(-1) - 1).masked_fill(mask == 0, 1)).logits, lg_p, valid_pad)
                # GQA with the kv heads tiled instead of interleaved (repeat_kv patched in the loaded module only)
                mod = sys.modules[type(model).__module__]
                orig = mod.repeat_kv
                mod.repeat_kv = lambda h, n: h if n == 1 else h.repeat(1, n, 1, 1)
                try:
                    wrong['GQA kv heads tiled (repeat) instead of repeat_interleave: unpadded'] = maxdiff(
                        forward(key, model, ids), lg_u)
                finally:
                    mod.repeat_kv = orig
                assert maxdiff(forward(key, model, ids), lg_u) == 0.0
            # RoPE with the wrong pairing (GPT-J style interleaved pairs instead of rotate_half's halves), patched into
            # the loaded official module / class only, and undone
            def interleaved(x):
                x1, x2 = x[..., 0::2], x[..., 1::2]
                return torch.stack((-x2, x1), dim=-1).flatten(-2)
            if key == 'llada':
                owner, attr = type(model.model.transformer.blocks[0].rotary_emb), 'rotate_half'
                patched = lambda self, x: interleaved(x)
            else:
                owner, attr, patched = sys.modules[type(model).__module__], 'rotate_half', interleaved
            orig = getattr(owner, attr)
            setattr(owner, attr, patched)
            try:
                wrong['RoPE pairs interleaved instead of rotate_half: unpadded'] = maxdiff(forward(key, model, ids), lg_u)
                wrong['RoPE pairs interleaved instead of rotate_half: padded'] = maxdiff(
                    forward(key, model, padded, mask), lg_p, valid_pad)
            finally:
                setattr(owner, attr, orig)
            assert maxdiff(forward(key, model, ids), lg_u) == 0.0 and maxdiff(forward(key, model, padded, mask), lg_p) == 0.0
            sanity['wrong_variant_max_abs_diff'] = wrong
            described = {
                'cols': 'int64 [C]: the vocabulary columns kept in *.logits_cols: range(64) | {mask, eos, pad, '
                        f'{spec["eot_or_im_end"]}}} | {N_RANDOM_COLS} ids of randperm(vocab, seed {spec["cols_seed"]})',
                '<case>.input_ids': f'int64 [{B}, {T}]',
                '<case>.attention_mask': f'int64 [{B}, {T}], 0/1 (all ones for unpadded; the model got None / "full")',
                '<case>.valid': f'bool [{B}, {T}]: positions whose logits are meaningful (not padding)',
                '<case>.logits_cols': f'float32 [{B}, {T}, C]: the model\'s raw .logits[..., cols]'
                                      + (' (Dream: raw, NOT shifted; position i predicts token i)' if key == 'dream' else ''),
                '<case>.lse': f'float32 [{B}, {T}]: logsumexp of .logits over the full vocabulary',
                '<case>.argmax': f'int64 [{B}, {T}]: argmax of .logits over the full vocabulary',
            }
            entry = {'folder': spec['dir'], 'files_written': written, 'official_save_pretrained_wrote': save_wrote,
                     'config_note': 'config.json = the published key set with sizes shrunk, plus transformers_version '
                                    '(the official save\'s own config.json is discarded)',
                     'weight_seed': spec['weight_seed'], 'input_seed': spec['input_seed'], 'cols_seed': spec['cols_seed'],
                     'parameters': {n: {'shape': list(t.shape), 'dtype': str(t.dtype).replace('torch.', ''),
                                        'init': kinds.get(n, '?')} for n, t in sorted(sd.items())},
                     'inputs': f'input_ids ~ randint(0, 2000) (seed {spec["input_seed"]}); in each row\'s real tail 3 '
                               f'positions set to the mask id {cfg["mask_token_id"]} and one to vocab_size-1-row; padded '
                               f'case: real lengths {list(REAL_LENS)}, left-padded with pad id {cfg["pad_token_id"]} '
                               '(the same rows with their first positions replaced)',
                     'forward_calls': FORWARD_CALLS[key],
                     'padded_query_rows': f'{padded_rows} under torch {torch.__version__} (positions with valid=False); '
                                          + ('the mask is a key-padding bias [B, 1, 1, T] of finfo.min, so padded '
                                             'queries attend to the real keys like any other query'
                                             if key == 'llada' else
                                             'their boolean mask rows are all False and torch\'s CPU SDPA returns '
                                             f'{"exact zeros" if att_zero else "non-zero values"} for them (layer 0 '
                                             'attention output checked), so only the residual/MLP path reaches the logits'),
                     'tensors': described, 'sanity': sanity}
            if key == 'llada':
                gen = load_module(args.generate_py, 'llada_official_generate')
                g = torch.Generator().manual_seed(spec['generate_seed'])
                P = max(GENERATE_PROMPT_LENS)
                prompt = torch.full((len(GENERATE_PROMPT_LENS), P), cfg['pad_token_id'], dtype=torch.long)
                pmask = torch.zeros_like(prompt)
                for r, n in enumerate(GENERATE_PROMPT_LENS):
                    prompt[r, P - n:] = torch.randint(0, 2000, (n,), generator=g)
                    pmask[r, P - n:] = 1
                entry['generate'] = {'call': 'generate(model, prompt, attention_mask=prompt_mask, steps=S, gen_length=G, '
                                             'block_length=L, temperature=0., cfg_scale=0., remasking="low_confidence", '
                                             f'mask_id={cfg["mask_token_id"]}) with the float32 model',
                                     'prompts': f'lengths {list(GENERATE_PROMPT_LENS)}, ids ~ randint(0, 2000) (seed '
                                                f'{spec["generate_seed"]}), left-padded with {cfg["pad_token_id"]}',
                                     'runs': {}}
                for name, params in GENERATE_RUNS.items():
                    x, n_calls, arg_gap, sel_gap = run_generate(gen, model, prompt, pmask, params, cfg['mask_token_id'])
                    assert not (x == cfg['mask_token_id']).any()
                    tensors[f'{name}.prompt_ids'] = prompt
                    tensors[f'{name}.prompt_mask'] = pmask
                    tensors[f'{name}.output_ids'] = x
                    tensors[f'{name}.params'] = torch.tensor([params['gen_length'], params['steps'], params['block_length']])
                    entry['generate']['runs'][name] = dict(params, model_calls=n_calls,
                                                           min_top1_top2_logit_gap_at_committed_tokens=arg_gap,
                                                           min_log_confidence_gap_committed_vs_passed_over=sel_gap)
                entry['tensors'].update({
                    '<generate run>.prompt_ids': 'int64 [2, 6]', '<generate run>.prompt_mask': 'int64 [2, 6]',
                    '<generate run>.output_ids': 'int64 [2, 6 + gen_length]: generate()\'s full output (prompt included)',
                    '<generate run>.params': 'int64 [3]: gen_length, steps, block_length'})
            tensors = {k: v.clone().contiguous() for k, v in sorted(tensors.items())}
            save_file(tensors, out / f'reference_{key}.safetensors')
            for f in [out / f'reference_{key}.safetensors', *(out / spec['dir'] / n for n in written)]: f.chmod(0o644)
            entry['reference_file'] = f'reference_{key}.safetensors'
            entry['reference_tensors'] = {k: [str(v.dtype).replace('torch.', ''), list(v.shape)] for k, v in tensors.items()}
            report['models'][key] = entry
            del model
        report['notes'] = [
            'RoPE is relative: shifting every real token\'s position by the same offset leaves the logits unchanged up '
            'to rounding. So for left padding, positions 0..T-1 (what LLaDA always uses) and Dream\'s tok_idx '
            '(cumsum - 1) give the same logits at the real positions (see padded_rows_vs_their_real_tokens_alone and '
            'Dream\'s "positions 0..T-1 instead of tok_idx", both ~1e-6): the fixtures cannot, and need not, tell '
            'them apart. Position mistakes that change relative offsets (rope_theta, pairing) are caught.',
            'Argmax comparisons are safe at a 1e-4 logit tolerance where min_top1_top2_logit_gap > 2e-4: smallest here '
            f'{min(min(m["sanity"]["min_top1_top2_logit_gap"].values()) for m in report["models"].values()):.2e}.',
            'The reference logits depend on modeling_dream.py only; generation_utils.py is merely imported by it '
            '(DreamGenerationMixin / DreamGenerationConfig). The copy used (zhaoyMa/Saber) differs from other copies '
            'of Dream\'s remote code in its sampler (eos_penalty, _sample returns (result, used_steps), '
            'return_dict_in_generate), which no fixture here uses; the padded-call recipe (tok_idx, 4-D mask) is the '
            'same in all copies.',
        ]
        (out / 'reference.json').write_text(json.dumps(report, indent=2) + '\n')
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    main()
