"""Write the tokenizer files of `tests/fixtures/real_models/{llada_tiny,dream_tiny}/`: tiny byte-level BPE tokenizers in
the file layouts of LLaDA-8B-Instruct and Dream-v0-Instruct-7B, their special tokens at the real ids.

    python tools/make_tokenizer_fixtures.py [--out DIR] [--dream-tokenizer-json]
    python tools/make_tokenizer_fixtures.py --reference REMOTE_CODE_DIR     # also (re)write tokenizer_reference.json

- llada_tiny: tokenizer.json + tokenizer_config.json (`PreTrainedTokenizerFast`, a Llama-3-style chat template) +
  special_tokens_map.json. The special tokens sit in the BPE model's vocab *and* in `added_tokens` at the same id: the
  `tokenizers` library gives an added token that is missing from the model vocab the next free id, not the one written.
- dream_tiny: vocab.json + merges.txt (no special tokens in them, as in Qwen2) + tokenizer_config.json (`DreamTokenizer`
  with `auto_map`, the special tokens only in `added_tokens_decoder`, a Qwen2 ChatML template) + special_tokens_map.json.
  No tokenizer.json (the remote `DreamTokenizer` is a slow tokenizer and never reads one); `--dream-tokenizer-json`
  adds a Qwen2-style one (special tokens in `added_tokens` only) to test loaders on that layout too.

`--reference DIR` records the official ids into `tokenizer_reference.json`: LLaDA's tokenizer through `AutoTokenizer`
(its official path: no remote code), Dream's through `AutoTokenizer(trust_remote_code=True)` on a temporary copy of
dream_tiny/ holding DIR's tokenization_dream.py + configuration_dream.py (Dream-v0-Instruct-7B's remote code; DIR is a
download of it, never copied into this repository).

Deterministic, no dependency but `regex` (and `transformers` for `--reference`): the merges are learnt by a plain BPE count over a fixed corpus (ties broken
by the pair's text); nothing here is taken from either model's files or code. Only the tokenizer files are written:
a folder's config.json / model.safetensors are left alone.
"""
import argparse, json
from collections import Counter
from pathlib import Path
import regex

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / 'tests' / 'fixtures' / 'real_models'

# Pre-tokenisation patterns: Llama-3's (numbers in runs of up to 3 digits) and Qwen2's (one digit at a time).
LLAMA3_PATTERN = r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
QWEN2_PATTERN = r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""

CORPUS = """You are a helpful assistant.
What is 2+3? The answer is 5.
Solve the following math problem step by step, then give the answer.
<reasoning>
First add the numbers, then check the result.
</reasoning>
<answer>
42
</answer>
system user assistant
Using the numbers [3, 5, 7], create an equation that equals 22. You can use basic arithmetic operations.
Please solve the following 4x4 Sudoku puzzle. The puzzle is provided as a 16-character string reading left-to-right,
top-to-bottom, where '0' represents empty cells. Respond in the following format.
Write a python function to find the minimum cost path. def solve(nums): return sorted(nums)
Generate a JSON object that matches the schema: {"type": "object", "properties": {"name": {"type": "string"}}}
Natalia sold clips to 48 of her friends in April, and then she sold half as many clips in May.
How many clips did Natalia sell altogether in April and May? Let's think step by step.
"""
N_MERGES = 160

def byte_alphabet():
    "The GPT-2 byte -> printable-character table: printable Latin-1 bytes map to themselves, the others to 256 + n."
    keep = [*range(ord('!'), ord('~') + 1), *range(ord('¡'), ord('¬') + 1), *range(ord('®'), ord('ÿ') + 1)]
    table, n = {b: chr(b) for b in keep}, 0
    for b in range(256):
        if b not in table: table[b], n = chr(256 + n), n + 1
    return table     # insertion order = printable bytes first: the usual id order of a byte-level vocab

