"""The store's schema revisions, oldest first (Alembic reads every module here)."""
