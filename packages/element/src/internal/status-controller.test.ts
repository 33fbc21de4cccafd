import type { ReactiveController, ReactiveControllerHost } from "lit";
import { expect } from "@esm-bundle/chai";
import {
  backendUrl,
  closeStreams,
  eventually,
  newId,
  patchBehaviour,
  patchSession,
  pixSession,
  PUBLISHABLE_KEY,
  preparingSession,
  putSession,
  requestLog,
  PIX_CODE,
  restoreStubs,
  shownAttempts,
  shownReports,
  stub,
} from "../../test-support/control.js";
import type { FakeBehaviour } from "../../test-support/fake-backend.js";
import type { CheckoutSession } from "../session.js";
import { Backend } from "./backend.js";
import type { BackendError } from "./backend-error.js";
import { pollDelay, POLL_MAX_MS, StatusController } from "./status-controller.js";
import { SHOWN_ATTEMPTS } from "./stream.js";

/** A host with no rendering: the controller only needs addController. */
function host() {
  const controllers: ReactiveController[] = [];
  const h: ReactiveControllerHost = {
    addController: (c) => void controllers.push(c),
    removeController: () => {},
    requestUpdate: () => {},
    updateComplete: Promise.resolve(true),
  };
  return {
    h,
    connect: () => controllers.forEach((c) => c.hostConnected?.()),
    disconnect: () => controllers.forEach((c) => c.hostDisconnected?.()),
  };
}

/** Holds each wait between polls until the test releases it, recording the delays asked for. */
function gate() {
  const delays: number[] = [];
  let release: (() => void) | null = null;
  return {
    delays,
    wait: (ms: number, signal: AbortSignal) =>
      new Promise<void>((resolve) => {
        delays.push(ms);
        release = resolve;
        signal.addEventListener("abort", () => resolve(), { once: true });
      }),
    /** Ends the current wait (once the controller is waiting). */
    async next() {
      await eventually(() => expect(release).to.not.equal(null));
      const r = release as unknown as () => void;
      release = null;
      r();
    },
    get waiting() {
      return release !== null;
    },
  };
}

let hidden = false;
let stop: (() => void) | undefined;

beforeEach(() => {
  hidden = false;
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  stub(Math, "random", () => 0.5);
});

afterEach(() => {
  stop?.();
  stop = undefined;
  restoreStubs();
});

async function follow(
  label: string,
  behaviour: FakeBehaviour = {},
  session?: Partial<CheckoutSession>,
) {
  const id = newId(label);
  await putSession(pixSession(id, session), behaviour);
  const sessions: CheckoutSession[] = [];
  const errors: BackendError[] = [];
  const g = gate();
  const { h, connect, disconnect } = host();
  const controller = new StatusController(h, {
    onSession: (s) => sessions.push(s),
    onError: (e) => errors.push(e),
    wait: g.wait,
    streamIdleMs: 300,
  });
  connect();
  stop = disconnect;
  controller.watch(new Backend({ backendUrl, publishableKey: PUBLISHABLE_KEY, sessionId: id }));
  return { id, sessions, errors, gate: g, controller };
}

const statusGets = async (id: string) =>
  (await requestLog(id)).filter((r) => r === "GET status").length;

describe("pollDelay", () => {
  it("spreads each delay by at most 10% either way so dropped shoppers do not return in lockstep", () => {
    expect(pollDelay(0, () => 0)).to.equal(1800);
    expect(pollDelay(0, () => 1)).to.equal(2200);
  });

  it("never waits longer than 15 s, jitter included", () => {
    expect(pollDelay(20, () => 1)).to.equal(POLL_MAX_MS);
  });
});

