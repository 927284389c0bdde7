// The live connection to one game: a WebSocket that reconnects by itself with backoff and says
// hello again (seat, token, the last action count seen) each time it opens.

const MIN_DELAY_MS = 250;
const MAX_DELAY_MS = 8000;
const PING_EVERY_MS = 20000;

/**
 * GameSocket(gameId, {seat, token, onMessage, onStatus}).
 * onMessage(msg) gets every snapshot/update/presence/error/pong; onStatus(state, info) gets
 * "connecting" | "open" | "reconnecting" | "closed" so the page can show a banner.
 */
export class GameSocket {
  constructor(gameId, { seat = null, token = null, onMessage, onStatus } = {}) {
    this.gameId = gameId;
    this.seat = seat;
    this.token = token;
    this.onMessage = onMessage || (() => {});
    this.onStatus = onStatus || (() => {});
    this.since = 0; // the action count this page has seen (sent in hello)
    this.attempt = 0;
    this.ws = null;
    this.closedByPage = false;
    this.pingTimer = null;
    this.retryTimer = null;
    this._onOnline = () => this.reconnectNow();
    window.addEventListener("online", this._onOnline);
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/${encodeURIComponent(this.gameId)}`;
  }

  connect() {
    this.closedByPage = false;
    clearTimeout(this.retryTimer);
    this.onStatus(this.attempt === 0 ? "connecting" : "reconnecting", { attempt: this.attempt });
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (err) {
      this._scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return;
      // Always from 0: the page rebuilds its whole picture from the snapshot after a reconnect,
      // so nothing is lost whatever happened while it was away.
      ws.send(JSON.stringify({ type: "hello", seat: this.seat, token: this.token, since: 0 }));
      this.onStatus("open", {});
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_EVERY_MS);
    });
    ws.addEventListener("message", (ev) => {
      if (this.ws !== ws) return;
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch (err) {
        return;
      }
      if (msg && typeof msg.index === "number") this.since = msg.index;
      // The backoff restarts only once the server really let us in: a socket refused by a
      // connection limit (error limit/connections, close 1013) keeps backing off.
      if (msg && msg.type === "snapshot") this.attempt = 0;
      this.onMessage(msg);
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      clearInterval(this.pingTimer);
      this.ws = null;
      if (!this.closedByPage) this._scheduleRetry();
      else this.onStatus("closed", {});
    });
    ws.addEventListener("error", () => {
      /* a close event follows; the retry is scheduled there */
    });
  }

  _scheduleRetry() {
    this.attempt += 1;
    const base = Math.min(MAX_DELAY_MS, MIN_DELAY_MS * 2 ** Math.min(this.attempt - 1, 6));
    const delay = base / 2 + Math.random() * (base / 2);
    this.onStatus("reconnecting", { attempt: this.attempt, delay });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    if (this.closedByPage || (this.ws && this.ws.readyState <= 1)) return;
    clearTimeout(this.retryTimer);
    this.connect();
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  /** Send a message now if open (returns true), otherwise false. */
  send(message) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Act at action count `index` (the count this page has seen). */
  act(action, index = this.since) {
    return this.send({ type: "act", action, index });
  }

  close() {
    this.closedByPage = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    window.removeEventListener("online", this._onOnline);
    if (this.ws) this.ws.close();
  }
}
