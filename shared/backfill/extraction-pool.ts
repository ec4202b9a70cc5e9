/**
 * Extraction on every core: a pool of worker threads, each running the fetcher's own extractArticle.
 * `storytrail import` hands pages to it ahead of storing them (import-warc.ts keeps the store order
 * the file's, so the stories do not depend on the pool's size). A page's text goes over by structured
 * clone (~0.1 ms for 100 KB, against ~10 ms to extract it).
 */
import { Worker } from "node:worker_threads";
import type { ExtractInput } from "../extract/article";
import type { Extraction } from "../records";
import type { ExtractAhead } from "./import-warc";

interface Job {
  readonly id: number;
  readonly input: ExtractInput;
  readonly resolve: (x: Extraction) => void;
  readonly reject: (err: Error) => void;
}

type Reply = { id: number; extraction: Extraction } | { id: number; error: string };

/** Pages queued per worker besides the one it extracts: keeps every worker busy between replies. */
const QUEUED_PER_WORKER = 3;

export class ExtractionPool implements ExtractAhead {
  private readonly workers: Worker[] = [];
  private readonly busy = new Map<Worker, Job>();
  private readonly queue: Job[] = [];
  private next = 0;
  private failure: Error | null = null;
  readonly inFlight: number;

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`a pool needs at least one worker, not ${size}`);
    this.inFlight = size * (1 + QUEUED_PER_WORKER);
    for (let i = 0; i < size; i++) {
      // The entry registers tsx before loading the TypeScript worker, as bin/storytrail.js does.
      const w = new Worker(new URL("./extraction-worker.mjs", import.meta.url));
      w.on("message", (reply: Reply) => this.settle(w, reply));
      w.on("error", (err) => this.fail(err));
      this.workers.push(w);
    }
  }

  extract(input: ExtractInput): Promise<Extraction> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.next++, input, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (const w of this.workers) {
      if (this.busy.has(w)) continue;
      const job = this.queue.shift();
      if (!job) return;
      this.busy.set(w, job);
      w.postMessage({ id: job.id, input: job.input });
    }
  }

  private settle(w: Worker, reply: Reply): void {
    const job = this.busy.get(w);
    this.busy.delete(w);
    if (job?.id === reply.id) {
      if ("error" in reply) job.reject(new Error(reply.error));
      else job.resolve(reply.extraction);
    }
    this.dispatch();
  }

  /** A worker that died takes the pool with it: every page waiting is refused with the reason. */
  private fail(err: Error): void {
    this.failure = new Error(`extraction worker failed: ${err.message}`);
    for (const job of [...this.busy.values(), ...this.queue.splice(0)]) job.reject(this.failure);
    this.busy.clear();
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