describe("StatusController", () => {
  it("polls at 2 s and backs off by half each time up to 15 s when the backend has no stream", async () => {
    const { id, gate } = await follow("backoff", { stream: "missing" });
    for (let i = 0; i < 7; i++) await gate.next();
    await eventually(() => expect(gate.delays.length).to.equal(8));
    expect(gate.delays.slice(0, 7)).to.deep.equal([2000, 3000, 4500, 6750, 10125, 15000, 15000]);
    expect(await statusGets(id)).to.equal(8);
  });

  it("tries the stream once and then only polls when the stream route is missing", async () => {
    const { id, gate } = await follow("nostream", { stream: "missing" });
    await gate.next();
    await gate.next();
    await eventually(() => expect(gate.delays.length).to.equal(3));
    expect(await requestLog(id)).to.deep.equal([
      "GET status",
      "GET stream",
      "GET status",
      "GET status",
    ]);
  });

  it("polls when the stream answers but never sends anything, as behind a buffering proxy", async () => {
    const { id, gate } = await follow("silent", { stream: "silent" });
    await gate.next();
    await gate.next();
    await eventually(() => expect(gate.delays.length).to.equal(3));
    expect(await requestLog(id)).to.deep.equal([
      "GET status",
      "GET stream",
      "GET status",
      "GET status",
    ]);
  });

  it("stops asking once the session is paid and its order is paid too", async () => {
    const { id, gate, sessions } = await follow("final", { stream: "missing" });
    await eventually(() => expect(gate.waiting).to.equal(true));
    await patchSession(id, {
      status: "paid",
      paid_at: new Date().toISOString(),
      order: { display_id: 12, payment: "paid" },
    });
    await gate.next();
    await eventually(() => expect(sessions.at(-1)?.status).to.equal("paid"));
    expect(gate.waiting).to.equal(false);
    expect(gate.delays).to.have.lengthOf(1);
  });

  it("listens on after paid, backing off, until the order's news is final: an order edited up owes more, then is paid", async () => {
    const { id, gate, sessions } = await follow("paid-order", { stream: "missing" });
    await eventually(() => expect(gate.waiting).to.equal(true));
    // Paid, and no order yet (the cart is being completed, perhaps in another browser).
    await patchSession(id, { status: "paid", paid_at: new Date().toISOString() });
    await gate.next();
    await eventually(() => expect(sessions.at(-1)?.status).to.equal("paid"));
    await eventually(() => expect(gate.waiting).to.equal(true));
    await patchSession(id, { order: { display_id: 12, payment: "awaiting", owes: 3_990 } });
    await gate.next();
    await eventually(() => expect(sessions.at(-1)?.order?.owes).to.equal(3_990));
    await eventually(() => expect(gate.waiting).to.equal(true));
    await patchSession(id, { order: { display_id: 12, payment: "paid" } });
    await gate.next();
    await eventually(() => expect(sessions.at(-1)?.order?.payment).to.equal("paid"));
    expect(gate.waiting).to.equal(false);
    // The polls after the payment kept backing off: no hammering of a store with nothing new.
    expect(gate.delays).to.deep.equal([2000, 3000, 4500]);
  });

  it("stops asking once a paid code's order is canceled", async () => {
    const { id, gate, sessions } = await follow("paid-canceled", { stream: "missing" });
    await eventually(() => expect(gate.waiting).to.equal(true));
    await patchSession(id, {
      status: "paid",
      paid_at: new Date().toISOString(),
      order: { display_id: 12, payment: "canceled" },
    });
    await gate.next();
    await eventually(() => expect(sessions.at(-1)?.order?.payment).to.equal("canceled"));
    expect(gate.waiting).to.equal(false);
  });

  it("backs off after a paid code's stream ends with no news, rather than reconnecting at once", async () => {
    const { gate, sessions } = await follow(
      "paid-stream",
      {},
      {
        status: "paid",
        paid_at: new Date().toISOString(),
      },
    );
    await eventually(() => expect(sessions.at(-1)?.status).to.equal("paid"));
    for (let i = 0; i < 3; i++) await gate.next();
    await eventually(() => expect(gate.delays.length).to.equal(4));
    expect(gate.delays).to.deep.equal([2000, 3000, 4500, 6750]);
  });

  it("keeps asking after the session is superseded, since its old code may still be paid", async () => {
    const { id, gate, sessions } = await follow("superseded", { stream: "missing" });
    await eventually(() => expect(gate.waiting).to.equal(true));
    await patchSession(id, { status: "superseded", pix: null, replaced_by: null });
    await gate.next();
    await eventually(() => expect(sessions.at(-1)?.status).to.equal("superseded"));
    await eventually(() => expect(gate.waiting).to.equal(true));
    await patchSession(id, {
      status: "paid",
      paid_at: new Date().toISOString(),
      order: { display_id: 12, payment: "paid" },
    });
    await gate.next();
    await eventually(() => expect(sessions.at(-1)?.status).to.equal("paid"));
    expect(gate.waiting).to.equal(false);
  });

  it("stops asking once a refund is due", async () => {
    const { id, gate, sessions } = await follow("refund", { stream: "missing" });
    await eventually(() => expect(gate.waiting).to.equal(true));
    await patchSession(id, { status: "refund_due", refund: { amount: 100, reason: "paid_twice" } });
    await gate.next();
    await eventually(() => expect(sessions.at(-1)?.status).to.equal("refund_due"));
    expect(gate.waiting).to.equal(false);
    expect(gate.delays).to.have.lengthOf(1);
  });

  it("pauses while the page is hidden and asks at once when it is shown again", async () => {
    const { id, gate } = await follow("hidden", { stream: "missing" });
    await eventually(() => expect(gate.waiting).to.equal(true));
    hidden = true;
    document.dispatchEvent(new Event("visibilitychange"));
    await gate.next().catch(() => {});
    expect(await statusGets(id)).to.equal(1);
    hidden = false;
    document.dispatchEvent(new Event("visibilitychange"));
    await eventually(async () => expect(await statusGets(id)).to.equal(2));
    await eventually(() => expect(gate.delays).to.deep.equal([2000, 2000]));
  });

  it("asks at once when the browser comes back online, without waiting out the backoff", async () => {
    const { id, gate } = await follow("online", { stream: "missing" });
    await gate.next();
    await gate.next();
    await eventually(() => expect(gate.delays).to.deep.equal([2000, 3000, 4500]));
    window.dispatchEvent(new Event("online"));
    await eventually(async () => expect(await statusGets(id)).to.equal(4));
  });

  it("reconnects the stream after the server closes it and receives the next change on it", async () => {
    const { id, gate, sessions } = await follow("reconnect");
    await eventually(async () =>
      expect(await requestLog(id)).to.deep.equal(["GET status", "GET stream"]),
    );
    await eventually(() => expect(sessions.length).to.equal(2));
    await closeStreams(id);
    await gate.next();
    await eventually(async () =>
      expect(await requestLog(id)).to.deep.equal([
        "GET status",
        "GET stream",
        "GET status",
        "GET stream",
      ]),
    );
    await eventually(() => expect(sessions.length).to.equal(4));
    await patchSession(id, { status: "paid" });
    await eventually(() => expect(sessions.at(-1)?.status).to.equal("paid"));
    expect(gate.delays).to.deep.equal([2000]);
  });

  it("tells the store once that the page shows the code, when it exists, and again for a code that replaces it", async () => {
    const id = newId("shown");
    await putSession(preparingSession(id));
    const sessions: CheckoutSession[] = [];
    const { h, connect, disconnect } = host();
    const controller = new StatusController(h, {
      onSession: (s) => sessions.push(s),
      onError: () => {},
      wait: gate().wait,
      // One stream for the whole test: every change below arrives on it.
      streamIdleMs: 60_000,
    });
    connect();
    stop = disconnect;
    controller.watch(new Backend({ backendUrl, publishableKey: PUBLISHABLE_KEY, sessionId: id }));
    await eventually(async () =>
      expect(await requestLog(id)).to.deep.equal(["GET status", "GET stream"]),
    );
    // No code yet: nothing shown. The store reads a status read as nothing either.
    expect(await shownReports(id)).to.deep.equal([]);
    await patchSession(id, {
      status: "pending",
      expires_at: new Date(Date.now() + 15 * 60_000).toISOString(),
      pix: { copy_paste: "000201first" },
    });
    await eventually(async () => expect(await shownReports(id)).to.deep.equal(["000201first"]));
    // The same code again (a reconnect's first event, any other change): not reported twice.
    await patchSession(id, { server_time: new Date().toISOString() });
    await patchSession(id, { pix: { copy_paste: "000201second" } });
    await eventually(async () =>
      expect(await shownReports(id)).to.deep.equal(["000201first", "000201second"]),
    );
    await patchSession(id, { status: "paid" });
    await eventually(() => expect(sessions.at(-1)?.status).to.equal("paid"));
    expect(await shownReports(id)).to.deep.equal(["000201first", "000201second"]);
  });

  it("reports a dropped connection as a network error and keeps trying until the backend answers", async () => {
    // Browsers retry a GET on a dropped keep-alive socket by themselves (Chromium once,
    // Firefox more often), so ten drops make at least one error, never zero.
    const { gate, sessions, errors } = await follow("drop", {
      stream: "missing",
      fail: { count: 10, mode: "drop" },
    });
    while (!sessions.length) await gate.next();
    expect(errors.length).to.be.above(0);
    expect(new Set(errors.map((e) => e.code))).to.deep.equal(new Set(["network"]));
  });

  it("stops after reporting an unknown session", async () => {
    const { id, gate, errors, controller } = await follow("unknown");
    controller.watch(
      new Backend({ backendUrl, publishableKey: PUBLISHABLE_KEY, sessionId: `${id}_missing` }),
    );
    await eventually(() => expect(errors.map((e) => e.code)).to.deep.equal(["not_found"]));
    expect(gate.waiting).to.equal(false);
  });

  it("delivers the re-checked session when asked to refresh", async () => {
    const { id, sessions, controller } = await follow("refresh", { stream: "missing" });
    await patchBehaviour(id, { refresh: { patch: { status: "paid" } } });
    await controller.refresh();
    expect(sessions.at(-1)?.status).to.equal("paid");
  });

  it("drops an answer about the previous session that arrives after it moved to another", async () => {
    // The previous session's answers were already on their way: they ignore the abort.
    let answer: (session: CheckoutSession) => void = () => {};
    const late = new Promise<CheckoutSession>((resolve) => (answer = resolve));
    const answeringLate = { get: () => late, refresh: () => late } as unknown as Backend;
    const { id, sessions, controller } = await follow("next", { stream: "missing" });
    await eventually(() => expect(sessions.length).to.equal(1));
    controller.watch(answeringLate);
    const refreshing = controller.refresh();
    const next = new Backend({ backendUrl, publishableKey: PUBLISHABLE_KEY, sessionId: id });
    controller.watch(next);
    await eventually(() => expect(sessions.length).to.equal(2));
    answer(pixSession(newId("previous")));
    await refreshing;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sessions.map((s) => s.session_id)).to.deep.equal([id, id]);
  });
});

