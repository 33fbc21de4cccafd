import type { Strings } from "./strings.js";

/** English. */
export const en: Strings = {
  loading: "Loading payment…",
  payWithPix: "Pay with Pix",
  steps: [
    "Open your bank app and choose Pix.",
    "Scan the QR code or use Pix Copy and Paste.",
    "Confirm. This page updates by itself.",
  ],
  saved: (amount) => `You save ${amount} by paying with Pix`,
  qrLabel: (amount) => `Pix QR code to pay ${amount}`,
  pixCode: "Pix Copy and Paste",
  copyCode: "Copy code",
  copyPixCode: "Copy Pix code",
  afterCopy: "Open your bank's app, choose Pix Copy and Paste and paste the code.",
  showQr: "Paying with another device? Show QR code",
  hideQr: "Hide QR code",
  qrUnavailable: "The QR code could not be shown. Use Pix Copy and Paste.",
  expiresSoon: (m) =>
    m === 1
      ? "Less than 1 minute left to pay this code."
      : `Less than ${m} minutes left to pay this code.`,
  renewing: "Generating a new code…",
  copied: "Copied!",
  copyManual: "Code selected. Copy it manually.",
  share: "Share",
  expiresIn: "Expires in",
  alreadyPaid: "I already paid",
  checking: "Checking…",
  pending: "Waiting for payment",
  paid: "Payment confirmed",
  paidBody: "Thank you! We received your payment.",
  expired: "Code expired",
  failed: "Payment not completed",
  canceled: "Payment canceled",
  errorTitle: "Could not load the payment",
  errorBody: "Check your connection and try again.",
  notFound: "Payment not found.",
  retry: "Try again",
  reconnecting: "Unstable connection to the store; retrying…",
};
