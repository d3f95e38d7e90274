"""The dLLMs: the tiny model (`tiny`), native LLaDA and Dream (`llada_dream`), what they share (`shared`: RMSNorm, RoPE,
attention masks, the key/value cache, the strict loader), their tokenizers (`tokenizer`), and loading any of them with its
conventions (`adapters`: `load_dllm`, `adapter_for`). The bottom layer of the package: it imports nothing from the method
(sampler, DPS, estimators, losses), the runtime, `tasks` or `paper`."""
