"""The package list under the installed names (pyproject.toml holds everything else): core/ is effbatch.core,
bot/ is effbatch.bot, each with every package below it."""

from setuptools import find_packages, setup

setup(packages=[f"effbatch.{name}" for name in find_packages(include=["core", "core.*", "bot", "bot.*"])])
