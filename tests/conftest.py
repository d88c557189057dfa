import pytest

from bot.engine import register
from tests.support.toy import TOY

register(TOY)


def pytest_addoption(parser):
    parser.addoption("--playouts", type=int, default=None,
                     help="random playouts per game in the conformance suite (default: per game)")
