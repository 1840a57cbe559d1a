"""Maps the top-level folders codegen/, generated/ and runtime/ into the tilecraft namespace.

Everything else about the distribution lives in pyproject.toml; this file only computes the
package list, so that a new sub-package in any of the mapped folders is picked up without edits.
"""

from setuptools import find_packages, setup

ROOTS = {
    "tilecraft": "tilecraft",
    "tilecraft.codegen": "codegen",
    "tilecraft.generated": "generated",
    "tilecraft.runtime": "runtime",
}


def _packages() -> list[str]:
    packages = []
    for name, folder in ROOTS.items():
        packages.append(name)
        packages += [f"{name}.{sub}" for sub in find_packages(folder)]
    return sorted(packages)


setup(packages=_packages(), package_dir=ROOTS)
