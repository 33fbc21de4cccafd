import type { ReactiveController, ReactiveControllerHost } from "lit";

/**
 * Counts down to a session's expiry by the backend's clock, not the device's: phones
 * are often minutes off, and a QR that looks valid but is not wastes a shopper's payment
 * attempt. The offset comes from `server_time` against the local clock at arrival.
 */
export class CountdownController implements ReactiveController {
  /** Milliseconds left, by the backend's clock; NaN before the first `sync`. */
  remaining = Number.NaN;
  #expiresAt = Number.NaN;
  #skew = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly onEnd: () => void,
  ) {
    host.addController(this);
  }

  /** Aims at `expiresAt`, correcting for the gap between `serverTime` and `receivedAt`. */
  sync(expiresAt: string, serverTime: string, receivedAt: number): void {
    this.#expiresAt = Date.parse(expiresAt);
    this.#skew = Date.parse(serverTime) - receivedAt;
    this.#tick();
  }

  /** Stops ticking (final states). */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  hostConnected(): void {
    // Never synced: `remaining` is NaN, which is not above 0.
    if (this.remaining > 0) this.#tick();
  }

  hostDisconnected(): void {
    this.stop();
  }

  #tick = () => {
    this.stop();
    this.remaining = Math.max(0, this.#expiresAt - (Date.now() + this.#skew));
    this.host.requestUpdate();
    if (this.remaining <= 0) return this.onEnd();
    // Wake at the next whole second of the display, so the digits change evenly.
    this.#timer = setTimeout(this.#tick, this.remaining % 1000 || 1000);
  };
}
