#!/usr/bin/env bash
# The build-and-check half of a release (docs/releasing.md), run by .github/workflows/release.yml on a
# version tag and by hand as the dry run: build sdist and wheel, check their metadata (twine), install
# the wheel into a clean venv and run the README's example there, and check that the version, the tag
# and the CHANGELOG agree. Uploads nothing. Usage: scripts/release_check.sh [TAG] [DIST_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(python3 -c 'import ast,sys; t=ast.parse(open("pytea_ci/__init__.py").read()); print(next(n.value.value for n in t.body if isinstance(n, ast.Assign) and n.targets[0].id == "__version__"))')
tag=${1:-v$version}
dist=${2:-dist}
[ "$tag" = "v$version" ] || { echo "tag $tag does not match pytea_ci.__version__ $version" >&2; exit 1; }
grep -q "^## \[$version\]" CHANGELOG.md || { echo "CHANGELOG.md has no section '## [$version]'" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/tools"
"$work/tools/bin/pip" install -q build twine
rm -rf "$dist"
"$work/tools/bin/python" -m build --sdist --wheel --outdir "$dist" .
"$work/tools/bin/twine" check --strict "$dist"/*

python3 -m venv "$work/clean"  # no torch, no test extras: what `pip install pytea-ci` gives a user
"$work/clean/bin/pip" install -q "$dist"/pytea_ci-"$version"-py3-none-any.whl
[ "$("$work/clean/bin/pytea-ci" --version)" = "pytea-ci $version" ] || { echo "installed version is not $version" >&2; exit 1; }
cp -r examples "$work/examples"
(cd "$work" && "$work/clean/bin/pytea-ci" check examples/mnist/main.py --no-cache)  # exit 0: the example is clean
mkdir "$work/bug" && sed 's/nn.Linear(320, 50)/nn.Linear(500, 50)/' examples/mnist/main.py > "$work/bug/main.py"
set +e
(cd "$work/bug" && "$work/clean/bin/pytea-ci" check main.py --no-cache)
rc=$?
set -e
[ "$rc" = 1 ] || { echo "the README's buggy example should exit 1, got $rc" >&2; exit 1; }
echo "release check of $tag passed: $(ls "$dist" | tr '\n' ' ')"
