"""The games of Pocket Galaxy, each a pure rules package that imports only the core."""