def learn_bpe(pattern, n_merges=N_MERGES):
    "(vocab, merges): the 256 byte symbols, then one token per merge, most frequent pair first (ties: smaller text)."
    table = byte_alphabet()
    words = Counter(''.join(table[b] for b in w.encode()) for w in regex.findall(pattern, CORPUS))
    words = {tuple(w): c for w, c in words.items()}
    vocab, merges = {ch: i for i, ch in enumerate(table.values())}, []
    while len(merges) < n_merges:
        pairs = Counter()
        for w, c in words.items():
            for p in zip(w, w[1:]): pairs[p] += c
        if not pairs: break
        best = min(pairs, key=lambda p: (-pairs[p], p))
        if pairs[best] < 2: break
        merges.append(best)
        vocab.setdefault(best[0] + best[1], len(vocab))
        new = {}
        for w, c in words.items():
            out, i = [], 0
            while i < len(w):
                if i + 1 < len(w) and (w[i], w[i + 1]) == best: out.append(w[i] + w[i + 1]); i += 2
                else: out.append(w[i]); i += 1
            new[tuple(out)] = new.get(tuple(out), 0) + c
        words = new
    return vocab, merges

def added(tid, content, special=True):
    return {'id': tid, 'content': content, 'single_word': False, 'lstrip': False, 'rstrip': False,
            'normalized': False, 'special': special}

def decoder_entry(t):
    return {k: t[k] for k in ('content', 'lstrip', 'normalized', 'rstrip', 'single_word', 'special')}

def tokenizer_json(vocab, merges, specials, pattern, normalizer=None, specials_in_vocab=True):
    "A `tokenizers` tokenizer.json: Split(pattern) + ByteLevel pre-tokenizer, byte-level BPE, byte-level decoder."
    model_vocab = dict(vocab)
    if specials_in_vocab: model_vocab.update({t['content']: t['id'] for t in specials})
    return {'version': '1.0', 'truncation': None, 'padding': None, 'added_tokens': specials, 'normalizer': normalizer,
            'pre_tokenizer': {'type': 'Sequence', 'pretokenizers': [
                {'type': 'Split', 'pattern': {'Regex': pattern}, 'behavior': 'Isolated', 'invert': False},
                {'type': 'ByteLevel', 'add_prefix_space': False, 'trim_offsets': False, 'use_regex': False}]},
            'post_processor': {'type': 'ByteLevel', 'add_prefix_space': False, 'trim_offsets': False, 'use_regex': False},
            'decoder': {'type': 'ByteLevel', 'add_prefix_space': False, 'trim_offsets': False, 'use_regex': False},
            'model': {'type': 'BPE', 'dropout': None, 'unk_token': None, 'continuing_subword_prefix': None,
                      'end_of_word_suffix': None, 'fuse_unk': False, 'byte_fallback': False, 'ignore_merges': False,
                      'vocab': model_vocab, 'merges': [list(m) for m in merges]}}

# ---------------------------------------------------------------------------------------------------------------- LLaDA
LLADA_SPECIALS = [added(126080, '<|startoftext|>'), added(126081, '<|endoftext|>'), added(126336, '<|mdm_mask|>'),
                  added(126346, '<|start_header_id|>'), added(126347, '<|end_header_id|>'), added(126348, '<|eot_id|>')]
# Llama-3's template with the bos token written as `bos_token` (LLaDA's bos is <|startoftext|>), content trimmed.
LLADA_CHAT_TEMPLATE = (
    "{% set loop_messages = messages %}{% for message in loop_messages %}"
    "{% set content = '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n' + message['content'] | trim + '<|eot_id|>' %}"
    "{% if loop.index0 == 0 %}{% set content = bos_token + content %}{% endif %}{{ content }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{% endif %}")

def llada_files():
    vocab, merges = learn_bpe(LLAMA3_PATTERN)
    special_map = {'bos_token': '<|startoftext|>', 'eos_token': '<|endoftext|>', 'pad_token': '<|endoftext|>'}
    config = {'added_tokens_decoder': {str(t['id']): decoder_entry(t) for t in LLADA_SPECIALS}, **special_map,
              'chat_template': LLADA_CHAT_TEMPLATE, 'clean_up_tokenization_spaces': False,
              'model_input_names': ['input_ids', 'attention_mask'], 'model_max_length': 4096,
              'tokenizer_class': 'PreTrainedTokenizerFast'}
    return {'tokenizer.json': tokenizer_json(vocab, merges, LLADA_SPECIALS, LLAMA3_PATTERN),
            'tokenizer_config.json': config, 'special_tokens_map.json': special_map}

