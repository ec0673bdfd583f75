"""The `pyramid` command: every argparse and every print."""

from pyramid.cli.app import main

__all__ = ["main"]
