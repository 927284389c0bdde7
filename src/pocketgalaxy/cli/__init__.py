"""The `pocketgalaxy` command line: Typer commands over Rich screens built from views."""
