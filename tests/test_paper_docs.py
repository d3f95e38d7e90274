"""Every public function of the paper modules `protocol`, `likelihood`, `perf`, `design` and `credit` (and every public method of their
public classes) keeps its per-parameter documentation: a docstring, a fastcore docment (`# comment`) on each parameter, and a
return docment; a public dataclass keeps a docstring and a docment on each field. Edit the notebooks
(nbs/paper/15_performance, 16_rl_protocol, 17_likelihood_study, 18_design, 22_credit), not the modules."""
import importlib, inspect, re
from fastcore.docments import docments

MODULES = ('daca_grpo.paper.protocol', 'daca_grpo.paper.likelihood', 'daca_grpo.paper.perf', 'daca_grpo.paper.design', 'daca_grpo.paper.credit')
_SKIP_KINDS = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)

def undocumented(fn, returns=True) -> list:
    "What `fn` lacks: 'docstring', 'param <name>' for each parameter (but self, *args, **kwargs) without a docment, 'return'."
    out = [] if (inspect.getdoc(fn) or '').strip() else ['docstring']
    docs = docments(fn, full=True)
    for name, p in inspect.signature(fn).parameters.items():
        if name == 'self' or p.kind in _SKIP_KINDS: continue
        if not (docs[name]['docment'] or '').strip(): out.append(f'param {name}')
    if returns and not (docs['return']['docment'] or '').strip() and not _return_comment(fn): out.append('return')
    return out

def _return_comment(fn) -> str:
    "The comment after the signature's closing `):` (the style of a return left unannotated, which docments does not read)."
    for line in inspect.getsource(inspect.unwrap(fn)).splitlines()[1:]:
        m = re.match(r"\s*\)\s*(?:->[^:]*)?:\s*#\s*(\S.*)", line)
        if m: return m.group(1)
        if line.strip().startswith(('"', "'")): break     # the docstring: the signature has ended
    return ''

def _own(f, mod) -> bool:
    "Whether function `f` (decorators unwrapped) is written in `mod`'s file (not made by `dataclass`, not imported)."
    return inspect.unwrap(f).__code__.co_filename == mod.__file__

def _public_callables(mod):
    "(qualified name, function, needs a return docment) of `mod.__all__`'s functions and its classes' public methods."
    for name in mod.__all__:
        obj = getattr(mod, name)
        if inspect.isfunction(obj) and obj.__module__ == mod.__name__: yield name, obj, True
        elif inspect.isclass(obj) and obj.__module__ == mod.__name__:
            for k, v in vars(obj).items():
                if inspect.isfunction(v) and (not k.startswith('_') or k in ('__init__', '__call__')) and _own(v, mod):
                    yield f'{name}.{k}', v, k != '__init__'

def _class_problems(mod) -> list:
    "Public classes of `mod` without a docstring of their own, and dataclass fields without a docment."
    out = []
    for name in mod.__all__:
        cls = getattr(mod, name)
        if not (inspect.isclass(cls) and cls.__module__ == mod.__name__): continue
        doc = cls.__dict__.get('__doc__') or ''
        if not doc.strip() or doc.startswith(f'{name}('): out.append(f'{name}: docstring')   # dataclass's generated one
        if '__dataclass_fields__' in cls.__dict__:
            out += [f'{name}.{k}: field' for k, d in docments(cls, full=True, returns=False).items() if not (d['docment'] or '').strip()]
    return out

def test_checker_catches_a_missing_docment():
    def good(x:int,   # the input
             y=2,     # a default
             *args, **kwargs
            ) -> int: # their sum
        "Add."
        return x + y
    def bad(x:int,    # the input
            y=2
           ) -> int:  # their sum
        "Add."
        return x + y
    def bare(x): return x
    def unannotated(x,   # the input
                   ):    # x itself
        "Identity."
        return x
    def silent(x,        # the input
              ):
        "Identity."
        return x
    assert undocumented(unannotated) == [] and undocumented(silent) == ['return']   # the `):  # comment` style counts
    assert undocumented(good) == []
    assert undocumented(bad) == ['param y']
    assert undocumented(bare) == ['docstring', 'param x', 'return']

def test_paper_modules_are_documented():
    problems, n = [], 0
    for m in MODULES:
        mod = importlib.import_module(m)
        for name, fn, returns in _public_callables(mod):
            n += 1
            problems += [f'{m}.{name}: {p}' for p in undocumented(fn, returns)]
        problems += [f'{m}.{p}' for p in _class_problems(mod)]
    assert n > 80, f'only {n} public functions found: did the modules or their __all__ change?'
    assert not problems, 'undocumented (edit the notebook, then nbdev_export):\n' + '\n'.join(problems)
