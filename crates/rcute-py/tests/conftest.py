import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "symbolic_algebra: the layout algebra on layouts with symbols "
        "(select with -m symbolic_algebra, leave out with -m 'not symbolic_algebra')",
    )
