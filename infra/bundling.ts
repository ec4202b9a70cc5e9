/**
 * How every Lambda is bundled, declared once: the stack hands these settings to CDK's NodejsFunction,
 * and the benchmarks and the bundle test run esbuild with the same ones, so what they measure and test
 * is what is deployed.
 */
import type { BuildOptions } from "esbuild";

/** Lets bundled CommonJS code call `require` inside an ESM bundle. */
const ESM_REQUIRE_BANNER =
  "import { createRequire as __storytrailCreateRequire } from 'node:module'; const require = __storytrailCreateRequire(import.meta.url);";

/**
 * Left to the runtime's SDK. The DynamoDB and SQS clients are bundled: tree-shaken and minified they
 * start in about half the time of the runtime's copies (bench/bundles.ts), at our pinned versions.
 * External: S3, which fetch loads only for its first raw sample, and the credential providers the
 * default chain imports only when the environment holds no credentials (never in Lambda).
 */
const EXTERNAL_MODULES = [
  "@aws-sdk/client-s3",
  "@aws-sdk/credential-provider-ini",
  "@aws-sdk/credential-provider-sso",
  "@aws-sdk/credential-provider-process",
  "@aws-sdk/credential-provider-web-identity",
  "@aws-sdk/credential-provider-http",
  "@aws-sdk/credential-provider-login",
  "@aws-sdk/nested-clients",
  "@aws-sdk/token-providers",
  "@smithy/credential-provider-imds",
];

/** The bundling settings, as CDK's NodejsFunction names them (CDK sets platform and target from the runtime). */
export const BUNDLING = {
  format: "esm",
  target: "node24",
  mainFields: ["module", "main"],
  banner: ESM_REQUIRE_BANNER,
  minify: true,
  /**
   * UTF-8 output: esbuild's default (ASCII) writes every non-ASCII character as a \uXXXX escape, so the
   * language models' Cyrillic, Arabic, Devanagari… trigrams took 6 bytes a character instead of 2–3
   * (fetch bundle 1,049,666 B → see test/infra/bundling.test.ts). Node reads UTF-8 sources.
   */
  charset: "utf8",
  sourceMap: true,
  sourcesContent: false,
  externalModules: EXTERNAL_MODULES,
} as const;

/** The same settings for esbuild itself (benchmarks and the bundle test). */
export function esbuildOptions(entry: string, outfile: string): BuildOptions {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: BUNDLING.format,
    target: BUNDLING.target,
    mainFields: [...BUNDLING.mainFields],
    banner: { js: BUNDLING.banner },
    minify: BUNDLING.minify,
    charset: BUNDLING.charset,
    sourcemap: BUNDLING.sourceMap,
    sourcesContent: BUNDLING.sourcesContent,
    external: [...BUNDLING.externalModules],
    logLevel: "error",
  };
}