describe("a store asking for patience (503 with Retry-After)", () => {
  it("waits what the store asks, never less than the backoff, and says nothing of the first one", async () => {
    const { sessions, errors, gate } = await follow("patience", {
      fail: { count: 3, mode: "http", retryAfter: 7 },
    });
    // The first 503: no error for the page yet, and the store's 7 s rather than the 2 s poll.
    await eventually(() => expect(gate.delays).to.deep.equal([7000]));
    expect(errors).to.deep.equal([]);
    await gate.next();
    await eventually(() => expect(gate.delays).to.deep.equal([7000, 7000]));
    expect(errors.map((e) => [e.code, e.status, e.retryAfter])).to.deep.equal([
      ["unavailable", 503, 7],
    ]);
    await gate.next();
    await eventually(() => expect(gate.delays).to.have.lengthOf(3));
    await gate.next();
    await eventually(() => expect(sessions.at(-1)?.status).to.equal("pending"));
  });

  it("waits at most a minute, whatever the store asks", async () => {
    const { gate } = await follow("patience-cap", {
      fail: { count: 1, mode: "http", retryAfter: 600 },
    });
    await eventually(() => expect(gate.delays).to.deep.equal([60_000]));
  });

  it("backs off as the polls do when the 503 does not say how long, and says so at once", async () => {
    const { errors, gate } = await follow("bare-503", { fail: { count: 2, mode: "http" } });
    await eventually(() => expect(gate.delays).to.deep.equal([2000]));
    expect(errors.map((e) => e.code)).to.deep.equal(["server_error"]);
  });
});

