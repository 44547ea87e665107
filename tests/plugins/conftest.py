"""The example plugins, installed once a session and put on the path for each test module that asks."""

from __future__ import annotations

import pytest

from .site import install, on_path


@pytest.fixture(scope="session")
def examples_site(tmp_path_factory):
    return install(tmp_path_factory.mktemp("site"))


@pytest.fixture(scope="module")
def pig(examples_site):
    """examples/pig (and the other examples) installed and registered."""
    with on_path(examples_site) as site:
        yield site


@pytest.fixture(scope="module")
def liars_dice(examples_site):
    """examples/liars_dice (and the other examples) installed and registered."""
    with on_path(examples_site) as site:
        yield site
