/** Runtime settings handed over by `npm run demo` (see demo-config-plugin.mjs). */
declare module "virtual:pix-demo-config" {
  const config: {
    backendUrl: string;
    publishableKey: string;
    regionId?: string;
    sandboxUrl?: string;
  };
  export default config;
}
