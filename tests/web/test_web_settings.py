"""Settings (defaults, environment, arguments), the SQLite set-up, and `run` printing where."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from pocketgalaxy.core.errors import OptionsError
from pocketgalaxy.web import server
from pocketgalaxy.web.settings import Settings
from pocketgalaxy.web.store import Store


def test_defaults_environment_and_arguments() -> None:
    plain = Settings.from_env({})
    assert (plain.host, plain.port, plain.data_dir) == ("127.0.0.1", 8000, Path("data"))
    assert plain.resolved_database_url == "sqlite:///data/pocketgalaxy.sqlite3"
    assert plain.bot_delay_ms == 300 and plain.max_message_bytes == 16 * 1024
    env = {
        "POCKETGALAXY_HOST": "0.0.0.0", "POCKETGALAXY_PORT": "9001",
        "POCKETGALAXY_DATABASE_URL": "sqlite:///elsewhere.db", "POCKETGALAXY_DATA_DIR": "/srv/pg",
        "POCKETGALAXY_BOT_DELAY_MS": "0",
    }
    from_env = Settings.from_env(env)
    assert (from_env.host, from_env.port, from_env.bot_delay_ms) == ("0.0.0.0", 9001, 0)
    assert from_env.resolved_database_url == "sqlite:///elsewhere.db"
    assert from_env.data_dir == Path("/srv/pg")
    limits = Settings.from_env({"POCKETGALAXY_RATE_PER_S": "2.5", "POCKETGALAXY_RATE_BURST": "7"})
    assert (limits.rate_per_s, limits.rate_burst) == (2.5, 7)
    # Arguments beat the environment; None means "not given".
    argued = Settings.from_env(env, port=7000, host=None)
    assert (argued.host, argued.port) == ("0.0.0.0", 7000)
    no_url = Settings.from_env({"POCKETGALAXY_DATA_DIR": "/srv/pg"})
    assert no_url.resolved_database_url == "sqlite:////srv/pg/pocketgalaxy.sqlite3"


@pytest.mark.parametrize(
    ("env", "overrides"),
    [
        ({"POCKETGALAXY_PORT": "eighty"}, {}),
        ({}, {"port": 70000}),
        ({}, {"bot_delay_ms": -1}),
        ({}, {"colour": "red"}),
    ],
)
def test_bad_settings_are_refused(env: dict[str, str], overrides: dict[str, Any]) -> None:
    with pytest.raises(OptionsError) as err:
        Settings.from_env(env, **overrides)
    assert err.value.code == "options/invalid"


def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'deep' / 'x.sqlite3'}")
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 5000
    names = set(sa.inspect(store.engine).get_table_names())
    assert {"games", "actions"} <= names
    store.dispose()


def test_run_prints_the_address_and_serves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    import uvicorn

    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(app=app, **kw))
    server.run(host="127.0.0.1", port=8123, data_dir=tmp_path / "d")
    out = capsys.readouterr().out
    assert "http://127.0.0.1:8123/" in out and "pocketgalaxy.sqlite3" in out
    assert (seen["host"], seen["port"]) == ("127.0.0.1", 8123)
    assert (tmp_path / "d").is_dir()


def test_websocket_deflate_is_off_unless_asked_and_a_bad_flag_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(kw))
    server.run(host="127.0.0.1", port=8124, data_dir=tmp_path / "d")
    assert seen["ws_per_message_deflate"] is False
    monkeypatch.setenv("POCKETGALAXY_WS_DEFLATE", "on")
    server.run(host="127.0.0.1", port=8125, data_dir=tmp_path / "e")
    assert seen["ws_per_message_deflate"] is True
    assert Settings.from_env({"POCKETGALAXY_WS_DEFLATE": "0"}).ws_deflate is False
    with pytest.raises(OptionsError) as refused:
        Settings.from_env({"POCKETGALAXY_WS_DEFLATE": "maybe"})
    assert "ws_deflate='maybe'" in refused.value.message
    assert "1, true, yes, on, 0, false, no, off" in refused.value.message
