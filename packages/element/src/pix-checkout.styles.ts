import { css } from "lit";

/** Styles of `<pix-checkout>`; every themable value is a `--pix-checkout-*` property. */
export const styles = css`
  :host {
    /* System colors follow the scheme: the card turns dark with the OS unless the page
       sets color-scheme on <pix-checkout> or overrides the properties below. */
    color-scheme: light dark;
    --a: var(--pix-checkout-accent, #0b6e63);
    --on: var(--pix-checkout-accent-text, #fff);
    --bd: var(--pix-checkout-border, #8889);
    display: block;
    max-width: var(--pix-checkout-max-width, 420px);
    color: var(--pix-checkout-text, CanvasText);
    font: 1rem/1.45 var(--pix-checkout-font, system-ui, sans-serif);
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --a: var(--pix-checkout-accent, #5fd4c4);
      --on: var(--pix-checkout-accent-text, #06201d);
    }
  }
  .base {
    position: relative;
    display: grid;
    gap: 1rem;
    padding: 1.25rem;
    background: var(--pix-checkout-background, Canvas);
    border: 1px solid var(--bd);
    border-radius: var(--pix-checkout-radius, 12px);
  }
  p,
  ol {
    margin: 0;
  }
  .header {
    display: flex;
    justify-content: space-between;
    align-items: baseline;
    flex-wrap: wrap;
    font-weight: 600;
  }
  .amount {
    font-size: 1.5rem;
  }
  .muted,
  .countdown,
  .steps,
  .status {
    color: var(--pix-checkout-muted, inherit);
    opacity: 0.85;
  }
  b {
    font-variant-numeric: tabular-nums;
  }
  .qr {
    justify-self: center;
    width: var(--pix-checkout-qr-size, 232px);
    aspect-ratio: 1;
    padding: 4px;
    background: #fff;
    border-radius: 8px;
  }
  .warning:not(:empty) {
    display: block;
    font-weight: 700;
  }
  /* Copy first (phones): the one thing to tap is the largest thing on the card. */
  .copy-first {
    display: grid;
    gap: 0.5rem;
  }
  .copy-first .button {
    flex-basis: 100%;
    min-height: 52px;
    font-size: 1.125rem;
  }
  ol {
    padding-inline-start: 1.25rem;
  }
  label {
    font-weight: 600;
  }
  .field,
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }
  .line span {
    white-space: nowrap;
  }
  input,
  .line {
    flex: 999 1 12rem;
    min-width: 0;
    padding: 0.6rem;
    font: 0.875rem monospace;
    color: inherit;
    background: inherit;
    border: 1px solid var(--bd);
    border-radius: 8px;
  }
  .button {
    flex: 1 0 auto;
    display: inline-flex;
    align-items: center;
    justify-content: center;
    min-height: 44px;
    padding: 0.6rem 1rem;
    font: inherit;
    font-weight: 600;
    color: var(--on);
    background: var(--a);
    border: 1px solid var(--a);
    border-radius: 8px;
    cursor: pointer;
    text-decoration: none;
  }
  .secondary {
    color: var(--a);
    background: none;
  }
  [aria-disabled="true"] {
    opacity: 0.7;
  }
  :focus-visible {
    outline: 3px solid var(--a);
    outline-offset: 2px;
  }
  /* The QR and the boleto's bars size themselves (attributes, in their lazy chunks). */
  svg {
    display: block;
  }
  .message {
    display: grid;
    gap: 0.5rem;
    justify-items: center;
    text-align: center;
  }
  .title {
    font-size: 1.25rem;
    font-weight: 700;
  }
  .icon {
    width: 3rem;
    line-height: 3rem;
    border-radius: 50%;
    font-size: 1.75rem;
    color: #fff;
    background: var(--pix-checkout-danger, #b3261e);
  }
  .paid .icon {
    background: var(--pix-checkout-success, #13703a);
  }
  .status {
    font-size: 0.875rem;
  }
  /* Heard, not seen: the final views already show what the live region announces. */
  .sr {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  .spinner {
    display: inline-block;
    width: 1em;
    height: 1em;
    margin-inline-end: 0.5em;
    border: 2px solid var(--bd);
    border-top-color: var(--a);
    border-radius: 50%;
    animation: spin 0.8s linear infinite;
  }
  @keyframes spin {
    to {
      transform: rotate(1turn);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation: none;
    }
  }
`;
