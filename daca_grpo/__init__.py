__version__ = "0.1.0"

# LLaDA and Dream (model types "llada", "Dream") load with AutoConfig / AutoModel after `import daca_grpo`
from . import real_models
