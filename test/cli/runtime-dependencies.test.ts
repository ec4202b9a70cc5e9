/**
 * What the CLI (a runtime for researchers: `npm install` then `npx storytrail`) and the Lambda handlers
 * import at run time is declared in `dependencies`; the bench, tests and deploy tools stay in
 * `devDependencies`. Read off esbuild's import graph, so a new import cannot slip through.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { functionNames, topology } from "../../infra/topology";

const repo = resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
};
const packageOf = (spec: string) =>
  spec
    .split("/")
    .slice(0, spec.startsWith("@") ? 2 : 1)
    .join("/");

async function importedPackages(entries: string[]): Promise<Set<string>> {
  const out = await build({
    entryPoints: entries.map((e) => join(repo, e)),
    bundle: true,
    write: false,
    metafile: true,
    platform: "node",
    format: "esm",
    packages: "external",
    outdir: "out",
    logLevel: "silent",
  });
  const found = new Set<string>();
  for (const input of Object.values(out.metafile.inputs))
    for (const i of input.imports)
      if (i.external && !i.path.startsWith("node:")) found.add(packageOf(i.path));
  return found;
}

describe("runtime dependencies", () => {
  it("declares every package the CLI and the handlers import at run time in dependencies", async () => {
    const lambdas = functionNames.map((fn) => topology.functions[fn].entry);
    const imported = await importedPackages(["cli/storytrail.ts", ...lambdas]);
    // The bin runs the TypeScript CLI through tsx; the local runtime forks fauxqs's server.
    for (const spawned of ["tsx", "fauxqs"]) imported.add(spawned);
    const missing = [...imported].filter((p) => !(p in pkg.dependencies));
    expect(missing).toEqual([]);
  });
});