# ---------------------------------------------------------------------------------------------------------------- Dream
# Qwen2.5's added tokens (151643-151664: the tool-call and fill-in-the-middle ones are not "special") + Dream's two.
DREAM_ADDED = ['<|endoftext|>', '<|im_start|>', '<|im_end|>', '<|object_ref_start|>', '<|object_ref_end|>',
               '<|box_start|>', '<|box_end|>', '<|quad_start|>', '<|quad_end|>', '<|vision_start|>', '<|vision_end|>',
               '<|vision_pad|>', '<|image_pad|>', '<|video_pad|>', '<tool_call>', '</tool_call>', '<|fim_prefix|>',
               '<|fim_middle|>', '<|fim_suffix|>', '<|fim_pad|>', '<|repo_name|>', '<|file_sep|>',
               '<|beginoftext|>', '<|mask|>']
DREAM_SPECIALS = [added(151643 + i, t, special=not (14 <= i <= 21)) for i, t in enumerate(DREAM_ADDED)]
# ChatML with Qwen2's default system turn (no tool calling).
DREAM_CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{% if loop.first and message['role'] != 'system' %}{{ '<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n' }}{% endif %}"
    "{{ '<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n' }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}")

def dream_files(with_tokenizer_json=False):
    vocab, merges = learn_bpe(QWEN2_PATTERN)
    special_map = {'additional_special_tokens': [t['content'] for t in DREAM_SPECIALS[1:14]],   # Qwen2.5's list
                   'bos_token': '<|beginoftext|>', 'eos_token': '<|endoftext|>', 'mask_token': '<|mask|>',
                   'pad_token': '<|endoftext|>'}
    config = {'add_bos_token': False, 'add_prefix_space': False,
              'added_tokens_decoder': {str(t['id']): decoder_entry(t) for t in DREAM_SPECIALS},
              'additional_special_tokens': special_map['additional_special_tokens'],
              'auto_map': {'AutoTokenizer': ['tokenization_dream.DreamTokenizer', None]},
              'bos_token': '<|beginoftext|>', 'chat_template': DREAM_CHAT_TEMPLATE, 'clean_up_tokenization_spaces': False,
              'eos_token': '<|endoftext|>', 'errors': 'replace', 'mask_token': '<|mask|>', 'model_max_length': 131072,
              'pad_token': '<|endoftext|>', 'split_special_tokens': False, 'tokenizer_class': 'DreamTokenizer',
              'unk_token': None}
    files = {'vocab.json': vocab, 'merges.txt': '#version: 0.2\n' + ''.join(f'{a} {b}\n' for a, b in merges),
             'tokenizer_config.json': config, 'special_tokens_map.json': special_map}
    if with_tokenizer_json:   # Qwen2's layout: special tokens in added_tokens only, NFC normaliser
        files['tokenizer.json'] = tokenizer_json(vocab, merges, DREAM_SPECIALS, QWEN2_PATTERN,
                                                 normalizer={'type': 'NFC'}, specials_in_vocab=False)
    return files

def write(folder, files):
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        text = content if isinstance(content, str) else json.dumps(content, indent=2, ensure_ascii=False) + '\n'
        (folder / name).write_text(text, encoding='utf-8')
    return {name: (folder / name).stat().st_size for name in files}

# ------------------------------------------------------------------------------------------------- official reference
REFERENCE_STRINGS = ["What is 2+3?", "Hello world", " Hello world", "The answer is 5.\n\n<reasoning>\nstep 12345</reasoning>",
                     "I'm here, they'll go.", "  multiple   spaces\n\n\ttab", "café naïve — 数学 😀", "cafe\u0301 (NFD)",
                     "<|im_start|>user\nhi<|im_end|>", "<|mask|><|mask|>x<|endoftext|>", '<tool_call>{"a": 1}</tool_call>',
                     "<|startoftext|><|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|><|mdm_mask|>"]
REFERENCE_CHATS = [[{'role': 'user', 'content': 'What is 2+3?'}],
                   [{'role': 'system', 'content': 'Be brief.'}, {'role': 'user', 'content': ' What is 2+3? '},
                    {'role': 'assistant', 'content': '5'}, {'role': 'user', 'content': 'And 4*4?'}]]
