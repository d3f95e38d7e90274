"""Packaging for daca_grpo (nbdev 2 layout: everything is read from settings.ini)."""
from configparser import ConfigParser
import setuptools, shlex

config = ConfigParser(delimiters=['='])
config.read('settings.ini', encoding='utf-8')
cfg = config['DEFAULT']

expected = ('version description keywords author author_email license min_python '
            'status audience language lib_name user').split()
missing = [k for k in expected if k not in cfg]
if missing: raise ValueError(f"settings.ini is missing the field(s) {missing}")

licenses = {'apache2': ('Apache Software License 2.0', 'OSI Approved :: Apache Software License', 'Apache-2.0')}   # (name, classifier, SPDX)
statuses = ['1 - Planning', '2 - Pre-Alpha', '3 - Alpha', '4 - Beta', '5 - Production/Stable', '6 - Mature', '7 - Inactive']
py_versions = '3.10 3.11 3.12 3.13'.split()
lic = licenses.get(cfg['license'].lower(), (cfg['license'], None, None))
# setuptools >= 77 takes the licence as an SPDX expression (PEP 639) and deprecates the License classifiers; older ones take the classifier
spdx = lic[2] and tuple(int(p) for p in setuptools.__version__.split('.')[:2]) >= (77, 0)
license_kw = {'license_expression': lic[2]} if spdx else {'license': lic[0]}
min_python = cfg['min_python']

def reqs(key): return shlex.split(cfg.get(key, ''))
requirements = reqs('requirements')
plot_requirements = reqs('plot_requirements')
dev_requirements = reqs('dev_requirements')

# the repository's configs/ ships inside the package as daca_grpo/configs (`daca-grpo train d1/gsm8k_diffu_grpo_dps.yaml`):
# it and each of its folders (d1/, tiny/, accelerate/) are packages of YAML files only, each named here, so none is left to namespace discovery
config_packages = ['daca_grpo.configs'] + ['daca_grpo.configs.' + p for p in sorted(setuptools.find_namespace_packages(where='configs'))]

setuptools.setup(
    name=cfg['lib_name'],
    **license_kw,
    classifiers=['Development Status :: ' + statuses[int(cfg['status'])],
                 'Intended Audience :: ' + cfg['audience'].title(),
                 'Natural Language :: ' + cfg['language'].title()]
               + ['Programming Language :: Python :: ' + o for o in py_versions[py_versions.index(min_python):]]
               + (['License :: ' + lic[1]] if lic[1] and not spdx else []),
    url=cfg['git_url'],
    packages=setuptools.find_packages(include=['daca_grpo', 'daca_grpo.*']) + config_packages,
    package_dir={'daca_grpo.configs': 'configs'},
    include_package_data=True,
    package_data={p: ['*.yaml'] for p in config_packages},
    install_requires=requirements,
    extras_require={'plot': plot_requirements, 'dev': dev_requirements},
    dependency_links=cfg.get('dep_links', '').split(),
    python_requires='>=' + cfg['min_python'],
    long_description=open('README.md', encoding='utf-8').read(),
    long_description_content_type='text/markdown',
    zip_safe=False,
    entry_points={'console_scripts': cfg.get('console_scripts', '').split(),
                  'nbdev': [f'{cfg.get("lib_path")}={cfg.get("lib_path")}._modidx:d']},
    **{k: cfg[k] for k in ('version', 'description', 'keywords', 'author', 'author_email')})
