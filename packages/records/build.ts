/**
 * Builds the `@storytrail/records` package (packages/records): dist/records.js (ESM, zod left to the
 * consumer as a peer), dist/records.d.ts (tsc's declarations), and the JSON Schema files in
 * json-schema/ from the same zod schemas. `npm run build:records`; the tests run it too, so a fresh
 * clone needs no build step first. Takes ~3 s (tsc is most of it).
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";
import { recordJsonSchemas } from "./src/json-schemas";

export const PACKAGE_DIR = dirname(fileURLToPath(import.meta.url));
export const JSON_SCHEMA_DIR = join(PACKAGE_DIR, "json-schema");
const TSC = join(PACKAGE_DIR, "..", "..", "node_modules", "typescript", "bin", "tsc");

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** Node's ESM resolution (and TypeScript's node16 mode) needs file extensions on relative imports. */
function withJsExtensions(dts: string): string {
  return dts.replace(/(from |import\()"(\.{1,2}\/[^"]+?)(?<!\.js)"/g, '$1"$2.js"');
}

/** The JSON Schema files as they should be on disk: name → text. */
export function jsonSchemaFiles(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(recordJsonSchemas()).map(([name, schema]) => [
      `${name}.schema.json`,
      `${JSON.stringify(schema, null, 2)}\n`,
    ]),
  );
}

/** Files of the package besides dist/, as `files` in its package.json lists them. */
const PACKED_SOURCES = ["package.json", "README.md", "json-schema"];

/**
 * Builds dist/ and returns the folder to pack; `writeJsonSchemas` also regenerates json-schema/ (the
 * tests compare it instead). `stageIn`: build in that folder (with a copy of the package's other files)
 * instead of packages/records, so test files building at once in parallel never share a dist/.
 */
export async function buildRecordsPackage(
  opts: { writeJsonSchemas?: boolean; stageIn?: string } = {},
): Promise<string> {
  const packageDir = opts.stageIn ?? PACKAGE_DIR;
  if (opts.stageIn)
    for (const name of PACKED_SOURCES)
      cpSync(join(PACKAGE_DIR, name), join(opts.stageIn, name), { recursive: true });
  const DIST = join(packageDir, "dist");
  rmSync(DIST, { recursive: true, force: true });
  mkdirSync(DIST, { recursive: true });
  await build({
    entryPoints: [join(PACKAGE_DIR, "src", "records.ts")],
    outfile: join(DIST, "records.js"),
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    // node:zlib decodes Articles bodies: the package is for Node (engines), which has it built in.
    external: ["zod", "zod/*", "node:zlib"],
    logLevel: "warning",
  });
  const types = join(DIST, "types");
  await promisify(execFile)(process.execPath, [
    TSC,
    "-p",
    join(PACKAGE_DIR, "tsconfig.json"),
    "--outDir",
    types,
  ]);
  for (const file of filesUnder(types)) writeFileSync(file, withJsExtensions(readFileSync(file, "utf8")));
  const entry = relative(DIST, join(types, "packages", "records", "src", "records.js"));
  writeFileSync(join(DIST, "records.d.ts"), `export * from "./${entry}";\n`);
  if (opts.writeJsonSchemas) {
    mkdirSync(JSON_SCHEMA_DIR, { recursive: true });
    for (const [name, text] of Object.entries(jsonSchemaFiles()))
      writeFileSync(join(JSON_SCHEMA_DIR, name), text);
  }
  return packageDir;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = Date.now();
  await buildRecordsPackage({ writeJsonSchemas: true });
  process.stderr.write(`built packages/records in ${Date.now() - started} ms\n`);
}
