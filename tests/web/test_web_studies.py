"""The data folder's balance studies on the web: listed, shown, and nothing else reachable."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from pocketgalaxy.sim.balance.measures import measure
from pocketgalaxy.sim.balance.report import write_report
from pocketgalaxy.sim.balance.run import run_study
from pocketgalaxy.sim.balance.study import study_from_flags
from pocketgalaxy.web.settings import Settings


@pytest.fixture(scope="module")
def study_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small real study, written once for the module."""
    study = study_from_flags("adventure", ["base:", "asked:next_after_failed_request=asked_player"],
                             players=["memory", "random"], games=8, seed=4)
    run = run_study(study)
    folder = tmp_path_factory.mktemp("study") / "two-rules"
    write_report(run, measure(run), folder)
    return folder


@pytest.fixture
def studies_client(client: TestClient, settings: Settings, study_folder: Path) -> TestClient:
    root = Path(settings.data_dir) / "studies"
    root.mkdir(parents=True, exist_ok=True)
    target = root / "two-rules"
    target.mkdir()
    for item in study_folder.rglob("*"):
        dest = target / item.relative_to(study_folder)
        if item.is_dir():
            dest.mkdir(exist_ok=True)
        else:
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(item.read_bytes())
    (root / "not a study").mkdir()  # a folder of another shape is never listed
    (root / "empty").mkdir()  # nor a folder without a report
    return client


def test_studies_are_listed_with_their_variants(studies_client: TestClient) -> None:
    data = studies_client.get("/api/studies").json()
    assert [s["name"] for s in data["studies"]] == ["two-rules"]
    entry = data["studies"][0]
    assert entry["game"] == "adventure"
    assert entry["variants"] == ["base", "asked"]
    assert entry["games"] == {"base": 8, "asked": 8}
    page = studies_client.get("/studies")
    assert page.status_code == 200
    assert "href='/studies/two-rules'" in page.text


def test_a_study_report_and_its_plots_are_served(studies_client: TestClient) -> None:
    report = studies_client.get("/studies/two-rules")
    assert report.status_code == 200
    assert "asked vs base" in report.text
    policy = report.headers["content-security-policy"]
    assert "script-src" not in policy and "default-src 'none'" in policy
    plot = studies_client.get("/studies/two-rules/plots/win_rate.png")
    assert plot.status_code == 200 and plot.content[:4] == b"\x89PNG"
    assert plot.headers["content-type"] == "image/png"


@pytest.mark.parametrize(
    "path",
    ["/studies/%2e%2e", "/studies/%2e%2e%2fpocketgalaxy.sqlite3", "/studies/empty",
     "/studies/not%20a%20study", "/studies/two-rules/plots/..%2f..%2fsummary.json",
     "/studies/two-rules/plots/games.csv", "/studies/nothing-here"],
)
def test_nothing_outside_a_study_can_be_read(studies_client: TestClient, path: str) -> None:
    answer = studies_client.get(path)
    assert answer.status_code == 404
    # Refused by the study routes (or, for a path no route matches, not found at all).
    assert answer.json()["error"]["code"] in ("study/not_found", "request/not_found")


def test_no_studies_folder_lists_none(client: TestClient) -> None:
    assert client.get("/api/studies").json()["studies"] == []
    assert "No studies yet" in client.get("/studies").text
