"""Extract the pinned sources of the mutation benchmark into a cache folder outside the repository.

Nothing of other people's code is committed: `sources.json` holds pins and hashes, this module
downloads (`pip download --no-deps NAME==VERSION`, sha256 checked) or exports (`git archive COMMIT`
from a local mirror, else the tarball of that commit from codeload.github.com) each source once into
`$PYTEA_MUTANTS_CACHE/src/<source>/` (default `~/.cache/pytea-ci-mutants`).

    python benchmarks/mutants/fetch.py [SOURCE ...]
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import urllib.request
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.environ.get("PYTEA_MUTANTS_CACHE", os.path.expanduser("~/.cache/pytea-ci-mutants"))
MIRRORS = os.environ.get("PYTEA_MUTANTS_MIRRORS", "/work/.mirror")


def load_sources() -> dict[str, dict]:
    with open(os.path.join(HERE, "sources.json")) as f:
        return json.load(f)["sources"]


def sha256_file(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _strip_top(dest: str) -> None:
    """An sdist or a GitHub tarball unpacks into one top folder: move its content up."""
    tops = os.listdir(dest)
    if len(tops) == 1 and os.path.isdir(os.path.join(dest, tops[0])):
        top = os.path.join(dest, tops[0])
        for name in os.listdir(top):
            shutil.move(os.path.join(top, name), dest)
        os.rmdir(top)


def _fetch_pypi(src: dict, dest: str) -> None:
    dl = os.path.join(CACHE, "dl")
    os.makedirs(dl, exist_ok=True)
    archive = os.path.join(dl, src["file"])
    if not os.path.exists(archive):
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", dl,
                        f"{src['name']}=={src['version']}"], check=True)
    got = sha256_file(archive)
    if got != src["sha256"]:
        raise SystemExit(f"{archive}: sha256 {got} != pinned {src['sha256']}")
    if archive.endswith(".whl"):
        with zipfile.ZipFile(archive) as z:
            z.extractall(dest)
    else:
        with tarfile.open(archive) as t:
            t.extractall(dest, filter="data")
        _strip_top(dest)


def _fetch_git(src: dict, dest: str) -> None:
    mirror = os.path.join(MIRRORS, src["repo"].replace("/", "+"), "repo")
    if os.path.isdir(os.path.join(mirror, ".git")):  # a clone with a work tree, not a bare mirror
        mirror = os.path.join(mirror, ".git")
    if os.path.isdir(mirror):
        names = subprocess.run(["git", "--git-dir", mirror, "ls-tree", "-r", "--name-only", src["commit"]],
                               check=True, capture_output=True, text=True).stdout.split("\n")
        py = [n for n in names if n.endswith(".py")]  # the mirror may lack large data blobs
        data = subprocess.run(["git", "--git-dir", mirror, "archive", "--format=tar", src["commit"], "--", *py],
                              check=True, capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(data)) as t:
            t.extractall(dest, filter="data")
        return
    url = f"https://codeload.github.com/{src['repo']}/tar.gz/{src['commit']}"
    with urllib.request.urlopen(url, timeout=120) as r:  # noqa: S310 (a pinned public URL)
        data = r.read()
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as t:
        t.extractall(dest, filter="data")
    _strip_top(dest)


def source_dir(name: str) -> str:
    """The extracted tree of one source (extracted on first use)."""
    dest = os.path.join(CACHE, "src", name)
    if os.path.isdir(dest):
        return dest
    src = load_sources()[name]
    tmp = dest + ".part"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    (_fetch_pypi if src["kind"] == "pypi" else _fetch_git)(src, tmp)
    os.rename(tmp, dest)
    return dest


def main(argv: list[str]) -> int:
    names = argv or sorted(load_sources())
    for name in names:
        print(name, source_dir(name))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
