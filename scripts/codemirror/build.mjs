// esbuild step of build.sh: bundle entry.js into one minified ES module, and write beside it
// the licences and exact versions of every package that ended up in it.
import { build } from "esbuild";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const outDir = process.argv[2];
if (!outDir) throw new Error("usage: node build.mjs OUTPUT_DIR");
const outfile = join(outDir, "codemirror.bundle.js");

function packageOf(input) {
  const match = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  return match ? match[1] : null;
}

function readPackage(name) {
  const dir = join("node_modules", name);
  return { dir, json: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) };
}

const options = { entryPoints: ["entry.js"], bundle: true, format: "esm", minify: true, target: "es2020", legalComments: "none" };

// First pass in memory: which packages end up in the output (not merely imported), for the banner.
const probe = await build({ ...options, write: false, metafile: true, outfile, logLevel: "silent" });
const [probed] = Object.values(probe.metafile.outputs);
const used = Object.entries(probed.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([path]) => packageOf(path));
const names = [...new Set(used.filter(Boolean))].sort();
const packages = names.map((name) => ({ name, ...readPackage(name) }));
const list = packages.map(({ name, json }) => `${name}@${json.version}`).join(", ");

const result = await build({
  ...options,
  outfile,
  metafile: true,
  banner: {
    js: `/* CodeMirror 6 bundle for the workload editor (MIT licences in LICENSE.txt beside this file).\n   Packages: ${list}.\n   Rebuild: scripts/codemirror/build.sh */`,
  },
});

let licences = "Licences of the packages bundled into codemirror.bundle.js\n";
for (const { name, dir, json } of packages) {
  const file = ["LICENSE", "LICENSE.md", "LICENSE.txt", "license"].map((f) => join(dir, f)).find(existsSync);
  if (!file) throw new Error(`no licence file in ${dir}`);
  licences += `\n${"=".repeat(72)}\n${name}@${json.version} (${json.license})\n${"=".repeat(72)}\n\n`;
  licences += readFileSync(file, "utf8").trim() + "\n";
}
writeFileSync(join(dirname(outfile), "LICENSE.txt"), licences);
writeFileSync(
  join(dirname(outfile), "versions.json"),
  JSON.stringify(Object.fromEntries(packages.map(({ name, json }) => [name, json.version])), null, 2) + "\n",
);

const bytes = result.metafile.outputs[Object.keys(result.metafile.outputs)[0]].bytes;
console.log(`wrote ${outfile} (${(bytes / 1024).toFixed(1)} KiB) with ${list}`);
