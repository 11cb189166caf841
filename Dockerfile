# The container image of pytea-ci, for GitHub container jobs (`container:`) and other CI systems (GitLab:
# examples/gitlab-ci.yml). The GitHub Action itself is a composite action (action.yml) that installs the
# same way on the runner: same Python minor version, same `install-step` commands, same entry point
# (tests/integrations/test_composite_action.py keeps them in sync). Everything is installed at build time
# from this build context and docker/requirements.txt (exact versions); nothing is downloaded when it runs.
#
# User: root, on purpose. CI systems (GitHub container jobs, GitLab) mount a workspace owned by another
# user and run the container as the image's default user: as root the run can write the SARIF file and
# the cache there. Elsewhere, run the container as yourself:
#   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/src" -w /src pytea-ci check .
# (a non-root user needs only read access to the code and write access to the SARIF/cache paths).
#
# Base: the slim Debian Python image, pinned by its full version (Python 3.13.9 on Debian 12).
# Pin it by digest too (python:3.13.9-slim-bookworm@sha256:...) when you publish the image.
FROM python:3.13.9-slim-bookworm

# git: the driver diffs with it (GitPython shells out to git). The workspace that GitHub (and most CI
# systems) mount belongs to another user, so git refuses it ("dubious ownership") unless told to
# trust it: safe.directory '*' in the system config.
RUN apt-get update \
 && apt-get install -y --no-install-recommends git \
 && rm -rf /var/lib/apt/lists/* \
 && git config --system --add safe.directory '*'

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_ROOT_USER_ACTION=ignore

# Dependencies first (a layer that survives edits of the package), then the package.
COPY docker/requirements.txt /tmp/pytea-ci/docker/requirements.txt
# install-step: python -m pip install --no-cache-dir -r /tmp/pytea-ci/docker/requirements.txt
RUN python -m pip install --no-cache-dir -r /tmp/pytea-ci/docker/requirements.txt
COPY pyproject.toml README.md /tmp/pytea-ci/
COPY pytea_ci /tmp/pytea-ci/pytea_ci
# install-step: python -m pip install --no-cache-dir --no-deps /tmp/pytea-ci
# install-step: python -m pip check
RUN python -m pip install --no-cache-dir --no-deps /tmp/pytea-ci \
 && python -m pip check \
 && rm -rf /tmp/pytea-ci \
 && python -m pytea_ci.action --version

# No WORKDIR: GitHub mounts the workspace and sets the working directory itself.
# With no arguments: the Action's entry point (inputs from INPUT_*); with arguments: the pytea-ci CLI.
ENTRYPOINT ["python", "-m", "pytea_ci.action"]
