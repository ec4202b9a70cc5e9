/**
 * The inputs of the discover schedules: sources grouped by their cron and split so that each
 * schedule's input stays under EventBridge Scheduler's 8 KB limit. Pure apart from readSourcesFile.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** A source as the schedule carries it: opaque here except for its optional own cron. */
export type ScheduledSource = Readonly<Record<string, unknown>> & { readonly schedule?: string };

export interface ScheduleInput {
  /** Schedule expression, e.g. "cron(0 5 * * ? *)". */
  readonly cron: string;
  /** Index of this chunk within its cron group (stable for a given sources file). */
  readonly chunk: number;
  /** The JSON the schedule passes to the function: `{"sources": [...]}`. */
  readonly input: { readonly sources: readonly ScheduledSource[] };
}

/** Scheduler accepts up to 8192 characters of input; keep a margin for safety. */
export const MAX_SCHEDULE_INPUT_BYTES = 8000;

/** Parses `{ "sources": [...] }`; each source must be an object whose `schedule`, if any, is a string. */
export function parseSources(json: string, origin = "sources"): ScheduledSource[] {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (err) {
    throw new Error(`${origin}: not valid JSON (${(err as Error).message})`);
  }
  if (typeof data !== "object" || data === null || !Array.isArray((data as { sources?: unknown }).sources)) {
    throw new Error(`${origin}: expected an object { "sources": [ ... ] }`);
  }
  const sources = (data as { sources: unknown[] }).sources;
  return sources.map((s, i) => {
    if (typeof s !== "object" || s === null || Array.isArray(s)) {
      throw new Error(`${origin}: sources[${i}] is not an object`);
    }
    const schedule = (s as { schedule?: unknown }).schedule;
    if (schedule !== undefined && (typeof schedule !== "string" || schedule.trim() === "")) {
      throw new Error(`${origin}: sources[${i}].schedule must be a non-empty string`);
    }
    return s as ScheduledSource;
  });
}

/** Reads the sources file if it exists; a missing file means no sources (the stack still deploys). */
export function readSourcesFile(path: string): ScheduledSource[] {
  if (!existsSync(path)) return [];
  return parseSources(readFileSync(path, "utf8"), path);
}

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), "utf8");

/**
 * Groups sources by `schedule` (default cron otherwise) and packs each group, in file order, into
 * chunks whose serialized input is at most `maxBytes`. No sources → one empty input on the default
 * cron, so the function is still scheduled. Groups come out sorted by cron for stable construct ids.
 */
export function scheduleInputs(
  sources: readonly ScheduledSource[],
  defaultCron: string,
  maxBytes = MAX_SCHEDULE_INPUT_BYTES,
): ScheduleInput[] {
  if (sources.length === 0) return [{ cron: defaultCron, chunk: 0, input: { sources: [] } }];
  const groups = new Map<string, ScheduledSource[]>();
  for (const source of sources) {
    const cron = source.schedule ?? defaultCron;
    const group = groups.get(cron);
    if (group) group.push(source);
    else groups.set(cron, [source]);
  }
  const emptyBytes = bytes({ sources: [] });
  const out: ScheduleInput[] = [];
  for (const cron of [...groups.keys()].sort()) {
    let chunk: ScheduledSource[] = [];
    let size = emptyBytes;
    let index = 0;
    for (const source of groups.get(cron) ?? []) {
      const own = bytes(source);
      if (emptyBytes + own > maxBytes) {
        const id = String(source.source_id ?? source.id ?? JSON.stringify(source).slice(0, 60));
        throw new Error(`source ${id} alone exceeds the ${maxBytes}-byte schedule input limit`);
      }
      // +1 for the comma between array elements.
      const added = chunk.length === 0 ? own : own + 1;
      if (size + added > maxBytes) {
        out.push({ cron, chunk: index++, input: { sources: chunk } });
        chunk = [];
        size = emptyBytes;
      }
      size += chunk.length === 0 ? own : own + 1;
      chunk.push(source);
    }
    out.push({ cron, chunk: index, input: { sources: chunk } });
  }
  return out;
}

export interface ScheduleContext {
  /** Per scheduled function, a cron overriding the topology's (context `<fn>Schedule`). */
  readonly schedules: Record<string, string>;
  /** The sources the sources-carrying function's schedules pass as input. */
  readonly sources: ScheduledSource[];
}

/**
 * Reads the schedule settings from CDK context: `<fn>Schedule` for each scheduled function and
 * `sources` (a file path relative to the project root; default sources.example.json, if present).
 */
export function scheduleContext(
  context: (key: string) => unknown,
  scheduledFunctions: readonly string[],
  projectRoot: string,
): ScheduleContext {
  const text = (key: string): string | undefined => {
    const value = context(key);
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "string" || value.trim() === "")
      throw new Error(`context ${key} must be a non-empty string`);
    return value.trim();
  };
  const schedules: Record<string, string> = {};
  for (const fn of scheduledFunctions) {
    const cron = text(`${fn}Schedule`);
    if (cron) schedules[fn] = cron;
  }
  const explicit = text("sources");
  const file = path.resolve(projectRoot, explicit ?? "sources.example.json");
  if (explicit && !existsSync(file)) throw new Error(`context sources: no such file ${file}`);
  return { schedules, sources: readSourcesFile(file) };
}
