"""MkDocs hooks (``mkdocs.yml``): the README is the site's home page, and the links the pages write for a clone
(``../README.md``, ``docs/playing.md``, ``../requirements-lock.txt``) lead to the same pages and files on the site.

A page links by its place in the repository; on the site the README is ``index.md``, ``docs/X`` is ``X``, and any
other file of the repository a page links to is copied to ``repo/PATH``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePosixPath
from typing import Any

ROOT = Path(__file__).resolve().parent
DOCS = ROOT / "docs"
HOME = "index.md"  # the README's place on the site
OUTSIDE = "repo"  # where the other files of the repository that pages link to go on the site
FENCE = re.compile(r"(```.*?```)", flags=re.S)
LINK = re.compile(r"(\]\()([^)\s]+)(\))")


def site_path(file: Path) -> str:
    """Where a file of the repository lives on the site, relative to docs/ (``README.md`` -> ``index.md``)."""
    file = file.resolve()
    if file == ROOT / "README.md":
        return HOME
    if file.is_relative_to(DOCS):
        return file.relative_to(DOCS).as_posix()
    return f"{OUTSIDE}/{file.relative_to(ROOT).as_posix()}"


def repo_file(src_uri: str) -> Path:
    """The file of the repository a page of the site was written as (``index.md`` -> ``README.md``)."""
    return ROOT / "README.md" if src_uri == HOME else DOCS / src_uri


def _local(target: str) -> bool:
    return not re.match(r"[a-z]+:|#|/", target)


def rewrite_links(markdown: str, src_uri: str) -> str:
    """The page's Markdown with each link to a local file pointing where that file is on the site (code left)."""
    page = repo_file(src_uri)
    here = PurePosixPath(site_path(page)).parent

    def moved(match: re.Match[str]) -> str:
        target = match.group(2)
        if not _local(target):
            return match.group(0)
        path, hash_, fragment = target.partition("#")
        there = site_path(page.parent / path) if path else site_path(page)
        relative = os.path.relpath(there, here.as_posix() or ".")
        return f"{match.group(1)}{PurePosixPath(relative).as_posix()}{hash_}{fragment}{match.group(3)}"

    parts = FENCE.split(markdown)
    return "".join(part if part.startswith("```") else LINK.sub(moved, part) for part in parts)


def outside_files(pages: list[Path]) -> set[Path]:
    """The files outside docs/ (and other than the README) that ``pages`` link to."""
    found = set()
    for page in pages:
        prose = "".join(p for p in FENCE.split(page.read_text(encoding="utf-8")) if not p.startswith("```"))
        for target in (m.group(2) for m in LINK.finditer(prose)):
            path = target.partition("#")[0]
            if path and _local(target):
                file = (page.parent / path).resolve()
                if file.is_file() and site_path(file).startswith(f"{OUTSIDE}/"):
                    found.add(file)
    return found


def on_files(files: Any, config: Any) -> Any:
    """Add the README as the home page, and the repository's files that pages link to."""
    from mkdocs.structure.files import File

    files.append(File.generated(config, HOME, abs_src_path=str(ROOT / "README.md")))
    pages = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
    for file in sorted(outside_files(pages)):
        files.append(File.generated(config, site_path(file), abs_src_path=str(file)))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Each page's links, pointed at the site's copies."""
    return rewrite_links(markdown, page.file.src_uri)