describe("the shown report", () => {
  it("is sent from the status reads when the stream is not offered, once per code", async () => {
    const { id, gate } = await follow("shown-poll", { stream: "missing" });
    await eventually(async () => expect(await shownReports(id)).to.deep.equal([PIX_CODE]));
    await gate.next();
    await gate.next();
    await eventually(async () => expect(await statusGets(id)).to.equal(3));
    expect(await shownAttempts(id)).to.equal(1);
  });

  it("is sent from the status reads while the store's streams are full, which are not asked again before Retry-After", async () => {
    const { id, errors, gate } = await follow("shown-full", { stream: "full" });
    await eventually(async () => expect(await shownReports(id)).to.deep.equal([PIX_CODE]));
    await gate.next();
    await eventually(async () =>
      expect(await requestLog(id)).to.deep.equal(["GET status", "GET stream", "GET status"]),
    );
    // A full stream is no failure the shopper hears of: the page polls.
    expect(errors).to.deep.equal([]);
  });

  it("is sent again after dropped connections, backing off, until the store records it", async () => {
    const { id } = await follow("shown-drop", { shownFail: { count: 2, mode: "drop" } });
    // 1 s, then 2 s between the attempts.
    await eventually(async () => expect(await shownReports(id)).to.deep.equal([PIX_CODE]), {
      timeout: 8000,
    });
    expect(await shownAttempts(id)).to.equal(3);
  });

  it("is sent again after a 503 with Retry-After", async () => {
    const { id } = await follow("shown-503", {
      shownFail: { count: 1, mode: "http", retryAfter: 1 },
    });
    await eventually(async () => expect(await shownReports(id)).to.deep.equal([PIX_CODE]), {
      timeout: 6000,
    });
    expect(await shownAttempts(id)).to.equal(2);
  });

  it(`gives up after ${SHOWN_ATTEMPTS} attempts`, async function () {
    this.timeout(30_000);
    const { id } = await follow("shown-give-up", {
      shownFail: { count: 100, mode: "http" },
    });
    // 1 + 2 + 4 + 8 s between the attempts, then none.
    await eventually(async () => expect(await shownAttempts(id)).to.equal(SHOWN_ATTEMPTS), {
      timeout: 20_000,
      interval: 250,
    });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await shownAttempts(id)).to.equal(SHOWN_ATTEMPTS);
    expect(await shownReports(id)).to.deep.equal([]);
  });
});