NAMED_TOKENS = {'llada_tiny': [t['content'] for t in LLADA_SPECIALS], 'dream_tiny': DREAM_ADDED}

def official_tokenizer(folder, remote_code_dir=None, tmp=None):
    "LLaDA: AutoTokenizer (no remote code). Dream: AutoTokenizer(trust_remote_code=True) on a temporary copy + the remote code."
    import shutil
    from transformers import AutoTokenizer
    if remote_code_dir is None: return AutoTokenizer.from_pretrained(folder), 'AutoTokenizer.from_pretrained(folder)'
    for f in ['vocab.json', 'merges.txt', 'tokenizer_config.json', 'special_tokens_map.json',
              Path(remote_code_dir) / 'tokenization_dream.py', Path(remote_code_dir) / 'configuration_dream.py']:
        shutil.copy(Path(folder) / f, tmp)
    return (AutoTokenizer.from_pretrained(tmp, trust_remote_code=True),
            "AutoTokenizer.from_pretrained(folder + Dream's tokenization_dream.py, trust_remote_code=True)")

def describe(tok, path, names):
    "What the self-test compares: ids and decoded text of each string, chat-templated ids, special-token ids."
    import transformers
    ids = {s: tok(s)['input_ids'] for s in REFERENCE_STRINGS}
    chats = []
    for m in REFERENCE_CHATS:
        x = tok.apply_chat_template(m, add_generation_prompt=True, tokenize=True)
        chats.append({'messages': m, 'text': tok.apply_chat_template(m, add_generation_prompt=True, tokenize=False),
                      'ids': list(x['input_ids'] if hasattr(x, 'keys') else x)})
    return {'official_path': path, 'class': type(tok).__name__, 'transformers': transformers.__version__,
            'ids': ids, 'decoded': {s: tok.decode(i) for s, i in ids.items()},
            'decoded_skip_special': {s: tok.decode(i, skip_special_tokens=True) for s, i in ids.items()},
            'chats': chats, 'special_ids': {k: getattr(tok, k) for k in ('bos_token_id', 'eos_token_id', 'pad_token_id', 'mask_token_id')},
            'token_ids': {t: tok.convert_tokens_to_ids(t) for t in names}}

def record_reference(remote_code_dir, out=OUT):
    import tempfile
    ref = {'about': 'ids given by the official tokenizer path on the fixture folders; written by tools/make_tokenizer_fixtures.py --reference'}
    tok, path = official_tokenizer(out / 'llada_tiny')
    ref['llada_tiny'] = describe(tok, path, NAMED_TOKENS['llada_tiny'])
    with tempfile.TemporaryDirectory() as tmp:
        tok, path = official_tokenizer(out / 'dream_tiny', remote_code_dir, tmp)
        ref['dream_tiny'] = describe(tok, path, NAMED_TOKENS['dream_tiny'])
    (out / 'tokenizer_reference.json').write_text(json.dumps(ref, indent=1, ensure_ascii=False) + '\n', encoding='utf-8')
    print(f"{out / 'tokenizer_reference.json'}: official ids under transformers {ref['dream_tiny']['transformers']}")

def main(out=OUT, dream_tokenizer_json=False):
    for name, files in (('llada_tiny', llada_files()), ('dream_tiny', dream_files(dream_tokenizer_json))):
        sizes = write(out / name, files)
        print(f'{out / name}: ' + ', '.join(f'{k} {v / 1024:.1f} KiB' for k, v in sizes.items()))

if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', type=Path, default=OUT, help='folder to hold llada_tiny/ and dream_tiny/')
    ap.add_argument('--dream-tokenizer-json', action='store_true', help="also write a Qwen2-style tokenizer.json for Dream")
    ap.add_argument('--reference', type=Path, help="folder holding Dream's tokenization_dream.py + configuration_dream.py: "
                                                   "record the official ids into tokenizer_reference.json")
    a = ap.parse_args()
    main(a.out, a.dream_tokenizer_json)
    if a.reference: record_reference(a.reference, a.out)
