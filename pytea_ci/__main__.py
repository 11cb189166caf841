"""`python -m pytea_ci` runs the command-line interface."""

from pytea_ci.cli import script

script()
