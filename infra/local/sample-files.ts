/** Raw samples a local run saved in its data directory (see sample-persistence.ts), read as RawSample. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { RawSample } from "../../shared/crawl/ports";

export async function* sampleFiles(dir: string, prefix = "raw"): AsyncGenerator<RawSample> {
  let names: string[];
  try {
    names = readdirSync(join(dir, prefix)).filter((n) => n.endsWith(".html.gz"));
  } catch {
    return;
  }
  for (const name of names.sort()) {
    const file = join(dir, prefix, name);
    let meta: { metadata?: Record<string, string> } = {};
    try {
      meta = JSON.parse(readFileSync(`${file}.meta.json`, "utf8"));
    } catch {}
    yield {
      key: `${prefix}/${name}`,
      url: decodeURIComponent(meta.metadata?.url ?? ""),
      collected_at: meta.metadata?.["collected-at"] ?? "",
      html: gunzipSync(readFileSync(file)).toString("utf8"),
    };
  }
}
