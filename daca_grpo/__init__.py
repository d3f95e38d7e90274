__version__ = "0.2.0"

# LLaDA and Dream (model types "llada", "Dream") are registered with AutoConfig / AutoModel, and Dream's
# `diffusion_generate` is added, when transformers is imported (at once if it already is): nbs/02_autoregister.ipynb.
# `import daca_grpo` itself imports no torch. The package's layers: CHANGELOG.md (0.2.0).
from ._autoregister import install as _install_real_models
_install_real_models()
