// The demo's programmatic surface: `startDemo` for end-to-end tests and `npm run demo`.
export { startDemo } from "./start-demo.mjs";
export { defaultPorts, portFlags } from "./ports.mjs";
export { providerRegistrationId, webhookPath, webhookUrl } from "./webhook-url.mjs";
