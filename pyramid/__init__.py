"""Reinhold Wittig's dice pyramid and its games, in 3-D physics: the package's one version lives here."""

__version__ = "0.1.0"  # pyproject.toml reads it (dynamic); pyramid --version prints it; CHANGELOG.md says what changed
