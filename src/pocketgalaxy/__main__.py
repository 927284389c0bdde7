"""`python -m pocketgalaxy` runs the command line."""

from pocketgalaxy.cli.app import main

main()
