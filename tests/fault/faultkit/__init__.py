"""The fault suite's harness: a killable server process, a load driver, a fuzzer and checkers.

A uniquely named package (not conftest) so `from faultkit.server import ...` never picks up another
folder's helpers when the whole suite runs. Each module has one job:

| module | job |
|---|---|
| `scale` | the suite's size (`POCKETGALAXY_FAULT_SCALE` or `--fault-scale`) |
| `server` | `python -m pocketgalaxy.web.server` as a subprocess: start, SIGKILL, stop, its log |
| `ledger` | what a client sent and what was acknowledged; checked against stored records |
| `load` | many games played at once over WebSockets and REST, with kills in between |
| `wsfuzz` | the seeded WebSocket message generator and the ping-fenced exchange |
| `restfuzz` | the OpenAPI operations and the seeded request builder |
| `probe` | a game seen from outside (every seat and a watcher), to tell whether anything changed |
| `damage` | damaging a SQLite database the way real accidents do |
| `report` | the figures the suite writes to test-output/fault-report.json |
"""
