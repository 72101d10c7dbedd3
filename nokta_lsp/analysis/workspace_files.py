"""The files of the workspace folders that workspace diagnostics check (``workspace`` holds
the folders). No protocol types here.

The files under each root whose type is checked (by name or extension, as ``nokta check``
picks a format; ``fileTypes`` and ``checkCodeComments`` as for open documents), in path
order, skipping what git ignores (``.gitignore`` files, each for the folder it is in and
those below, read with ``pathspec`` as git reads them; ``.git`` itself) and what the
repository's configuration excludes (``nokta_model.config``: its ``exclude``), files
larger than the size limit, and any beyond the count limit.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pathspec

from nokta_model.config import ConfigCache, ConfigError
from nokta_model.prose import Masker, format_for_path, masker_for, with_code_comments

GITIGNORE = ".gitignore"
SKIPPED_FOLDERS = (".git",)


@dataclass(frozen=True)
class WorkspaceFile:
    path: Path
    size: int  # bytes
    mtime_ns: int

    @property
    def stamp(self) -> tuple[int, int]:
        """What tells that the file changed since it was checked."""
        return self.size, self.mtime_ns


@dataclass
class Listing:
    files: list[WorkspaceFile] = field(default_factory=list)
    too_many: bool = False  # files beyond the count limit were left out
    too_large: int = 0  # files left out for their size


def file_masker(path: Path, file_types: Sequence[str], check_code: bool) -> Masker | None:
    """The format a workspace file is checked as, or None when it is not checked: a type
    nokta does not know, or one ``fileTypes`` (and ``checkCodeComments``) leave out. With
    ``check_code``, a document's code blocks have their comments and strings checked too."""
    masker = masker_for(format_for_path(path.name))
    if path.name not in masker.filenames and path.suffix.lower() not in masker.extensions:
        return None  # not known by name or extension (format_for_path falls back to plain text)
    if any(language in file_types for language in masker.language_ids):
        return with_code_comments(masker) if check_code else masker
    return masker if check_code and masker.code else None


class Excluded:
    """Whether a path is left out by the configuration above it (``exclude``); a broken
    configuration excludes nothing (the server reports it where it reads it for a file)."""

    def __init__(self) -> None:
        self.configs = ConfigCache()  # one listing: a configuration edited is read again next time

    def __call__(self, path: Path) -> bool:
        try:
            return self.configs.config_for(path).excludes(path)
        except ConfigError:
            return False


def list_files(
    roots: Sequence[Path],
    wanted: Callable[[Path], bool],
    max_files: int,
    max_size: int,
    excluded: Callable[[Path], bool] | None = None,
) -> Listing:
    """The checked files under ``roots``, at most ``max_files`` of at most ``max_size`` bytes each."""
    excluded = excluded or Excluded()
    listing, seen = Listing(), set()
    for root in roots:
        for entry in _walk(Path(root), []):
            path = Path(entry.path)
            if path in seen or not wanted(path) or excluded(path):
                continue
            seen.add(path)
            stat = entry.stat(follow_symlinks=False)
            if stat.st_size > max_size:
                listing.too_large += 1
            elif len(listing.files) == max_files:
                listing.too_many = True
                return listing
            else:
                listing.files.append(WorkspaceFile(path, stat.st_size, stat.st_mtime_ns))
    return listing


Ignores = list[tuple[Path, pathspec.GitIgnoreSpec]]  # each .gitignore's folder and patterns


def _walk(folder: Path, ignores: Ignores) -> Iterator[os.DirEntry[str]]:
    """The regular files below ``folder`` git does not ignore, in path order (symbolic links
    are not followed)."""
    ignores = [*ignores, *_gitignore(folder)]
    try:
        with os.scandir(folder) as scan:
            entries = sorted(scan, key=lambda entry: entry.name)
    except OSError:  # gone, or not readable: nothing to check there
        return
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            if entry.name not in SKIPPED_FOLDERS and not _ignored(Path(entry.path), ignores, folder=True):
                yield from _walk(Path(entry.path), ignores)
        elif entry.is_file(follow_symlinks=False) and not _ignored(Path(entry.path), ignores, folder=False):
            yield entry


def _gitignore(folder: Path) -> Ignores:
    try:
        lines = (folder / GITIGNORE).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    return [(folder, pathspec.GitIgnoreSpec.from_lines(lines))]


def _ignored(path: Path, ignores: Ignores, folder: bool) -> bool:
    """Whether a .gitignore of a folder above ``path`` ignores it (a folder's patterns are
    relative to it; ``dir/`` patterns match folders only)."""
    for base, spec in ignores:
        relative = path.relative_to(base).as_posix() + ("/" if folder else "")
        if spec.match_file(relative):
            return True
    return False
