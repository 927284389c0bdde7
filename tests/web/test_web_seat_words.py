"""Refusals about seats speak the player's language: seats count from 1 in the message (the
seat field of the request and the error code stay as the API has them)."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient


def _error(res: Any, status: int, code: str) -> str:
    assert res.status_code == status, res.text
    error = res.json()["error"]
    assert error["code"] == code
    message: str = error["message"]
    return message


def test_seat_refusals_count_seats_from_one(client: TestClient, create: Any) -> None:
    made = create("adventure", [{"kind": "human"}, {"kind": "human"}])
    gid, creator = made["game_id"], made["creator_token"]
    seat1 = made["seats"][1]["token"]

    res = client.post(f"/api/games/{gid}/seats/1/return",
                      headers={"Authorization": f"Bearer {made['seats'][0]['token']}"})
    assert "a valid token for seat 2 is needed" in _error(res, 401, "auth/bad_token")

    res = client.post(f"/api/games/{gid}/seats/1/return",
                      headers={"Authorization": f"Bearer {seat1}"})
    assert "seat 2 is already yours" in _error(res, 409, "seat/not_taken_over")

    auth = {"Authorization": f"Bearer {creator}"}
    assert client.post(f"/api/games/{gid}/seats/1/takeover", json={}, headers=auth
                       ).status_code == 200
    res = client.post(f"/api/games/{gid}/seats/1/takeover", json={}, headers=auth)
    assert "seat 2 is already taken over" in _error(res, 409, "seat/taken_over")

