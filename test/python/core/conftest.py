import pytest

import lakestream


@pytest.fixture
def con():
    c = lakestream.connect()
    yield c
    c.close()
