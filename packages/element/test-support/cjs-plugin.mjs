// The test page loads native ES modules, but a few packages the tests (or the sources they
// import) use are CommonJS: qrcode, jsqr, axe-core, React. This dev-server plugin serves
// each as one ES module bundled by esbuild, with its named exports spelled out.
// React and react-dom/client share one bundle, so that the page holds a single React.
import { build } from "esbuild";
import { createRequire } from "node:module";

const groups = {
  qrcode: ["qrcode"],
  jsqr: ["jsqr"],
  "axe-core": ["axe-core"],
  react: ["react", "react-dom/client"],
};

/** @param {string} root the package directory (bare names resolve from here) */
export function commonJsPlugin(root) {
  const require = createRequire(`${root}/package.json`);
  const served = new Map();
  const groupOf = (source) => Object.keys(groups).find((name) => groups[name].includes(source));

  async function bundle(group) {
    const lines = [];
    const names = new Set();
    groups[group].forEach((spec, i) => {
      lines.push(`import * as m${i} from ${JSON.stringify(spec)};`);
      for (const key of Object.keys(require(spec))) {
        if (key !== "default" && /^[A-Za-z_$][\w$]*$/.test(key) && !names.has(key)) {
          names.add(key);
          lines.push(`export const ${key} = m${i}[${JSON.stringify(key)}];`);
        }
      }
    });
    lines.push("export default m0.default ?? m0;");
    const result = await build({
      stdin: { contents: lines.join("\n"), resolveDir: root, loader: "js" },
      bundle: true,
      format: "esm",
      platform: "browser",
      write: false,
      logLevel: "warning",
      define: { "process.env.NODE_ENV": '"development"' },
    });
    return result.outputFiles[0].text;
  }

  return {
    name: "pix-commonjs",
    resolveImport({ source }) {
      const group = groupOf(source);
      return group ? `/__cjs/${group}.js` : undefined;
    },
    async serve(context) {
      const match = /^\/__cjs\/(.+)\.js$/.exec(context.path);
      if (!match || !groups[match[1]]) return undefined;
      if (!served.has(match[1])) served.set(match[1], bundle(match[1]));
      return { body: await served.get(match[1]), type: "js" };
    },
  };
}
