__version__ = "0.1.0"

# LLaDA and Dream (model types "llada", "Dream") are registered with AutoConfig / AutoModel when transformers is
# imported (at once if it already is): nbs/01a_real_models.ipynb. `import daca_grpo` itself imports no torch.
from ._autoregister import install as _install_real_models
_install_real_models()

# Old module names (daca_grpo.protocol, daca_grpo.data, ...) import the modules that moved to daca_grpo.tasks and
# daca_grpo.paper, with a MovedModuleWarning, for one release: nbs/99_old_names.ipynb.
from ._old_names import install as _install_old_names
_install_old_names()
